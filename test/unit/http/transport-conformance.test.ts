// The real transport against a local server: deadlines, abort, a reset mid-body, the size cap, compressed answers,
// redirects, a multipart upload, a fresh connection's timings and the WebSocket upgrade probe.
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { urlToHttpOptions } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NetworkError } from '../../../src/core/errors.js';
import { NodeTransport, originOptions } from '../../../src/core/http/transport.js';
import { exchange, type ExchangeOptions } from '../../../src/core/http/transport/exchange.js';
import { probe } from '../../../src/core/http/transport/fresh-connection.js';
import { multipartBody } from '../../../src/core/http/transport/multipart.js';
import { probeUpgrade } from '../../../src/core/http/transport/upgrade.js';

const transport = new NodeTransport();
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const defaults: ExchangeOptions = { idleMs: 5000, deadlineMs: 5000, maxBytes: 1024 * 1024 };
const get = (origin: string, options: Partial<ExchangeOptions> = {}, path = '/x') =>
  exchange(transport, { origin, path, method: 'GET', headers: {} }, { ...defaults, ...options });

describe('the transport', () => {
  it('sends the path as it is and reads the answer', async () => {
    let target: string | undefined;
    const origin = await serve((req, res) => {
      target = req.url;
      res.end('{"a":1}');
    });
    const answer = await get(origin, {}, '/api/v1/x?q=1');
    expect(answer).toMatchObject({ status: 200, text: '{"a":1}' });
    expect(target).toBe('/api/v1/x?q=1');
  });

  it('no headers within the idle time: timed out', async () => {
    const origin = await serve(() => {});
    const error = await get(origin, { idleMs: 300, deadlineMs: undefined }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('ETIMEDOUT');
  });

  it('a body that trickles for ever ends at the whole-exchange deadline', async () => {
    const origin = await serve((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const error = await get(origin, { deadlineMs: 400 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CLINIC_DEADLINE', message: 'no complete answer within 0.4s' });
  });

  it('a body that goes silent ends at the idle time', async () => {
    const origin = await serve((_req, res) => res.writeHead(200).write('{'));
    const error = await get(origin, { idleMs: 300, deadlineMs: undefined }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('ETIMEDOUT');
  });

  it('an abort stops the request in flight with the signal’s reason', async () => {
    const origin = await serve(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 100);
    const error = await get(origin, { signals: [controller.signal] }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('stop');
  });

  it('any of its signals stops it, and none keeps a listener once an exchange is over', async () => {
    const listening = new Map<AbortSignal, number>();
    const watched = () => {
      const signal = new AbortController().signal;
      const add = signal.addEventListener.bind(signal);
      const remove = signal.removeEventListener.bind(signal);
      listening.set(signal, 0);
      signal.addEventListener = (...args: Parameters<typeof add>) => {
        listening.set(signal, listening.get(signal)! + 1);
        add(...args);
      };
      signal.removeEventListener = (...args: Parameters<typeof remove>) => {
        listening.set(signal, listening.get(signal)! - 1);
        remove(...args);
      };
      return signal;
    };
    const origin = await serve((req, res) => (req.url === '/silent' ? undefined : res.end('{}')));
    for (const deadlineMs of [5000, undefined]) {
      const signals = [watched(), undefined, watched()];
      expect((await get(origin, { signals, deadlineMs })).text).toBe('{}');
      expect([...listening.values()].filter((count) => count !== 0)).toEqual([]);
    }
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('second')), 100);
    const error = await get(origin, { signals: [watched(), controller.signal] }, '/silent').catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('second');
    const already = AbortSignal.abort(new Error('before'));
    const early = await get(origin, { signals: [watched(), already] }).catch((e: unknown) => e);
    expect((early as Error).message).toBe('before');
    // Stopped or not, streamed or read, no exchange leaves a listener behind.
    const stopping = new AbortController();
    setTimeout(() => stopping.abort(new Error('third')), 100);
    const streamed = get(origin, { signals: [watched(), stopping.signal], stream: true }, '/silent');
    expect(((await streamed.catch((e: unknown) => e)) as Error).message).toBe('third');
    expect([...listening.values()].filter((count) => count !== 0)).toEqual([]);
  });

  it('exchanges side by side share one deadline timer and one listener per signal, and each still ends alone', async () => {
    const origin = await serve((req, res) => (req.url === '/silent' ? undefined : res.end('{}')));
    const run = new AbortController();
    const add = vi.spyOn(run.signal, 'addEventListener');
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => get(origin, { signals: [run.signal], deadlineMs: 5000 })),
      );
      expect(answers.map((answer) => answer.text)).toEqual(Array(20).fill('{}'));
      expect(add).toHaveBeenCalledTimes(1);
      // One at most: none when an earlier exchange's timer, still armed for a sooner deadline, serves these too.
      expect(timers.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      timers.mockRestore();
      add.mockRestore();
    }
    // A short deadline among long ones ends its own exchange, in time; the others are answered.
    const started = Date.now();
    const [late, ...answered] = await Promise.allSettled([
      get(origin, { signals: [run.signal], deadlineMs: 200 }, '/silent'),
      ...Array.from({ length: 3 }, () => get(origin, { signals: [run.signal], deadlineMs: 60_000 })),
    ]);
    expect(late).toMatchObject({ status: 'rejected', reason: { code: 'CLINIC_DEADLINE' } });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answered.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
  });

  it("an origin's request options are node:url's own for it", () => {
    for (const origin of [
      'http://127.0.0.1:8080',
      'https://api.example.com',
      'http://[::1]:3000',
      'https://[2001:db8::1]',
      'http://localhost',
      'https://xn--bcher-kva.example:8443',
    ]) {
      const { protocol, hostname, port } = urlToHttpOptions(new URL(origin));
      expect(originOptions(origin)).toEqual({ protocol, hostname, ...(port === undefined ? {} : { port }) });
    }
  });

  it('a reset mid-body reaches the reader', async () => {
    const origin = await serve((req, res) => {
      res.writeHead(200, { 'content-length': '1000' }).write('partial');
      setTimeout(() => (req.socket as Socket).resetAndDestroy(), 50);
    });
    const error = await get(origin).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as { code?: string }).code ?? (error as Error).message).toMatch(
      /ECONNRESET|aborted|cut off/,
    );
  });

  it('a body over the cap is refused, declared or not', async () => {
    const origin = await serve((req, res) => {
      if (req.url === '/declared') return res.end('x'.repeat(5000));
      res.writeHead(200);
      res.end('x'.repeat(5000)); // chunked: no content-length
    });
    for (const path of ['/declared', '/chunked']) {
      const error = await get(origin, { maxBytes: 1024 }, path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).toMatch(/larger than .* MiB; refusing to read it/);
    }
  });

  it.each(['gzip', 'br'])('a %s body is refused, and identity was asked for', async (coding) => {
    let asked: string | undefined;
    const origin = await serve((req, res) => {
      asked = req.headers['accept-encoding'];
      res.writeHead(200, { 'content-encoding': coding }).end(gzipSync('{}'));
    });
    const headers = { 'accept-encoding': 'identity' };
    const error = await exchange(transport, { origin, path: '/x', method: 'GET', headers }, defaults).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain(`sent a compressed answer (Content-Encoding: ${coding})`);
    expect(asked).toBe('identity');
  });

  it('a redirect is handed back, not followed', async () => {
    let hits = 0;
    const origin = await serve((_req, res) => {
      hits++;
      res.writeHead(302, { location: '/elsewhere' }).end();
    });
    const answer = await get(origin);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/elsewhere');
    expect(hits).toBe(1);
  });

  it('a multipart upload arrives intact, with its length declared', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clinic-multipart-'));
    try {
      const file = join(dir, 'note "1".ogg');
      const content = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
      await writeFile(file, content);
      let received: { length?: string; bytes?: number; type?: string; form?: FormData } = {};
      const origin = await serve(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks);
        const type = req.headers['content-type'];
        const form = await new Response(body, { headers: { 'content-type': type ?? '' } }).formData();
        received = { length: req.headers['content-length'], bytes: body.length, type, form };
        res.end('{}');
      });
      const body = multipartBody([
        { name: 'file', path: file, filename: 'note "1".ogg', size: content.length },
      ]);
      const answer = await exchange(
        transport,
        { origin, path: '/up', method: 'POST', headers: {}, body },
        defaults,
      );
      expect(answer.status).toBe(200);
      expect(received.length).toBe(String(body.length));
      expect(received.bytes).toBe(body.length);
      expect(received.type).toMatch(/^multipart\/form-data; boundary=/);
      const part = received.form?.get('file') as File;
      expect(part.name).toBe('note "1".ogg'); // escaped on the wire, read back as it was
      expect(Buffer.from(await part.arrayBuffer()).equals(content)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the fresh-connection request (doctor)', () => {
  it('times the connection and reads only the headers', async () => {
    const origin = await serve((_req, res) => res.writeHead(204, { date: new Date().toUTCString() }).end());
    const answer = await probe(new URL(`${origin}/api/v1/account`), {
      timeoutMs: 2000,
      userAgent: 't',
      now: () => Date.now(),
    });
    expect(answer.status).toBe(204);
    expect(answer.address).toBe('127.0.0.1');
    expect(answer.dnsMs).toBeUndefined(); // an IP address: no lookup
    expect(answer.connectMs).toBeGreaterThanOrEqual(0);
    expect(answer.totalMs).toBeGreaterThanOrEqual(answer.connectMs!);
    expect(answer.headers.date).toBeDefined();
  });

  it('a refused connection fails at the connect stage, in words', async () => {
    const origin = await serve(() => {});
    server!.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const error = await probe(new URL(`${origin}/x`), {
      timeoutMs: 2000,
      userAgent: 't',
      now: () => Date.now(),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ stage: 'connect', code: 'ECONNREFUSED' });
    expect((error as Error).message).toMatch(/^cannot connect to 127\.0\.0\.1:\d+: connection refused$/);
    server = undefined;
  });
});

describe('the upgrade probe (doctor)', () => {
  it('101: upgraded', async () => {
    const origin = await serve((_req, res) => res.end());
    server!.on('upgrade', (_req, socket: Socket) =>
      socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'),
    );
    expect(await probeUpgrade(origin.replace('http', 'ws'), { timeoutMs: 2000 })).toEqual({ upgraded: true });
  });

  it('a plain HTTP answer: says so', async () => {
    const origin = await serve((_req, res) => res.writeHead(400).end());
    server!.on('upgrade', (_req, socket: Socket) =>
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'),
    );
    expect(await probeUpgrade(origin.replace('http', 'ws'), { timeoutMs: 2000 })).toEqual({
      upgraded: false,
      problem: 'answered HTTP 400 instead of a WebSocket',
      status: 400,
    });
  });

  it('a 503 answer: its status goes with the words (doctor tells a passing failure by it)', async () => {
    const origin = await serve((_req, res) => res.writeHead(503).end());
    server!.on('upgrade', (_req, socket: Socket) =>
      socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n'),
    );
    expect(await probeUpgrade(origin.replace('http', 'ws'), { timeoutMs: 2000 })).toEqual({
      upgraded: false,
      problem: 'answered HTTP 503 instead of a WebSocket',
      status: 503,
    });
  });

  it('refused: connection refused', async () => {
    const origin = await serve(() => {});
    server!.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    server = undefined;
    expect(await probeUpgrade(origin.replace('http', 'ws'), { timeoutMs: 2000 })).toEqual({
      upgraded: false,
      problem: 'connection refused',
      code: 'ECONNREFUSED',
    });
  });
});
