// A multipart/form-data body streamed from disk, with its length known before a byte is sent (Content-Length, so
// the server can refuse an oversize upload at once, and no chunked encoding).
import { createReadStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

export interface FilePart {
  /** The form field's name. */
  name: string;
  path: string;
  /** The file name the server is told. */
  filename: string;
  /** In bytes, as found when the file was checked (see upload-file.ts). */
  size: number;
}

export interface MultipartBody {
  readonly contentType: string;
  readonly length: number;
  /** The body, from its first byte: each file read from disk as it is sent. */
  open(): Readable;
}

/** Quotes and line breaks in a name would end the header early: escaped as browsers (and undici) do. */
const quoted = (text: string) => text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

export function multipartBody(files: FilePart[]): MultipartBody {
  const boundary = `----clinic${randomBytes(12).toString('hex')}`;
  const heads = files.map((file) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.name)}"; ` +
        `filename="${quoted(file.filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
  );
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = files.reduce((sum, file, i) => sum + heads[i]!.length + file.size + 2, tail.length);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    open: () =>
      Readable.from(
        (async function* () {
          for (const [i, file] of files.entries()) {
            yield heads[i]!;
            // The size is read once, when checked: a file that grew since then is cut to it; one that shrank fails
            // here, at once, rather than leave the server waiting for bytes the Content-Length promised.
            let sent = 0;
            for await (const chunk of createReadStream(file.path, { end: file.size - 1 })) {
              sent += (chunk as Buffer).length;
              yield chunk as Buffer;
            }
            if (sent < file.size)
              throw new Error(`${file.path} changed while it was being sent: nothing more was sent`);
            yield Buffer.from('\r\n');
          }
          yield tail;
        })(),
        { objectMode: false },
      ),
  };
}
