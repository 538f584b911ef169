// The transport's upgrade probe: one WebSocket opening handshake, closed as soon as it is answered. Says at once when
// the server refuses the connection or answers with HTTP instead of a WebSocket, which pusher-js only reports (as
// `unavailable`) after retrying for its 10 s.
import { randomBytes } from 'node:crypto';
import { requestFunction } from '../transport.js';
import { networkErrorCode } from '../retry-policy.js';
import { describeNetworkError } from './describe-error.js';

export type UpgradeVerdict =
  | { upgraded: true }
  /**
   * What went wrong, in words (`connection refused`, `answered HTTP 400 instead of a WebSocket`), with the answer's
   * status or the network's code for a reader that tells what may pass.
   */
  | { upgraded: false; problem: string; status?: number; code?: string };

export interface UpgradeProbeOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Undefined when no verdict came within the time limit or the run was interrupted (pusher-js's own wait decides). */
export async function probeUpgrade(
  address: string,
  options: UpgradeProbeOptions,
): Promise<UpgradeVerdict | undefined> {
  const url = new URL(address.replace(/^ws/, 'http'));
  const request = await requestFunction(url.origin);
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'GET',
      agent: false,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
      },
    });
    let settled = false;
    const finish = (verdict: UpgradeVerdict | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      req.destroy();
      resolve(verdict);
    };
    const stop = () => finish(undefined);
    const timer = setTimeout(stop, options.timeoutMs);
    options.signal?.addEventListener('abort', stop, { once: true });
    if (options.signal?.aborted) stop();
    req.on('upgrade', (_response, socket) => {
      socket.destroy();
      finish({ upgraded: true });
    });
    req.on('response', (response) => {
      response.resume();
      finish({
        upgraded: false,
        problem: `answered HTTP ${response.statusCode} instead of a WebSocket`,
        status: response.statusCode,
      });
    });
    req.on('error', (error) =>
      finish({
        upgraded: false,
        problem: describeNetworkError(error, 'diagnostic'),
        code: networkErrorCode(error),
      }),
    );
    req.end();
  });
}
