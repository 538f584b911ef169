// `npm run bench`: start-up, export throughput and bulk memory, each against a baseline measured in the same run.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { chatBench } from './chat.mjs';

const bin = fileURLToPath(new URL('../../bin/clinic.js', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 31);
const records = Number(process.env.BENCH_RECORDS ?? 10000);
const configDir = mkdtempSync(join(tmpdir(), 'clinic-bench-'));
const env = { ...process.env, CLINIC_CONFIG_DIR: configDir, NO_COLOR: '1' };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function wallMs(args, options = {}) {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'ignore'], ...options });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Interleaves the candidates so drift in machine load hits all of them alike. */
function startup() {
  const candidates = {
    baseline: ['-e', '0'],
    version: [bin, '--version'],
    help: [bin, '--help'],
    customersHelp: [bin, 'customers', 'list', '--help'],
  };
  const times = Object.fromEntries(Object.keys(candidates).map((k) => [k, []]));
  for (let i = 0; i < 3; i++) for (const args of Object.values(candidates)) wallMs(args); // warm the file cache
  for (let i = 0; i < runs; i++)
    for (const [name, args] of Object.entries(candidates)) times[name].push(wallMs(args));
  return Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list)]));
}

async function startSandbox() {
  const child = spawn(
    process.execPath,
    [
      bin,
      'sandbox',
      'start',
      '--port',
      '0',
      '--rate-limit',
      '0',
      '--records',
      String(records),
      '--no-write-profile',
    ],
    { env, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const line = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  return { child, ready: JSON.parse(line) };
}

/** The floor: the same pages fetched by a bare undici loop that parses each page and writes nothing. */
async function rawFetch(ready) {
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const start = process.hrtime.bigint();
  let count = 0;
  for (let page = 1; ; page++) {
    const { body } = await request(`${ready.base_url}/v1/customers?page=${page}&per_page=100`, {
      dispatcher,
      headers: { authorization: `Bearer ${ready.token}`, 'x-tenant': '1', accept: 'application/json' },
    });
    const json = await body.json();
    for (const record of json.data) count += JSON.stringify(record).length > 0 ? 1 : 0;
    if (page >= json.meta.last_page) break;
  }
  await dispatcher.close();
  return { count, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

function cliExport(ready) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [bin, '--base-url', ready.base_url, '--tenant', '1', 'customers', 'list', '--all', '-o', 'ndjson'],
      { env: { ...env, CLINIC_TOKEN: ready.token }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let lines = 0;
    child.stdout.on('data', (chunk) => {
      for (const byte of chunk) if (byte === 10) lines++;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`export exited ${code}`));
      else resolve({ count: lines, ms: Number(process.hrtime.bigint() - start) / 1e6 });
    });
  });
}

const RSS = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));

/** A bulk import of `count` new customers from an NDJSON file: its rate and the CLI's peak RSS. */
function bulkImport(ready, count) {
  const file = join(configDir, `bulk-${count}.ndjson`);
  const rows = [];
  for (let i = 0; i < count; i++)
    rows.push(
      JSON.stringify({ first_name: `B${i}`, last_name: 'Bench', email: `bench.${count}.${i}@example.com` }),
    );
  writeFileSync(file, `${rows.join('\n')}\n`);
  const rssFile = join(configDir, `rss-${count}`);
  const start = process.hrtime.bigint();
  execFileSync(
    process.execPath,
    [
      '--import',
      RSS,
      bin,
      '--base-url',
      ready.base_url,
      '--tenant',
      '2',
      'customers',
      'create',
      '--from',
      file,
    ],
    { env: { ...env, CLINIC_TOKEN: ready.token, RSS_FILE: rssFile }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { rate: (count / ms) * 1000, rssMiB: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}

const fmt = (n, digits = 1) => n.toFixed(digits);
try {
  const s = startup();
  console.log(`start-up (median of ${runs} runs)`);
  console.log(`  node -e 0                  ${fmt(s.baseline)} ms   (baseline)`);
  console.log(
    `  clinic --version           ${fmt(s.version)} ms   ratio ${fmt(s.version / s.baseline, 2)}  (target <= 1.3)`,
  );
  console.log(`  clinic --help              ${fmt(s.help)} ms   ratio ${fmt(s.help / s.baseline, 2)}`);
  console.log(
    `  clinic customers list -h   ${fmt(s.customersHelp)} ms   ratio ${fmt(s.customersHelp / s.baseline, 2)}`,
  );

  const { child, ready } = await startSandbox();
  try {
    const raw = [];
    const cli = [];
    for (let i = 0; i < 3; i++) {
      raw.push(await rawFetch(ready));
      cli.push(await cliExport(ready));
    }
    const rawBest = raw.reduce((a, b) => (a.ms < b.ms ? a : b));
    const cliBest = cli.reduce((a, b) => (a.ms < b.ms ? a : b));
    if (cliBest.count !== records)
      throw new Error(`export wrote ${cliBest.count} records, expected ${records}`);
    const rawRate = (rawBest.count / rawBest.ms) * 1000;
    const cliRate = (cliBest.count / cliBest.ms) * 1000;
    console.log(`export of ${records} customers, rate limit off (best of 3)`);
    console.log(`  bare undici page loop      ${fmt(rawRate, 0)} records/s   (baseline)`);
    console.log(
      `  clinic customers list --all -o ndjson   ${fmt(cliRate, 0)} records/s   ratio ${fmt(cliRate / rawRate, 2)}`,
    );
    const small = bulkImport(ready, 2000);
    const large = bulkImport(ready, 20000);
    console.log('bulk import from NDJSON (customers create --from), rate limit off');
    console.log(
      `  2,000 records              ${fmt(small.rate, 0)} records/s, peak RSS ${fmt(small.rssMiB)} MiB   (baseline)`,
    );
    console.log(
      `  20,000 records             ${fmt(large.rate, 0)} records/s, peak RSS ${fmt(large.rssMiB)} MiB   ratio ${fmt(large.rssMiB / small.rssMiB, 2)}  (constant memory: target <= 1.1)`,
    );
  } finally {
    child.kill('SIGTERM');
  }
  const chat = await chatBench(bin);
  console.log(`chat tail at 200 events/s on loopback (${chat.sent} messages)`);
  console.log(
    `  event to stdout            p50 ${fmt(chat.p50)} ms, p99 ${fmt(chat.p99)} ms   (target p99 < 50 ms); delivered ${chat.delivered}/${chat.sent}`,
  );
  console.log(
    `  5 s outage                 ${chat.recovered}/${chat.outageSent} messages printed (${chat.filled ?? 0} filled from REST), ${chat.twice} twice   (target: all, none twice)`,
  );
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
