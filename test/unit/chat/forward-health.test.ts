// `chat tail --forward-to` against endpoints that cannot work as they are, real ones on this machine (a plain-http
// server addressed with https://, a closed port, a host name that does not resolve): every failure is one readable
// line, and one that will go on failing is said once (an alert, which --quiet does not silence), again only after
// the endpoint has answered in between.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitLine } from '../../../src/cli/countdown.js';
import { CancelledError } from '../../../src/core/errors.js';
import { NodeTransport } from '../../../src/core/http/transport.js';
import { Forwarder } from '../../../src/core/realtime/forwarder.js';
import {
  describeForwardFailure,
  ForwardHealth,
  LASTING_FAILURE_MS,
} from '../../../src/commands/chat/forward-health.js';
import { fakeClock } from '../../helpers/fake-clock.js';

const ID = 'ChatLogCreated.1.2.7';
const BODY = '{"event":"ChatLogCreated","source":"realtime","data":{"id":7,"conversation_id":2}}';
const UNRESOLVABLE = new URL('https://clinic-forward-test.invalid/hook');

const transport = new NodeTransport();
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});
afterAll(() => transport.close());

/** A plain-http endpoint on 127.0.0.1 answering 204 (on `port` when given). */
async function plainHttp(port = 0): Promise<number> {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(204, { connection: 'close' }).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on: a server's, closed. */
async function closedPort(): Promise<number> {
  const port = await plainHttp();
  await new Promise((resolve) => servers.pop()!.close(resolve));
  return port;
}

/**
 * The forwarder, as `chat tail` builds it, through the real transport and a fake clock (each wait passes at once).
 * `forward(maxRetries)` gives the event up after so many retries; `betweenTries(n)` runs before try n + 1.
 */
function forwarding(url: URL) {
  const clock = fakeClock();
  const alerts: string[] = [];
  const notes: string[] = [];
  const health = new ForwardHealth({ where: url.href, clock, alert: (line) => alerts.push(line) });
  let retries = 0;
  let maxRetries = 0;
  let ending = new AbortController();
  const run = {
    alerts,
    notes,
    clock,
    betweenTries: async (_retries: number) => undefined as unknown,
    /** Forwards one event: `accepted`, or CancelledError once the retries are used up. */
    forward: async (max: number) => {
      retries = 0;
      maxRetries = max;
      ending = new AbortController();
      return forwarder.forward(ID, BODY, ending.signal).catch((error: unknown) => error);
    },
  };
  const forwarder = new Forwarder({
    transport: health.watch(transport),
    url,
    secret: 'whsec_test',
    clock: {
      now: clock.now,
      sleep: async (ms, signal) => {
        await run.betweenTries(retries);
        await clock.sleep(ms, signal);
      },
    },
    userAgent: 'clinic/test',
    timeoutMs: 5_000,
    accepted: () => health.reached(),
    retrying: (wait) => {
      notes.push(waitLine(wait));
      health.retrying();
      if (++retries >= maxRetries) ending.abort();
      return undefined;
    },
    refused: () => health.reached(),
  });
  return run;
}

describe('ForwardHealth, with the forwarder against real endpoints', () => {
  it('https:// to a plain-http server: each retry one readable line, and one alert at once, not one a retry', async () => {
    const url = new URL(`https://127.0.0.1:${await plainHttp()}/hook`);
    const run = forwarding(url);
    expect(await run.forward(6)).toBeInstanceOf(CancelledError);
    expect(run.notes).toHaveLength(6);
    for (const line of run.notes)
      expect(line).toMatch(
        /^ChatLogCreated\.1\.2\.7: cannot reach https:\/\/127\.0\.0\.1:\d+: TLS handshake failed \(is it http\?\); trying again in \d+s$/,
      );
    expect(run.alerts).toEqual([
      `warning: forwarding to ${url.href}: TLS handshake failed (is it http?); events wait, tried again until it works`,
    ]);
  });

  it('a host name that does not resolve: said at once, once, naming the host', async () => {
    const run = forwarding(UNRESOLVABLE);
    expect(await run.forward(4)).toBeInstanceOf(CancelledError);
    expect(run.notes).toHaveLength(4);
    for (const line of run.notes) expect(line).not.toContain('\n');
    expect(run.alerts).toEqual([
      `warning: forwarding to ${UNRESOLVABLE.href}: host not found: clinic-forward-test.invalid; events wait, tried again until it works`,
    ]);
  });

  it('a refused connection is said once it has lasted a minute; recovered, then refused again, it is said again', async () => {
    const port = await closedPort();
    const url = new URL(`http://127.0.0.1:${port}/hook`);
    // Tries at 0, 1, 3, 7, 15, 31 and 61 s: the seventh is the first a minute after the first.
    const run = forwarding(url);
    run.betweenTries = async (retries) => {
      if (retries === 8) await plainHttp(port); // the endpoint is back: the ninth try is accepted
    };
    expect(await run.forward(20)).toBe('accepted');
    expect(run.notes).toHaveLength(8);
    expect(run.notes[0]).toMatch(
      /: cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused; trying again in 1s$/,
    );
    const refused = `warning: forwarding to ${url.href}: connection refused (for 61s); events wait, tried again until it works`;
    expect(run.alerts).toEqual([refused, `forwarding to ${url.href}: the endpoint answers again`]);
    // Down again: said again, once it has lasted a minute again (over two events: 31 s, then 31 more).
    await new Promise((resolve) => servers.pop()!.close(resolve));
    run.betweenTries = async () => undefined;
    expect(await run.forward(6)).toBeInstanceOf(CancelledError);
    expect(run.alerts).toHaveLength(2);
    expect(await run.forward(10)).toBeInstanceOf(CancelledError);
    expect(run.alerts).toEqual([
      refused,
      `forwarding to ${url.href}: the endpoint answers again`,
      refused.replace('61s', '62s'),
    ]);
  });

  /** An endpoint answering `status` to every POST until `answers` is set to another. */
  async function answering(status: number) {
    const endpoint = { status, port: 0 };
    const server = createServer((request, response) => {
      request.resume();
      response
        .writeHead(endpoint.status, { location: 'http://elsewhere.example/', connection: 'close' })
        .end();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint.port = (server.address() as AddressInfo).port;
    return endpoint;
  }

  it('an endpoint answering 503 is said once it has lasted a minute, once, and when it answers again', async () => {
    const endpoint = await answering(503);
    const url = new URL(`http://127.0.0.1:${endpoint.port}/hook`);
    const run = forwarding(url);
    run.betweenTries = async (retries) => {
      if (retries === 9) endpoint.status = 204;
    };
    expect(await run.forward(20)).toBe('accepted');
    expect(run.notes).toHaveLength(9);
    expect(run.notes[0]).toMatch(/: the endpoint answered 503; trying again in 1s$/);
    expect(run.alerts).toEqual([
      `warning: forwarding to ${url.href}: the endpoint answers HTTP 503 (for 61s); events wait, tried again until it works`,
      `forwarding to ${url.href}: the endpoint answers again`,
    ]);
  });

  it('a 503 that passes within the minute is not alerted; a redirect is said at once', async () => {
    const endpoint = await answering(503);
    const url = new URL(`http://127.0.0.1:${endpoint.port}/hook`);
    const run = forwarding(url);
    run.betweenTries = async (retries) => {
      if (retries === 3) endpoint.status = 204;
    };
    expect(await run.forward(20)).toBe('accepted');
    expect(run.alerts).toEqual([]);

    endpoint.status = 308;
    run.betweenTries = async () => undefined;
    expect(await run.forward(3)).toBeInstanceOf(CancelledError);
    expect(run.alerts).toEqual([
      `warning: forwarding to ${url.href}: the endpoint answers HTTP 308, a redirect (not followed: fix --forward-to); events wait, tried again until it works`,
    ]);
  });

  it('a refused connection that passes within the minute (a restart) is not alerted', async () => {
    const port = await closedPort();
    const url = new URL(`http://127.0.0.1:${port}/hook`);
    const run = forwarding(url);
    run.betweenTries = async (retries) => {
      if (retries === 3) await plainHttp(port);
    };
    expect(await run.forward(20)).toBe('accepted');
    expect(run.notes).toHaveLength(3);
    expect(run.alerts).toEqual([]);
    expect(run.clock.now() - fakeClock().now()).toBeLessThan(LASTING_FAILURE_MS);
  });

  it('a different failure while the endpoint stays down is said too, each kind once', async () => {
    const clock = fakeClock();
    const alerts: string[] = [];
    const health = new ForwardHealth({
      where: 'https://hooks.example/x',
      clock,
      alert: (line) => alerts.push(line),
    });
    const fail = async (error: Error) => {
      const failing = health.watch({
        request: () => Promise.reject(error),
        close: async () => undefined,
      });
      await failing
        .request({ origin: 'https://hooks.example', path: '/x', method: 'POST', headers: {} })
        .catch(() => undefined);
      health.retrying();
    };
    const tlsMismatch = Object.assign(
      new Error(
        'write EPROTO 80CC7A8B:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:354:\n',
      ),
      { code: 'EPROTO' },
    );
    const selfSigned = Object.assign(new Error('self-signed certificate'), {
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    for (const error of [tlsMismatch, tlsMismatch, selfSigned, tlsMismatch, selfSigned]) await fail(error);
    expect(alerts).toEqual([
      'warning: forwarding to https://hooks.example/x: TLS handshake failed (is it http?); events wait, tried again until it works',
      'warning: forwarding to https://hooks.example/x: certificate not accepted: self-signed certificate; events wait, tried again until it works',
    ]);
  });
});

describe('describeForwardFailure', () => {
  /** What the transport throws for one POST to `url`. */
  const failureOf = (url: URL) =>
    transport
      .request({ origin: url.origin, path: url.pathname, method: 'POST', headers: {}, body: '{}' })
      .then(
        () => expect.unreachable('the POST was answered'),
        (error: unknown) => error,
      );

  it.each([
    [
      'https:// to a plain-http server',
      async () => new URL(`https://127.0.0.1:${await plainHttp()}/`),
      'TLS handshake failed (is it http?)',
      true,
    ],
    [
      'a closed port',
      async () => new URL(`http://127.0.0.1:${await closedPort()}/`),
      'connection refused',
      false,
    ],
    [
      'a host that does not resolve',
      async () => UNRESOLVABLE,
      'host not found: clinic-forward-test.invalid',
      true,
    ],
  ] as const)(
    '%s (a real failure): one line, and whether it lasts',
    async (_what, endpoint, words, lasting) => {
      const failure = describeForwardFailure(await failureOf(await endpoint()));
      expect(failure).toMatchObject({ words, lasting });
    },
  );

  it.each([
    [
      'a TLS alert from the server',
      Object.assign(
        new Error(
          'write EPROTO 801C6CB7:error:0A00042E:SSL routines:ssl3_read_bytes:tlsv1 alert protocol version:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 70\n',
        ),
        { code: 'EPROTO' },
      ),
      'TLS handshake refused by the server (protocol version)',
    ],
    [
      'a client certificate required',
      Object.assign(
        new Error(
          '801C6CB7:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 116\n',
        ),
        { code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' },
      ),
      'TLS handshake refused by the server (certificate required)',
    ],
    [
      'a certificate for another name',
      Object.assign(
        new Error(
          "Hostname/IP does not match certificate's altnames: IP: 127.0.0.1 is not in the cert's list: ",
        ),
        { code: 'ERR_TLS_CERT_ALTNAME_INVALID' },
      ),
      "certificate not accepted: Hostname/IP does not match certificate's altnames: IP: 127.0.0.1 is not in the cert's list",
    ],
    [
      'an expired certificate',
      Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }),
      'certificate not accepted: certificate has expired',
    ],
    [
      'no DNS answer',
      Object.assign(new Error('getaddrinfo EAI_AGAIN hooks.example'), {
        code: 'EAI_AGAIN',
        hostname: 'hooks.example',
      }),
      'no DNS answer for hooks.example',
    ],
    ['an unknown failure over two lines', new Error('something odd\nat its second line'), 'something odd'],
  ])('%s: one readable line, nothing of OpenSSL', (_what, error, words) => {
    expect(describeForwardFailure(error).words).toBe(words);
  });
});
