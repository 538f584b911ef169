// How deep a parsed JSON value nests: what the user gives (--data, --set key:=, --input, a bulk file) is checked before
// anything walks it, as every answer is (http/client.ts): JSON.parse takes any depth, but sending, showing and
// checking a value recurse, and a value nested 200,000 deep would end the run in "Maximum call stack size exceeded".
import { MAX_JSON_DEPTH } from './limits.js';

/** Whether `value` nests arrays and objects deeper than `limit`; the walk stops at the limit. */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit <= 0) return true;
  for (const inner of Array.isArray(value) ? value : Object.values(value))
    if (nestsDeeperThan(inner, limit - 1)) return true;
  return false;
}

/** How an input too deep is refused: `<what> nests arrays and objects more than 512 levels deep`. */
export const TOO_DEEP = `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
