// Every noun's verbs in-process against a FakeTransport: requests sent, output, record marks, files and exit codes.
import { chmod, mkdir, readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useInProcess } from '../../helpers/in-process.js';
import { BASE_URL, queueReplies } from '../../helpers/mock-api.js';

const cli = useInProcess();

const run = (argv: string[], tty = false) => cli.run(argv, { tty });
const ok = (data: unknown) => ({ success: true, data });
const page = (data: unknown[]) => ({
  success: true,
  data,
  meta: { current_page: 1, last_page: 1, total: data.length },
});

describe('reads', () => {
  it.each([
    [['users', 'get', '3'], '/api/v1/users/3'],
    [['announcements', 'get', '1'], '/api/v1/announcements/1'],
    [['erasure', 'get', '12'], '/api/v1/data-erasure-requests/12'],
    [['conversations', 'message', '5', '1201'], '/api/v1/conversations/5/messages/1201'],
    [['conversations', 'agent', 'status', '5'], '/api/v1/conversations/5/agent'],
  ])('%j → GET %s, the data object as JSON', async (argv, path) => {
    queueReplies(cli.transport, cli.seen, 'GET', path, [{ status: 200, body: ok({ id: 1, name: 'x' }) }]);
    const result = await run([...argv, '-o', 'json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ id: 1, name: 'x' });
    expect(cli.seen[0]?.headers['x-tenant']).toBe('7');
  });

  it('unpaginated lists print like paginated ones (ndjson, csv, table)', async () => {
    const channels = [
      { id: 1, name: 'WhatsApp', type: 'whatsapp', is_active: true },
      { id: 2, name: 'Insta', type: 'instagram', is_active: false },
    ];
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/channels', [
      { status: 200, body: ok(channels) },
      { status: 200, body: ok(channels) },
      { status: 200, body: ok(channels) },
    ]);
    expect((await run(['channels', 'list', '-o', 'ndjson'])).stdout).toBe(
      channels.map((c) => JSON.stringify(c)).join('\n') + '\n',
    );
    expect((await run(['channels', 'list', '-o', 'csv', '--fields', 'id,name'])).stdout).toBe(
      'id,name\r\n1,WhatsApp\r\n2,Insta\r\n',
    );
    const table = (await run(['channels', 'list'], true)).stdout;
    expect(table).toMatch(/ID\s+│ NAME\s+│ TYPE/);
  });

  it('--page or --per-page on a list that came back without pages is said, once, not passed over', async () => {
    const channels = [{ id: 1, name: 'WhatsApp' }];
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/channels/, [
      { status: 200, body: ok(channels) },
      { status: 200, body: ok(channels) },
      { status: 200, body: { ...ok(channels), meta: { current_page: 2, last_page: 2 } } },
    ]);
    const stepped = await run(['channels', 'list', '--page', '2', '-o', 'ndjson']);
    expect(stepped.code).toBe(0);
    expect(stepped.stderr.trim().split('\n')).toEqual([
      'warning: /v1/channels answered one list without pages: --page and --per-page were not applied (--limit N keeps the first N)',
    ]);
    expect((await run(['channels', 'list', '-o', 'ndjson'])).stderr).toBe('');
    // A server that does page it: nothing to say.
    expect((await run(['channels', 'list', '--page', '2', '-o', 'ndjson'])).stderr).toBe('');
  });

  it('conversations messages --after goes to the query; a bad --after sends nothing', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/conversations\/5\/messages\?/, [
      { status: 200, body: page([]) },
    ]);
    expect((await run(['conversations', 'messages', '5', '--after', '1200', '-o', 'json'])).code).toBe(0);
    expect(cli.seen[0]?.path).toBe('/api/v1/conversations/5/messages?after=1200&page=1');
    const bad = await run(['conversations', 'messages', '5', '--after', 'x']);
    expect(bad.code).toBe(2);
    expect(cli.seen).toHaveLength(1);
  });

  it('tables mark masked customers, read-only records and customers still at the lead stage', async () => {
    const rows = [
      {
        id: 1,
        status: 'pending_verification',
        customer: {
          id: 9,
          first_name: 'A***',
          is_masked: true,
          record_state: { is_read_only: false, reason_code: null },
          is_lead_stage: false,
        },
      },
      {
        id: 2,
        status: 'completed',
        customer: {
          id: 8,
          first_name: null,
          is_masked: false,
          record_state: { is_read_only: true, reason_code: 'CUSTOMER_ERASED' },
          is_lead_stage: false,
        },
      },
      {
        id: 3,
        status: 'verified',
        customer: {
          id: 7,
          first_name: 'Lea',
          is_masked: false,
          record_state: { is_read_only: false, reason_code: null },
          is_lead_stage: true,
          lead_id: 31,
        },
      },
    ];
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/data-erasure-requests\?/, [
      { status: 200, body: page(rows) },
    ]);
    const { stdout } = await run(['erasure', 'list'], true);
    expect(stdout).toContain('NOTE');
    expect(stdout).toContain('customer masked');
    expect(stdout).toContain('customer read-only: CUSTOMER_ERASED');
    expect(stdout).toContain('customer is a lead');
    expect(stdout).toContain('lead #3'); // 'lead #31 Lea', cut to the column
  });
});

describe('writes', () => {
  it('leads notes add sends content and user_id', async () => {
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/leads/12/notes', [
      { status: 201, body: ok({ id: 5 }) },
    ]);
    const result = await run([
      'leads',
      'notes',
      'add',
      '12',
      '--content',
      'Called',
      '--user-id',
      '4',
      '-o',
      'json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(cli.seen[0]?.body ?? '')).toEqual({ content: 'Called', user_id: 4 });
  });

  it.each([
    ['CUSTOMER_ERASED', 422, "the customer's data was erased"],
    ['CUSTOMER_ERASED', 409, "the customer's data was erased"],
  ])('a write refused with %s (HTTP %i) exits 6 and says why', async (code, status, why) => {
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/leads/12/notes', [
      { status, body: { success: false, error_code: code, message: 'Refused.', errors: null, data: null } },
    ]);
    const result = await run(['leads', 'notes', 'add', '12', '--content', 'x']);
    expect(result.code).toBe(6);
    expect(result.stderr.split('\n')[0]).toContain(why);
  });

  it.each([
    [{ message: 'This lead is assigned to another salesperson.' }],
    // LEAD_NOT_ASSIGNED is a record_state reason in the API, not an error code: carried by a 403 it stays a 403.
    [
      {
        success: false,
        error_code: 'LEAD_NOT_ASSIGNED',
        message: 'This lead is assigned to another salesperson.',
      },
    ],
  ])("a note refused on another rep's lead (403 %j) exits 4 with the server's reason", async (body) => {
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/leads/12/notes', [{ status: 403, body }]);
    const result = await run(['leads', 'notes', 'add', '12', '--content', 'x']);
    expect(result.code).toBe(4);
    expect(result.stderr.split('\n')[0]).toMatch(
      /^error: This lead is assigned to another salesperson\. \(HTTP 403/,
    );
    expect(result.stderr).not.toContain('read-only');
  });

  it('form-templates update sends only the fields given', async () => {
    queueReplies(cli.transport, cli.seen, 'PUT', '/api/v1/form-templates/3', [
      { status: 200, body: ok({ id: 3 }) },
    ]);
    const partial = await run(['form-templates', 'update', '3', '--inactive', '--name', 'Intake']);
    expect(partial.code).toBe(0);
    expect(JSON.parse(cli.seen[0]?.body ?? '')).toEqual({ name: 'Intake', is_active: false });
    // PUT is a replacement by the document's generic rule: what may be cleared is said.
    expect(partial.stderr.split('\n')[0]).toBe(
      'note: only name, is_active sent; the API document calls PUT a replacement, so a server that follows it ' +
        'may clear description: give all three to be sure',
    );
    queueReplies(cli.transport, cli.seen, 'PUT', '/api/v1/form-templates/3', [
      { status: 200, body: ok({ id: 3 }) },
    ]);
    const whole = await run([
      'form-templates',
      'update',
      '3',
      '--active',
      '--name',
      'A',
      '--description',
      'B',
    ]);
    expect(whole.stderr).not.toContain('note:');
  });

  it.each([
    [['form-templates', 'update', '3']],
    [['form-templates', 'update', '3', '--active', '--inactive']],
    [['form-templates', 'update', 'x', '--active']],
    [['leads', 'notes', 'add', '12']],
    [['leads', 'notes', 'add', '12', '--content', '']],
    [['leads', 'notes', 'add', '12', '--content', 'x', '--user-id', '0']],
    [['erasure', 'create']],
    [['erasure', 'cancel', '12', '--yes']],
    [['users', 'get', '-1']],
    [['sales', 'stock-deduct', 'abc', '--yes']],
    [['conversations', 'agent', 'enable', '0']],
  ])('%j: exit 2, one line, nothing sent', async (argv) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(cli.seen).toEqual([]);
  });

  it('agent enable and disable POST', async () => {
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/conversations/5/agent/enable', [
      { status: 200, body: ok({ enabled: true }) },
    ]);
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/conversations/5/agent/disable', [
      { status: 200, body: ok({ enabled: false }) },
    ]);
    expect((await run(['conversations', 'agent', 'enable', '5'])).code).toBe(0);
    expect((await run(['conversations', 'agent', 'disable', '5'])).code).toBe(0);
  });

  it('--dry-run prints the request and sends nothing', async () => {
    const result = await run(['sales', 'stock-deduct', '17', '--dry-run', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      method: 'POST',
      url: `${BASE_URL}/v1/sales/17/stock-deduct`,
    });
    expect(cli.seen).toEqual([]);
  });
});

describe('files', () => {
  it('send-voice streams the file as the multipart part `file` and prints the acknowledgement', async () => {
    const file = join(cli.dir, 'note.ogg');
    await writeFile(file, Buffer.alloc(2048, 7));
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/conversations/5/messages/voice', [
      { status: 201, body: ok({ status: 'queued', message_id: '77', conversation_id: '5' }) },
    ]);
    const result = await run(['conversations', 'send-voice', '5', file, '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ status: 'queued', message_id: '77', conversation_id: '5' });
  });

  it('send-voice refuses a missing, directory, unreadable, empty or oversize file before sending', async () => {
    const big = join(cli.dir, 'big.ogg');
    await writeFile(big, '');
    await truncate(big, 51_200 * 1024 + 1);
    const locked = join(cli.dir, 'locked.ogg');
    await writeFile(locked, 'x');
    await chmod(locked, 0o000);
    const empty = join(cli.dir, 'empty.ogg');
    await writeFile(empty, '');
    await mkdir(join(cli.dir, 'folder'));
    const cases: [string, RegExp][] = [
      [join(cli.dir, 'missing.ogg'), /no such file/],
      [join(cli.dir, 'folder'), /is a directory/],
      [empty, /is empty/],
      [big, /over the upload limit of 51200 KiB/],
    ];
    if (process.getuid?.() !== 0) cases.push([locked, /permission denied/]); // root reads anything
    for (const [file, message] of cases) {
      const result = await run(['conversations', 'send-voice', '5', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(cli.seen).toEqual([]);
  });

  it('send-voice: --max-kib sets the bound the API document leaves without a unit, 0 leaves it to the server', async () => {
    const file = join(cli.dir, 'note.ogg');
    await writeFile(file, Buffer.alloc(3 * 1024, 7));
    const refused = await run(['conversations', 'send-voice', '5', file, '--max-kib', '2']);
    expect([refused.code, refused.stderr]).toEqual([
      2,
      `error: ${file} is 3 KiB, over the upload limit of 2 KiB (the API document's 51200, read as KiB: --max-kib N ` +
        'sets another bound, 0 none)\n',
    ]);
    expect(cli.seen).toEqual([]);
    const big = join(cli.dir, 'big.ogg');
    await writeFile(big, '');
    await truncate(big, 51_200 * 1024 + 1);
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/conversations/5/messages/voice', [
      { status: 201, body: ok({ status: 'queued', message_id: '78', conversation_id: '5' }) },
    ]);
    const sent = await run(['conversations', 'send-voice', '5', big, '--max-kib', '0', '-o', 'json']);
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ message_id: '78' });
  });

  const PDF = '%PDF-1.4\nhello\n%%EOF\n';

  it('ai-reports pdf saves the PDF through a temporary file; an existing file needs --force', async () => {
    const target = join(cli.dir, 'r.pdf');
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/ai-reports/4/pdf', [
      { status: 200, body: PDF, headers: { 'content-type': 'application/pdf' } },
      { status: 200, body: PDF, headers: { 'content-type': 'application/pdf' } },
    ]);
    expect((await run(['ai-reports', 'pdf', '4', '-O', target])).code).toBe(0);
    expect(await readFile(target, 'utf8')).toBe(PDF);
    const again = await run(['ai-reports', 'pdf', '4', '-O', target]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--force');
    expect(cli.seen).toHaveLength(1);
    expect((await run(['ai-reports', 'pdf', '4', '-O', target, '--force'])).code).toBe(0);
    expect((await readdir(cli.dir)).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('a PDF larger than 256 MiB is refused, and nothing is saved', async () => {
    const target = join(cli.dir, 'huge.pdf');
    const mib = Buffer.alloc(1024 * 1024, 0x20);
    function* endless() {
      yield Buffer.from('%PDF-1.4\n');
      for (;;) yield mib;
    }
    cli.transport.on('GET', '/api/v1/ai-reports/4/pdf', () => ({
      status: 200,
      body: endless(),
      headers: { 'content-type': 'application/pdf' },
    }));
    const refused = await run(['ai-reports', 'pdf', '4', '-O', target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is larger than 256 MiB: refused');
    expect(await readdir(cli.dir)).not.toContain('huge.pdf');
    expect((await readdir(cli.dir)).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('an error body or a non-PDF success is never written as a PDF', async () => {
    const target = join(cli.dir, 'r.pdf');
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/ai-reports/4/pdf', [
      {
        status: 400,
        body: {
          success: false,
          error_code: 'BAD_REQUEST',
          message: 'Report not ready.',
          errors: null,
          data: null,
        },
      },
      { status: 200, body: '<html>login</html>', headers: { 'content-type': 'text/html' } },
    ]);
    const refused = await run(['ai-reports', 'pdf', '4', '-O', target, '--max-retries', '0']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Report not ready.');
    const html = await run(['ai-reports', 'pdf', '4', '-O', target]);
    expect(html.code).toBe(1);
    expect(html.stderr).toContain('is not a PDF');
    expect(await readdir(cli.dir)).toEqual(['config'].filter(() => false));
  });

  it('-O - writes the PDF to stdout, but never to a terminal', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/ai-reports/4/pdf', [
      { status: 200, body: PDF, headers: { 'content-type': 'application/pdf' } },
    ]);
    const piped = await run(['ai-reports', 'pdf', '4', '-O', '-']);
    expect(piped).toMatchObject({ code: 0, stdout: PDF });
    const terminal = await run(['ai-reports', 'pdf', '4', '-O', '-'], true);
    expect(terminal.code).toBe(2);
  });
});
