// Integers JSON.parse rounds (an id past 2^53, a number past the double range) come out as the server wrote them, in
// every format: JSON, NDJSON, CSV, tables, the record view, --jq, and `clinic api`. A real node:http server answers;
// the CLI runs in-process over its real transport.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactInteger } from '../../../src/core/http/exact-numbers.js';
import { runInProcess } from '../../helpers/in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const BIG = '12345678901234567890';
const HUGE = '1e400';
const HUGE_DIGITS = `1${'0'.repeat(400)}`;
const RECORD = `{"id":${BIG},"amount":${HUGE},"price":1.25,"small":7,"nested":{"ref":-${BIG}}}`;
const PAGE = `{"data":[${RECORD},{"id":2,"amount":3,"price":1,"small":8,"nested":{"ref":1}}],"links":{},"meta":{"current_page":1,"last_page":1,"per_page":15,"total":2}}`;

const dir = useTempDir('clinic-exact-');
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const body = req.url?.startsWith('/api/v1/appointments') ? PAGE : `{"success":true,"data":${RECORD}}`;
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
      `{"id":${BIG},"amount":${HUGE_DIGITS},"price":1.25,"small":7,"nested":{"ref":-${BIG}}}`,
    );
    const json = await clinic(['customers', 'get', '1', '-o', 'json']);
    expect(json.stdout).toContain(`"id": ${BIG},`);
    expect(json.stdout).toContain(`"ref": -${BIG}`);
  });

  it('CSV, a table, --fields and --jq: the same digits', async () => {
    const csv = await clinic(['appointments', 'list', '-o', 'csv', '--fields', 'id,amount,nested.ref']);
    expect(csv.stdout.split('\r\n').slice(0, 2)).toEqual([
      'id,amount,nested.ref',
      `${BIG},${HUGE_DIGITS},-${BIG}`,
    ]);
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

  it('exactInteger: an integer in any notation, nothing else, nothing past 1000 digits', () => {
    expect(exactInteger(BIG)).toBe(12345678901234567890n);
    expect(exactInteger('-1.5e20')).toBe(-150000000000000000000n);
    expect(exactInteger('1.50e1')).toBe(15n);
    expect(exactInteger('1.55e1')).toBeUndefined();
    expect(exactInteger('0.5')).toBeUndefined();
    expect(exactInteger('1e999')).toBe(10n ** 999n);
    expect(exactInteger('1e1000')).toBeUndefined();
    expect(exactInteger('1e999999999')).toBeUndefined();
  });
});
