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
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('plain\u001b[2J text');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function api(path: string): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const env = {
    ...baseEnv(await tempConfigDir()),
    CLINIC_BASE_URL: baseUrl,
    CLINIC_TOKEN: 'tok',
    CLINIC_TENANT: '1',
  };
  const child = spawn(process.execPath, [BIN, 'api', path], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout: Buffer.concat(out), stderr };
}

describe('clinic api and an answer that is not text', () => {
  it('a PDF into a pipe: the very bytes the server sent', async () => {
    const result = await api('/v1/ai-reports/1/pdf');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.equals(PDF)).toBe(true);
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
