// `clinic --profile NEW --base-url URL login`: the profile keeps the URL it signed in at, so the next command (with
// no flag) goes to the same server instead of failing for want of a base_url.
import { describe, expect, it } from 'vitest';
import { lines, runCli } from '../../helpers/cli.js';
import { useWorld } from '../../helpers/world.js';

const world = useWorld();

describe('login with --base-url', () => {
  it('a new profile keeps the base_url it signed in at; the next command needs no flag', async () => {
    const url = world.sandbox.info.base_url;
    const login = await runCli(
      world.configDir,
      ['--profile', 'fresh', '--base-url', url, 'login', '--with-token', '--insecure-storage'],
      { input: world.sandbox.info.token },
    );
    expect(login.code, login.stderr).toBe(0);
    expect(lines(login.stderr)).toContain(`base_url of profile fresh is now ${url}`);
    const get = await runCli(world.configDir, ['--profile', 'fresh', 'config', 'get', 'base_url']);
    expect(get.stdout).toBe(`${url}\n`);
    const account = await runCli(world.configDir, ['--profile', 'fresh', 'account', '-o', 'json']);
    expect(account.code, account.stderr).toBe(0);
    expect(JSON.parse(account.stdout)).toMatchObject({ id: 1 });
  });

  it('a login without --base-url leaves the profile as it was, and says nothing of it', async () => {
    const login = await world.clinic(['login', '--with-token', '--insecure-storage'], {
      input: world.sandbox.info.token,
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).not.toContain('base_url');
  });
});
