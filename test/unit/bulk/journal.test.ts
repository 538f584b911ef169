// The bulk journal and record reader: line numbers, formats, torn tails, durability order.
import { appendFile, chmod, chown, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type JournalFile, openJournalFile } from '../../../src/core/bulk/journal-file.js';
import { Journal, readJournal } from '../../../src/core/bulk/journal.js';
import { formatOf, readRecords } from '../../../src/core/bulk/records.js';
import { BULK_SCHEMAS, checkRecord } from '../../../src/core/bulk/schemas.js';
import { UsageError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/temp-dir.js';

const header = {
  journal: 'clinic-bulk' as const,
  version: 1 as const,
  command: 'customers create',
  input: '/x.csv',
  format: 'csv',
  size: 1,
  sha256: 'ab',
  records: 3,
  created_at: '2026-01-01T00:00:00Z',
};

async function collect(text: string, format: 'csv' | 'ndjson') {
  const out = [];
  for await (const record of readRecords(Readable.from([text]), format, 'f')) out.push(record);
  return out;
}

describe('records', () => {
  it('CSV records carry the line they start on, across quoted line breaks and blank lines', async () => {
    const rows = await collect('a,b\r\n1,"x\r\ny"\r\n\r\n2,"p,q"\r\n', 'csv');
    expect(rows).toEqual([
      { line: 2, record: { a: '1', b: 'x\r\ny' } },
      { line: 5, record: { a: '2', b: 'p,q' } },
    ]);
  });

  it('NDJSON skips blank lines and names the bad line', async () => {
    expect((await collect('{"a":1}\n\n{"a":2}\n', 'ndjson')).map((r) => r.line)).toEqual([1, 3]);
    await expect(collect('{"a":1}\n{oops\n', 'ndjson')).rejects.toThrow(/^f:2: not valid JSON/);
    await expect(collect('"text"\n', 'ndjson')).rejects.toThrow(/f:1: the record is not a JSON object/);
  });

  it('the format comes from --format, else the extension; stdin needs --format', () => {
    expect(formatOf('a.CSV', undefined)).toBe('csv');
    expect(formatOf('a.jsonl', undefined)).toBe('ndjson');
    expect(formatOf('a.txt', 'csv')).toBe('csv');
    expect(() => formatOf('-', undefined)).toThrow(UsageError);
    expect(() => formatOf('a.json', undefined)).toThrow(/cannot tell the format/);
  });

  it('ids become numbers, required fields are checked', () => {
    const notes = BULK_SCHEMAS.leadNotes;
    expect(checkRecord(notes, { lead_id: '12', content: 'x', user_id: '' })).toEqual({
      record: { lead_id: 12, content: 'x' },
    });
    expect(checkRecord(notes, { lead_id: '0', content: 'x' })).toEqual({
      problem: 'lead_id must be a positive whole number, got "0"',
    });
    expect(checkRecord(notes, { lead_id: 3, content: ' ' })).toEqual({
      problem: 'missing required field content',
    });
    expect(notes.request({ lead_id: 3, content: 'x' })).toEqual({
      method: 'POST',
      path: '/v1/leads/3/notes',
      body: { content: 'x' },
    });
  });
});

describe('journal', () => {
  it('records sending before outcomes; a torn last entry is ignored and cut off before appending', async () => {
    const path = join(await tempDir('clinic-journal-'), 'x.csv.journal');
    const journal = await Journal.create(path, header, false);
    await journal.sending(2);
    journal.outcome(2, { state: 'ok', id: 7 });
    await journal.sending(3);
    await journal.close();
    await appendFile(path, '{"line":3,"state":"o'); // a crash in the middle of an append
    const read = await readJournal(path);
    expect(read?.lines.get(2)).toEqual({ state: 'ok', id: 7 });
    expect(read?.lines.get(3)).toMatchObject({ state: 'sending' });
    const again = await Journal.reopen(path, read?.validBytes ?? 0);
    again.outcome(3, { state: 'unknown', message: 'lost' });
    await again.close();
    expect((await readJournal(path))?.lines.get(3)).toEqual({ state: 'unknown', message: 'lost' });
    expect(
      (await readFile(path, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .every((l) => JSON.parse(l)),
    ).toBe(true);
  });

  it('a journal is created only once (wx), unless replaced; damage is refused', async () => {
    const path = join(await tempDir('clinic-journal-'), 'y.journal');
    await (await Journal.create(path, header, false)).close();
    await expect(Journal.create(path, header, false)).rejects.toThrow(UsageError);
    await (await Journal.create(path, header, true)).close();
    await writeFile(path, `${JSON.stringify(header)}\nnot json\n{"line":1,"state":"ok"}\n`);
    await expect(readJournal(path)).rejects.toThrow(/damaged/);
    await writeFile(path, '{"hello":1}\n');
    await expect(readJournal(path)).rejects.toThrow(/not a clinic bulk journal/);
    expect(await readJournal(`${path}.missing`)).toBeUndefined();
  });

  it.each([
    ['a state no run writes', '{"line":2,"state":"bogus"}'],
    ['a line that is not a number', '{"line":"2","state":"ok","id":7}'],
    ['no line at all', '{"state":"ok","id":7}'],
    ['line 0', '{"line":0,"state":"sending"}'],
    ['an error without its message', '{"line":2,"state":"error","http_status":422}'],
    ['an ok without its id', '{"line":2,"state":"ok"}'],
  ])(
    'an entry with %s is damage, refused naming its line (it would make its line count as never sent)',
    async (_, entry) => {
      const path = join(await tempDir('clinic-journal-'), 'd.journal');
      await writeFile(path, `${JSON.stringify(header)}\n{"line":1,"state":"sending","at":"x"}\n${entry}\n`);
      await expect(readJournal(path)).rejects.toThrow(`${path}:3: the journal is damaged`);
    },
  );
});

describe('a journal is never used through a symbolic link', () => {
  /** A journal of a resumable run, and beside it a file of the user's that a link in its place would point to. */
  async function journalAndVictim() {
    const dir = await tempDir('clinic-journal-');
    const path = join(dir, 'z.csv.journal');
    const journal = await Journal.create(path, header, false);
    await journal.sending(2);
    await journal.close();
    await appendFile(path, '{"line":2,"state":"o'); // torn: a resume cuts it off
    const victim = join(dir, 'victim');
    await writeFile(victim, `${JSON.stringify(header)}\n${'precious '.repeat(100)}\n`);
    return { path, victim, before: await readFile(victim, 'utf8') };
  }

  it('reading it (--resume, or a new run deciding whether one exists) refuses the link', async () => {
    const { path, victim } = await journalAndVictim();
    await rename(path, `${path}.real`);
    await symlink(victim, path);
    await expect(readJournal(path)).rejects.toThrow(
      /is a symbolic link; refusing to read a journal through it/,
    );
  });

  it('a link put in its place after it was read is neither cut nor appended to', async () => {
    const { path, victim, before } = await journalAndVictim();
    const read = await readJournal(path);
    await rename(path, `${path}.real`);
    await symlink(victim, path);
    await expect(Journal.reopen(path, read?.validBytes ?? 0)).rejects.toThrow(
      /is a symbolic link; refusing to append to a journal through it/,
    );
    expect(await readFile(victim, 'utf8')).toBe(before);
  });
});

describe('a journal another user could have written is never trusted', () => {
  const asRoot = process.getuid?.() === 0;
  const OTHER_USER = 65534; // nobody

  /** A resumable journal, and what it held before anything was done to it. */
  async function journal() {
    const path = join(await tempDir('clinic-journal-'), 'w.csv.journal');
    const written = await Journal.create(path, header, false);
    await written.sending(1);
    await written.close();
    return { path, before: await readFile(path, 'utf8') };
  }

  it('one others may write to (a shared folder) is refused, to read and to append to', async () => {
    const { path, before } = await journal();
    const read = await readJournal(path);
    await chmod(path, 0o666);
    await expect(readJournal(path)).rejects.toThrow(
      /w\.csv\.journal may be written by other users \(mode 666\): a journal others could have written is not trusted/,
    );
    // Made so between the read and the append: what is appended to is checked too.
    await expect(Journal.reopen(path, read?.validBytes ?? 0)).rejects.toThrow(UsageError);
    await chmod(path, 0o620);
    await expect(readJournal(path)).rejects.toThrow(/mode 620/);
    expect(await readFile(path, 'utf8')).toBe(before);
    await chmod(path, 0o644); // others may read it: theirs to see, not to change
    expect((await readJournal(path))?.lines.get(1)).toMatchObject({ state: 'sending' });
  });

  it.skipIf(!asRoot)("another user's is refused, to read and to append to", async () => {
    const { path, before } = await journal();
    const read = await readJournal(path);
    await chown(path, OTHER_USER, OTHER_USER);
    await expect(readJournal(path)).rejects.toThrow(/belongs to another user \(uid 65534\)/);
    await expect(Journal.reopen(path, read?.validBytes ?? 0)).rejects.toThrow(/belongs to another user/);
    expect(await readFile(path, 'utf8')).toBe(before);
  });
});

describe('journal durability, counted', () => {
  /** The real file, with its fdatasyncs counted (and the nth made to fail when asked). */
  function counted(failAt?: number) {
    const calls = { writes: 0, syncs: 0, background: 0 };
    const open = (path: string, flags: 'wx' | 'a', validBytes?: number): JournalFile => {
      const file = openJournalFile(path, flags, validBytes);
      const sync = () => {
        if (++calls.syncs === failAt) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      };
      return {
        append: (text) => (calls.writes++, file.append(text)),
        datasync: () => (sync(), file.datasync()),
        datasyncInBackground: async () => (calls.background++, sync(), file.datasyncInBackground()),
        close: () => file.close(),
      };
    };
    return { calls, open };
  }

  it('one record at a time: one write and one fdatasync per record, its outcome riding with the next', async () => {
    const path = join(await tempDir('clinic-journal-'), 'seq.journal');
    const { calls, open } = counted();
    const journal = await Journal.create(path, header, false, open);
    for (const line of [2, 3, 4]) {
      await journal.sending(line);
      journal.outcome(line, { state: 'ok', id: line * 10 });
    }
    expect(calls).toEqual({ writes: 4, syncs: 4, background: 0 });
    // The last outcome is kept until a flush (before its result is shown) or close writes it.
    expect((await readJournal(path))?.lines.get(4)).toMatchObject({ state: 'sending' });
    journal.flush();
    expect((await readJournal(path))?.lines.get(4)).toEqual({ state: 'ok', id: 40 });
    await journal.close();
    expect(calls.syncs).toBe(5);
  });

  it('batches journaled while an fdatasync runs share the next one, each on disk before it resolves', async () => {
    const path = join(await tempDir('clinic-journal-'), 'batches.journal');
    const { calls, open } = counted();
    const journal = await Journal.create(path, header, false, open);
    const onDisk: number[][] = [];
    await Promise.all(
      [2, 3, 4, 5, 6].map((line) =>
        journal.sendingBatch([line], true).then(async () => {
          onDisk.push([...((await readJournal(path))?.lines.keys() ?? [])]);
          expect((await readJournal(path))?.lines.get(line)).toMatchObject({ state: 'sending' });
        }),
      ),
    );
    await journal.close();
    expect(calls.writes).toBe(6); // the header, then one write per batch
    expect(calls.background).toBe(2); // the first batch's, then one for the four appended while it ran
    expect(onDisk).toHaveLength(5);
  });

  it('after a failed fdatasync no later batch is reported on disk: the run cannot send another request', async () => {
    const path = join(await tempDir('clinic-journal-'), 'broken.journal');
    const { open } = counted(3);
    const journal = await Journal.create(path, header, false, open);
    await journal.sending(2);
    await expect(journal.sending(3)).rejects.toThrow(/EIO/);
    await expect(journal.sending(4)).rejects.toThrow(/EIO/);
    await expect(journal.sendingBatch([5], true)).rejects.toThrow(/EIO/);
    await journal.close();
    expect((await readJournal(path))?.lines.has(4)).toBe(false);
  });
});
