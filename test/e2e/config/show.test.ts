// Reading the configuration with a profile the file does not have (a typo of --profile, or a file holding only others)
// says so, and a tenant given by its slug where an id is kept is pointed to `tenants use`.
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, lines, runCli, tempConfigDir } from '../../helpers/cli.js';

let dir: string;
const clinic = (args: string[]): Promise<CliResult> => runCli(dir, args);

beforeAll(async () => {
  dir = await tempConfigDir();
  const set = await clinic(['--profile', 'work', 'config', 'set', 'base_url', 'https://api.example.test']);
  expect(set.code, set.stderr).toBe(0);
});

describe('a profile the config file does not have', () => {
  it('config list shows the defaults, and says on stderr which profiles there are (exit 0)', async () => {
    const result = await clinic(['--profile', 'wrok', 'config', 'list', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { key: 'scopes', value: 'openid *', source: 'default', profile: 'wrok' },
      { key: 'output', value: 'json', source: 'flag', profile: 'wrok' },
    ]);
    expect(lines(result.stderr)).toEqual([
      "note: there is no profile 'wrok' in the config file (its profiles: work); shown: the defaults and the environment",
    ]);
    // Quiet for a profile that is there.
    const there = await clinic(['--profile', 'work', 'config', 'list', '-o', 'json']);
    expect(there.stderr).toBe('');
  });

  it('config get of a key it lacks: exit 1, saying the profile is not there', async () => {
    const result = await clinic(['--profile', 'wrok', 'config', 'get', 'base_url']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toEqual([
      "error: base_url is not set in profile wrok: there is no profile 'wrok' in the config file (its profiles: work)",
    ]);
  });

  it('the environment still sets what it sets, for any profile', async () => {
    const result = await runCli(dir, ['--profile', 'ci', 'config', 'get', 'base_url'], {
      env: { CLINIC_BASE_URL: 'https://ci.example.test' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('https://ci.example.test\n');
  });
});

describe('config set tenant', () => {
  it("a slug where the tenant's id goes: exit 2, pointing to tenants use, nothing written", async () => {
    const result = await clinic(['--profile', 'work', 'config', 'set', 'tenant', 'harbor-dental']);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([
      "error: tenant must be a positive whole number (a tenant's id), got 'harbor-dental': `clinic tenants use " +
        "harbor-dental` saves a tenant by its slug, and `clinic tenants list` shows each one's id",
    ]);
    const get = await clinic(['--profile', 'work', 'config', 'get', 'tenant']);
    expect(get.code).toBe(1);
  });
});
