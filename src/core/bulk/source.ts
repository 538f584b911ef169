// Where a bulk run reads its records. A regular file is held open and read twice (check, then send), so both passes
// read the same file. Anything else (stdin, a pipe, a FIFO, a device, /dev/fd/N) can be read only once: the first
// pass copies it into a private temporary file, which the second pass reads. Opening never blocks (a FIFO with no
// writer yet is opened non-blocking), so Ctrl-C or SIGTERM still ends the run while it waits for input.
import {
  close as closeFd,
  constants,
  createReadStream,
  fstat,
  open as openFd,
  read as readFd,
} from 'node:fs';
import { type FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, addAbortSignal } from 'node:stream';
import { ReadStream as TtyReadStream, isatty } from 'node:tty';
import { promisify } from 'node:util';
import { CancelledError, OutcomeError } from '../errors.js';
import { BulkInputError } from './records.js';
import { systemReason } from '../system-error.js';

export interface BulkSource {
  /** What messages call it: the path as given, or `stdin` for `-`. */
  name: string;
  /** False for stdin, pipes, FIFOs, devices and sockets: they are read once, into a temporary file. */
  regular: boolean;
  /** The first pass: every byte of the input (copied to the temporary file on the way, when there is one). */
  firstPass(): AsyncIterable<Buffer>;
  /** A later pass: the first `size` bytes the first pass read (whatever was added to the input since). */
  reread(size: number): AsyncIterable<Buffer>;
  /** Closes the input and removes the temporary file. */
  close(): Promise<void>;
}

/** Paths that name this process's standard input, which may be a socket that no path can open. */
const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0', `/proc/${process.pid}/fd/0`]);

/** Opens `--from` (`-` is `stdin`) without blocking, refusing what cannot be read with a usage error. */
export async function openSource(
  from: string,
  stdin: () => Readable,
  signal: AbortSignal,
): Promise<BulkSource> {
  if (from === '-') return onceSource('stdin', stdin(), signal);
  let fd: number;
  try {
    // Non-blocking: open(2) of a FIFO with no writer would otherwise wait in a thread that no signal can end.
    fd = await promisify(openFd)(from, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A socket as standard input (as a parent process's pipe often is) cannot be opened by path: read the fd.
    if (code === 'ENXIO' && STDIN_PATHS.has(from)) return onceSource(from, stdin(), signal);
    throw new BulkInputError(from, undefined, unreadable(error, from));
  }
  let stream: Readable;
  try {
    const info = await promisify(fstat)(fd);
    if (info.isDirectory()) throw new BulkInputError(from, undefined, 'is a directory, not a file');
    if (info.isFile()) return regularSource(from, fd);
    // From here the stream owns the fd, and closes it.
    stream =
      info.isFIFO() || info.isSocket()
        ? new Socket({ fd, readable: true, writable: false, allowHalfOpen: true })
        : isatty(fd)
          ? new TtyReadStream(fd)
          : createReadStream('', { fd, autoClose: true });
  } catch (error) {
    closeFd(fd, () => undefined);
    throw error;
  }
  return onceSource(from, stream, signal);
}

function unreadable(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'ENXIO')
    return 'cannot be opened (a socket, or a device with nothing behind it): give it on stdin with --from -';
  return `cannot read it: ${systemReason(error, path)}`;
}

function regularSource(name: string, fd: number): BulkSource {
  const read = async (buffer: Buffer, position: number) =>
    (await promisify(readFd)(fd, buffer, 0, buffer.length, position)).bytesRead;
  return {
    name,
    regular: true,
    firstPass: () => bytesOf(read),
    reread: (size) => bytesOf(read, size),
    close: () => promisify(closeFd)(fd),
  };
}

const CHUNK_BYTES = 64 * 1024;

/**
 * The bytes of an open file from its start (up to `size`), by positioned reads: a reader that stops early leaves
 * the file open for the next pass (a stream would close it).
 */
async function* bytesOf(
  read: (buffer: Buffer, position: number) => Promise<number>,
  size = Infinity,
): AsyncGenerator<Buffer> {
  for (let position = 0; position < size;) {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - position));
    const count = await read(buffer, position);
    if (count === 0) return;
    position += count;
    yield buffer.subarray(0, count);
  }
}

/** An input read once: the first pass copies it, as it reads, into a file only this user can read. */
async function onceSource(name: string, input: Readable, signal: AbortSignal): Promise<BulkSource> {
  const dir = await mkdtemp(join(tmpdir(), 'clinic-bulk-'));
  let spool: FileHandle;
  try {
    spool = await open(join(dir, 'input'), 'wx+', 0o600);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const close = async () => {
    input.destroy();
    await spool.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  return {
    name,
    regular: false,
    async *firstPass() {
      addAbortSignal(signal, input);
      try {
        for await (const chunk of input as AsyncIterable<Buffer | string>) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          // writeFile, not write: it writes the whole chunk however many write(2) calls that takes.
          await spool.writeFile(bytes).catch((error: NodeJS.ErrnoException) => {
            throw new OutcomeError(
              `cannot copy ${name} to a temporary file (${error.code ?? error.message})`,
            );
          });
          yield bytes;
        }
      } catch (error) {
        if (signal.aborted) throw new CancelledError('interrupted while reading the input: nothing was sent');
        if (error instanceof OutcomeError) throw error;
        throw new BulkInputError(name, undefined, unreadable(error, name));
      }
    },
    reread: (size) =>
      bytesOf(
        async (buffer, position) => (await spool.read(buffer, 0, buffer.length, position)).bytesRead,
        size,
      ),
    close,
  };
}
