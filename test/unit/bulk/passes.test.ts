// The two passes of a bulk run: what is sent is what was checked. A second pass that finds fewer records (an input
// consumed by the first pass, a file cut short) or other ones (a file rewritten in place) never ends in exit 0.
import { appendFile, rename, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../../src/core/bulk/journal.js';
import { type CheckedInput, checkInput, prepareJournal, runBulk } from '../../../src/core/bulk/run.js';
import { BULK_SCHEMAS } from '../../../src/core/bulk/schemas.js';
import { type BulkSource, openSource } from '../../../src/core/bulk/source.js';
import { OutcomeError } from '../../../src/core/errors.js';
import type { HttpClient } from '../../../src/core/http/client.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/** Where the runs send (a resume elsewhere is refused: e2e/bulk). */
const TARGET = { baseUrl: 'http://127.0.0.1:1/api', tenant: '1' };

const dir = useTempDir('clinic-bulk-passes-');
let runs = 0;

/** A server that creates whatever it is sent, and the bodies it was sent. */
function server() {
  const bodies: unknown[] = [];
  const client = {
    async request(request: { body?: unknown }) {
      bodies.push(request.body);
      return { json: () => ({ data: { id: bodies.length } }) };
    },
  } as unknown as HttpClient;
  return { client, bodies };
}

async function check(source: BulkSource): Promise<CheckedInput> {
  return checkInput({ schema: BULK_SCHEMAS.customers, source, format: 'ndjson', amend: (r) => r });
}

async function send(input: CheckedInput) {
  const { client, bodies } = server();
  const { journal } = await prepareJournal(join(dir.path, `journal-${++runs}`), input, 'new', TARGET);
  try {
    const summary = await runBulk({
      client,
      input,
      journal,
      retryUnknown: false,
      signal: new AbortController().signal,
      onResult: async () => undefined,
    });
    return { ...summary, bodies };
  } finally {
    await journal.close();
  }
}

const never = new AbortController().signal;

/** Writes `text` to the file `name`, checks it, lets `change` alter the file, then sends the input it checked. */
async function checkChangeSend(name: string, text: string, change: (path: string) => Promise<unknown>) {
  const path = join(dir.path, name);
  await writeFile(path, text);
  const source = await openSource(path, () => Readable.from([]), never);
  try {
    const input = await check(source);
    await change(path);
    return await send(input);
  } finally {
    await source.close();
  }
}

describe('fewer records on the second pass than on the first', () => {
  it('an input the first pass consumed (what /dev/stdin did): exit 1 saying so, never 0', async () => {
    // A source whose second pass is empty, as reading a pipe by path twice was.
    const text = '{"a":1}\n{"a":2}\n';
    const consumed: BulkSource = {
      name: '/dev/stdin',
      regular: false,
      firstPass: () => Readable.from([Buffer.from(text)]),
      reread: () => Readable.from([]),
      close: async () => undefined,
    };
    const { stoppedBy, counts, bodies } = await send(await check(consumed));
    expect(bodies).toEqual([]);
    expect(counts).toMatchObject({ done: 0, total: 2 });
    expect(stoppedBy).toBeInstanceOf(OutcomeError);
    expect((stoppedBy as Error).message).toBe(
      '/dev/stdin changed after it was checked (it is shorter than when it was checked): the rest of it was not sent',
    );
  });

  it('a file cut short between the check and the run: nothing of the block that changed is sent', async () => {
    const { stoppedBy, bodies } = await checkChangeSend('cut.ndjson', '{"a":1}\n{"a":2}\n{"a":3}\n', (path) =>
      truncate(path, 8),
    );
    expect(bodies).toEqual([]);
    expect((stoppedBy as Error).message).toBe(
      `${join(dir.path, 'cut.ndjson')} changed after it was checked (its bytes differ from offset 0): ` +
        'the rest of it was not sent',
    );
  });
});

describe('the second pass reads the bytes the first one checked', () => {
  it('what is appended after the check is not sent: the run sends the records it checked, ok', async () => {
    const { stoppedBy, bodies, counts } = await checkChangeSend(
      'grown.ndjson',
      '{"a":1}\n{"a":2}\n',
      (path) => appendFile(path, '{"a":3}\n'),
    );
    expect(stoppedBy).toBeUndefined();
    expect(bodies).toEqual([{ a: 1 }, { a: 2 }]);
    expect(counts).toMatchObject({ done: 2, ok: 2 });
  });

  it('a file replaced after the check: the run reads the file it checked (held open), not the new one', async () => {
    const { bodies } = await checkChangeSend('swapped.ndjson', '{"a":1}\n', async (path) => {
      await writeFile(`${path}.new`, '{"evil":1}\n');
      await rename(`${path}.new`, path);
    });
    expect(bodies).toEqual([{ a: 1 }]);
  });

  it('a file rewritten in place into more records than were checked: nothing of it is sent, exit 1', async () => {
    const { stoppedBy, bodies } = await checkChangeSend('rewritten.ndjson', '{"a":11111}\n', (path) =>
      writeFile(path, '{"a":1}\n{}\n \n'),
    );
    expect(bodies).toEqual([]);
    expect(stoppedBy).toBeInstanceOf(OutcomeError);
    expect((stoppedBy as Error).message).toMatch(
      /changed after it was checked \(its bytes differ from offset 0\)/,
    );
  });

  it('rewritten in place with as many records of the same size: only records made of checked bytes leave', async () => {
    // 3,000 records of 100 bytes: blocks of 256 KiB; the rewrite changes every record from the 2,000th on.
    const record = (n: number, name: string) => `${JSON.stringify({ first_name: name, n }).padEnd(99)}\n`;
    const text = Array.from({ length: 3000 }, (_, i) => record(i + 1, 'Old')).join('');
    const rewritten = Array.from({ length: 3000 }, (_, i) =>
      record(i + 1, i + 1 >= 2000 ? 'New' : 'Old'),
    ).join('');
    expect(rewritten.length).toBe(text.length);
    const { stoppedBy, bodies } = await checkChangeSend('same-size.ndjson', text, (path) =>
      writeFile(path, rewritten),
    );
    // Records 1..2621 lie wholly in the first block (262,144 bytes); record 2000 on is changed, in that block.
    expect(bodies).toEqual([]);
    expect((stoppedBy as Error).message).toMatch(/its bytes differ from offset 0\)/);
    const late = Array.from({ length: 3000 }, (_, i) => record(i + 1, i + 1 >= 2700 ? 'New' : 'Old')).join(
      '',
    );
    const second = await checkChangeSend('late.ndjson', text, (path) => writeFile(path, late));
    // The first block matched: its 2,621 whole records leave; the 2,622nd spans into the changed block and does not.
    expect(second.bodies).toHaveLength(2621);
    expect(second.bodies.every((body) => (body as { first_name: string }).first_name === 'Old')).toBe(true);
    expect((second.stoppedBy as Error).message).toMatch(/its bytes differ from offset 262144\)/);
  });
});

it('journal of a run over a non-regular input names it as given, not the temporary copy', async () => {
  const fake: BulkSource = {
    name: '/dev/fd/63',
    regular: false,
    firstPass: () => Readable.from([Buffer.from('{"a":1}\n')]),
    reread: () => Readable.from([Buffer.from('{"a":1}\n')]),
    close: async () => undefined,
  };
  const input = await check(fake);
  const { journal } = await prepareJournal(join(dir.path, 'j'), input, 'new', TARGET);
  await journal.close();
  expect((await readJournal(join(dir.path, 'j')))?.header).toMatchObject({ input: '/dev/fd/63', records: 1 });
});
