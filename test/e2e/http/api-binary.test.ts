// `clinic api` is the way to a request the API document does not show (a PDF whose path is assumed): an answer that
// is neither JSON nor text goes to stdout byte for byte (decoded as UTF-8 it lost every byte that is not), never to a
// terminal. A real node:http server answers; the CLI is spawned as a user runs it.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/in-process.js';

/** A PDF's head, then every byte value: most of them are not UTF-8 on their own. */
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.endsWith('/pdf'))
      return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF);
    if (req.url?.endsWith('/json-labelled-binary'))
      return void res
        .writeHead(200, { 'content-type': 'application/octet-stream' })
        .end('{"data":{"email":"x@y"}}');
    if (req.url?.endsWith('/deep'))
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`${'['.repeat(800)}${']'.repeat(800)}`);
    if (req.url?.endsWith('/endless')) {
      // A binary answer that never ends, as fast as the pipe takes it.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(1024 * 1024, 7);
      const more = () => {
        while (res.write(chunk));
      };
      res.on('drain', more);
      req.socket.on('close', () => res.off('drain', more));
      return more();
    }
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('plain\u001b[2J text');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function api(
  path: string,
  ...extra: string[]
): Promise<{ code: number | null; stdout: Buffer; stderr: string; bytes: number }> {
  const env = {
    ...baseEnv(await tempConfigDir()),
    CLINIC_BASE_URL: baseUrl,
    CLINIC_TOKEN: 'tok',
    CLINIC_TENANT: '1',
  };
  const child = spawn(process.execPath, [BIN, 'api', path, ...extra], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  let stderr = '';
  let bytes = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes <= 1024 * 1024) out.push(chunk); // counted, not kept: an endless answer is measured, not held
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout: Buffer.concat(out), stderr, bytes };
}

describe('clinic api and an answer that is not text', () => {
  it('a PDF into a pipe: the very bytes the server sent', async () => {
    const result = await api('/v1/ai-reports/1/pdf');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.equals(PDF)).toBe(true);
  });

  it('with --jq, an answer that is not JSON is refused unread (exit 1): the server does not decide whether the filter runs', async () => {
    const result = await api('/v1/json-labelled-binary', '--jq', '.data.email');
    expect(result.code).toBe(1);
    expect(result.stdout.length).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(
      'error: the answer is application/octet-stream, not JSON: --jq cannot filter it; nothing was written',
    );
  });

  it('an answer that never ends stops at 256 MiB (exit 1), said so', async () => {
    const result = await api('/v1/endless');
    expect(result.code).toBe(1);
    expect(result.bytes).toBeLessThanOrEqual(256 * 1024 * 1024);
    expect(result.stderr).toContain('the answer is larger than 256 MiB: refused');
  }, 60_000);

  it('JSON nested 800 deep through --jq: refused in one line (jq ran out of its stack), exit 1', async () => {
    const result = await api('/v1/deep', '--jq', '.');
    expect(result.code).toBe(1);
    expect(result.stdout.length).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(
      'error: --jq: the output nests arrays and objects more than 512 levels deep: not filtered',
    );
  });

  it('a PDF to a terminal: refused (exit 1), nothing written', async () => {
    const result = await runInProcess(['api', '/v1/ai-reports/1/pdf'], {
      tty: true,
      env: { CLINIC_BASE_URL: baseUrl, CLINIC_TOKEN: 'tok', CLINIC_TENANT: '1' },
    });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(
      'error: the answer is application/pdf, not text: it is not written to a terminal; redirect stdout to a file ' +
        '(clinic api PATH > FILE)',
    );
  });

  it('text: shown as before, its control characters made harmless on a terminal', async () => {
    const piped = await api('/v1/notes');
    expect(piped.stdout.toString()).toBe('plain\u001b[2J text\n');
    const shown = await runInProcess(['api', '/v1/notes'], {
      tty: true,
      env: { CLINIC_BASE_URL: baseUrl, CLINIC_TOKEN: 'tok', CLINIC_TENANT: '1' },
    });
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toContain('\u001b');
    expect(shown.stdout).toContain('plain');
  });
});
