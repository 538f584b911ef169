// Secrets kept out of anything printed: headers, URLs and JSON bodies.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactBodyText, redactHeaders, redactJson, redactUrl } from '../../../src/core/redact.js';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';

describe('redactHeaders', () => {
  it('keeps the scheme of Authorization and hides the credential, whatever the case', () => {
    expect(redactHeaders({ Authorization: 'Bearer abc.def.ghi' })).toEqual({ Authorization: 'Bearer ***' });
    expect(redactHeaders({ authorization: 'Basic dXNlcjpwYXNz' })).toEqual({ authorization: 'Basic ***' });
  });

  // BUG src/core/redact.ts:15: the "scheme" kept is `value.split(' ')[0]`, which is the whole credential when the
  // header has no scheme (`Authorization: <token>`), so the token is printed followed by ` ***`.
  it('hides an Authorization value that has no scheme', () => {
    const out = redactHeaders({ authorization: 'raw-secret-token' });
    expect(out.authorization).not.toContain('raw-secret-token');
  });

  it('hides cookies, set-cookie (also as arrays), proxy-authorization and x-api-key', () => {
    const out = redactHeaders({
      cookie: 'session=abc',
      'set-cookie': ['a=1', 'b=2'],
      'Proxy-Authorization': 'Basic x',
      'X-Api-Key': 'k',
    });
    expect(out).toEqual({
      cookie: REDACTED,
      'set-cookie': REDACTED,
      'Proxy-Authorization': REDACTED,
      'X-Api-Key': REDACTED,
    });
  });

  it('keeps harmless headers and drops undefined ones', () => {
    expect(redactHeaders({ 'x-tenant': '3', accept: 'application/json', gone: undefined })).toEqual({
      'x-tenant': '3',
      accept: 'application/json',
    });
  });
});

describe('redactUrl', () => {
  it('hides token-like query values and keeps the rest', () => {
    const out = redactUrl('https://api.test/cb?access_token=abc&refresh_token=def&page=2&code=xyz&state=s1');
    expect(out).not.toMatch(/abc|def|xyz|s1/);
    expect(out).toContain('page=2');
    expect(new URL(out).searchParams.get('access_token')).toBe(REDACTED);
    expect(new URL(out).searchParams.get('code')).toBe(REDACTED);
    expect(new URL(out).searchParams.get('state')).toBe(REDACTED);
  });

  it('hides the userinfo of a URL, name and password', () => {
    const out = redactUrl('https://user:hunter2@api.test/x');
    expect(out).not.toContain('hunter2');
    expect(out).toBe('https://***:***@api.test/x');
  });

  it('leaves non-URLs alone', () => {
    expect(redactUrl('not a url')).toBe('not a url');
  });
});

describe('redactJson', () => {
  it('hides token-like keys at any depth, in objects and arrays', () => {
    const value = {
      access_token: 'a',
      data: {
        user: { name: 'Ada', password: 'p', nested: [{ refresh_token: 'r', id: 1 }] },
        client_secret: 's',
        code_verifier: 'v',
      },
      list: [{ apiKey: 'no match', api_key: 'k' }],
    };
    expect(redactJson(value)).toEqual({
      access_token: REDACTED,
      data: {
        user: { name: 'Ada', password: REDACTED, nested: [{ refresh_token: REDACTED, id: 1 }] },
        client_secret: REDACTED,
        code_verifier: REDACTED,
      },
      list: [{ apiKey: 'no match', api_key: REDACTED }],
    });
  });

  it('does not change the input', () => {
    const value = { token: 'x' };
    redactJson(value);
    expect(value).toEqual({ token: 'x' });
  });

  it('passes scalars through', () => {
    expect(redactJson('token')).toBe('token');
    expect(redactJson(null)).toBeNull();
  });
});

describe('redactBodyText', () => {
  it('redacts JSON bodies key by key', () => {
    expect(JSON.parse(redactBodyText('{"id_token":"x","name":"Ada"}'))).toEqual({
      id_token: REDACTED,
      name: 'Ada',
    });
  });

  it('redacts bearer tokens in text bodies', () => {
    expect(redactBodyText('header was Bearer abc.def-ghi_jk')).toBe('header was Bearer ***');
  });
});

describe('secrets in traces', () => {
  const cli = useInProcess();

  it('a password in base_url is refused, and never printed (--dry-run either)', async () => {
    const result = await cli.run(['sales', 'stock-deduct', '1', '--dry-run', '--yes'], {
      env: { CLINIC_BASE_URL: 'https://ops:S3cretPW@api.clinic.test/api' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('base_url must not hold a user name or password');
    expect(result.stdout + result.stderr).not.toContain('S3cretPW');
    expect(result.stdout + result.stderr).not.toContain('ops:');
  });

  it('--debug hides a header whose value is the token, whatever its name', async () => {
    const token = 'tok-0123456789abcdef';
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/account', [
      { status: 200, body: { success: true, data: { id: 1 } } },
    ]);
    const result = await cli.run(['api', '/v1/account', '-H', `X-Key: ${token}`, '--debug'], {
      env: { CLINIC_TOKEN: token },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('x-key: ***');
    expect(result.stderr).not.toContain(token);
  });
});
