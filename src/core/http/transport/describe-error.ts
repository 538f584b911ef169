// The one table that turns a network error into words. Two readers: an API or sign-in failure says it briefly
// ("cannot reach X: host not found"); doctor, diagnosing, says more and names the code it does not know.
import { networkErrorCode } from '../retry-policy.js';

export type Wording = 'brief' | 'diagnostic';

const WORDS: Record<string, { brief?: string; diagnostic?: string }> = {
  ECONNREFUSED: { brief: 'connection refused', diagnostic: 'connection refused' },
  ECONNRESET: { brief: 'connection reset', diagnostic: 'connection reset' },
  ENOTFOUND: { brief: 'host not found', diagnostic: 'the host name does not resolve' },
  EAI_AGAIN: { diagnostic: 'no DNS answer for the host name' },
  EHOSTUNREACH: { diagnostic: 'no route to the host' },
  ENETUNREACH: { diagnostic: 'no route to the host' },
};

/** An error's first line (a library's message may run on). */
export const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

export function describeNetworkError(error: unknown, wording: Wording = 'brief'): string {
  const code = networkErrorCode(error);
  const words = code === undefined ? undefined : WORDS[code]?.[wording];
  if (words) return words;
  if (wording === 'diagnostic') return code ? `${firstLine(error)} (${code})` : firstLine(error);
  if (code === 'CLINIC_DEADLINE') return `timed out (${(error as Error).message})`;
  if (code?.includes('TIMEOUT') || code === 'ETIMEDOUT') return 'timed out';
  return error instanceof Error ? error.message : String(error);
}
