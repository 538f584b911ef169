// Saves a PDF download: streamed to a temporary file beside the target and renamed into place only when the answer
// is a success whose body starts with `%PDF-`; `-` streams it to stdout (never to a terminal).
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NetworkError, UsageError } from '../core/errors.js';
import type { ApiRequest } from '../core/http/client.js';
import type { Context } from './context.js';

const PDF_MAGIC = Buffer.from('%PDF-');

export interface DownloadTarget {
  /** A path, or `-` for stdout. */
  file: string;
  force: boolean;
}

/** Checked before any request: an existing file needs --force; a PDF is never written to a terminal. */
export async function checkTarget(ctx: Context, target: DownloadTarget): Promise<void> {
  if (target.file === '-') {
    if (ctx.io.stdoutIsTTY)
      throw new UsageError('-O - would write a PDF to the terminal: redirect stdout to a file');
    return;
  }
  const existing = await lstat(target.file).catch(() => undefined);
  if (existing?.isDirectory())
    throw new UsageError(`${target.file} is a directory: give a file name with -O`);
  if (existing && !target.force) throw new UsageError(`${target.file} exists: pass --force to overwrite it`);
}

/** Passes bytes through once the first five are `%PDF-`; anything else fails before a byte is written. */
function pdfGate(what: string): Transform {
  let head = Buffer.alloc(0);
  let open = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (open) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < PDF_MAGIC.length) return done();
      if (!head.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC))
        return done(new NetworkError(`the server's answer for ${what} is not a PDF; nothing was saved`));
      open = true;
      done(null, head);
    },
    flush(done: TransformCallback) {
      if (!open)
        return done(new NetworkError(`the server's answer for ${what} is not a PDF; nothing was saved`));
      done();
    },
  });
}

export async function downloadPdf(ctx: Context, request: ApiRequest, target: DownloadTarget, what: string) {
  const client = await ctx.http();
  const response = await client.stream({
    ...request,
    headers: { accept: 'application/pdf, application/json;q=0.9', ...request.headers },
  });
  const body = Readable.from(response.body);
  if (target.file === '-') {
    await pipeline(body, pdfGate(what), ctx.io.streams.stdout, { end: false });
    return;
  }
  const temp = join(dirname(target.file), `.${basename(target.file)}.${randomBytes(4).toString('hex')}.part`);
  try {
    await pipeline(body, pdfGate(what), createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
    await rename(temp, target.file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  ctx.io.err(`saved ${what} to ${target.file}`);
}
