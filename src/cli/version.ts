// The CLI's version, read from package.json (one small file read, no JSON import machinery).
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function cliVersion(): string {
  cached ??= (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return cached;
}
