// Option parsing of `clinic api` (methods, -F typed vs -f string, headers) and `clinic sandbox start`.
import { describe, expect, it } from 'vitest';
import { parseApiOptions, typedValue } from '../../../src/commands/api/request.js';
import { parseSandboxOptions } from '../../../src/commands/sandbox/start.js';
import { UsageError } from '../../../src/core/errors.js';

describe('typedValue (-F)', () => {
  it.each([
    ['5', 5],
    ['-2.5', -2.5],
    ['0', 0],
    ['true', true],
    ['false', false],
    ['null', null],
    ['05', '05'],
    ['1e3', '1e3'],
    ['abc', 'abc'],
    ['', ''],
    // A number only when JSON keeps its value exactly: else the exact text, as a string.
    ['9007199254740991', 9007199254740991],
    ['9007199254740993', '9007199254740993'],
    ['12345678901234567890123', '12345678901234567890123'],
    ['1.10', 1.1],
    ['-0', 0],
    ['3.14159265358979323846', '3.14159265358979323846'],
    // JSON writes these in exponent form, the same values.
    ['0.0000001', 0.0000001],
    ['100000000000000000000', 100000000000000000000],
    ['100000000000000000001', '100000000000000000001'],
    ['0.1', 0.1],
  ])('%j -> %j', (raw, value) => {
    expect(typedValue(raw)).toEqual(value);
  });
});

describe('parseApiOptions', () => {
  it('defaults to GET without fields', async () => {
    expect(await parseApiOptions(['/v1/account'], {})).toEqual({
      path: '/v1/account',
      method: 'GET',
      fields: [],
      fieldTexts: [],
      headers: {},
      input: undefined,
      paginate: false,
    });
  });

  it('-F n=5 is typed, -f n=5 stays a string; fields make it a POST', async () => {
    const options = await parseApiOptions(['/v1/customers'], {
      field: ['n=5', 'ok=true'],
      rawField: ['s=5'],
    });
    expect(options.fields).toEqual([
      ['n', 5],
      ['ok', true],
      ['s', '5'],
    ]);
    expect(options.fieldTexts).toEqual([
      ['n', '5'],
      ['ok', 'true'],
      ['s', '5'],
    ]);
    expect(options.method).toBe('POST');
  });

  it('fields with --paginate stay a GET (query parameters)', async () => {
    const options = await parseApiOptions(['/v1/customers'], { field: ['per_page=5'], paginate: true });
    expect(options.method).toBe('GET');
    expect(options.paginate).toBe(true);
  });

  it('-X is upper-cased and checked', async () => {
    expect((await parseApiOptions(['/v1/x'], { method: 'patch' })).method).toBe('PATCH');
    await expect(parseApiOptions(['/v1/x'], { method: 'FETCH' })).rejects.toThrow(
      /-X: unknown method 'FETCH'/,
    );
  });

  it('--paginate works with GET only', async () => {
    await expect(parseApiOptions(['/v1/x'], { method: 'POST', paginate: true })).rejects.toThrow(
      /--paginate/,
    );
  });

  it('--input needs a method with a body', async () => {
    await expect(parseApiOptions(['/v1/x'], { method: 'GET', input: 'f.json' })).rejects.toThrow(/--input/);
    await expect(parseApiOptions(['/v1/x'], { method: 'HEAD', input: 'f.json' })).rejects.toThrow(
      /--input needs a method with a body \(-X POST…\), not HEAD/,
    );
    expect((await parseApiOptions(['/v1/x'], { method: 'DELETE', input: 'f.json' })).method).toBe('DELETE');
    expect((await parseApiOptions(['/v1/x'], { input: 'f.json' })).method).toBe('POST');
  });

  it('rejects a missing path and an absolute URL', async () => {
    await expect(parseApiOptions([], {})).rejects.toBeInstanceOf(UsageError);
    await expect(parseApiOptions(['https://evil.test/v1/account'], {})).rejects.toThrow(
      /relative to base_url/,
    );
  });

  it('rejects a field without key=value', async () => {
    await expect(parseApiOptions(['/v1/x'], { field: ['novalue'] })).rejects.toThrow(/-F expects key=value/);
    await expect(parseApiOptions(['/v1/x'], { rawField: ['=v'] })).rejects.toThrow(/-f expects key=value/);
  });

  it('parses -H "Name: value" and rejects a header without a colon', async () => {
    const options = await parseApiOptions(['/v1/x'], { header: ['X-Custom:  a:b '] });
    expect(options.headers).toEqual({ 'x-custom': 'a:b' });
    await expect(parseApiOptions(['/v1/x'], { header: ['NoColon'] })).rejects.toThrow(/-H expects/);
  });

  it('-F key=@missing-file is a usage error', async () => {
    await expect(parseApiOptions(['/v1/x'], { field: ['note=@/nonexistent/clinic/file'] })).rejects.toThrow(
      /-F: cannot read/,
    );
  });
});

describe('parseSandboxOptions', () => {
  it('defaults', () => {
    expect(parseSandboxOptions({})).toEqual({
      port: 0,
      seed: 1,
      records: 40,
      rateLimit: 60,
      faults: undefined,
      writeProfile: 'sandbox',
    });
  });

  it('parses numbers and the profile name', () => {
    expect(
      parseSandboxOptions({ port: '8080', seed: '7', records: '500', rateLimit: '0', writeProfile: 'flaky' }),
    ).toMatchObject({ port: 8080, seed: 7, records: 500, rateLimit: 0, writeProfile: 'flaky' });
  });

  it('--no-write-profile leaves the profile undefined', () => {
    expect(parseSandboxOptions({ writeProfile: false }).writeProfile).toBeUndefined();
  });

  it.each([
    [{ port: '65536' }, /--port/],
    [{ port: 'abc' }, /--port/],
    [{ records: '-1' }, /--records/],
    [{ rateLimit: '1.5' }, /--rate-limit/],
    [{ writeProfile: 'bad name' }, /invalid profile name/],
  ])('rejects %j', (options, message) => {
    expect(() => parseSandboxOptions(options)).toThrow(UsageError);
    expect(() => parseSandboxOptions(options)).toThrow(message);
  });
});
