// Argument checks: numbers, ids, pairs, list options and the global options.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_RETRIES, parseGlobals } from '../../../src/cli/globals.js';
import { defineCommand, type OptionsOf } from '../../../src/cli/command.js';
import { LIST_OPTIONS, parseListOptions } from '../../../src/cli/list-options.js';
import { parseCommandInput } from '../../../src/cli/program.js';
import { parseId, parsePairs, parseWholeNumber } from '../../../src/cli/parse-args.js';
import { UsageError } from '../../../src/core/errors.js';
import { useInProcess } from '../../helpers/in-process.js';

describe('parseWholeNumber', () => {
  it('accepts whole numbers in range', () => {
    expect(parseWholeNumber('5', '--n')).toBe(5);
    expect(parseWholeNumber(' 7 ', '--n')).toBe(7);
    expect(parseWholeNumber('100', '--n', { min: 1, max: 100 })).toBe(100);
  });

  it.each(['abc', '-1', '1.5', '', '1e3', '0x10'])(
    'rejects %j with a UsageError naming the option',
    (value) => {
      expect(() => parseWholeNumber(value, '--n')).toThrow(UsageError);
      expect(() => parseWholeNumber(value, '--n')).toThrow(/^--n must be a whole number/);
    },
  );

  it('a value that is no whole number is told the range it must be in', () => {
    expect(() => parseWholeNumber('-1', '--max-retries', { min: 0, max: 20 })).toThrow(
      "--max-retries must be a whole number between 0 and 20, got '-1'",
    );
    expect(() => parseWholeNumber('-5', '--per-page', { min: 1, max: 100 })).toThrow(
      "--per-page must be a whole number between 1 and 100, got '-5'",
    );
    expect(() => parseWholeNumber('x', '--page', { min: 1 })).toThrow(
      "--page must be a whole number of at least 1, got 'x'",
    );
    expect(() => parseWholeNumber('99999999999999999999', '--max-retries', { min: 0, max: 20 })).toThrow(
      '--max-retries must be between 0 and 20, got 99999999999999999999',
    );
  });

  it('rejects values out of range, saying the range', () => {
    expect(() => parseWholeNumber('0', '--per-page', { min: 1, max: 100 })).toThrow(
      '--per-page must be between 1 and 100, got 0',
    );
    expect(() => parseWholeNumber('0', '--page', { min: 1 })).toThrow('--page must be at least 1, got 0');
  });
});

describe('parseId', () => {
  it('accepts positive integers', () => {
    expect(parseId('42')).toBe(42);
  });

  it.each(['0', '-1', '1.0', 'abc', '', '07', '1 2'])('rejects %j', (value) => {
    expect(() => parseId(value, 'CUSTOMER_ID')).toThrow(UsageError);
    expect(() => parseId(value, 'CUSTOMER_ID')).toThrow(/^CUSTOMER_ID must be a positive whole number/);
  });
});

describe('parsePairs', () => {
  it('splits at the first =', () => {
    expect(parsePairs(['status=pending', 'q=a=b', 'empty='], '--filter')).toEqual([
      ['status', 'pending'],
      ['q', 'a=b'],
      ['empty', ''],
    ]);
  });

  it.each(['novalue', '=x'])('rejects %j', (pair) => {
    expect(() => parsePairs([pair], '--filter')).toThrow(/--filter expects key=value/);
  });
});

describe('parseListOptions (through the declared flags)', () => {
  const listDef = defineCommand({
    name: 'list',
    summary: 'a list',
    options: LIST_OPTIONS,
    examples: ['clinic list'],
    load: async () => async () => {},
  });
  const parse = (...argv: string[]) =>
    parseListOptions(parseCommandInput(listDef, argv).options as OptionsOf<typeof LIST_OPTIONS>);

  it('parses page, per-page, limit, all and filters', () => {
    expect(parse('--page', '2', '--per-page', '50', '--limit', '10', '--filter', 'status=done')).toEqual({
      page: { page: 2, perPage: 50, limit: 10, all: false },
      filters: [['status', 'done']],
    });
    expect(parse('--all', '--per-page', '50').page).toEqual({
      page: undefined,
      perPage: 50,
      limit: undefined,
      all: true,
    });
  });

  it.each([
    ['--page', '2'],
    ['--page', '1'],
  ])('refuses --all with %s %s: one page or all of them', (...flags) => {
    expect(() => parse('--all', ...flags)).toThrow(UsageError);
    expect(() => parse('--all', ...flags)).toThrow(
      '--all reads every page from the first; --page N reads one page: give one of them',
    );
  });

  it('leaves unset options undefined', () => {
    expect(parse()).toEqual({
      page: { page: undefined, perPage: undefined, limit: undefined, all: false },
      filters: [],
    });
  });

  it.each(['0', '101', 'abc', '-5', '10.5'])('rejects --per-page %s', (value) => {
    expect(() => parse('--per-page', value)).toThrow(UsageError);
    expect(() => parse('--per-page', value)).toThrow(/--per-page/);
  });

  it('accepts --per-page 1 and 100', () => {
    expect(parse('--per-page', '1').page.perPage).toBe(1);
    expect(parse('--per-page', '100').page.perPage).toBe(100);
  });

  it('rejects --page 0 and --limit 0', () => {
    expect(() => parse('--page', '0')).toThrow(/--page/);
    expect(() => parse('--limit', '0')).toThrow(/--limit/);
  });

  it('rejects a malformed --filter, and a filter the paging or typed flags own', () => {
    expect(() => parse('--filter', 'oops')).toThrow(UsageError);
    expect(() => parse('--filter', 'per_page=5')).toThrow(/use --per-page/);
    expect(() => parseListOptions({ filter: ['status=x'] }, { status: '--status' })).toThrow(/use --status/);
  });
});

describe('parseGlobals', () => {
  it('defaults', () => {
    const g = parseGlobals({}, {});
    expect(g).toMatchObject({
      output: undefined,
      fields: undefined,
      debug: false,
      colour: true,
      yes: false,
      input: true,
      dryRun: false,
      maxRetries: DEFAULT_MAX_RETRIES,
      raw: false,
    });
    expect(DEFAULT_MAX_RETRIES).toBe(4);
  });

  it('rejects an unknown output format', () => {
    expect(() => parseGlobals({ output: 'yaml' }, {})).toThrow(UsageError);
    expect(() => parseGlobals({ output: 'yaml' }, {})).toThrow(/unknown output format 'yaml'/);
  });

  it.each(['table', 'json', 'ndjson', 'csv'])('accepts -o %s', (format) => {
    expect(parseGlobals({ output: format }, {}).output).toBe(format);
  });

  it('--json means json, and agrees with -o json', () => {
    expect(parseGlobals({ json: true }, {}).output).toBe('json');
    expect(parseGlobals({ json: true, output: 'json' }, {}).output).toBe('json');
  });

  it('--json with -o csv is a conflict', () => {
    expect(() => parseGlobals({ json: true, output: 'csv' }, {})).toThrow(/--json and --output csv disagree/);
  });

  it('parses --fields and rejects a bad path', () => {
    expect(parseGlobals({ fields: 'id,record_state.reason_code' }, {}).fields).toEqual([
      'id',
      'record_state.reason_code',
    ]);
    expect(() => parseGlobals({ fields: 'id,.bad' }, {})).toThrow(UsageError);
    expect(() => parseGlobals({ fields: 'a b' }, {})).toThrow(/--fields/);
  });

  it('--max-retries 0 turns retries off; bad values are refused', () => {
    expect(parseGlobals({ maxRetries: '0' }, {}).maxRetries).toBe(0);
    expect(() => parseGlobals({ maxRetries: '-1' }, {})).toThrow(UsageError);
    expect(() => parseGlobals({ maxRetries: 'many' }, {})).toThrow(/--max-retries/);
  });

  it('CLINIC_DEBUG=1 turns on debug, 0/false/empty do not', () => {
    expect(parseGlobals({}, { CLINIC_DEBUG: '1' }).debug).toBe(true);
    expect(parseGlobals({}, { CLINIC_DEBUG: '0' }).debug).toBe(false);
    expect(parseGlobals({}, { CLINIC_DEBUG: 'false' }).debug).toBe(false);
    expect(parseGlobals({}, { CLINIC_DEBUG: '' }).debug).toBe(false);
    expect(parseGlobals({ debug: true }, {}).debug).toBe(true);
  });

  it('--no-color, NO_COLOR and TERM=dumb turn colour off; --no-input turns prompts off', () => {
    expect(parseGlobals({ color: false }, {}).colour).toBe(false);
    expect(parseGlobals({}, { NO_COLOR: '1' }).colour).toBe(false);
    expect(parseGlobals({}, { TERM: 'dumb' }).colour).toBe(false);
    expect(parseGlobals({}, { TERM: 'xterm-256color' }).colour).toBe(true);
    expect(parseGlobals({ input: false }, {}).input).toBe(false);
  });
});

describe('argument checks in-process', () => {
  const cli = useInProcess();

  it.each([
    [['users', 'get', '9007199254740993']],
    [['erasure', 'create', '--customer', '99999999999999999999', '--yes']],
    [['customers', 'list', '--page', '99999999999999999999']],
    [['erasure', 'create', '--customer', '5', '--customer', '6', '--yes']],
    [['erasure', 'list', '--status', 'failed', '--status', 'completed']],
    [['erasure', 'list', '--created-from', '2026-01-01T00:00+99:99']],
    [['ai-reports', 'pdf', '2', '-O', '/nonexistent/dir/x.pdf']],
    [['ai-reports', 'pdf', '2', '-O', 'sub/']],
  ])('%j: exit 2, one line, nothing sent', async (argv) => {
    const result = await cli.run(argv);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(cli.seen).toEqual([]);
  });
});
