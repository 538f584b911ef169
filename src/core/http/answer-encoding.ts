// Answers are asked for and accepted uncompressed only: a compressed body would be read as garbage, and inflating
// one lets a 1 MB answer become gigabytes (a gzip bomb), so a Content-Encoding other than identity is refused.
import { NetworkError } from '../errors.js';
import { redactUrl } from '../redact.js';

/** Sent with every request: no compression, please. */
export const ACCEPT_IDENTITY = { 'accept-encoding': 'identity' } as const;

/** Throws, naming the server, when an answer says its body is compressed (or encoded in any way but identity). */
export function refuseEncodedAnswer(
  headers: Record<string, string | string[] | undefined>,
  url: string,
): void {
  const raw = headers['content-encoding'];
  if (raw === undefined) return; // most answers: nothing to split
  const value = (Array.isArray(raw) ? raw.join(', ') : raw).trim();
  const codings = value.split(',').map((coding) => coding.trim().toLowerCase());
  if (codings.every((coding) => coding === '' || coding === 'identity')) return;
  // The header's value is the server's text: only printable ASCII of it is shown, and not much.
  const shown = value.replace(/[^\x20-\x7e]/g, '?').slice(0, 40);
  throw new NetworkError(
    `${redactUrl(url)} sent a compressed answer (Content-Encoding: ${shown}), which clinic does not accept: ` +
      'it asks for identity (uncompressed) answers',
  );
}
