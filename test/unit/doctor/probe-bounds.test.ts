// doctor's reachability probe against hostile answers: it asks for an uncompressed answer, reads only the headers
// (an endless body after them costs nothing), and headers that trickle for ever end at its time limit.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probe, ProbeError } from '../../../src/core/http/transport/fresh-connection.js';

let server: Server | TcpServer | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const options = { timeoutMs: 1000, userAgent: 't', now: () => Date.now() };
const listen = async (s: Server | TcpServer) => {
  server = s;
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(s.address() as AddressInfo).port}/api/v1/account`);
};

describe('the doctor probe', () => {
  it('asks for identity and hangs up on an endless gzip body after reading the headers', async () => {
    let asked: string | undefined;
    const sent = { bytes: 0, hungUp: false };
    const url = await listen(
      createServer((req, res: ServerResponse) => {
        asked = req.headers['accept-encoding'];
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
        res.on('close', () => (sent.hungUp = true));
        const chunk = Buffer.alloc(64 * 1024);
        const pump = () => {
          while (!res.destroyed) {
            sent.bytes += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
        };
        pump();
      }),
    );
    const answer = await probe(url, options);
    expect(answer.status).toBe(200);
    expect(asked).toBe('identity');
    for (let i = 0; i < 100 && !sent.hungUp; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sent.hungUp).toBe(true);
    expect(sent.bytes).toBeLessThan(32 * 1024 * 1024);
  });

  it('headers trickling a byte every 200 ms end at the time limit', async () => {
    const url = await listen(
      createTcpServer((socket) => {
        const text = 'HTTP/1.1 200 OK\r\nx-slow: ' + 'a'.repeat(1000);
        let at = 0;
        const timer = setInterval(() => socket.write(text[at++ % text.length]!), 200);
        socket.on('close', () => clearInterval(timer));
        socket.on('error', () => clearInterval(timer));
      }),
    );
    const started = Date.now();
    const error = await probe(url, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProbeError);
    expect((error as ProbeError).message).toContain('within 1s');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
