// Closing the transport at the end of a run: a request still in flight is stopped; an idle kept-alive connection is
// let go, not destroyed (destroying a socket makes Node build the stderr stream, which a quiet run never needs):
// it keeps no process alive, and the server or the process's end closes it.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { NodeTransport } from '../../../src/core/http/transport.js';
import { readCapped } from '../../../src/core/http/transport/exchange.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

async function serve(answer: boolean): Promise<{ origin: string; connections: () => number }> {
  let open = 0;
  server = createServer((_req, res) => (answer ? res.end('{}') : undefined));
  server.keepAliveTimeout = 60_000; // the server would hold an idle connection for a minute
  server.on('connection', (socket) => {
    open++;
    socket.on('close', () => open--);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => open };
}

it('leaves an idle kept-alive connection open, and it keeps no process alive', async () => {
  const { origin, connections } = await serve(true);
  const transport = new NodeTransport();
  const response = await transport.request({ origin, path: '/', method: 'GET', headers: {} });
  await readCapped(response.body, origin, 1024);
  await transport.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(connections()).toBe(1); // not destroyed

  // A process that asks once and closes ends at once, though the server would keep the connection for a minute (were
  // the socket still keeping it alive, the child would wait that minute and the test time out).
  const code = `
    const { NodeTransport } = await import(${JSON.stringify(new URL('../../../dist/core/http/transport.js', import.meta.url).href)});
    const { readCapped } = await import(${JSON.stringify(new URL('../../../dist/core/http/transport/exchange.js', import.meta.url).href)});
    const transport = new NodeTransport();
    const response = await transport.request({ origin: ${JSON.stringify(origin)}, path: '/', method: 'GET', headers: {} });
    await readCapped(response.body, 'x', 1024);
    await transport.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'inherit' });
  const exitCode = await new Promise((resolve) => child.on('exit', resolve));
  expect(exitCode).toBe(0);
});

it('stops a request still in flight', async () => {
  const { origin, connections } = await serve(false);
  const transport = new NodeTransport();
  const pending = transport.request({ origin, path: '/', method: 'GET', headers: {} });
  await expect.poll(connections).toBe(1);
  await transport.close();
  await expect(pending).rejects.toThrow();
  await expect.poll(connections).toBe(0);
});
