// The loopback redirect listener (RFC 8252): 127.0.0.1 only, path /callback, exactly one valid callback, then closed.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { AuthError } from '../../errors.js';
import { connectingUid } from '../../http/loopback-owner.js';

export const CALLBACK_PATH = '/callback';

export interface LoopbackListener {
  redirectUri: string;
  /**
   * The one-time address to open in the browser: it redirects once to the authorization address, so the state,
   * code challenge and nonce never stand on a command line (`ps`); a second request fails the whole login.
   */
  startUrl: string;
  setAuthorizationUrl(url: string): void;
  /** Resolves with the callback URL once one with the right state arrives. */
  callback: Promise<URL>;
  /** Answers the browser waiting on the accepted callback, then stops listening. */
  finish(outcome: { ok: boolean; message: string }): Promise<void>;
  close(): Promise<void>;
}

const page = (ok: boolean, message: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>clinic sign-in</title></head>` +
  `<body style="font-family:sans-serif;margin:3em"><h1>${ok ? 'Signed in' : 'Sign-in failed'}</h1>` +
  `<p>${escapeHtml(message)}</p><p>You can close this window and return to the terminal.</p></body></html>`;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function answer(res: ServerResponse, status: number, ok: boolean, message: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(page(ok, message));
}

/** An answer that is not for this sign-in: refused, but it does not end the wait for the real one. */
export class StateMismatchError extends AuthError {
  override name = 'StateMismatchError';
}

/** Checks a callback URL (from the listener or pasted) and returns it, or throws AuthError. */
export function checkCallback(url: URL, redirectUri: string, expectedState: string): URL {
  // The state first: only an answer carrying it can say anything about this sign-in, even that it failed.
  if (url.searchParams.get('state') !== expectedState) {
    throw new StateMismatchError('the sign-in answer does not carry the state this login sent; refused');
  }
  const expected = new URL(redirectUri);
  if (url.origin !== expected.origin || url.pathname !== expected.pathname) {
    throw new AuthError(`that is not this sign-in's redirect address (expected ${redirectUri}?…)`);
  }
  const error = url.searchParams.get('error');
  if (error) {
    const description = url.searchParams.get('error_description');
    throw new AuthError(`the sign-in server refused: ${error}${description ? `: ${description}` : ''}`);
  }
  if (!url.searchParams.get('code')) throw new AuthError('the sign-in answer has no authorization code');
  return url;
}

/** Whether a request comes from a process of this user's, or root's (Linux; elsewhere, or untold, it is let be). */
function fromThisUser(req: IncomingMessage): boolean {
  const mine = process.getuid?.();
  const { remoteAddress: address, remotePort: port, localPort } = req.socket;
  if (mine === undefined || localPort === undefined) return true;
  const uid = connectingUid({ address, port }, localPort);
  return uid === undefined || uid === mine || uid === 0;
}

export async function startLoopback(port: number, expectedState: string): Promise<LoopbackListener> {
  let accepted: ServerResponse | undefined;
  const startPath = `/start/${randomBytes(24).toString('hex')}`;
  let authorizationUrl: string | undefined;
  let started = false;
  let settle!: { resolve: (url: URL) => void; reject: (error: Error) => void };
  const callback = new Promise<URL>((resolve, reject) => {
    settle = { resolve, reject };
  });
  callback.catch(() => undefined);

  // Any local process can reach this port: whatever it sends is answered, and only a GET of /callback with this
  // sign-in's state can settle (or fail) the sign-in. Another user's process is answered nothing more: the start
  // address stands on the browser's command line, which every user can read (/proc/PID/cmdline); opened first by
  // another user, it would give them the state and code challenge to sign this user in to an account of theirs.
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!fromThisUser(req))
      return answer(res, 403, false, "Only the signing-in user's programs are answered here.");
    const target = req.url ?? '/';
    if (!target.startsWith('/') || target.startsWith('//')) return answer(res, 400, false, 'Bad request.');
    const url = new URL(target, redirectUri);
    if (url.pathname === startPath && req.method === 'GET' && authorizationUrl) {
      if (started) {
        // Someone else opened this sign-in's address too: a race for the account. Nobody wins it silently.
        answer(res, 409, false, 'This sign-in address was already used. Start the sign-in again.');
        settle.reject(
          new AuthError(
            'the sign-in address was opened twice (another program may be racing this login); nothing was stored: run login again',
          ),
        );
        server.close();
        return;
      }
      started = true;
      res.writeHead(302, { location: authorizationUrl, 'cache-control': 'no-store' });
      return res.end();
    }
    if (url.pathname !== CALLBACK_PATH) return answer(res, 404, false, 'Not found.');
    if (req.method !== 'GET') return answer(res, 405, false, 'Only GET is answered here.');
    if (accepted) return answer(res, 409, false, 'This sign-in already received its answer.');
    try {
      checkCallback(url, redirectUri, expectedState);
    } catch (error) {
      answer(res, 400, false, (error as Error).message);
      if (error instanceof StateMismatchError) return;
      settle.reject(error as Error);
      server.close();
      return;
    }
    accepted = res;
    settle.resolve(url);
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new AuthError(
          error.code === 'EADDRINUSE'
            ? `port ${port} on 127.0.0.1 is in use; choose another with --port`
            : `cannot listen on 127.0.0.1:${port}: ${error.message}`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${CALLBACK_PATH}`;

  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  return {
    redirectUri,
    startUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${startPath}`,
    setAuthorizationUrl: (url) => {
      authorizationUrl = url;
    },
    callback,
    async finish({ ok, message }) {
      if (accepted) answer(accepted, ok ? 200 : 400, ok, message);
      await close();
    },
    close,
  };
}
