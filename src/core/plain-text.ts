// Small text checks written without regular expressions, for what every start-up runs: V8 compiles an expression on
// its first runs, a tenth of a millisecond or more apiece, which a one-shot command pays each time.

/** `text` without the `char`s it ends with (`https://host/api//` → `https://host/api`). */
export function trimEnd(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}

/** Whether `text` is a positive whole number as digits alone, no leading zero (`7`, `42`; not `07`, `0`, `+7`). */
export function isPositiveInteger(text: string): boolean {
  return isDigits(text) && !text.startsWith('0');
}

/** Whether `text` is one or more ASCII digits. */
export function isDigits(text: string): boolean {
  if (text === '') return false;
  for (let i = 0; i < text.length; i++) if (text[i]! < '0' || text[i]! > '9') return false;
  return true;
}
