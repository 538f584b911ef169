// The loopback redirect listener: 127.0.0.1 only, exactly one valid callback, state checked, then closed.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkCallback, startLoopback } from '../../../src/core/auth/oauth/loopback.js';
import { AuthError } from '../../../src/core/errors.js';

describe('loopback listener', () => {
  it('listens on 127.0.0.1 with path /callback on an ephemeral port', async () => {
    const listener = await startLoopback(0, 'state-1');
    try {
      expect(listener.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const other = await fetch(listener.redirectUri.replace('/callback', '/favicon.ico'));
      expect(other.status).toBe(404);
    } finally {
      await listener.close();
    }
  });

  it('accepts one valid callback, refuses a second, and closes after answering', async () => {
    const listener = await startLoopback(0, 'good');
    const url = `${listener.redirectUri}?code=abc&state=good`;
    const first = fetch(url);
    expect((await listener.callback).searchParams.get('code')).toBe('abc');
    const second = await fetch(url);
    expect(second.status).toBe(409);
    await listener.finish({ ok: true, message: 'done' });
    expect(await (await first).text()).toContain('Signed in');
    await expect(fetch(url)).rejects.toThrow();
  });

  it('refuses a callback with the wrong state and keeps waiting for the real one', async () => {
    const listener = await startLoopback(0, 'expected');
    const answer = await fetch(`${listener.redirectUri}?code=abc&state=forged`);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('state');
    const forgedError = await fetch(`${listener.redirectUri}?error=access_denied&state=forged`);
    expect(forgedError.status).toBe(400);
    void fetch(`${listener.redirectUri}?code=real&state=expected`);
    expect((await listener.callback).searchParams.get('code')).toBe('real');
    await listener.finish({ ok: true, message: 'ok' });
  });

  it('turns error and error_description into one AuthError line', async () => {
    const listener = await startLoopback(0, 's');
    await fetch(`${listener.redirectUri}?error=access_denied&error_description=User%20said%20no&state=s`);
    await expect(listener.callback).rejects.toThrow(
      'the sign-in server refused: access_denied: User said no',
    );
    await listener.close();
  });

  it('reports a port in use clearly', async () => {
    const listener = await startLoopback(0, 's');
    const port = Number(new URL(listener.redirectUri).port);
    await expect(startLoopback(port, 's')).rejects.toThrow(`port ${port} on 127.0.0.1 is in use`);
    await listener.close();
  });
});

describe('checkCallback (pasted addresses)', () => {
  const redirect = 'http://127.0.0.1:5000/callback';
  it('accepts the redirect address with the right state and a code', () => {
    expect(checkCallback(new URL(`${redirect}?code=c&state=s`), redirect, 's').searchParams.get('code')).toBe(
      'c',
    );
  });
  it('refuses another port, another path, a wrong state, or no code', () => {
    for (const url of [
      'http://127.0.0.1:5001/callback?code=c&state=s',
      'http://127.0.0.1:5000/other?code=c&state=s',
      `${redirect}?code=c&state=t`,
      `${redirect}?state=s`,
    ]) {
      expect(() => checkCallback(new URL(url), redirect, 's')).toThrow(AuthError);
    }
  });
});

describe('loopback listener against hostile local requests', () => {
  async function raw(port: number, requestLine: string): Promise<string> {
    const { connect } = await import('node:net');
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(`${requestLine}\r\nHost: x\r\n\r\n`));
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
  }

  it('answers absolute, protocol-relative and malformed targets and other methods without ending the wait', async () => {
    const listener = await startLoopback(0, 'real');
    const port = Number(new URL(listener.redirectUri).port);
    expect(await raw(port, 'GET //evil.example/callback?code=x HTTP/1.1')).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(port, 'GET http://evil.example/callback?code=x HTTP/1.1')).toMatch(/^HTTP\/1\.1 400/);
    await raw(port, 'GET http://[::1 HTTP/1.1');
    expect(await raw(port, 'HEAD /callback?code=fake&state=real HTTP/1.1')).toMatch(/^HTTP\/1\.1 405/);
    expect(await raw(port, 'POST /callback?code=fake&state=real HTTP/1.1')).toMatch(/^HTTP\/1\.1 405/);
    void fetch(`${listener.redirectUri}?code=genuine&state=real`);
    expect((await listener.callback).searchParams.get('code')).toBe('genuine');
    await listener.finish({ ok: true, message: 'ok' });
  });
});

describe('the one-time start address', () => {
  it('redirects once to the authorization address; a second request fails the whole login', async () => {
    const listener = await startLoopback(0, 'the-state');
    listener.setAuthorizationUrl('https://auth.example/oauth/authorize?state=the-state&code_challenge=x');
    expect(listener.startUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/start\/[0-9a-f]{48}$/);
    expect(listener.startUrl).not.toContain('state');
    const first = await fetch(listener.startUrl, { redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toContain('state=the-state');
    const second = await fetch(listener.startUrl, { redirect: 'manual' });
    expect(second.status).toBe(409);
    await expect(listener.callback).rejects.toThrow(/opened twice/);
    await listener.close();
  });

  it.skipIf(process.getuid?.() !== 0 || process.platform !== 'linux')(
    "another user's process reading it off the browser's command line is answered 403: no state, no code challenge, and the callback it forges is not taken; the user's browser then signs in",
    async () => {
      const listener = await startLoopback(0, 'the-state');
      listener.setAuthorizationUrl('https://auth.example/oauth/authorize?state=the-state&code_challenge=x');
      const callback = `${listener.redirectUri}?code=theirs&state=the-state`;
      // As `nobody`, a user of the machine that is neither this one nor root.
      const script = `(async () => {
        const start = await fetch(process.argv[1], { redirect: 'manual' });
        const forged = await fetch(process.argv[2]);
        console.log(JSON.stringify([start.status, start.headers.get('location'), forged.status]));
      })()`;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['-e', script, listener.startUrl, callback],
        { uid: 65534, gid: 65534, encoding: 'utf8' },
      );
      expect(JSON.parse(stdout)).toEqual([403, null, 403]);
      const ours = await fetch(listener.startUrl, { redirect: 'manual' });
      expect(ours.status).toBe(302);
      void fetch(`${listener.redirectUri}?code=ours&state=the-state`);
      expect((await listener.callback).searchParams.get('code')).toBe('ours');
      await listener.finish({ ok: true, message: 'ok' });
    },
  );

  it('another path under /start is not the start address', async () => {
    const listener = await startLoopback(0, 's');
    listener.setAuthorizationUrl('https://auth.example/a');
    expect(
      (await fetch(listener.startUrl.replace(/\/start\/.*/, '/start/guess'), { redirect: 'manual' })).status,
    ).toBe(404);
    await listener.close();
  });
});
