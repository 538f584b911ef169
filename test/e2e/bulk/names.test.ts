// Names are data: keys such as `__proto__`, `constructor` or `toString`, from an NDJSON record, a CSV header or
// --set, reach the server as given, exactly once, in bulk runs and single creates alike, and show in --dry-run. A
// fake API on 127.0.0.1 records the bodies it receives.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lines, runCli, tempDir } from '../../helpers/cli.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

let server: Server;
let bodies: string[];
let root: string;
let run = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST') bodies.push(Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify({ success: true, data: { id: bodies.length, first_name: 'A' } });
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = await tempDir('clinic-names-');
});
beforeEach(() => {
  bodies = [];
  run++;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

const clinic = (args: string[]) =>
  runCli(join(root, 'config'), args, {
    env: {
      CLINIC_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
      CLINIC_TOKEN: 'clinic_pat_NAMESareDATA0123456789abcdefghij',
      CLINIC_TENANT: '1',
    },
  });

/** Each name is a key of `body` (JSON text) exactly once, with the value the input gave it. */
function expectEveryName(body: string, value: (name: string) => unknown): void {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  for (const name of NAMES) {
    expect(body.split(`"${name}":`).length - 1, `${name} in ${body}`).toBe(1);
    expect(Object.hasOwn(parsed, name) && parsed[name], name).toEqual(value(name));
  }
  expect(parsed.first_name).toBe('A');
}

/** The body of each request --dry-run prints with -o ndjson, as text. */
const dryRunBodies = (stdout: string) => lines(stdout).map((line) => JSON.stringify(JSON.parse(line).body));

const record = Object.fromEntries([['first_name', 'A'], ...NAMES.map((name) => [name, `v-${name}`])]);
const ndjsonText = `{"first_name":"A",${NAMES.map((name) => `"${name}":"v-${name}"`).join(',')}}\n`;
const csvText = `first_name,${NAMES.join(',')}\r\nA,${NAMES.map((name) => `v-${name}`).join(',')}\r\n`;
const sets = NAMES.flatMap((name) => ['--set', `${name}=s-${name}`]);

describe('bulk runs send every key as given', () => {
  const cases: [string, string, string, string[], (name: string) => unknown][] = [
    ['an NDJSON record', 'r.ndjson', ndjsonText, [], (name) => `v-${name}`],
    ['a CSV header', 'r.csv', csvText, [], (name) => `v-${name}`],
    ['--set over an NDJSON record', 's.ndjson', '{"first_name":"A"}\n', sets, (name) => `s-${name}`],
    [
      '--set with dots',
      'd.ndjson',
      '{"first_name":"A"}\n',
      NAMES.flatMap((n) => ['--set', `${n}.inner:=1`]),
      () => ({ inner: 1 }),
    ],
  ];

  it.each(cases)('%s: sent, and shown by --dry-run', async (_, name, text, extra, value) => {
    const file = join(root, `${run}-${name}`);
    await writeFile(file, text);
    const dry = await clinic(['customers', 'create', '--from', file, ...extra, '--dry-run', '-o', 'ndjson']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(bodies).toEqual([]);
    expectEveryName(dryRunBodies(dry.stdout)[0] as string, value);
    const sent = await clinic(['customers', 'create', '--from', file, ...extra]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(bodies).toHaveLength(1);
    expectEveryName(bodies[0] as string, value);
  });
});

describe('a single create sends every key as given', () => {
  it('--set: sent, and shown by --dry-run', async () => {
    const args = ['customers', 'create', '--set', 'first_name=A', ...sets];
    const dry = await clinic([...args, '--dry-run', '-o', 'ndjson']);
    expect(dry.code, dry.stderr).toBe(0);
    expectEveryName(dryRunBodies(dry.stdout)[0] as string, (name) => `s-${name}`);
    const sent = await clinic(args);
    expect(sent.code, sent.stderr).toBe(0);
    expectEveryName(bodies[0] as string, (name) => `s-${name}`);
  });

  it('--data with the keys, then --set over them: each once, the --set value', async () => {
    const sent = await clinic(['customers', 'create', '--data', JSON.stringify(record), ...sets]);
    expect(sent.code, sent.stderr).toBe(0);
    expectEveryName(bodies[0] as string, (name) => `s-${name}`);
  });
});
