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

/**
 * Whether JSON text (one value, or several: NDJSON) nests arrays and objects deeper than `limit`, told from the text
 * without parsing it: brackets counted outside strings.
 */
export function textNestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}
