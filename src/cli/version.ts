// The CLI's version, read from package.json (one small file read, no JSON import machinery).
import { readFileSync } from 'node:fs';

/** Set by the bundle (scripts/bundle.mjs), so the bundled CLI reads no file for it. */
declare const __CLINIC_VERSION__: string | undefined;

let cached: string | undefined;

export function cliVersion(): string {
  if (typeof __CLINIC_VERSION__ === 'string') return __CLINIC_VERSION__;
  cached ??= (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return cached;
}
