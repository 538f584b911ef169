// Bulk runs over inputs that can be read only once (/dev/stdin, bash's <(...), a FIFO, a socket as stdin): every
// record checked is sent exactly once, a FIFO with no writer does not hang a SIGTERM, and records past the size
// limit are refused with their line. The built CLI against a sandbox.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BIN,
  type CliResult,
  baseEnv,
  collectOutput,
  customersOnServer,
  lines,
  startWorld,
  type TestWorld,
} from '../../helpers/cli.js';

let world: TestWorld;
let run = 0;
let tag: string;
/** The TMPDIR of the runs: the temporary copies of their inputs go there, and must be gone after each run. */
let temp: string;
beforeAll(async () => {
  world = await startWorld({ erasureStepSeconds: 0 });
  temp = join(world.configDir, '..', 'tmp');
  await mkdir(temp, { mode: 0o700 });
});
afterAll(() => world.close());
beforeEach(() => {
  tag = `inputs${++run}x${Date.now() % 100000}`;
  world.newRequests();
});

const file = (name: string) => join(world.configDir, `${tag}-${name}`);
const patient = (n: number) => ({ first_name: `P${n}`, last_name: 'Once', email: `${tag}.${n}@example.com` });
const ndjson = (count: number) =>
  Array.from({ length: count }, (_, i) => JSON.stringify(patient(i + 1))).join('\n') + '\n';
const env = () => ({ ...baseEnv(world.configDir), TMPDIR: temp });
const posts = () => world.newRequests().filter((r) => r.method === 'POST');

/** Runs a bash script in which `clinic` is the CLI on the sandbox profile. */
function bash(script: string): Promise<CliResult> {
  const clinic = 'clinic() { "$NODE_BIN" "$CLINIC_BIN" --profile sandbox "$@"; }';
  const child = spawn('bash', ['-c', `${clinic}\n${script}`], {
    env: { ...env(), NODE_BIN: process.execPath, CLINIC_BIN: BIN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectOutput(child);
}

/** The customers of this test on the server, by email, with how many times each exists. */
const onServer = async () => Object.fromEntries(await customersOnServer(world, tag));

/** Each of the `count` records of this test exists exactly once, every result line is ok, and no copy is left. */
async function expectEachOnce(result: CliResult, count: number, firstLine = 1): Promise<void> {
  expect(result.code, result.stderr).toBe(0);
  const rows = lines(result.stdout).map((line) => JSON.parse(line));
  expect(rows.map((r) => [r.line, r.status])).toEqual(
    Array.from({ length: count }, (_, i) => [firstLine + i, 'ok']),
  );
  expect(result.stderr).toContain(`${count}/${count} records, ${count} ok`);
  expect(posts()).toHaveLength(count);
  expect(await onServer()).toEqual(
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`${tag}.${i + 1}@example.com`, 1])),
  );
  expect(await readdir(temp)).toEqual([]);
}

describe('inputs read once are read once, then sent', () => {
  it('--from /dev/stdin with a pipe: every record sent exactly once (it was checked, then nothing sent)', async () => {
    await writeFile(file('in.ndjson'), ndjson(3));
    const result = await bash(
      `cat '${file('in.ndjson')}' | clinic customers create --from /dev/stdin --format ndjson --journal '${file('j')}'`,
    );
    await expectEachOnce(result, 3);
    const header = JSON.parse((await readFile(file('j'), 'utf8')).split('\n')[0] as string);
    expect(header).toMatchObject({ input: '/dev/stdin', records: 3 });
  });

  it('--from /dev/stdin when stdin is a socket (as a parent process gives it), then --resume sends nothing again', async () => {
    const input = ndjson(2);
    const args = [
      'customers',
      'create',
      '--from',
      '/dev/stdin',
      '--format',
      'ndjson',
      '--journal',
      file('j'),
    ];
    await expectEachOnce(await world.clinic(args, { input, env: { TMPDIR: temp } }), 2);
    const again = await world.clinic([...args, '--resume'], { input, env: { TMPDIR: temp } });
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout).map((line) => JSON.parse(line).status)).toEqual(['ok', 'ok']);
    expect(posts()).toEqual([]);
  });

  it("--from <(...) (bash's process substitution, a /dev/fd path): every record sent exactly once", async () => {
    await writeFile(file('in.ndjson'), ndjson(3));
    const result = await bash(
      `clinic customers create --from <(cat '${file('in.ndjson')}') --format ndjson --journal '${file('j')}'`,
    );
    await expectEachOnce(result, 3);
  });

  it('a FIFO with a writer: every record sent exactly once', async () => {
    await writeFile(file('in.ndjson'), ndjson(3));
    const fifo = file('fifo.ndjson');
    execFileSync('mkfifo', [fifo]);
    const result = await bash(
      `clinic customers create --from '${fifo}' --journal '${file('j')}' & timeout 20 sh -c "cat '${file('in.ndjson')}' > '${fifo}'"; wait $!`,
    );
    await expectEachOnce(result, 3);
  });

  it('a CSV on a pipe: one pass to check, one to send, each record once', async () => {
    const csv = `first_name,last_name,email\r\n"A, the first",Once,${tag}.1@example.com\r\nB,"Two\r\nLines",${tag}.2@example.com\r\n`;
    await writeFile(file('in.csv'), csv);
    const result = await bash(
      `cat '${file('in.csv')}' | clinic customers create --from /dev/stdin --format csv --journal '${file('j')}'`,
    );
    await expectEachOnce(result, 2, 2); // lines 2 and 3, after the header
  });

  it('what is read once needs --journal, as stdin does: exit 2 before anything is read or sent', async () => {
    const fifo = file('fifo.ndjson');
    execFileSync('mkfifo', [fifo]);
    for (const from of ['/dev/stdin', '<(echo {})', `'${fifo}'`]) {
      const result = await bash(`echo '{}' | clinic customers create --from ${from} --format ndjson`);
      expect(result.code, from).toBe(2);
      expect(lines(result.stderr)).toEqual([
        expect.stringMatching(/^error: --from \S+ is not a regular file .*give --journal FILE/),
      ]);
    }
    expect(posts()).toEqual([]);
  });
});

describe('a FIFO with no writer', () => {
  it('SIGTERM ends the wait at once: exit 130, one line, nothing sent, no copy left', async () => {
    const fifo = file('lonely.ndjson');
    execFileSync('mkfifo', [fifo]);
    const child = spawn(
      process.execPath,
      [BIN, '--profile', 'sandbox', 'customers', 'create', '--from', fifo, '--journal', file('j')],
      { env: env(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Waits until the CLI holds the FIFO open (no guessing how long that takes), unless it has already ended.
    while (child.exitCode === null) {
      const held = await readdir(`/proc/${child.pid}/fd`)
        .then((fds) => Promise.all(fds.map((fd) => readlink(`/proc/${child.pid}/fd/${fd}`).catch(() => ''))))
        .catch(() => [] as string[]);
      if (held.includes(fifo)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const signalled = Date.now();
    child.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 15_000)),
    ]);
    if (code === 'still running') child.kill('SIGKILL');
    expect(code).toBe(130);
    expect(Date.now() - signalled).toBeLessThan(15_000);
    expect(lines(stderr)).toEqual(['error: interrupted while reading the input: nothing was sent']);
    expect(posts()).toEqual([]);
    expect(await readdir(temp)).toEqual([]);
  });
});

describe('records past the size limit', () => {
  it('an NDJSON line and a CSV record just over 1 MiB: exit 2 with file:line, one line, no stack trace', async () => {
    const big = 'x'.repeat(1024 * 1024);
    await writeFile(file('big.ndjson'), `${JSON.stringify(patient(1))}\n{"first_name":"${big}"}\n`);
    await writeFile(file('big.csv'), `first_name,last_name\nA,B\n\n"${big.slice(0, 1000)}\n${big}",C\n`);
    for (const [name, line, what] of [
      ['big.ndjson', 2, 'line'],
      ['big.csv', 4, 'record'],
    ] as const) {
      const result = await world.clinic(['customers', 'create', '--from', file(name)]);
      expect(result.code, result.stderr).toBe(2);
      expect(lines(result.stderr)).toEqual([
        `error: ${file(name)}:${line}: the ${what} is longer than 1 MiB, the most a record may be`,
      ]);
    }
    expect(posts()).toEqual([]);
  });
});
