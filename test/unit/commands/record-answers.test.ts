// A read of one record answered with something else in `data` (null, a list, a value): an unexpected answer, exit 1,
// never a success showing an empty record. A write whose answer the document does not show may answer any value.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('clinic-record-answers-');
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering every request 200 with `{"success":true,"data":<data>}`. */
async function answering(data: string) {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"success":true,"data":${data}}`);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

const clinic = (baseUrl: string, argv: string[]) =>
  runInProcess(argv, {
    env: {
      CLINIC_CONFIG_DIR: join(dir.path, 'config'),
      CLINIC_BASE_URL: baseUrl,
      CLINIC_TOKEN: 'tok',
      CLINIC_TENANT: '1',
    },
  });

describe('a read of one record', () => {
  it.each([
    ['null', 'null'],
    ['[1,2]', 'a list'],
    ['"x"', 'a string'],
  ])('answered with data %s: exit 1, said', async (data, found) => {
    const baseUrl = await answering(data);
    for (const [argv, what] of [
      [['users', 'get', '2', '-o', 'table'], 'user 2'],
      [['customers', 'get', '3', '-o', 'json'], 'customer 3'],
      [['account', '-o', 'json'], 'the account'],
      [['erasure', 'get', '4', '-o', 'json'], 'erasure request 4'],
    ] as const) {
      const result = await clinic(baseUrl, [...argv]);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toBe(
        `error: unexpected response for ${what}: 'data' is ${found}, not a record`,
      );
    }
  });

  it('--raw still prints the body as it came', async () => {
    const result = await clinic(await answering('null'), ['users', 'get', '2', '--raw']);
    expect(result).toMatchObject({ code: 0, stdout: '{"success":true,"data":null}\n' });
  });

  it('a write whose answer is not shown (stock deduction) may answer null', async () => {
    const result = await clinic(await answering('null'), [
      'sales',
      'stock-deduct',
      '5',
      '--yes',
      '-o',
      'json',
    ]);
    expect(result).toMatchObject({ code: 0, stdout: 'null\n' });
  });
});
