// The multipart body's promise of length: bytes sent equal the declared Content-Length, or the stream fails at once.
import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { multipartBody } from '../../../src/core/http/transport/multipart.js';
import { tempDir } from '../../helpers/temp-dir.js';

async function drain(body: ReturnType<typeof multipartBody>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body.open()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('multipartBody', () => {
  it('sends exactly the declared length, a file grown since it was checked cut to its checked size', async () => {
    const file = join(await tempDir('clinic-multipart-'), 'note.ogg');
    await writeFile(file, 'x'.repeat(100));
    const body = multipartBody([{ name: 'file', path: file, filename: 'note.ogg', size: 100 }]);
    expect((await drain(body)).length).toBe(body.length);
    await writeFile(file, 'y'.repeat(300));
    const grown = await drain(body);
    expect(grown.length).toBe(body.length);
    expect(grown.toString()).toContain('y'.repeat(100) + '\r\n');
  });

  it('fails at once when the file shrank since it was checked, instead of sending less than declared', async () => {
    const file = join(await tempDir('clinic-multipart-'), 'note.ogg');
    await writeFile(file, 'x'.repeat(100));
    const body = multipartBody([{ name: 'file', path: file, filename: 'note.ogg', size: 100 }]);
    await truncate(file, 40);
    await expect(drain(body)).rejects.toThrow(/changed while it was being sent/);
  });
});
