// The erasure workflow in-process against a FakeTransport: every status × action, confirmations, watch and filters.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../../src/cli/prompter.js';
import { ERASURE_STATUSES } from '../../../src/core/api/erasure.js';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';

const cli = useInProcess();

/** The sandbox's rule, which the CLI must not assume: it only reads the flags. */
const allows = (status: string) => ({
  resend: status === 'pending_verification',
  cancel: status === 'pending_verification' || status === 'verified',
  retry: status === 'failed',
  certificate: status === 'completed',
});
const erasure = (status: string, id = 12) => ({
  success: true,
  data: { id, status, customer_id: 42, state_allows: allows(status) },
});
/** The next read of customer 42 finds them. */
const customer42 = () =>
  queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/customers/42', [
    { status: 200, body: { success: true, data: { id: 42, first_name: 'Ada', last_name: 'Lovelace' } } },
  ]);
const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n';

const run = (argv: string[], options: { prompter?: Prompter; terminal?: boolean } = {}) =>
  cli.run(argv, {
    terminal: options.terminal,
    deps: options.prompter ? { prompter: options.prompter } : {},
  });

const ACTIONS = [
  { action: 'resend', argv: ['erasure', 'resend', '12'] },
  { action: 'cancel', argv: ['erasure', 'cancel', '12', '--reason', 'changed mind', '--yes'] },
  { action: 'retry', argv: ['erasure', 'retry', '12', '--yes'] },
  { action: 'certificate', argv: ['erasure', 'certificate', '12', '-O', 'CERT'] },
] as const;

describe('erasure matrix: every status × every action', () => {
  const cases = ERASURE_STATUSES.flatMap((status) => ACTIONS.map((a) => ({ status, ...a })));
  it.each(cases)('$action on $status', async ({ status, action, argv }) => {
    const args = argv.map((arg) => (arg === 'CERT' ? join(cli.dir, 'cert.pdf') : arg));
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/data-erasure-requests/12', [
      { status: 200, body: erasure(status) },
    ]);
    const allowed = allows(status)[action];
    if (allowed && action === 'certificate') {
      queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/data-erasure-requests/12/certificate', [
        { status: 200, body: PDF, headers: { 'content-type': 'application/pdf' } },
      ]);
    } else if (allowed) {
      queueReplies(cli.transport, cli.seen, 'POST', `/api/v1/data-erasure-requests/12/${action}`, [
        { status: 200, body: erasure(status) },
      ]);
    }
    const result = await run([...args, '-o', 'json']);
    if (allowed) {
      expect(result.code).toBe(0);
      expect(cli.seen.map((r) => r.method)).toEqual(['GET', action === 'certificate' ? 'GET' : 'POST']);
      if (action === 'cancel')
        expect(JSON.parse(cli.seen[1]?.body ?? '{}')).toEqual({ cancellation_reason: 'changed mind' });
      if (action === 'certificate') expect(await readFile(join(cli.dir, 'cert.pdf'), 'utf8')).toBe(PDF);
    } else {
      expect(result.code).toBe(6);
      expect(result.stderr).toContain(
        `error: ${action} is not allowed while the request's status is ${status.replace(/_/g, ' ')}`,
      );
      expect(cli.seen.map((r) => r.method)).toEqual(['GET']); // the read only: nothing sent
    }
  });
});

describe('confirmations', () => {
  it.each([
    ['cancel', ['erasure', 'cancel', '12', '--reason', 'x']],
    ['retry', ['erasure', 'retry', '12']],
    ['create', ['erasure', 'create', '--customer', '42']],
    ['stock-deduct', ['sales', 'stock-deduct', '17']],
  ])(
    '%s without a terminal and without --yes: exit 2 naming --yes, no request at all',
    async (_name, argv) => {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('--yes');
      expect(cli.seen).toEqual([]);
    },
  );

  it('create on a terminal: typing another id cancels (exit 2) and sends nothing', async () => {
    customer42();
    const prompter: Prompter = { confirm: async () => true, input: async () => '24' };
    const result = await run(['erasure', 'create', '--customer', '42'], { terminal: true, prompter });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n').at(-2)).toBe(
      "error: cancelled: you typed '24', not 42; nothing was sent",
    );
    expect(cli.seen.map((r) => r.method)).toEqual(['GET']); // who the customer is, read to ask
  });

  it('create on a terminal: typing the id back sends the request', async () => {
    customer42();
    const asked: string[] = [];
    const prompter: Prompter = { confirm: async () => true, input: async (q) => (asked.push(q), '42') };
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/data-erasure-requests', [
      { status: 201, body: erasure('pending_verification', 99) },
    ]);
    const result = await run(['erasure', 'create', '--customer', '42', '--reason', 'asked', '-o', 'json'], {
      terminal: true,
      prompter,
    });
    expect(result.code).toBe(0);
    expect(asked[0]).toContain('Type 42 to confirm');
    expect(JSON.parse(cli.seen[1]?.body ?? '')).toEqual({ customer_id: 42, request_reason: 'asked' });
    expect(JSON.parse(result.stdout).id).toBe(99);
  });

  it('cancel on a terminal: answering no sends no POST', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/data-erasure-requests/12', [
      { status: 200, body: erasure('verified') },
    ]);
    const prompter: Prompter = { confirm: async () => false, input: async () => '' };
    const result = await run(['erasure', 'cancel', '12', '--reason', 'x'], { terminal: true, prompter });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: cancelled: nothing was sent\n');
    expect(cli.seen.map((r) => r.method)).toEqual(['GET']);
  });
});

describe('erasure retry: whose data it erases, whatever the server says of the customer', () => {
  /** retry 12 on a terminal, answered no, for a failed request naming `customerId`: the question and the requests. */
  async function asked(customerId: unknown, customerAnswer?: { status: number; body: unknown }) {
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/data-erasure-requests/12', [
      { status: 200, body: { success: true, data: { ...erasure('failed').data, customer_id: customerId } } },
    ]);
    if (customerAnswer)
      queueReplies(cli.transport, cli.seen, 'GET', `/api/v1/customers/${String(customerId)}`, [
        customerAnswer,
      ]);
    const questions: string[] = [];
    const prompter: Prompter = { confirm: async (q) => (questions.push(q), false), input: async () => '' };
    const result = await run(['--max-retries', '0', 'erasure', 'retry', '12'], { terminal: true, prompter });
    expect(result.code).toBe(2);
    return { question: questions[0], sent: cli.seen.map((r) => `${r.method} ${r.path}`) };
  }

  it('a customer it can read: named as the server shows them', async () => {
    customer42();
    const { question } = await asked(42);
    expect(question).toBe(
      'Run erasure request 12 again? It erases the data of customer 42 (Ada Lovelace), for good.',
    );
  });

  it.each([['5#x'], ['%2e%2e/%2e%2e/account'], [{}], [-1], [1.5], [null]])(
    'a customer id that is none (%j): nothing asked of the server for it, "the patient"',
    async (id) => {
      const { question, sent } = await asked(id);
      expect(question).toBe('Run erasure request 12 again? It erases the data of the patient, for good.');
      expect(sent).toEqual(['GET /api/v1/data-erasure-requests/12']);
    },
  );

  it.each([
    [500, 'who it is could not be read'],
    [404, "the server no longer has this customer's record"],
    [403, 'reading customers is forbidden to you'],
  ])('a customer read answered %i: asked all the same, saying so', async (status, says) => {
    const { question } = await asked(43, { status, body: { message: 'no' } });
    expect(question).toContain(`customer 43 (`);
    expect(question).toContain(says);
  });
});

describe('erasure watch', () => {
  const sequence = (statuses: (string | number)[]) =>
    queueReplies(
      cli.transport,
      cli.seen,
      'GET',
      '/api/v1/data-erasure-requests/12',
      statuses.map((s) =>
        typeof s === 'number' ? { status: s, body: { message: 'oops' } } : { status: 200, body: erasure(s) },
      ),
    );

  it('prints each change once and exits 0 on completed, riding out a 500', async () => {
    sequence(['pending_verification', 'pending_verification', 'verified', 500, 'processing', 'completed']);
    const result = await run([
      'erasure',
      'watch',
      '12',
      '--interval',
      '1',
      '-o',
      'ndjson',
      '--max-retries',
      '0',
    ]);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).status),
    ).toEqual(['pending_verification', 'verified', 'processing', 'completed']);
    expect(result.stderr).toContain('still watching');
  });

  it("tells each change at the server's time (updated_at), a value that is no time left out", async () => {
    const at = (status: string, updated_at: unknown) => ({
      status: 200,
      body: { success: true, data: { ...erasure(status).data, updated_at } },
    });
    const replies = () =>
      queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/data-erasure-requests/12', [
        at('verified', '2026-03-04T05:06:07.000000Z'),
        at('processing', { toString: 1 }),
        at('completed', '2026-03-04T07:08:09+02:00'),
      ]);
    replies();
    const json = await run(['erasure', 'watch', '12', '--interval', '1', '-o', 'ndjson']);
    const changes = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { status: string; time: string; changed_at?: string });
    expect(changes.map(({ status, changed_at }) => [status, changed_at])).toEqual([
      ['verified', '2026-03-04T05:06:07.000Z'],
      ['processing', undefined],
      ['completed', '2026-03-04T05:08:09.000Z'],
    ]);
    expect(changes.every(({ time }) => Number.isFinite(Date.parse(time)))).toBe(true);
    replies();
    const lines = (await run(['erasure', 'watch', '12', '--interval', '1', '-o', 'table'])).stdout;
    expect(lines).toContain('2026-03-04 05:06  erasure request 12  verified\n');
    expect(lines).toContain('2026-03-04 05:08  erasure request 12  completed\n');
  });

  it('exits 1 on another terminal status, saying which', async () => {
    sequence(['processing', 'failed']);
    const result = await run(['erasure', 'watch', '12', '--interval', '1', '-o', 'table']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/erasure request 12 {2}failed\n$/);
    expect(result.stderr).toContain('ended failed, not completed');
  });

  it('exits 1 at --timeout with the last status', async () => {
    sequence(['processing', 'processing', 'processing', 'processing']);
    const result = await run(['erasure', 'watch', '12', '--interval', '1', '--timeout', '3']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('still processing');
  });

  it('a 404 is not ridden out', async () => {
    sequence([404]);
    const result = await run(['erasure', 'watch', '12']);
    expect(result.code).toBe(5);
  });
});

describe('erasure list filters', () => {
  /** The next `erasure list` finds no requests. */
  const emptyList = () =>
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/data-erasure-requests\?/, [
      { status: 200, body: { success: true, data: [], meta: { current_page: 1, last_page: 1, total: 0 } } },
    ]);

  it('sends the typed filters as the query', async () => {
    emptyList();
    const argv = [
      'erasure',
      'list',
      '--status',
      'failed',
      '--created-from',
      '2026-01-01T00:00:00Z',
      '--sort-by',
      'status',
    ];
    const result = await run([...argv, '--sort-order', 'desc', '-o', 'json']);
    expect(result.code).toBe(0);
    const query = new URL(`http://x${cli.seen[0]?.path}`).searchParams;
    expect(Object.fromEntries(query)).toEqual({
      status: 'failed',
      created_at_from: '2026-01-01T00:00:00Z',
      sort_by: 'status',
      sort_order: 'desc',
      page: '1',
    });
  });

  it('a date and a date-time without an offset compare in one time zone, whatever TZ is', async () => {
    emptyList();
    const argv = ['erasure', 'list', '--created-from', '2026-01-01', '--created-to', '2026-01-01T05:00:00'];
    expect((await run([...argv, '-o', 'json'])).code).toBe(0);
  });

  it.each([
    [['--status', 'done']],
    [['--created-from', '2026-02-30T00:00:00Z']],
    [['--created-to', 'yesterday']],
    [['--created-from', '2026-03-01', '--created-to', '2026-01-01']],
    [['--sort-by', 'name']],
    [['--sort-order', 'up']],
    [['--per-page', '101']],
    [['--filter', 'status=failed']],
  ])('%j: exit 2, one line, nothing sent', async (flags) => {
    const result = await run(['erasure', 'list', ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(cli.seen).toEqual([]);
  });
});

describe('erasure create --from', () => {
  it('on a terminal asks to type the number of records; a wrong number sends nothing', async () => {
    const file = join(cli.dir, 'requests.csv');
    await writeFile(file, 'customer_id,request_reason\n41,asked\n42,asked\n');
    const asked: string[] = [];
    const prompter: Prompter = { confirm: async () => true, input: async (q) => (asked.push(q), '3') };
    const result = await run(['erasure', 'create', '--from', file], { terminal: true, prompter });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('erasure of the data of 2 customers');
    expect(asked[0]).toBe('Type 2 to confirm:');
    expect(cli.seen).toEqual([]);
  });

  it('typing the number sends one request per record', async () => {
    const file = join(cli.dir, 'requests.csv');
    await writeFile(file, 'customer_id,request_reason\n41,asked\n42,\n');
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/data-erasure-requests', [
      { status: 201, body: erasure('pending_verification', 98) },
      { status: 201, body: erasure('pending_verification', 99) },
    ]);
    const prompter: Prompter = { confirm: async () => true, input: async () => '2' };
    const result = await run(['erasure', 'create', '--from', file], { terminal: true, prompter });
    expect(result.code, result.stderr).toBe(0);
    expect(cli.seen.map((r) => JSON.parse(r.body ?? ''))).toEqual([
      { customer_id: 41, request_reason: 'asked' },
      { customer_id: 42, request_reason: '' },
    ]);
  });
});
