// Reads request bodies with a size cap: JSON for the API (413 oversize, 400 malformed), forms for sign-in pages.
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

/** An application/x-www-form-urlencoded body (the sign-in and consent forms). */
export async function readFormBody(req: IncomingMessage, maxBytes = 64 * 1024): Promise<URLSearchParams> {
  return new URLSearchParams(await readText(req, maxBytes));
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
