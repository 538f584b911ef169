// Servers whose pages never end: `customers list --all` and `clinic api --paginate` stop with exit 1 and say why,
// printing no record twice; a `chat tail` fill on such a server, or on one that never answers, ends on --timeout
// within seconds, or on Ctrl-C with exit 130.
import { type ChildProcess, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, lines, runCli, shellStatus } from '../../helpers/cli.js';
import { type RestHandler, useFakeRealtime } from '../../helpers/fake-realtime.js';

const realtime = useFakeRealtime('clinic-hostile-pages-');

const customers = (page: number) => [
  { id: 2 * page - 1, first_name: 'A' },
  { id: 2 * page, first_name: 'B' },
];

/** Every page answered as page 1 of a billion. */
const stuckOnPageOne = (path: string) =>
  path === '/v1/customers' || path.endsWith('/messages')
    ? { data: customers(1), meta: { current_page: 1, last_page: 1e9 } }
    : undefined;

async function clinic(args: string[]) {
  const started = Date.now();
  const result = await runCli(realtime.configDir, args, { env: realtime.fake.env });
  return { ...result, ms: Date.now() - started };
}

describe('endless pages end with exit 1', () => {
  it('customers list --all: the first page once, then the error', async () => {
    const fake = await realtime.start(stuckOnPageOne);
    const { code, stdout, stderr } = await clinic(['customers', 'list', '--all', '-o', 'ndjson']);
    expect(code).toBe(1);
    expect(lines(stderr)[0]).toBe(
      'error: the server answered page 1 when asked for page 2 of /v1/customers; stopping',
    );
    expect(lines(stdout).map((line) => JSON.parse(line).id)).toEqual([1, 2]);
    expect(fake.requests.filter((r) => r.startsWith('/api/v1/customers')).length).toBeLessThanOrEqual(2);
  });

  it('clinic api --paginate: the same error, no record twice', async () => {
    await realtime.start(stuckOnPageOne);
    const { code, stdout, stderr } = await clinic(['api', '/v1/customers', '--paginate', '-o', 'ndjson']);
    expect(code).toBe(1);
    expect(lines(stderr)[0]).toMatch(
      /^error: the server answered page 1 when asked for page 2 of \/v1\/customers/,
    );
    const ids = lines(stdout).map((line) => JSON.parse(line).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('links.next only, the same page forever: exit 1 naming the repeat', async () => {
    await realtime.start((path) =>
      path === '/v1/customers'
        ? { data: customers(1), links: { next: 'http://127.0.0.1:1/next' } }
        : undefined,
    );
    const { code, stdout, stderr } = await clinic(['customers', 'list', '--all', '-o', 'ndjson']);
    expect(code).toBe(1);
    expect(lines(stderr)[0]).toMatch(
      /^error: the server sent the same records for page 2 of \/v1\/customers/,
    );
    expect(lines(stdout)).toHaveLength(2);
  });

  it('links.next only, pages alternating A, B, A, B (api --paginate, customers list --all): exit 1', async () => {
    // Each page is the one asked for and differs from the one before; only ids seen before give it away.
    await realtime.start((path, query) =>
      path === '/v1/customers'
        ? {
            data: customers(2 - (Number(query.get('page')) % 2)),
            meta: { current_page: Number(query.get('page')) },
            links: { next: 'x' },
          }
        : undefined,
    );
    for (const args of [
      ['api', '/v1/customers', '--paginate', '-o', 'ndjson'],
      ['customers', 'list', '--all', '-o', 'ndjson'],
    ]) {
      const { code, stdout, stderr } = await clinic(args);
      expect(code, stderr).toBe(1);
      expect(lines(stderr)[0]).toBe(
        'error: the server sent page 3 of /v1/customers with no record that earlier pages had not; stopping',
      );
      expect(lines(stdout).map((line) => JSON.parse(line).id)).toEqual([1, 2, 3, 4]);
    }
  });
});

interface Tail {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; ms: number }>;
}

function tail(args: string[]): Tail {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'chat', 'tail', '-o', 'ndjson', ...args], {
    env: { ...baseEnv(realtime.configDir), ...realtime.fake.env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exit: new Promise((resolve) =>
      child.once('exit', (code, signal) =>
        resolve({ code: shellStatus(code, signal), ms: Date.now() - started }),
      ),
    ),
  };
}

const since = ['--conversation', '5', '--since', '100'];
/** A message list that never answers: the request stays open until the client gives up. */
const neverAnswers = (path: string, _query: URLSearchParams, res: unknown) =>
  path.endsWith('/messages') ? res : undefined;
/** A message list with always one more page of new messages, each page the one asked for. */
const endless = (path: string, query: URLSearchParams) => {
  if (!path.endsWith('/messages')) return undefined;
  const page = Number(query.get('page'));
  const data = [1, 2].map((i) => ({ id: 100 + 2 * page + i, conversation_id: 5, body: 'x' }));
  return { data, meta: { current_page: page, last_page: 1e9 } };
};

describe('a chat tail fill that never ends', () => {
  /** A fill from a fake answering with `rest`, under --timeout 2: it must end with exit 0 within seconds. */
  async function endsOnTimeout(rest: RestHandler) {
    const fake = await realtime.start(rest);
    const t = tail([...since, '--timeout', '2']);
    const { code, ms } = await t.exit;
    expect(code, t.stderr()).toBe(0);
    expect(ms).toBeLessThan(8_000);
    return { fake, t };
  }

  it('--timeout 2 ends a fill waiting on a server that never answers: exit 0 within seconds', async () => {
    const { fake } = await endsOnTimeout(neverAnswers);
    expect(fake.requests.some((r) => r.includes('/messages?after=100'))).toBe(true);
  });

  it('--timeout 2 ends a fill whose pages never end: exit 0 within seconds', async () => {
    const { t } = await endsOnTimeout(endless);
    const ids = lines(t.stdout()).map((line) => JSON.parse(line).data.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('Ctrl-C during a fill that never answers: exit 130', async () => {
    const fake = await realtime.start(neverAnswers);
    const t = tail([...since, '--timeout', '60']);
    const deadline = Date.now() + 10_000;
    while (!fake.requests.some((r) => r.includes('/messages?after=100')) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const interrupted = Date.now();
    t.child.kill('SIGINT');
    const { code } = await t.exit;
    expect(code, t.stderr()).toBe(130);
    // By itself, not by the second-chance exit the CLI takes 2 s after a Ctrl-C that did not end the run.
    expect(Date.now() - interrupted).toBeLessThan(1_800);
  });

  it('a fill whose pages alternate A, B, A, B (links.next only): exit 1 at once, not a request loop', async () => {
    const fake = await realtime.start((path, query) => {
      if (!path.endsWith('/messages')) return undefined;
      const id = 110 + (Number(query.get('page')) % 2);
      return { data: [{ id, conversation_id: 5, body: 'x' }], links: { next: 'x' } };
    });
    const t = tail([...since, '--timeout', '20']);
    const { code, ms } = await t.exit;
    expect(code, t.stderr()).toBe(1);
    expect(ms).toBeLessThan(10_000);
    expect(t.stderr()).toMatch(/with no record that earlier pages had not; stopping/);
    expect(fake.requests.filter((r) => r.includes('/messages')).length).toBeLessThan(10);
  });

  it('a fill answered with page 1 for every page: exit 1 saying so, no message twice', async () => {
    await realtime.start(stuckOnPageOne);
    const t = tail([...since, '--timeout', '20']);
    const { code, ms } = await t.exit;
    expect(code).toBe(1);
    expect(ms).toBeLessThan(10_000);
    expect(t.stderr()).toMatch(
      /^error: the server answered page 1 when asked for page 2 of \/v1\/conversations\/5\/messages/m,
    );
  });
});
