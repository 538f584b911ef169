// Logging out of a profile the config does not have: a typo (`--profile prdo logout`), refused with exit 2 like every
// other command, so a script never reads "not logged in" with exit 0 for the profile it did not name. A fresh
// machine's default profile is simply not logged in (exit 0).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('clinic-logout-profile-');

describe('clinic logout of a profile that does not exist', () => {
  it('named by --profile or CLINIC_PROFILE: one line, exit 2', async () => {
    const env = { CLINIC_CONFIG_DIR: join(dir.path, 'config') };
    const made = await runInProcess(['config', 'set', 'base_url', 'https://api.example.test'], { env });
    expect(made.code).toBe(0);
    for (const [argv, extra] of [
      [['--profile', 'prdo', 'logout'], {}],
      [['logout'], { CLINIC_PROFILE: 'prdo' }],
    ] as const) {
      const result = await runInProcess([...argv], { env: { ...env, ...extra } });
      expect([result.code, result.stdout, result.stderr]).toEqual([
        2,
        '',
        "error: there is no profile 'prdo' (profiles: default): nothing to log out of\n",
      ]);
    }
  });

  it('the default profile of a fresh config: not logged in, exit 0', async () => {
    const result = await runInProcess(['logout'], { env: { CLINIC_CONFIG_DIR: join(dir.path, 'fresh') } });
    expect([result.code, result.stdout, result.stderr]).toEqual([
      0,
      '',
      'profile default was not logged in\n',
    ]);
  });
});
