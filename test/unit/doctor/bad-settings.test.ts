// `clinic doctor` with a setting that cannot work (a realtime port out of range, a host with a space): the profile
// check fails naming it, every check is still reported, and nothing crashes (it once ended in a stack trace, with
// no output at all, from the realtime probe's address).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('clinic-doctor-settings-');

describe('doctor with a setting that cannot work', () => {
  it.each([
    ['CLINIC_REALTIME_PORT', '70000', "realtime.port must be a port from 1 to 65535, got '70000'"],
    [
      'CLINIC_REALTIME_HOST',
      'bad host',
      "realtime.host must be a host name or an IP address, got 'bad host'",
    ],
    [
      'CLINIC_REALTIME_CLUSTER',
      'e u',
      "realtime.cluster must be a cluster name such as eu or us2, got 'e u'",
    ],
  ])('%s=%s: the profile check fails, the report is whole', async (variable, value, words) => {
    const result = await runInProcess(['doctor', '-o', 'json', '--request-timeout', '2'], {
      env: {
        CLINIC_CONFIG_DIR: join(dir.path, 'config'),
        CLINIC_BASE_URL: 'http://127.0.0.1:9/api', // nothing listens: the API checks fail fast
        CLINIC_TOKEN: 'tok',
        CLINIC_TENANT: '1',
        CLINIC_REALTIME_KEY: 'key',
        [variable]: value,
      },
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      checks: { name: string; status: string; detail: string }[];
    };
    expect(report.checks.length).toBeGreaterThan(5);
    expect(report.checks.find((check) => check.name === 'profile')).toMatchObject({
      status: 'fail',
      detail: `default (the default): ${variable}: ${words}`,
    });
    expect(result.stderr).not.toMatch(/TypeError|\n\s+at /);
  });
});
