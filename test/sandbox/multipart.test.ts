// The streaming multipart reader: parts, sizes and completeness, whatever the chunk boundaries.
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { readMultipart } from '../../src/sandbox/http/multipart.js';
import { ApiError } from '../../src/sandbox/http/responses.js';

function fakeRequest(contentType: string, chunks: Buffer[]): IncomingMessage {
  const stream = new PassThrough();
  Object.assign(stream, { headers: { 'content-type': contentType } });
  setImmediate(() => {
    for (const chunk of chunks) stream.write(chunk);
    stream.end();
  });
  return stream as unknown as IncomingMessage;
}

const body = Buffer.from(
  'preamble to ignore\r\n' +
    '--frontier\r\n' +
    'Content-Disposition: form-data; name="note"\r\n\r\n' +
    'hello\r\n' +
    '--frontier\r\n' +
    'Content-Disposition: form-data; name="file"; filename="v.ogg"\r\n' +
    'Content-Type: audio/ogg\r\n\r\n' +
    'ab\r\n--frontie\r\ncd\r\n' +
    '--frontier\r\n' +
    'Content-Disposition: form-data; name="empty"; filename="e.bin"\r\n\r\n' +
    '\r\n' +
    '--frontier--\r\n' +
    'epilogue',
);

const expected = {
  complete: true,
  parts: [
    { name: 'note', filename: null, contentType: null, size: 5 },
    { name: 'file', filename: 'v.ogg', contentType: 'audio/ogg', size: 17 },
    { name: 'empty', filename: 'e.bin', contentType: null, size: 0 },
  ],
};

describe('readMultipart', () => {
  it('reads names, filenames, types and sizes', async () => {
    expect(await readMultipart(fakeRequest('multipart/form-data; boundary=frontier', [body]), 1e6)).toEqual(
      expected,
    );
  });

  it('gives the same answer for every way of splitting the body in two, and byte by byte', async () => {
    const type = 'multipart/form-data; boundary="frontier"';
    for (let at = 1; at < body.length; at++) {
      const split = [body.subarray(0, at), body.subarray(at)];
      expect(await readMultipart(fakeRequest(type, split), 1e6)).toEqual(expected);
    }
    const bytes = [...body].map((byte) => Buffer.from([byte]));
    expect(await readMultipart(fakeRequest(type, bytes), 1e6)).toEqual(expected);
  });

  it('reports a body without its closing boundary as incomplete', async () => {
    const cut = body.subarray(0, body.indexOf('--frontier--'));
    const result = await readMultipart(fakeRequest('multipart/form-data; boundary=frontier', [cut]), 1e6);
    expect(result.complete).toBe(false);
  });

  it('reads nothing from a body that is not multipart', async () => {
    expect(await readMultipart(fakeRequest('application/json', [Buffer.from('{}')]), 1e6)).toEqual({
      parts: [],
      complete: false,
    });
  });

  it('gives up on a flood of parts', async () => {
    const part = '--frontier\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n';
    const flood = Buffer.from(`${part.repeat(150)}--frontier--\r\n`);
    const result = await readMultipart(fakeRequest('multipart/form-data; boundary=frontier', [flood]), 1e6);
    expect(result.complete).toBe(false);
    expect(result.parts).toHaveLength(100);
  });

  it('stops with 413 past the total cap', async () => {
    const result = readMultipart(fakeRequest('multipart/form-data; boundary=frontier', [body]), 100);
    await expect(result).rejects.toBeInstanceOf(ApiError);
    await expect(result).rejects.toMatchObject({
      response: { status: 413, headers: { Connection: 'close' } },
    });
  });
});
