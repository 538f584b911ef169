// Confirmations on a real terminal, answered as a person does: "no" or another id typed back sends nothing and exits
// 2; `erasure create` shows who the customer is before asking; --no-input says it is what refuses.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInput, prepareJournal } from '../../../src/core/bulk/run.js';
import { BULK_SCHEMAS } from '../../../src/core/bulk/schemas.js';
import { openSource } from '../../../src/core/bulk/source.js';
import { plain } from '../../helpers/pty.js';
import { usePtyClinic } from '../../helpers/pty-modes.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { oauthWorld, useWorld } from '../../helpers/world.js';

const world = useWorld();
const startOnPty = usePtyClinic(world, useTempDir('clinic-prompts-'));
/** On a terminal wide enough that each question is one line. */
const onTerminal = (args: string[]) => startOnPty(args, { cols: 250 });
const sent = () => world.newRequests().map((r) => `${r.method} ${r.path}`);

/** Customer `id` as the server shows this user: what the question must name. */
async function customer(id: number) {
  const { stdout } = await world.clinic(['customers', 'get', String(id), '-o', 'json']);
  return JSON.parse(stdout) as { first_name: string; last_name: string; email: string };
}

/** Runs `args` on the terminal from a clean request log, waits for `question` and types `keys`: how it ended. */
async function answer(args: string[], question: string, keys: string) {
  world.newRequests();
  const t = onTerminal(args);
  await t.waitFor(question);
  t.type(keys);
  return t.exited;
}

describe('erasure create --customer on a terminal', () => {
  it('names the customer as the server shows them, then sends once the id is typed back', async () => {
    const { first_name, last_name, email } = await customer(2);
    world.newRequests();
    const t = onTerminal(['erasure', 'create', '--customer', '2', '--reason', 'asked']);
    await t.waitFor('Type 2 to confirm');
    expect(plain(t.output)).toContain(
      `This requests the erasure of all data of customer 2 (${first_name} ${last_name}, ${email}, `,
    );
    t.type('2\r');
    const { code } = await t.exited;
    expect(code, plain(t.output)).toBe(0);
    expect(sent()).toEqual(['GET /api/v1/customers/2', 'POST /api/v1/data-erasure-requests']);
  });

  for (const { name, keys, says } of [
    {
      name: 'another id typed back: exit 2, nothing sent',
      keys: '7\r',
      says: "error: cancelled: you typed '7', not 1; nothing was sent",
    },
    {
      name: 'Ctrl-D (end of input) at the question: cancelled, exit 2, nothing sent (was exit 0 after "interrupted")',
      keys: '\x04',
      says: 'error: cancelled: the input ended before an answer; nothing was sent',
    },
  ])
    it(name, async () => {
      const { code, output } = await answer(
        ['erasure', 'create', '--customer', '1'],
        'Type 1 to confirm',
        keys,
      );
      expect(code, plain(output)).toBe(2);
      // On a line of its own, not after the question; and no tick beside an answer that is refused.
      expect(
        plain(output)
          .split('\n')
          .map((line) => line.trimEnd()),
      ).toContain(says);
      expect(plain(output)).not.toContain('✔');
      expect(sent()).toEqual(['GET /api/v1/customers/1']);
    });

  it('--no-input: refused by name before any request, the read included (exit 2)', async () => {
    world.newRequests();
    const t = onTerminal(['erasure', 'create', '--customer', '1', '--no-input']);
    const { code, output } = await t.exited;
    expect(code).toBe(2);
    expect(plain(output).trim()).toBe(
      'error: erasure create needs a confirmation and --no-input forbids the prompt: pass --yes',
    );
    expect(sent()).toEqual([]);
  });
});

describe('erasure create --from on a terminal: every check that can refuse comes before the question', () => {
  const files = useTempDir('clinic-prompts-bulk-');
  /** A file of erasure records for customers `ids`. */
  async function records(name: string, ids: number[]) {
    const path = join(files.path, name);
    await writeFile(path, ids.map((id) => JSON.stringify({ customer_id: id })).join('\n') + '\n');
    return path;
  }

  /**
   * The journal an earlier run over `path` left after it had sent `done` of its lines (each created), as the CLI's
   * own journal writes it, for the world's profile.
   */
  async function journalOf(path: string, done: number[]) {
    const source = await openSource(path, () => process.stdin, new AbortController().signal);
    try {
      const schema = BULK_SCHEMAS.erasure;
      const input = await checkInput({ schema, source, format: 'ndjson', amend: (r) => r });
      const target = { baseUrl: world.sandbox.info.base_url, tenant: '1' };
      const { journal } = await prepareJournal(`${path}.journal`, input, 'new', target);
      await journal.sending(...done);
      for (const line of done) journal.outcome(line, { state: 'ok', id: 1000 + line });
      await journal.close();
    } finally {
      await source.close();
    }
  }

  it('an earlier run without --resume is refused before the question (was: after the number was typed)', async () => {
    const path = await records('again.ndjson', [31, 32, 33]);
    await journalOf(path, [1]);
    world.newRequests();
    const { code, output } = await onTerminal(['erasure', 'create', '--from', path]).exited;
    expect(code, plain(output)).toBe(2);
    expect(plain(output)).toContain('holds an earlier run over this input: pass --resume');
    expect(plain(output)).not.toContain('to confirm');
    expect(sent()).toEqual([]);
  });

  it('--resume asks for the records still to send, and sends those alone', async () => {
    const path = await records('resume.ndjson', [34, 35, 36, 37]);
    await journalOf(path, [1, 3]);
    world.newRequests();
    const t = onTerminal(['erasure', 'create', '--from', path, '--resume']);
    await t.waitFor('Type 2 to confirm');
    expect(plain(t.output)).toContain('This requests the erasure of the data of 2 customers, for good.');
    t.type('2\r');
    const { code, output } = await t.exited;
    expect(code, plain(output)).toBe(0);
    expect(sent()).toEqual(['POST /api/v1/data-erasure-requests', 'POST /api/v1/data-erasure-requests']);
  });

  it('not signed in: exit 3 before the question, nothing sent', async () => {
    const path = await records('signed-out.ndjson', [38]);
    world.newRequests();
    // The world's profile, without its sign-in.
    const signedOut = join(files.path, 'signed-out-config');
    await mkdir(signedOut, { mode: 0o700 });
    await copyFile(join(world.configDir, 'config.json'), join(signedOut, 'config.json'));
    const t = startOnPty(['erasure', 'create', '--from', path], {
      cols: 250,
      env: { CLINIC_CONFIG_DIR: signedOut },
    });
    const { code, output } = await t.exited;
    expect(code, plain(output)).toBe(3);
    expect(plain(output)).not.toContain('to confirm');
    expect(sent()).toEqual([]);
  });
});

describe('erasure retry on a terminal', () => {
  it('names whose data it erases, as the server shows them; "no" sends nothing', async () => {
    const id = world.sandbox.fixtures.tenants[1]!.erasureRequests.failed;
    const read = await world.clinic(['api', `/v1/data-erasure-requests/${id}`]);
    const customerId = (JSON.parse(read.stdout) as { data: { customer_id: number } }).data.customer_id;
    const { first_name, last_name } = await customer(customerId);
    world.newRequests();
    const t = onTerminal(['erasure', 'retry', String(id)]);
    await t.waitFor(`Run erasure request ${id} again?`);
    expect(plain(t.output)).toContain(
      `Run erasure request ${id} again? It erases the data of customer ${customerId} (${first_name} ${last_name}, `,
    );
    t.type('n\r');
    const { code, output } = await t.exited;
    expect(code, plain(output)).toBe(2);
    expect(sent()).toEqual([
      `GET /api/v1/data-erasure-requests/${id}`,
      `GET /api/v1/customers/${customerId}`,
    ]);
  });
});

describe('a yes/no confirmation on a terminal', () => {
  for (const { name, keys, says } of [
    {
      name: 'answered no: "cancelled: nothing was sent", exit 2, only the read',
      keys: 'n\r',
      says: 'error: cancelled: nothing was sent',
    },
    {
      name: 'Ctrl-D: cancelled as a no, exit 2, only the read',
      keys: '\x04',
      says: 'error: cancelled: the input ended before an answer; nothing was sent',
    },
  ])
    it(name, async () => {
      const id = world.sandbox.fixtures.tenants[1]!.erasureRequests.verified;
      const args = ['erasure', 'cancel', String(id), '--reason', 'x'];
      const { code, output } = await answer(args, `Withdraw erasure request ${id}`, keys);
      expect(code, plain(output)).toBe(2);
      expect(
        plain(output)
          .split('\n')
          .map((line) => line.trimEnd()),
      ).toContain(says);
      expect(sent()).toEqual([`GET /api/v1/data-erasure-requests/${id}`]);
    });
});

describe('login --no-browser: the prompt for the address the browser ended on', () => {
  const signedOut = useWorld(oauthWorld);
  const onSignedOutPty = usePtyClinic(signedOut, useTempDir('clinic-paste-'));

  it('an empty answer or a slip keeps the prompt up, saying what it waits for; the right address then signs in', async () => {
    const t = onSignedOutPty(['login', '--insecure-storage', '--no-browser'], { cols: 250 });
    await t.waitFor('Or paste the address');
    const address = /(http:\/\/127\.0\.0\.1:\d+\/callback)/;
    t.type('\r');
    await t.waitFor('waiting for the browser to come back to http://127.0.0.1:');
    expect(plain(t.output)).toMatch(address);
    t.type('abc\r');
    await t.waitFor('that is not an address');
    t.type('\u0015https://example.com/callback?code=x\r');
    await t.waitFor('that is not the address the browser ended on');
    // Still signed out, still asking: no error, no exit.
    expect(plain(t.output)).not.toContain('error:');
    const redirect = plain(t.output).match(address)![1]!;
    t.type(`\u0015${redirect}?code=x&state=wrong\r`);
    const { code, output } = await t.exited;
    // The address was the right one: what it carried was then judged (a state this login did not send).
    expect(code, plain(output)).toBe(3);
    expect(plain(output)).toContain('does not carry the state this login sent');
  });
});
