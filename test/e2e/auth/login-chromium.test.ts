// `clinic login` with a real headless Chromium as the browser: the sandbox's sign-in and consent pages, clicked.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { requirePart } from '../../helpers/cli.js';
import { oauthWorld, useWorld } from '../../helpers/world.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DRIVER = fileURLToPath(new URL('../../helpers/chromium-browser.mjs', import.meta.url));
const available = requirePart(
  existsSync(CHROMIUM),
  `browser login test cannot run: no Chromium at ${CHROMIUM} (apt-get install chromium)`,
);

describe.skipIf(!available)('clinic login in a real headless Chromium', () => {
  const world = useWorld(oauthWorld);

  it('signs in on the sandbox page, consents, and then auth status and a customers list succeed', async () => {
    const report = join(world.configDir, 'chromium-report.txt');
    const login = await world.clinic(['login', '--insecure-storage', '--timeout', '60'], {
      env: { BROWSER: `"${process.execPath}" "${DRIVER}"`, DRIVER_USER: '1', DRIVER_REPORT: report },
    });
    expect(login.stderr).toContain('logged in as Dana Admin');
    expect(login.code).toBe(0);
    // The browser ended on the CLI's loopback page, which said it worked.
    await expect
      .poll(() => readFile(report, 'utf8').catch(() => ''), { timeout: 15_000 })
      .toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?\S+ Signed in$/m);

    const status = await world.clinic(['auth', 'status', '-o', 'json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ user: { name: 'Dana Admin' }, token_source: 'login' });

    const list = await world.clinic(['customers', 'list', '--limit', '3', '-o', 'ndjson']);
    expect(list.code).toBe(0);
    expect(list.stdout.trim().split('\n')).toHaveLength(3);
    // The browser outlives the login (it is handed the address and left): it has closed, its profile removed.
    await expect.poll(() => readFile(report, 'utf8'), { timeout: 15_000 }).toMatch(/^closed$/m);
  });
});
