// `npm run demo`: a short tour of real commands against a fresh sandbox, in a throwaway config directory.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/clinic.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'clinic-demo-'));
const env = { ...process.env, CLINIC_CONFIG_DIR: join(root, 'config') };
for (const key of Object.keys(env))
  if (key.startsWith('CLINIC_') && key !== 'CLINIC_CONFIG_DIR') delete env[key];

const bold = (text) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[1m${text}\u001b[22m` : text);
let failed = false;

function step(title, args, { input, expectCode = 0, show = (out) => out } = {}) {
  process.stdout.write(
    `\n${bold(`$ clinic ${args.join(' ')}`)}${input ? '   (token on stdin)' : ''}\n# ${title}\n`,
  );
  const result = spawnSync(process.execPath, [bin, ...args], { env, input, encoding: 'utf8' });
  process.stdout.write(show(result.stdout));
  process.stdout.write(result.stderr);
  process.stdout.write(`# exit ${result.status}\n`);
  if (result.status !== expectCode) {
    failed = true;
    process.stdout.write(`!! expected exit ${expectCode}\n`);
  }
  return result;
}

const sandbox = spawn(process.execPath, [bin, 'sandbox', 'start', '--port', '0', '--records', '250'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ready = JSON.parse(
  await new Promise((resolve, reject) => {
    sandbox.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
    createInterface({ input: sandbox.stdout }).once('line', resolve);
  }),
);

/** The id of the first erasure request in a status, read through the CLI. */
function firstErasure(status) {
  const args = [
    '--profile',
    'sandbox',
    'erasure',
    'list',
    '--status',
    status,
    '--per-page',
    '1',
    '-o',
    'json',
  ];
  const result = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
  return JSON.parse(result.stdout || '[]')[0]?.id ?? 0;
}

try {
  console.log(bold(`Sandbox running at ${ready.base_url}; the 'sandbox' profile points at it.`));
  const p = ['--profile', 'sandbox'];
  step(
    'sign in with the personal access token from the ready line (plain file: a demo has no keychain)',
    [...p, 'login', '--with-token', '--insecure-storage'],
    { input: ready.token },
  );
  step('everything between this machine and the API, one line per check', [...p, 'doctor', '-o', 'table']);
  step('who am I?', [...p, 'account', '-o', 'table', '--fields', 'id,name,email,title']);
  step('the tenants of the account', [...p, 'tenants', 'list', '-o', 'table']);
  step('a page of customers as a table (masked and read-only records are marked)', [
    ...p,
    'customers',
    'list',
    '--per-page',
    '8',
    '-o',
    'table',
  ]);
  step(
    'every customer as NDJSON, streamed page by page (first 3 lines shown)',
    [
      ...p,
      'customers',
      'list',
      '--all',
      '-o',
      'ndjson',
      '--fields',
      'id,first_name,last_name,record_state.is_read_only',
    ],
    {
      show: (out) => {
        const rows = out.trim().split('\n');
        return `${rows.slice(0, 3).join('\n')}\n… ${rows.length} records in all\n`;
      },
    },
  );
  step('create a customer', [
    ...p,
    'customers',
    'create',
    '--set',
    'first_name=Ada',
    '--set',
    'last_name=Lovelace',
    '--fields',
    'id,first_name,last_name',
    '-o',
    'table',
  ]);
  step(
    'a validation error: one line, each field, exit 7',
    [...p, 'customers', 'create', '--set', 'email=nope'],
    {
      expectCode: 7,
    },
  );
  step(
    'a tenant whose setup is incomplete: exit 8 and the next step',
    [...p, 'customers', 'list', '--tenant', '3'],
    {
      expectCode: 8,
    },
  );
  step('bad input is refused before any request: exit 2', [...p, 'customers', 'list', '--per-page', '500'], {
    expectCode: 2,
  });
  step('data-erasure requests that failed, with the actions their state allows', [
    ...p,
    'erasure',
    'list',
    '--status',
    'failed',
    '-o',
    'table',
  ]);
  step(
    'an action the state does not allow is refused before anything is sent: exit 6',
    [...p, 'erasure', 'resend', String(firstErasure('completed')), '--yes'],
    { expectCode: 6 },
  );
  step(
    'without a terminal a destructive action needs --yes: exit 2, nothing sent',
    [...p, 'erasure', 'retry', String(firstErasure('failed'))],
    { expectCode: 2 },
  );
  step('the channels of the tenant (an unpaginated list, printed like any other)', [
    ...p,
    'channels',
    'list',
    '-o',
    'table',
  ]);
} finally {
  sandbox.kill('SIGTERM');
  await new Promise((resolve) => sandbox.once('exit', resolve));
  rmSync(root, { recursive: true, force: true });
}
console.log(failed ? '\nDemo finished with unexpected results.' : '\nDemo finished: the sandbox is stopped.');
process.exitCode = failed ? 1 : 0;
