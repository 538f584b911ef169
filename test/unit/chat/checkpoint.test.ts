// The checkpoint file: the last delivered id per conversation, written atomically (no half file, no temporary file
// left), 0600, after every delivery (writes coalesced), read back on start; refused when it is another tenant's,
// not a checkpoint, or a symbolic link.
import { chmod, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replaceFile } from '../../../src/core/config/private-file.js';
import { UsageError } from '../../../src/core/errors.js';
import { Checkpoint } from '../../../src/core/realtime/checkpoint.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('clinic-checkpoint-');
const OWNER = { tenant: '1', base_url: 'http://127.0.0.1:4000/api' };
const fileIn = () => join(dir.path, 'chat.checkpoint');
const read = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

describe('Checkpoint', () => {
  it('a new one is written at once, 0600, empty; delivered ids are on disk after flush', async () => {
    const path = fileIn();
    const checkpoint = Checkpoint.open(path, OWNER);
    await checkpoint.save();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await read(path)).toEqual({ version: 1, ...OWNER, conversations: [] });
    checkpoint.delivered(12, 345);
    checkpoint.delivered(14, 350);
    checkpoint.delivered(12, 351);
    await checkpoint.flush();
    expect((await read(path)).conversations).toEqual([
      { id: 14, after: 350 },
      { id: 12, after: 351 },
    ]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir.path)).toEqual(['chat.checkpoint']); // no temporary file left
  });

  it('opened again, it resumes where the last run delivered', async () => {
    const path = fileIn();
    const first = Checkpoint.open(path, OWNER);
    first.delivered(3, 30);
    first.delivered(4, 41);
    await first.flush();
    expect([...Checkpoint.open(path, OWNER).positions()]).toEqual([
      [3, 30],
      [4, 41],
    ]);
  });

  it('forgets a conversation that can no longer be read: a restart no longer fills it', async () => {
    const path = fileIn();
    const checkpoint = Checkpoint.open(path, OWNER);
    checkpoint.delivered(3, 30);
    checkpoint.delivered(999, 5);
    await checkpoint.flush();
    checkpoint.forget(999);
    await checkpoint.flush();
    expect([...Checkpoint.open(path, OWNER).positions()]).toEqual([[3, 30]]);
  });

  it('keeps the highest id delivered: a late live event does not move it back', async () => {
    const checkpoint = Checkpoint.open(fileIn(), OWNER);
    checkpoint.delivered(1, 10);
    checkpoint.delivered(1, 9);
    await checkpoint.flush();
    expect(checkpoint.positions().get(1)).toBe(10);
  });

  it('goes back to a lower id when the tail says so (the server never had the one it held), and on from there', async () => {
    const path = fileIn();
    const checkpoint = Checkpoint.open(path, OWNER);
    checkpoint.delivered(7, 2 ** 53 - 1);
    checkpoint.delivered(8, 20);
    checkpoint.resumeAfter(7, 50);
    checkpoint.delivered(7, 51);
    checkpoint.resumeAfter(9, 1); // not held: nothing to move
    await checkpoint.flush();
    expect([...Checkpoint.open(path, OWNER).positions()]).toEqual([
      [8, 20],
      [7, 51],
    ]);
  });

  it('whatever the deliveries, the file always parses and ends equal to the highest id per conversation', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 1000 })), {
          maxLength: 60,
        }),
        async (deliveries) => {
          const path = join(dir.path, `p-${Math.random().toString(36).slice(2)}`);
          const checkpoint = Checkpoint.open(path, OWNER);
          await checkpoint.save(); // as a tail does before it connects
          const expected = new Map<number, number>();
          const reads: Promise<void>[] = [];
          for (const [conversation, id] of deliveries) {
            checkpoint.delivered(conversation, id);
            expected.set(conversation, Math.max(expected.get(conversation) ?? 0, id));
            // A reader at any moment (a restart) sees a whole file or none, never half of one.
            reads.push(readFile(path, 'utf8').then((text) => void JSON.parse(text)));
          }
          await checkpoint.flush();
          await Promise.all(reads);
          const written = new Map(
            ((await read(path)).conversations as { id: number; after: number }[]).map((c) => [c.id, c.after]),
          );
          expect(written).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
    expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('deliveries made while a write runs are written together by the next one, the newest state', async () => {
    const written: string[] = [];
    const checkpoint = Checkpoint.open(fileIn(), OWNER, {
      write: async (path, text) => {
        await new Promise((resolve) => setTimeout(resolve, 5)); // a disk that takes its time
        written.push(text);
        await replaceFile(path, text);
      },
    });
    for (let id = 1; id <= 500; id++) checkpoint.delivered(1, id);
    await checkpoint.flush();
    // The first write took the first delivery; the other 499 came while it ran, and are written once, together.
    expect(written.map((text) => JSON.parse(text).conversations)).toEqual([
      [{ id: 1, after: 1 }],
      [{ id: 1, after: 500 }],
    ]);
  });

  it('a conversation first seen (not yet delivered) resumes from just before that message; a delivery moves it on', async () => {
    const checkpoint = Checkpoint.open(fileIn(), OWNER);
    checkpoint.seen(7, 100);
    checkpoint.seen(7, 105); // already held: unchanged
    expect(checkpoint.positions().get(7)).toBe(99);
    checkpoint.delivered(7, 100);
    checkpoint.seen(7, 101);
    await checkpoint.flush();
    expect((await read(fileIn())).conversations).toEqual([{ id: 7, after: 100 }]);
  });

  it('the first delivery of a new conversation waits until the file holds it; a known one does not wait', async () => {
    let release!: () => void;
    const writes: string[] = [];
    const checkpoint = Checkpoint.open(fileIn(), OWNER, {
      write: async (path, text) => {
        if (JSON.parse(text).conversations.length > 0)
          await new Promise<void>((resolve) => (release = resolve));
        writes.push(text);
        await replaceFile(path, text);
      },
    });
    await checkpoint.save();
    checkpoint.seen(7, 100);
    let recorded = false;
    const waiting = checkpoint.recorded(7).then(() => (recorded = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(recorded).toBe(false); // the write that names conversation 7 is still on its way
    release();
    await waiting;
    expect((await read(fileIn())).conversations).toEqual([{ id: 7, after: 99 }]);
    // Known now: a later delivery, or another message seen, goes on without waiting for a write.
    checkpoint.delivered(7, 100);
    let again = false;
    await Promise.race([checkpoint.recorded(7).then(() => (again = true)), Promise.resolve()]);
    await Promise.resolve();
    expect(again).toBe(true);
    release();
    await checkpoint.flush();
  });

  it('holds at most its limit of conversations, forgetting the least recently delivered, said once a run', async () => {
    const told: [number, number][] = [];
    const forgetting = (conversation: number, limit: number) => void told.push([conversation, limit]);
    const checkpoint = Checkpoint.open(fileIn(), OWNER, { limit: 3, forgetting });
    for (const conversation of [1, 2, 3, 1]) checkpoint.delivered(conversation, conversation * 10);
    expect(told).toEqual([]);
    checkpoint.delivered(4, 40);
    checkpoint.seen(5, 50); // a message not delivered yet counts as much
    await checkpoint.flush();
    expect([...checkpoint.positions().keys()]).toEqual([1, 4, 5]);
    expect(told).toEqual([[2, 3]]); // 3 was forgotten too, but a flood of new conversations is said once
  });

  it('an empty file is a new checkpoint; a missing folder is made', async () => {
    await writeFile(fileIn(), '');
    expect(Checkpoint.open(fileIn(), OWNER).positions().size).toBe(0);
    const nested = join(dir.path, 'state', 'clinic', 'chat.checkpoint');
    await Checkpoint.open(nested, OWNER).save();
    expect((await stat(join(dir.path, 'state', 'clinic'))).mode & 0o777).toBe(0o700);
  });

  it("the folder's modes are the user's: a readable folder is not changed", async () => {
    await chmod(dir.path, 0o755);
    await Checkpoint.open(fileIn(), OWNER).save();
    expect((await stat(dir.path)).mode & 0o777).toBe(0o755);
  });

  it.each([
    ['another tenant', { ...OWNER, tenant: '2' }, /is the checkpoint of tenant 2 at .*, not of tenant 1/],
    ['another server', { ...OWNER, base_url: 'https://api.example.com/api' }, /not of tenant 1 at http/],
  ])("refuses %s's checkpoint (exit 2)", async (_why, other, message) => {
    const path = fileIn();
    await Checkpoint.open(path, other).save();
    expect(() => Checkpoint.open(path, OWNER)).toThrow(UsageError);
    expect(() => Checkpoint.open(path, OWNER)).toThrow(message);
  });

  it.each([
    'not json',
    '{"version":2}',
    '{"version":1,"tenant":"1","base_url":"x","conversations":[{"id":"a"}]}',
  ])('refuses a file that is not a checkpoint: %s', async (text) => {
    await writeFile(fileIn(), text);
    expect(() => Checkpoint.open(fileIn(), OWNER)).toThrow(/is not a clinic chat checkpoint/);
  });

  it('refuses a symbolic link, reading and writing', async () => {
    const target = join(dir.path, 'elsewhere');
    await writeFile(target, '');
    await symlink(target, fileIn());
    expect(() => Checkpoint.open(fileIn(), OWNER)).toThrow(/symbolic link/);
  });

  it('refuses one another user could have written: it decides which messages are skipped', async () => {
    const checkpoint = Checkpoint.open(fileIn(), OWNER);
    checkpoint.delivered(12, 345);
    await checkpoint.flush();
    await chmod(fileIn(), 0o646);
    expect(() => Checkpoint.open(fileIn(), OWNER)).toThrow(
      /chat\.checkpoint may be written by other users \(mode 646\): a checkpoint others could have written is not trusted/,
    );
    await chmod(fileIn(), 0o644);
    expect(() => Checkpoint.open(fileIn(), OWNER)).not.toThrow();
    if (process.getuid?.() !== 0) return; // another user's file can only be made as root
    execFileSync('chown', ['65534:65534', fileIn()]);
    expect(() => Checkpoint.open(fileIn(), OWNER)).toThrow(/belongs to another user \(uid 65534\)/);
  });

  it('refuses a FIFO planted at its place at once, instead of waiting for a writer with the lock held', () => {
    execFileSync('mkfifo', [fileIn()]);
    expect(() => Checkpoint.open(fileIn(), OWNER)).toThrow(/is not a file/);
  });

  it('a write that fails is kept as the error the tail ends with', async () => {
    const path = join(dir.path, 'sub', 'chat.checkpoint');
    const checkpoint = Checkpoint.open(path, OWNER);
    // Its folder gone, a file in its place (as root, a read-only mode would not stop the write).
    await rm(join(dir.path, 'sub'), { recursive: true });
    await writeFile(join(dir.path, 'sub'), '');
    checkpoint.delivered(1, 1);
    await expect(checkpoint.flush()).rejects.toThrow(/cannot write the checkpoint .*chat.checkpoint/);
    expect(checkpoint.error?.message).toMatch(/cannot write the checkpoint/);
  });
});
