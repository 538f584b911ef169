// Saves a PDF download: streamed to a temporary file beside the target and renamed into place only when the answer
// is a success whose body starts with `%PDF-`; `-` streams it to stdout (never to a terminal).
import { randomBytes } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { access, lstat, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CancelledError, NetworkError, UsageError } from '../core/errors.js';
import type { ApiRequest, HttpClient } from '../core/http/client.js';
import { backoffMs, shouldRetryNetworkError } from '../core/http/retry-policy.js';
import { describeNetworkError } from '../core/http/transport/describe-error.js';
import { MAX_PDF_BYTES } from '../core/limits.js';
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

/** The answer's body failed after its headers (a reset, a silence past the timeout): the download was cut off. */
class CutOff extends Error {
  constructor(
    readonly reason: unknown,
    /** Part of the PDF already went to stdout: fetching it again would write that part twice. */
    readonly partial: boolean,
  ) {
    super(describeNetworkError(reason));
  }
}

/**
 * Downloads the PDF into the target. The client retries what fails before the body; a body cut off midway is
 * fetched again here the same way (resets and timeouts of a GET, --max-retries, the same back-off), and when it is
 * given up, said in one line as the client says a reset.
 */
export async function downloadPdf(ctx: Context, request: ApiRequest, target: DownloadTarget, what: string) {
  const client = await ctx.http();
  const { maxRetries } = ctx.globals;
  for (let attempt = 0; ; attempt++) {
    try {
      await downloadOnce(ctx, client, request, target, what);
      break;
    } catch (error) {
      if (!(error instanceof CutOff)) throw error;
      const retry =
        attempt < maxRetries && !error.partial && shouldRetryNetworkError(error.reason, request.method);
      if (!retry) {
        const { origin } = client.prepare(request);
        const left = error.partial ? 'the PDF written to stdout is incomplete' : 'nothing was saved';
        throw new NetworkError(`cannot reach ${origin}: ${error.message} while downloading ${what}; ${left}`);
      }
      const ms = backoffMs(attempt);
      ctx.io.err(
        `${error.message} while downloading ${what}; retrying in ${ms / 1000}s (retry ${attempt + 1} of ${maxRetries})`,
      );
      await ctx.clock.sleep(ms, ctx.signal).catch(() => {
        throw new CancelledError('interrupted');
      });
    }
  }
  if (target.file !== '-') ctx.io.err(`saved ${what} to ${target.file}`);
}

/** One download: the request (with the client's retries), then its body through the gate into the target. */
async function downloadOnce(
  ctx: Context,
  client: HttpClient,
  request: ApiRequest,
  target: DownloadTarget,
  what: string,
): Promise<void> {
  const response = await client.stream({
    ...request,
    headers: { accept: 'application/pdf, application/json;q=0.9', ...request.headers },
  });
  let written = false;
  const gate = pdfGate(what, () => (written = true));
  // A failure of the body itself is a cut-off; the gate's and the file's are not the network's, and stay as they are.
  async function* cutOffs(source: AsyncIterable<Buffer>) {
    try {
      yield* source;
    } catch (error) {
      throw new CutOff(error, target.file === '-' && written);
    }
  }
  const body = Readable.from(cutOffs(response.body));
  const failure = (error: unknown) => (ctx.signal.aborted ? new CancelledError('interrupted') : error);
  if (target.file === '-') {
    await pipeline(body, gate, ctx.io.streams.stdout, { end: false }).catch((error: unknown) => {
      throw failure(error);
    });
    return;
  }
  const temp = join(dirname(target.file), `.${basename(target.file)}.${randomBytes(4).toString('hex')}.part`);
  try {
    const file = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
    await pipeline(body, gate, file, { signal: ctx.signal });
    await rename(temp, target.file);
  } catch (error) {
    await rm(temp, { force: true });
    throw failure(error);
  }
}
