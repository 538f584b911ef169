// The browser opener: $BROWSER gets the URL as one argument and an environment without CLINIC_* variables.
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemBrowser } from '../../../src/core/auth/oauth/browser.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('systemBrowser with $BROWSER', () => {
  it('passes the URL as one argument and keeps CLINIC_TOKEN out of the browser environment', async () => {
    const dir = await tempDir('clinic-browser-');
    const script = join(dir, 'browser.sh');
    const out = join(dir, 'seen.txt');
    await writeFile(script, `#!/bin/sh\nprintf '%s\\n' "$#" "$1" "\${CLINIC_TOKEN:-none}" > '${out}'\n`);
    await chmod(script, 0o755);
    const url = 'http://127.0.0.1:1/oauth/authorize?a=1&b=$(touch x)';
    await systemBrowser({ BROWSER: script, PATH: process.env.PATH, CLINIC_TOKEN: 'secret-token' }).open(url);
    await expect
      .poll(() => readFile(out, 'utf8').catch(() => ''), { timeout: 5000 })
      .toBe(`1\n${url}\nnone\n`);
  });
});
