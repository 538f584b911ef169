// What each answer at a prompt does: "no" (or another id typed back) sends nothing and exits 2; Ctrl-C at the prompt
// is an interruption (130) that gives the terminal back; --no-input says it is what refuses; `erasure create` names the
// customer, as the server shows them, before asking.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { answered, type Prompter, terminalPrompter } from '../../../src/cli/prompter.js';
import { CancelledError, DeclinedError } from '../../../src/core/errors.js';
import { toExitCode } from '../../../src/core/exit-codes.js';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';

/** A terminal as @inquirer/prompts uses it: raw mode switched through setRawMode, each switch recorded. */
function fakeTerminal() {
  const rawModes: boolean[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      rawModes.push(mode);
      stdin.isRaw = mode;
      return stdin;
    },
  });
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  stderr.resume();
  return {
    streams: { stdin, stdout: new PassThrough(), stderr },
    rawModes,
    type: (keys: string) => stdin.write(keys),
  };
}

describe('a question on the terminal (@inquirer/prompts)', () => {
  it('gives the typed answer and the terminal back out of raw mode', async () => {
    const terminal = fakeTerminal();
    const asking = terminalPrompter(terminal.streams).input('Type 42 to confirm:');
    terminal.type('42\r');
    expect(await asking).toBe('42');
    expect(terminal.rawModes).toEqual([true, false]);
  });

  it('Ctrl-C at it is an interruption: exit 130, the terminal back out of raw mode', async () => {
    const terminal = fakeTerminal();
    const asking = terminalPrompter(terminal.streams).confirm('Withdraw erasure request 12?');
    terminal.type('\x03');
    const error = await asking.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(toExitCode(error)).toBe(130);
    expect(terminal.rawModes.at(-1)).toBe(false);
  });

  it('SIGINT or SIGTERM from elsewhere (the run aborted) ends it as an interruption too', async () => {
    const terminal = fakeTerminal();
    const interrupt = new AbortController();
    const asking = terminalPrompter(terminal.streams, interrupt.signal).input('Type 42 to confirm:');
    await once(terminal.streams.stderr, 'data'); // the question is shown
    interrupt.abort();
    const error = await asking.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(terminal.rawModes).toEqual([true, false]);
  });

  it('Ctrl-D (the input ends) is a question left unanswered: a no, exit 2, the terminal back', async () => {
    for (const ask of [
      (prompter: Prompter) => prompter.input('Type 42 to confirm:'),
      (prompter: Prompter) => prompter.confirm('Withdraw erasure request 12?'),
    ]) {
      const terminal = fakeTerminal();
      const asking = ask(terminalPrompter(terminal.streams));
      terminal.type('\x04');
      const error = await asking.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeclinedError);
      expect((error as Error).message).toBe('cancelled: the input ended before an answer; nothing was sent');
      expect(toExitCode(error)).toBe(2);
      expect(terminal.rawModes.at(-1)).toBe(false);
    }
  });

  it('back from Ctrl-Z (input paused, terminal still raw): the input is read again, the question goes on', async () => {
    const input = Object.assign(new PassThrough(), { isRaw: true });
    input.resume();
    let answer!: (value: string) => void;
    const asking = answered(new Promise<string>((resolve) => (answer = resolve)), undefined, input);
    input.pause();
    // The watcher looks two check-phase turns after the pause; a third turn here comes after it whatever the timers do
    // (a setTimeout here could fire first on a busy machine and look too early).
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(false);
    answer('42');
    expect(await asking).toBe('42');
  });

  it('is not asked at all once the run was interrupted', async () => {
    const terminal = fakeTerminal();
    const interrupt = new AbortController();
    interrupt.abort();
    const error = await terminalPrompter(terminal.streams, interrupt.signal)
      .confirm('Withdraw erasure request 12?')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(terminal.rawModes).toEqual([]);
  });
});

describe('answers, in-process', () => {
  const cli = useInProcess();
  const answering = (confirm: boolean, typed: string, asked: string[] = []): Prompter => ({
    confirm: async (message) => (asked.push(message), confirm),
    input: async (message) => (asked.push(message), typed),
  });
  const onTerminal = (argv: string[], prompter: Prompter) =>
    cli.run(argv, { terminal: true, deps: { prompter } });

  it('no: "cancelled: nothing was sent", exit 2 (as gh), also as a JSON error', async () => {
    const result = await onTerminal(['sales', 'stock-deduct', '17', '-o', 'json'], answering(false, ''));
    expect(result.code).toBe(2);
    const [line, json] = result.stderr.trim().split('\n');
    expect(line).toBe('error: cancelled: nothing was sent');
    expect(JSON.parse(json ?? '')).toMatchObject({ error: { code: 'cancelled', exit_code: 2 } });
    expect(cli.seen).toEqual([]);
  });

  it('Ctrl-C at the prompt stays 130', async () => {
    const interrupted: Prompter = {
      confirm: () => Promise.reject(new CancelledError('interrupted')),
      input: () => Promise.reject(new CancelledError('interrupted')),
    };
    const result = await onTerminal(['sales', 'stock-deduct', '17'], interrupted);
    expect(result.code).toBe(130);
    expect(cli.seen).toEqual([]);
  });

  it('--no-input on a terminal: the refusal names --no-input, before any request', async () => {
    const result = await onTerminal(
      ['erasure', 'cancel', '12', '--reason', 'x', '--no-input'],
      answering(true, ''),
    );
    expect(result).toMatchObject({
      code: 2,
      stderr: 'error: erasure cancel needs a confirmation and --no-input forbids the prompt: pass --yes\n',
    });
    expect(cli.seen).toEqual([]);
  });

  it('--no-input on a terminal: login --with-token names it too', async () => {
    const result = await onTerminal(
      ['login', '--with-token', '--insecure-storage', '--no-input'],
      answering(true, 'tok'),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--no-input');
  });
});

describe('erasure create --customer: who is to be erased, before the id is typed back', () => {
  const cli = useInProcess();
  const customer = (reply: { status: number; body: unknown }) =>
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/customers/42', [reply]);
  const create = (asked: string[], typed = 'no') =>
    cli.run(['erasure', 'create', '--customer', '42'], {
      terminal: true,
      deps: { prompter: { confirm: async () => true, input: async (q) => (asked.push(q), typed) } },
    });

  it('as the server shows them: masked values kept and marked, control characters made safe', async () => {
    customer({
      status: 200,
      body: {
        success: true,
        data: {
          id: 42,
          first_name: 'A***',
          last_name: 'L\x1b[2J***',
          email: 'a***@***',
          phone_number: '***0123',
          date_of_birth: '1815-12-10',
          is_masked: true,
          record_state: { is_read_only: false, reason_code: null },
        },
      },
    });
    const asked: string[] = [];
    const result = await create(asked);
    // Said on a line of its own, then a short prompt (a long one wraps, and the prompt's cursor lands inside it).
    expect(result.stderr).toContain(
      'This requests the erasure of all data of customer 42 (A*** L?[2J***, a***@***, ***0123, born 1815-12-10; ' +
        'masked), for good.',
    );
    expect(asked).toEqual(['Type 42 to confirm:']);
    expect(result.code).toBe(2);
    expect(cli.seen.map((r) => r.method)).toEqual(['GET']);
  });

  it('a customer who does not exist: exit 5, nothing asked, nothing sent', async () => {
    customer({ status: 404, body: { message: 'No query results for model [Customer] 42' } });
    const asked: string[] = [];
    const result = await create(asked);
    expect(result.code).toBe(5);
    expect(asked).toEqual([]);
    expect(cli.seen.map((r) => r.method)).toEqual(['GET']);
  });

  it('a user who may not read customers is asked all the same, told why the customer is not named', async () => {
    customer({ status: 403, body: { message: 'This action is unauthorized.' } });
    const asked: string[] = [];
    const result = await create(asked);
    expect(result.stderr).toContain(
      'customer 42 (who it is cannot be shown: reading customers is forbidden to you)',
    );
    expect(asked).toEqual(['Type 42 to confirm:']);
  });

  it('with --yes nothing is asked and the customer is not read', async () => {
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/data-erasure-requests', [
      { status: 201, body: { success: true, data: { id: 99, status: 'pending_verification' } } },
    ]);
    const result = await cli.run(['erasure', 'create', '--customer', '42', '--yes', '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect(cli.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v1/data-erasure-requests']);
  });
});
