// Ctrl-C part way through a bulk run: no further record is sent, and those in flight are still answered and
// journaled (a short grace, under the second bin allows a stopped run), so none of them is left for the user to
// check by hand; exit 130, saying how many were not sent and that --resume sends them. A sandbox 100 ms away, as an
// API is, so that records are in flight when the signal comes.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { BIN, baseEnv, customersOnServer, exitStatus, lines, startWorld } from '../../helpers/cli.js';
import { useWorld } from '../../helpers/world.js';

const world = useWorld(() => startWorld({ erasureStepSeconds: 0, latencyMs: 100 }));
const tag = `ctrlc${Date.now() % 1000000}`;
const total = 40;

it('Ctrl-C with records in flight: each answered and journaled, none unknown; --resume sends the rest once', async () => {
  const path = join(world.configDir, `${tag}.ndjson`);
  const people = Array.from({ length: total }, (_, i) => ({
    first_name: `P${i + 1}`,
    last_name: 'CtrlC',
    email: `${tag}.${i + 1}@example.com`,
  }));
  await writeFile(path, people.map((p) => JSON.stringify(p)).join('\n') + '\n');
  const child = spawn(
    process.execPath,
    [BIN, '--profile', 'sandbox', 'customers', 'create', '--from', path, '--concurrency', '4'],
    { env: baseEnv(world.configDir) as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const rows: { line: number; status: string }[] = [];
  const ended = exitStatus(child);
  for await (const line of createInterface({ input: child.stdout })) {
    rows.push(JSON.parse(line));
    // Four records in flight, each 100 ms from its answer.
    if (rows.length === 8) child.kill('SIGINT');
  }
  expect(await ended, stderr).toBe(130);
  expect(
    rows.filter((row) => row.status !== 'ok'),
    stderr,
  ).toEqual([]);
  expect(rows.length).toBeGreaterThan(8); // those in flight at the signal were answered
  expect(rows.length).toBeLessThan(total);
  expect(lines(stderr).at(-1)).toBe(
    `error: interrupted: ${total - rows.length} of ${total} records not sent; --resume sends them`,
  );
  const journal = (await readFile(`${path}.journal`, 'utf8'))
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l));
  const sending = journal.filter((entry) => entry.state === 'sending').map((entry) => entry.line);
  const answered = new Set(journal.filter((entry) => entry.state === 'ok').map((entry) => entry.line));
  expect(sending.filter((line) => !answered.has(line))).toEqual([]);

  const resumed = await world.clinic(['customers', 'create', '--from', path, '--resume']);
  expect(resumed.code, resumed.stderr).toBe(0);
  // The summary tells the records the journal had from those sent now; its rate is of those sent now.
  expect(resumed.stderr).toMatch(
    new RegExp(
      `^customers create: ${total}/${total} records, ${total} ok, 0 errors \\(${rows.length} from the journal, ${total - rows.length} sent now, \\d+/min\\); journal: `,
      'm',
    ),
  );
  const server = await customersOnServer(world, tag);
  expect(server.size).toBe(total);
  expect([...server.values()].every((count) => count === 1)).toBe(true);
}, 60_000);
