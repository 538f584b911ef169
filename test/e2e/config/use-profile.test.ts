// `config use-profile NAME`: a name the config file does not hold is refused (exit 2, the known ones listed), so a
// typo never leaves every later command on an empty profile; --create makes a new one.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { lines, runCli, tempConfigDir } from '../../helpers/cli.js';

let dir: string;
const config = async () => JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));

beforeEach(async () => {
  dir = await tempConfigDir();
  const profiles = { prod: { tenant: '2' }, sandbox: { tenant: '1' } };
  await writeFile(join(dir, 'config.json'), JSON.stringify({ current_profile: 'sandbox', profiles }), {
    mode: 0o600,
  });
});

describe('config use-profile', () => {
  it('takes a profile of the file', async () => {
    const result = await runCli(dir, ['config', 'use-profile', 'prod']);
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toEqual(['current profile: prod']);
    expect((await config()).current_profile).toBe('prod');
  });

  it('refuses a typo: exit 2, one line listing the profiles and how to make a new one; nothing changed', async () => {
    const result = await runCli(dir, ['config', 'use-profile', 'prdo']);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([
      "error: no profile 'prdo' (profiles: prod, sandbox); to make a new one: clinic config use-profile prdo --create",
    ]);
    expect(await config()).toEqual({
      current_profile: 'sandbox',
      profiles: { prod: { tenant: '2' }, sandbox: { tenant: '1' } },
    });
  });

  it('--create makes the new profile and chooses it; on a known one it just chooses', async () => {
    expect((await runCli(dir, ['config', 'use-profile', 'staging', '--create'])).code).toBe(0);
    expect(await config()).toMatchObject({ current_profile: 'staging', profiles: { staging: {} } });
    expect((await runCli(dir, ['config', 'use-profile', 'prod', '--create'])).code).toBe(0);
    expect(await config()).toMatchObject({ current_profile: 'prod', profiles: { prod: { tenant: '2' } } });
  });

  it('default, the profile used when none is chosen, is always there', async () => {
    expect((await runCli(dir, ['config', 'use-profile', 'default'])).code).toBe(0);
    expect((await config()).current_profile).toBe('default');
  });
});
