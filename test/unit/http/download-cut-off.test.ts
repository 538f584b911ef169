// A PDF download whose answer is cut off after its headers (the server resets the connection mid-body): retried as
// any GET is (--max-retries, the back-off), one clear line when it gives up, and never a partial file. The CLI runs
// in-process over its real transport against a node:http server that cuts off the first answers.
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../../helpers/fake-clock.js';
import { runInProcess } from '../../helpers/in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const PDF = `%PDF-1.4\n${'x'.repeat(2000)}\n%%EOF\n`;

const dir = useTempDir('clinic-download-');
let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  return new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

/**
 * Serves GET `path`: the first `cutOff` answers send the headers (the whole length announced) and `sent` bytes of
 * the PDF, then reset the connection (or, with `stall`, send nothing more); the next ones send it whole. Every other
 * path is an erasure request record.
 */
async function start(path: string, cutOff: number, sent = 1000, stall = false) {
  const seen: string[] = [];
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url !== `/api${path}`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const allows = { certificate: true };
      return res.end(
        JSON.stringify({ success: true, data: { id: 4, status: 'completed', state_allows: allows } }),
      );
    }
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF.length) });
    if (seen.filter((line) => line.endsWith(path)).length > cutOff) return res.end(PDF);
    res.write(PDF.slice(0, sent), () => stall || setTimeout(() => res.socket?.resetAndDestroy(), 20));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return { origin, seen };
}

async function clinic(origin: string, argv: string[]) {
  const clock = fakeClock();
  const env = {
    CLINIC_CONFIG_DIR: join(dir.path, 'config'),
    CLINIC_BASE_URL: `${origin}/api`,
    CLINIC_TOKEN: 'tok',
    CLINIC_TENANT: '1',
  };
  return { ...(await runInProcess(argv, { env, clock })), sleeps: clock.sleeps };
}

/** `ai-reports pdf 1 -O r.pdf` in the test's folder, with `more` arguments. */
const saveReport = (origin: string, ...more: string[]) =>
  clinic(origin, ['ai-reports', 'pdf', '1', '-O', join(dir.path, 'r.pdf'), ...more]);

/** The files of the test's folder but its config: the target and any temporary file left beside it. */
const files = async () => (await readdir(dir.path)).filter((name) => name !== 'config');

describe('a PDF download cut off mid-body', () => {
  it('is retried after the back-off, as a GET is, and saved whole', async () => {
    const { origin, seen } = await start('/v1/ai-reports/1/pdf', 2);
    const target = join(dir.path, 'r.pdf');
    const result = await clinic(origin, ['ai-reports', 'pdf', '1', '-O', target]);
    expect(result.stderr).toBe(
      'connection reset while downloading AI report 1; retrying in 1s (retry 1 of 4)\n' +
        'connection reset while downloading AI report 1; retrying in 2s (retry 2 of 4)\n' +
        `saved AI report 1 to ${target}\n`,
    );
    expect(result.code).toBe(0);
    expect(result.sleeps).toEqual([1000, 2000]);
    expect(seen).toEqual(Array(3).fill('GET /api/v1/ai-reports/1/pdf'));
    expect(await readFile(target, 'utf8')).toBe(PDF);
    expect(await files()).toEqual(['r.pdf']);
  });

  it('gives up after --max-retries with one clear line, exit 1, and no file at all', async () => {
    const { origin, seen } = await start('/v1/ai-reports/1/pdf', Infinity);
    const result = await saveReport(origin, '--max-retries', '1');
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n').at(-2)).toBe(
      `error: cannot reach ${origin}: connection reset while downloading AI report 1; nothing was saved`,
    );
    expect(result.stderr).not.toMatch(/aborted/);
    expect(seen).toHaveLength(2);
    expect(result.sleeps).toEqual([1000]);
    expect(await files()).toEqual([]);
  });

  it('is not retried with --max-retries 0', async () => {
    const { origin, seen } = await start('/v1/ai-reports/1/pdf', Infinity);
    const result = await saveReport(origin, '--max-retries', '0');
    expect(result).toMatchObject({
      code: 1,
      stderr: `error: cannot reach ${origin}: connection reset while downloading AI report 1; nothing was saved\n`,
    });
    expect(seen).toHaveLength(1);
    expect(await files()).toEqual([]);
  });

  it('a body that stops coming (past --request-timeout) is retried the same way', async () => {
    const { origin, seen } = await start('/v1/ai-reports/1/pdf', 1, 1000, true);
    const target = join(dir.path, 'r.pdf');
    const result = await clinic(origin, ['ai-reports', 'pdf', '1', '-O', target, '--request-timeout', '1']);
    expect(result.stderr).toMatch(
      /^timed out while downloading AI report 1; retrying in 1s \(retry 1 of 4\)\n/,
    );
    expect(result.code).toBe(0);
    expect(seen).toHaveLength(2);
    expect(await readFile(target, 'utf8')).toBe(PDF);
  });

  it('erasure certificate: the same', async () => {
    const { origin, seen } = await start('/v1/data-erasure-requests/4/certificate', 1);
    const target = join(dir.path, 'c.pdf');
    const result = await clinic(origin, ['erasure', 'certificate', '4', '-O', target]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^connection reset while downloading the certificate of erasure request 4; retrying in 1s/,
    );
    expect(seen.filter((line) => line.endsWith('/certificate'))).toHaveLength(2);
    expect(await readFile(target, 'utf8')).toBe(PDF);
  });

  it('shares one budget of retries with failures before the answer: --max-retries 2 is 3 requests in all', async () => {
    const seen: string[] = [];
    // Every answer fails: the odd ones before their headers, the even ones midway through the body.
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (seen.length % 2 === 1) return req.socket.resetAndDestroy();
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF.length) });
      res.write(PDF.slice(0, 1000), () => setTimeout(() => res.socket?.resetAndDestroy(), 20));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await saveReport(origin, '--max-retries', '2');
    expect(result.code).toBe(1);
    expect(seen).toHaveLength(3);
    expect(result.sleeps).toEqual([1000, 2000]);
    expect(result.stderr).toBe(
      'connection reset; retrying in 1s (retry 1 of 2)\n' +
        'connection reset while downloading AI report 1; retrying in 2s (retry 2 of 2)\n' +
        `error: cannot reach ${origin}: connection reset\n`,
    );
    expect(await files()).toEqual([]);
  });

  it('to stdout: retried while nothing was written; once part of the PDF was, said so instead of repeated', async () => {
    const early = await start('/v1/ai-reports/1/pdf', 1, 3);
    const retried = await clinic(early.origin, ['ai-reports', 'pdf', '1', '-O', '-']);
    expect(retried).toMatchObject({ code: 0, stdout: PDF });
    expect(early.seen).toHaveLength(2);
    server?.closeAllConnections();
    server?.close();

    const late = await start('/v1/ai-reports/1/pdf', 1);
    const cut = await clinic(late.origin, ['ai-reports', 'pdf', '1', '-O', '-']);
    expect(cut.code).toBe(1);
    expect(cut.stdout).toBe(PDF.slice(0, 1000));
    expect(cut.stderr).toBe(
      `error: cannot reach ${late.origin}: connection reset while downloading AI report 1; ` +
        'the PDF written to stdout is incomplete\n',
    );
    expect(late.seen).toHaveLength(1);
  });
});
