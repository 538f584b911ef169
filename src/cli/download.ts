// Saves a PDF download: streamed to a temporary file beside the target and renamed into place only when the answer
// is a success whose body starts with `%PDF-`; `-` streams it to stdout (never to a terminal). And `clinic api`'s
// answers: read whole when JSON or text, else passed to stdout byte for byte.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, lstat, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NetworkError, UsageError } from '../core/errors.js';
import type { ApiRequest } from '../core/http/client.js';
import { CutOff, type DownloadSink } from '../core/http/download.js';
import { DeadlineError } from '../core/http/transport/exchange.js';
import { MAX_JSON_BYTES, MAX_PDF_BYTES } from '../core/limits.js';
import { sanitize } from './output/sanitize.js';
import type { Context } from './context.js';

const PDF_MAGIC = Buffer.from('%PDF-');

export interface DownloadTarget {
  /** A path, or `-` for stdout. */
  file: string;
  force: boolean;
}

/** Checked before any request: where the file goes must be writable, and an existing file needs --force. */
export async function checkTarget(ctx: Context, target: DownloadTarget): Promise<void> {
  if (target.file === '-') {
    if (ctx.io.stdoutIsTTY)
      throw new UsageError('-O - would write a PDF to the terminal: redirect stdout to a file');
    return;
  }
  if (/[/\\]$/.test(target.file))
    throw new UsageError(`-O ${target.file} names a directory: give a file name`);
  const existing = await lstat(target.file).catch(() => undefined);
  if (existing?.isDirectory())
    throw new UsageError(`${target.file} is a directory: give a file name with -O`);
  if (existing && !target.force) throw new UsageError(`${target.file} exists: pass --force to overwrite it`);
  // --force replaces a file (or a link, never followed): not a device, a FIFO or a socket.
  if (existing && !existing.isFile() && !existing.isSymbolicLink())
    throw new UsageError(`${target.file} is not a regular file: --force will not replace it`);
  const folder = dirname(target.file);
  const parent = await stat(folder).catch(() => undefined);
  if (!parent?.isDirectory()) throw new UsageError(`-O ${target.file}: there is no directory ${folder}`);
  try {
    await access(folder, constants.W_OK);
  } catch {
    throw new UsageError(`-O ${target.file}: the directory ${folder} is not writable`);
  }
}

/**
 * Passes bytes through once the first five are `%PDF-`; anything else fails before a byte is written, and so does a
 * PDF past MAX_PDF_BYTES (what was written goes: the temporary file, or a partial PDF on stdout, said so). `onOpen`
 * is told when the first bytes go through.
 */
function pdfGate(what: string, onOpen: () => void): Transform {
  let head = Buffer.alloc(0);
  let open = false;
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      bytes += chunk.length;
      if (bytes > MAX_PDF_BYTES)
        return done(
          new NetworkError(
            `the server's answer for ${what} is larger than ${MAX_PDF_BYTES / 1024 / 1024} MiB: refused`,
          ),
        );
      if (open) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < PDF_MAGIC.length) return done();
      if (!head.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC))
        return done(new NetworkError(`the server's answer for ${what} is not a PDF; nothing was saved`));
      open = true;
      onOpen();
      done(null, head);
    },
    flush(done: TransformCallback) {
      if (!open)
        return done(new NetworkError(`the server's answer for ${what} is not a PDF; nothing was saved`));
      done();
    },
  });
}

/**
 * Downloads the PDF into the target: the client fetches it again when its body is cut off (--max-retries in all),
 * while nothing of it was written where it cannot be taken back (part of it on stdout).
 */
export async function downloadPdf(ctx: Context, request: ApiRequest, target: DownloadTarget, what: string) {
  const client = await ctx.http();
  const sink = target.file === '-' ? stdoutSink(ctx, what) : fileSink(ctx, target.file, what);
  await client.download(
    { ...request, headers: { accept: 'application/pdf, application/json;q=0.9', ...request.headers } },
    sink,
  );
  if (target.file !== '-') ctx.io.err(`saved ${what} to ${target.file}`);
}

/** Streamed to stdout through the gate: fetched again only while nothing was written. */
function stdoutSink(ctx: Context, what: string): DownloadSink {
  let written = false;
  return {
    what,
    take: (body) =>
      pipeline(
        body,
        pdfGate(what, () => (written = true)),
        ctx.io.streams.stdout,
        { end: false },
      ),
    canStartOver: () => !written,
    leftOver: () => (written ? 'the PDF written to stdout is incomplete' : 'nothing was saved'),
  };
}

/** Into a temporary file beside the target, renamed into place when whole; removed on any failure. */
function fileSink(ctx: Context, file: string, what: string): DownloadSink {
  return {
    what,
    async take(body) {
      const temp = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.part`);
      // Made before anything is read: a stream opening it in the background could make it after a refused answer's
      // clean-up had run, and leave it behind.
      const handle = await open(temp, 'wx', 0o600);
      try {
        const out = handle.createWriteStream();
        await pipeline(
          body,
          pdfGate(what, () => {}),
          out,
          { signal: ctx.signal },
        );
        await rename(temp, file);
      } catch (error) {
        await handle.close().catch(() => {}); // closed already when its stream was
        await rm(temp, { force: true });
        throw error;
      }
    },
    canStartOver: () => true,
    leftOver: () => 'nothing was saved',
  };
}

/**
 * Where an answer's body goes. JSON and text are read whole for showBody (pretty JSON, sanitized text on a terminal),
 * within the request's deadline as every answer read whole is (a body dripping a byte a second must not hold the run
 * for ever): `deadlineMs` from its head on. Anything else (a PDF, an image) goes to stdout byte for byte, as it came,
 * as a download does: never decoded as text, which would change every byte that is not UTF-8; never to a terminal,
 * which would take its bytes for commands.
 */
export function answerSink(ctx: Context, whole: (text: string) => void, deadlineMs: number): DownloadSink {
  let written = false;
  return {
    what: 'the answer',
    async take(body, headers) {
      const type = headers['content-type'] ?? '';
      if (type === '' || /\bjson\b/i.test(type) || /^\s*text\//i.test(type)) {
        return whole(await readWithin(body, deadlineMs));
      }
      const shown = sanitize(type.split(';')[0]!.trim());
      // The server does not decide whether the user's filter runs: a body --jq cannot read is refused, unread.
      if (ctx.globals.jq !== undefined)
        throw new NetworkError(
          `the answer is ${shown}, not JSON: --jq cannot filter it; nothing was written`,
        );
      if (ctx.io.stdoutIsTTY)
        throw new NetworkError(
          `the answer is ${shown}, not text: it is not written to a terminal; ` +
            'redirect stdout to a file (clinic api PATH > FILE)',
        );
      let size = 0;
      await pipeline(
        body,
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            written = true;
            // As large as a PDF may be, and no larger: an answer that never ends does not fill the disk.
            size += chunk.length;
            if (size > MAX_PDF_BYTES)
              return done(
                new NetworkError(`the answer is larger than ${MAX_PDF_BYTES / 2 ** 20} MiB: refused`),
              );
            done(null, chunk);
          },
        }),
        ctx.io.streams.stdout,
        { end: false },
      );
    },
    canStartOver: () => !written,
    leftOver: () => (written ? 'the body written to stdout is incomplete' : 'nothing was written'),
  };
}

/**
 * A JSON or text body read whole, within `deadlineMs`: late, it is cut off at once as a silence would cut it (retried
 * where a timeout is, else said in one line), whatever the pace of what still trickles in.
 */
function readWithin(body: Readable, deadlineMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: unknown) => {
      clearTimeout(late);
      body.destroy();
      reject(error);
    };
    const late = setTimeout(() => fail(new CutOff(new DeadlineError(deadlineMs))), deadlineMs);
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_JSON_BYTES)
        fail(new NetworkError(`the answer is larger than ${MAX_JSON_BYTES / 1024 / 1024} MiB: refused`));
      else chunks.push(chunk);
    });
    body.once('end', () => {
      clearTimeout(late);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    body.once('error', fail);
  });
}
