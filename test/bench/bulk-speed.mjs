// Bulk speed against the crash-safe floor: a hand-written client with the same guarantee as clinic's journal (one
// "sending" line on disk, fdatasync'd, before each POST; its outcome appended after), sequential over node:http
// keep-alive. Both import the same number of records into the same sandbox, rate limit off, in alternating rounds:
// clinic with --concurrency 8, and clinic as it runs by default (one at a time against a server that states no
// rate-limit budget, as the sandbox with its limit off does).
import { closeSync, fdatasyncSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { cleanEnv, median, runCli, sandboxProcess, signIn, tempDir } from './common.mjs';

const RECORDS = Number(process.env.BENCH_BULK_RECORDS ?? 3000);

function patients(dir, round, count) {
  const file = join(dir, `speed-${round}.ndjson`);
  const rows = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ first_name: `S${i}`, last_name: 'Speed', email: `speed.${round}.${i}@example.com` }),
  );
  writeFileSync(file, `${rows.join('\n')}\n`);
  return { file, rows };
}

/** One POST over the keep-alive agent; resolves with the answer's status and body. */
function post(agent, ready, tenant, body) {
  const url = new URL(`${ready.base_url.replace(/\/$/, '')}/v1/customers`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          authorization: `Bearer ${ready.token}`,
          'x-tenant': tenant,
          accept: 'application/json',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The floor: sequential, each record's "sending" line written and fdatasync'd before its POST, the outcome after. */
async function floorImport(ready, tenant, rows, journalPath) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const fd = openSync(journalPath, 'wx', 0o600);
  const start = process.hrtime.bigint();
  try {
    for (let i = 0; i < rows.length; i++) {
      writeSync(fd, `${JSON.stringify({ line: i + 1, state: 'sending', at: new Date().toISOString() })}\n`);
      fdatasyncSync(fd);
      const answer = await post(agent, ready, tenant, rows[i]);
      if (answer.status !== 201) throw new Error(`floor: HTTP ${answer.status}: ${answer.body}`);
      const id = JSON.parse(answer.body).data?.id ?? null;
      writeSync(fd, `${JSON.stringify({ line: i + 1, state: 'ok', id })}\n`);
    }
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
    agent.destroy();
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function bulkSpeedBench(rounds = 3) {
  const home = tempDir('clinic-bench-speed-');
  // Rate limiting on at a limit no run reaches: the API always states its budget, which lets clinic go concurrent.
  const sandbox = await sandboxProcess(['--rate-limit', '0'], cleanEnv(home));
  try {
    const tenant = '2';
    const env = await signIn(home, sandbox.ready, tenant);
    const rates = { concurrent: [], sequential: [], floor: [] };
    const ratios = { concurrent: [], sequential: [] };
    const clinic = async (name, round, extra) => {
      const { file } = patients(home, `${name}${round}`, RECORDS);
      const run = await runCli(['customers', 'create', '--from', file, ...extra], env);
      if (run.code !== 0 || run.lines !== RECORDS) throw new Error(`bulk failed: ${run.stderr}`);
      return run.ms;
    };
    for (let round = 0; round < rounds; round++) {
      const concurrentMs = await clinic('c', round, ['--concurrency', '8']);
      const theirs = patients(home, `f${round}`, RECORDS);
      const floorMs = await floorImport(sandbox.ready, tenant, theirs.rows, `${theirs.file}.journal`);
      const sequentialMs = await clinic('s', round, []);
      for (const [name, ms] of Object.entries({ concurrentMs, sequentialMs, floorMs }))
        rates[name.slice(0, -2)].push((RECORDS / ms) * 1000);
      ratios.concurrent.push(floorMs / concurrentMs);
      ratios.sequential.push(floorMs / sequentialMs);
    }
    const spread = (list) => `${Math.min(...list).toFixed(0)}-${Math.max(...list).toFixed(0)}`;
    const rate = (name) => `${median(rates[name]).toFixed(0)} records/s (${spread(rates[name])})`;
    const records = RECORDS.toLocaleString('en');
    return [
      {
        figure: `bulk customers create --from --concurrency 8, ${records} records (whole process)`,
        value: rate('concurrent'),
        baseline: `crash-safe floor: ${rate('floor')}`,
        ratio: median(ratios.concurrent),
        target: 0.8,
        atLeast: true,
      },
      {
        figure: `the same by default (one at a time: the sandbox states no budget), ${records} records`,
        value: rate('sequential'),
        baseline: `crash-safe floor: ${rate('floor')}`,
        ratio: median(ratios.sequential),
        info: true,
        extra: `${median(ratios.sequential).toFixed(2)}× the floor`,
      },
    ];
  } finally {
    sandbox.stop();
  }
}
