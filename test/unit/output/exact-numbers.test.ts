// Integers JSON.parse rounds (an id past 2^53) come out as the server wrote them, in every format: JSON, NDJSON, CSV,
// tables, the record view, --jq, and `clinic api`; an export of such ids tells them apart. A number in exponent form
// keeps a double's value (past its range: null, an empty cell), never written out in full. A real node:http server
// answers; the CLI runs in-process over its real transport.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const BIG = '12345678901234567890';
const RECORD = `{"id":${BIG},"amount":1e400,"price":1.5e300,"small":7,"nested":{"ref":-${BIG}}}`;
const PAGE = `{"data":[${RECORD},{"id":2,"amount":3,"price":1,"small":8,"nested":{"ref":1}}],"links":{},"meta":{"current_page":1,"last_page":1,"per_page":15,"total":2}}`;
/** Ids past 2^53 that JSON.parse rounds to one and the same number: pages of them, 3 records each. */
const NEAR = (n: number) => `${9007199254740993n * 1000n + BigInt(n)}`;
const BIG_PAGE = (page: number) =>
  `{"data":[${[0, 1, 2].map((i) => `{"id":${NEAR(page * 3 + i)}}`).join(',')}],"links":{},` +
  `"meta":{"current_page":${page},"last_page":3,"per_page":3,"total":9}}`;

const dir = useTempDir('clinic-exact-');
let created = 0;
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? '/', 'http://x');
    // A created record: its id past 2^53, and one JSON.parse rounds to the same number (two records, two ids).
    if (req.method === 'POST') {
      res.writeHead(201, { 'content-type': 'application/json' });
      return res.end(`{"success":true,"data":{"id":${NEAR(created++)},"first_name":"A"}}`);
    }
    const body = url.pathname.endsWith('/v1/customers')
      ? BIG_PAGE(Number(url.searchParams.get('page') ?? 1))
      : url.pathname.endsWith('/v1/users')
        ? `{"data":[${Array.from({ length: 2000 }, (_, i) => `{"id":${i + 1},"x":1e999}`).join(',')}],"links":{},"meta":{"current_page":1,"last_page":1,"per_page":2000,"total":2000}}`
        : url.pathname.endsWith('/v1/appointments')
          ? PAGE
          : `{"success":true,"data":${RECORD}}`;
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const clinic = (argv: string[], tty = false) =>
  runInProcess(argv, {
    tty,
    env: {
      CLINIC_CONFIG_DIR: join(dir.path, 'config'),
      CLINIC_BASE_URL: baseUrl,
      CLINIC_TOKEN: 'tok',
      CLINIC_TENANT: '1',
    },
  });

describe('integers JSON.parse would round', () => {
  it('NDJSON and JSON: written as the server wrote them', async () => {
    const ndjson = await clinic(['appointments', 'list', '-o', 'ndjson']);
    expect(ndjson.code).toBe(0);
    expect(ndjson.stdout.split('\n')[0]).toBe(
      `{"id":${BIG},"amount":null,"price":1.5e+300,"small":7,"nested":{"ref":-${BIG}}}`,
    );
    const json = await clinic(['customers', 'get', '1', '-o', 'json']);
    expect(json.stdout).toContain(`"id": ${BIG},`);
    expect(json.stdout).toContain(`"ref": -${BIG}`);
  });

  it('CSV, a table, --fields and --jq: the same digits', async () => {
    const csv = await clinic(['appointments', 'list', '-o', 'csv', '--fields', 'id,amount,nested.ref']);
    expect(csv.stdout.split('\r\n').slice(0, 2)).toEqual(['id,amount,nested.ref', `${BIG},,-${BIG}`]);
    const table = await clinic(['customers', 'get', '1', '-o', 'table'], true);
    expect(table.stdout).toContain(BIG);
    const jq = await clinic(['appointments', 'list', '--jq', '.[0].id, .[0].nested']);
    expect(jq.stdout).toBe(`${BIG}\n{\n  "ref": -${BIG}\n}\n`);
    const fields = await clinic(['appointments', 'list', '-o', 'ndjson', '--fields', 'id']);
    expect(fields.stdout).toBe(`{"id":${BIG}}\n{"id":2}\n`);
  });

  it('clinic api: pretty on a terminal and one line for --paginate, the digits kept', async () => {
    const pretty = await clinic(['api', '/v1/customers/1'], true);
    expect(pretty.stdout).toContain(`"id": ${BIG}`);
    const pages = await clinic(['api', '/v1/appointments', '--paginate', '-o', 'ndjson']);
    expect(pages.stdout.split('\n')[0]).toContain(`"id":${BIG}`);
  });

  it('an export of ids JSON.parse rounds to one number: told apart by their digits, every record once', async () => {
    const result = await clinic(['customers', 'list', '--all', '-o', 'ndjson']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toEqual(
      [3, 4, 5, 6, 7, 8, 9, 10, 11].map((n) => `{"id":${NEAR(n)}}`),
    );
  });

  it('bulk: a created id is written as the server wrote it, in the result line, the journal and on --resume', async () => {
    const from = join(dir.path, 'new.ndjson');
    writeFileSync(from, '{"first_name":"A","last_name":"B","email":"a@example.com"}\n'.repeat(2));
    const run = await clinic(['customers', 'create', '--from', from]);
    expect(run.code, run.stderr).toBe(0);
    const rows = [0, 1].map((n) => `{"line":${n + 1},"status":"ok","id":${NEAR(n)}}`);
    expect(run.stdout.trimEnd().split('\n')).toEqual(rows);
    const resumed = await clinic(['customers', 'create', '--from', from, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout.trimEnd().split('\n')).toEqual(rows);
    expect(created, 'the resume sent nothing').toBe(2);
  });

  it('a number in exponent form is never written out: 2,000 of 1e999 stay small (null), quickly', async () => {
    const result = await clinic(['api', '/v1/users', '--paginate', '-o', 'ndjson']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(Array.from({ length: 2000 }, (_, i) => `{"id":${i + 1},"x":null}\n`).join(''));
  });
});
