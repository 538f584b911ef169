// The CLI prints one JSON ready line on stdout, so the OpenID provider must never write there (notices, warnings).
import * as client from 'openid-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discover, login } from './oauth-browser.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('stdout', () => {
  it('stays empty while the provider loads, starts and serves every endpoint (no warnings either)', async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    // Vitest routes console.* around process.stdout, so watch those too (oidc-provider notices use console.info).
    for (const method of ['log', 'info', 'debug'] as const)
      vi.spyOn(console, method).mockImplementation(capture);
    const warned: string[] = [];
    for (const method of ['warn', 'error'] as const) {
      vi.spyOn(console, method).mockImplementation((...args) => void warned.push(args.join(' ')));
    }

    // Imported here, after the spies, so notices printed at import time are caught too.
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const sandbox = await startSandbox({ port: 0 });
    try {
      const origin = sandbox.info.auth_url;
      const config = await discover(sandbox);
      const { tokens } = await login(config);
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
      await client.tokenRevocation(config, refreshed.refresh_token ?? '');
      await client
        .fetchUserInfo(config, refreshed.access_token, client.skipSubjectCheck)
        .catch(() => undefined);
      const logout = client.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token ?? '',
        post_logout_redirect_uri: 'http://127.0.0.1:9/logged-out',
      });
      const pages = [
        logout.href,
        `${origin}/oauth/logout/success`,
        `${origin}/oauth/authorize?client_id=clinic-cli&response_type=code&redirect_uri=http://evil.test/`,
        `${origin}/oauth/jwks`,
        `${origin}/oauth/nowhere`,
      ];
      for (const page of pages) expect((await fetch(page)).status).toBeLessThan(500);
    } finally {
      await sandbox.close();
    }
    expect(written).toEqual([]);
    // Not required (stderr is free for humans), but the provider has nothing to warn about either.
    expect(warned.filter((line) => line.includes('oidc-provider'))).toEqual([]);
  });
});
