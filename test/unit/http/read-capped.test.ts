// The one reader of HTTP bodies: a body in one piece is decoded where it lies, one in many pieces is joined first
// (a character may be split between two), and a body past the cap is refused either way.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCapped } from '../../../src/core/http/transport/exchange.js';

const body = (...pieces: Buffer[]) => Readable.from(pieces, { objectMode: false });

describe('readCapped', () => {
  it('reads a body in one piece or in many, whatever its characters and wherever they are split', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 60 }), fc.nat(), async (text, seed) => {
        const bytes = Buffer.from(text, 'utf8');
        expect(await readCapped(body(bytes), 'x', 1024)).toBe(text);
        const cuts = [
          ...new Set([0, bytes.length, ...[1, 2, 3].map((i) => (seed * i) % (bytes.length + 1))]),
        ];
        cuts.sort((a, b) => a - b);
        const pieces = cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
        const split = body(...pieces);
        let chunks = 0;
        split.on('data', () => chunks++);
        expect(await readCapped(split, 'x', 1024)).toBe(text);
        expect(chunks).toBe(pieces.filter((piece) => piece.length > 0).length);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a body past the cap, in one piece or in many', async () => {
    const big = Buffer.alloc(2000, 'a');
    await expect(readCapped(body(big), 'http://h/x', 1000)).rejects.toThrow(/larger than/);
    await expect(
      readCapped(body(big.subarray(0, 900), big.subarray(900)), 'http://h/x', 1000),
    ).rejects.toThrow(/larger than/);
  });
});
