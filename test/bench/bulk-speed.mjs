// Bulk speed against the crash-safe floor: a hand-written client with the same guarantee as clinic's journal (one
// "sending" line on disk, fdatasync'd, before each POST; its outcome appended after), sequential over node:http
// keep-alive. Both import the same records into the same sandbox, rate limit off, in alternating rounds.
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
  const sandbox = await sandboxProcess(['--rate-limit', '0'], cleanEnv(home));
  try {
    const tenant = '2';
    const env = await signIn(home, sandbox.ready, tenant);
    const ours = [];
    const floor = [];
    const ratios = [];
    for (let round = 0; round < rounds; round++) {
      const mine = patients(home, `c${round}`, RECORDS);
      const theirs = patients(home, `f${round}`, RECORDS);
      const run = await runCli(['customers', 'create', '--from', mine.file], env);
      if (run.code !== 0 || run.lines !== RECORDS) throw new Error(`bulk failed: ${run.stderr}`);
      const floorMs = await floorImport(sandbox.ready, tenant, theirs.rows, `${theirs.file}.journal`);
      ours.push((RECORDS / run.ms) * 1000);
      floor.push((RECORDS / floorMs) * 1000);
      ratios.push(floorMs / run.ms);
    }
    const spread = (list) => `${Math.min(...list).toFixed(0)}-${Math.max(...list).toFixed(0)}`;
    return [
      {
        figure: `bulk customers create --from, ${RECORDS.toLocaleString('en')} records: records/s (whole process)`,
        value: `${median(ours).toFixed(0)} records/s (${spread(ours)})`,
        baseline: `crash-safe floor: ${median(floor).toFixed(0)} records/s (${spread(floor)})`,
        ratio: median(ratios),
        target: 0.8,
        atLeast: true,
      },
    ];
  } finally {
    sandbox.stop();
  }
}
