// Reads a JSON request body with a size cap, answering 413 for oversize and 400 for malformed JSON.
import type { IncomingMessage } from 'node:http';
import { ApiError, legacyError, plainError } from './responses.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The parsed body, or undefined for an empty one. */
export async function readJsonBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const text = await readText(req, maxBytes);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(legacyError(400, 'Invalid JSON payload.'));
  }
}

function readText(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining past the cap (without storing) so the client sees the 413 rather than a broken pipe.
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > maxBytes) reject(new ApiError(plainError(413, 'The request body is too large.')));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}
