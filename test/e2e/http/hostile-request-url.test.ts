// `clinic api PATH` with paths built to send the token elsewhere: a fake API plays base_url's server and a second
// server plays "another host"; whatever the path, the other host receives nothing and the run ends with exit 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { type FakeApi, startFakeApi } from '../../helpers/fake-api.js';

const TOKEN = 'clinic_pat_ORIGINtestTOKEN0123456789abcdef';

let api: FakeApi;
let other: FakeApi;
let configDir: string;

beforeAll(async () => {
  api = await startFakeApi();
  other = await startFakeApi();
  configDir = await api.configDir({ realtime: true });
});

afterAll(async () => {
  await Promise.all([api?.close(), other?.close()]);
});

const clinic = (args: string[], env: Record<string, string> = {}) =>
  runCli(configDir, args, { env: { CLINIC_TOKEN: TOKEN, ...env } });

describe('clinic api: a path that would leave base_url', () => {
  const elsewhere = () => `127.0.0.1:${other.port}`;
  const hostile = () => [
    `/..//${elsewhere()}/x`,
    `//${elsewhere()}/x`,
    `/.//${elsewhere()}/x`,
    `/%2e%2e//${elsewhere()}/x`,
    `/%2E.//${elsewhere()}/x`,
    `/.%2e/%2e%2e//${elsewhere()}/x`,
    `\\\\${elsewhere()}\\x`,
    `/..\\..\\${elsewhere()}/x`,
    `/.\t./.\n.//${elsewhere()}/x`,
    `/v1/%2f%2f${elsewhere()}/x`,
    `/..;/..;/${elsewhere()}/x`,
    `http://${elsewhere()}/api/v1/account`,
    `/../apix/v1/account`,
    `/v1/../../other`,
    `/v1/account#//${elsewhere()}`,
  ];

  it(
    'is refused with exit 2, one error line, and no request to either host',
    { timeout: 120_000 },
    async () => {
      const variants = [['-X', 'POST', '-f', 'a=b'], ['--paginate'], ['-X', 'POST', '--dry-run']];
      for (const [i, path] of hostile().entries()) {
        const before = api.requests.length;
        // Every path as a GET; the first few also as a write, a paginated read and a dry run.
        for (const extra of [[], ...(i < 5 ? variants : [])]) {
          const result = await clinic(['api', path, ...extra]);
          expect({ path, extra, code: result.code }).toEqual({ path, extra, code: 2 });
          expect(result.stderr).toMatch(/^error: /);
          expect(result.stdout).toBe('');
        }
        expect(api.requests.slice(before)).toEqual([]);
      }
      expect(other.requests).toEqual([]);
    },
  );

  it('a path that stays below base_url is sent as the dry run shows it', async () => {
    const dry = await clinic(['api', '-X', 'POST', '/v1/x/../account?a=1', '--dry-run', '-o', 'json']);
    expect(dry.code).toBe(0);
    const shown = JSON.parse(dry.stdout) as { url: string };
    expect(shown.url).toBe(`${api.baseUrl}/v1/account?a=1`);
    const before = api.requests.length;
    const sent = await clinic(['api', '/v1/x/%2e%2e/account?a=1']);
    expect(sent.code).toBe(0);
    expect(api.requests.slice(before).map((r) => r.path)).toEqual(['/api/v1/account?a=1']);
    expect(other.requests).toEqual([]);
  });
});

describe('clinic api -H: headers that say where the request goes', () => {
  it('Host and framing headers, and line breaks in a value, are refused before anything is sent', async () => {
    const before = api.requests.length;
    for (const header of [
      `Host: 127.0.0.1:${other.port}`,
      'Transfer-Encoding: chunked',
      `X-A: b\r\nHost: 127.0.0.1:${other.port}`,
      'Bad Name: x',
    ]) {
      const result = await clinic(['api', '/v1/account', '-H', header]);
      expect({ header, code: result.code }).toEqual({ header, code: 2 });
      expect(result.stderr).toMatch(/^error: -H/);
    }
    expect(api.requests.slice(before)).toEqual([]);
    expect(other.requests).toEqual([]);
  });
});

describe('realtime.auth_endpoint on another origin', () => {
  it('is refused with exit 2 naming the setting, and the token goes nowhere', async () => {
    const result = await clinic(['chat', 'tail', '--timeout', '2'], {
      CLINIC_REALTIME_AUTH_ENDPOINT: `${other.baseUrl}/broadcasting/auth`,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: .*realtime\.auth_endpoint/m);
    expect(other.requests).toEqual([]);
  });
});
