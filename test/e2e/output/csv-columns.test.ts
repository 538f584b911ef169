// CSV columns that do not depend on luck, as a user gets them from the built CLI: against the sandbox (declared fields,
// an empty result's header) and a fake API whose records change shape from record to record and page to page.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredFields } from '../../../src/core/api/declared-fields.js';
import { runCli } from '../../helpers/cli.js';
import { type FakeApi, startFakeApi } from '../../helpers/fake-api.js';
import { useWorld } from '../../helpers/world.js';

const rowsOf = (csv: string) => parse(csv, { columns: true }) as Record<string, string>[];

describe('CSV columns against the sandbox', () => {
  const world = useWorld();

  it('erasure list: the declared fields lead, so cancelled_by has its columns whichever page shows one', async () => {
    const run = await world.clinic(['erasure', 'list', '--all', '--per-page', '5', '-o', 'csv']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const header = run.stdout.split('\r\n')[0]!.split(',');
    expect(header.slice(0, declaredFields('DataErasureRequest').length)).toEqual(
      declaredFields('DataErasureRequest'),
    );
    const rows = rowsOf(run.stdout);
    const cancelled = rows.filter((row) => row.status === 'cancelled');
    expect(cancelled.length).toBeGreaterThan(0);
    for (const row of cancelled) expect(row['cancelled_by.name']).not.toBe('');
    expect(
      rows.filter((row) => row.status === 'completed').every((row) => row['cancelled_by.id'] === ''),
    ).toBe(true);
  });

  it('an empty result still prints the header', async () => {
    const run = await world.clinic(['customers', 'list', '--filter', 'search=no-such-person-x', '-o', 'csv']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${declaredFields('Customer').join(',')}\r\n`);
    const pinned = await world.clinic([
      'erasure',
      'list',
      '--status',
      'completed',
      '--created-to',
      '2000-01-01',
      '-o',
      'csv',
      '--fields',
      'id,status',
    ]);
    expect(pinned.stdout).toBe('id,status\r\n');
  });
});

describe('CSV columns against records that change shape', () => {
  let api: FakeApi;
  let configDir: string;
  /** Appointments (no declared fields) in two pages: an object null in the first record, a field new on page 2. */
  const PAGES = [
    [
      { id: 1, room: null, starts_at: '2026-01-01T09:00:00Z' },
      { id: 2, room: { name: 'Blue', floor: 1 }, starts_at: '2026-01-01T10:00:00Z' },
    ],
    [{ id: 3, room: { name: 'Red', floor: 2 }, starts_at: '2026-01-02T09:00:00Z', video_link: 'https://v' }],
  ];
  beforeAll(async () => {
    api = await startFakeApi({
      answer({ path }) {
        const url = new URL(path, 'http://x');
        if (url.pathname !== '/api/v1/appointments') return undefined;
        const page = Number(url.searchParams.get('page') ?? '1');
        const meta = { current_page: page, last_page: 2, per_page: 2, total: 3 };
        return { body: { data: PAGES[page - 1] ?? [], meta, links: {} } };
      },
    });
    configDir = await api.configDir();
  });
  afterAll(() => api.close());
  const clinic = (args: string[]) => runCli(configDir, args, { env: { CLINIC_TOKEN: 'x' } });

  it('null-then-object gives dotted columns; a field first seen on page 2 is named once on stderr', async () => {
    const run = await clinic(['appointments', 'list', '--all', '--per-page', '2', '-o', 'csv']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\r\n')[0]).toBe('id,room.name,room.floor,starts_at');
    expect(rowsOf(run.stdout).map((row) => row['room.name'])).toEqual(['', 'Blue', 'Red']);
    expect(run.stderr).toMatch(/^warning: CSV: video_link first seen after the first page.*--fields.*\n$/);
  });

  it('--fields pins the columns; a path no record has gets one warning', async () => {
    const fields = 'id,room.name,video_link,romo.name';
    const run = await clinic([
      'appointments',
      'list',
      '--all',
      '--per-page',
      '2',
      '-o',
      'csv',
      '--fields',
      fields,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\r\n')[0]).toBe(fields);
    expect(rowsOf(run.stdout).map((row) => row.video_link)).toEqual(['', '', 'https://v']);
    expect(run.stderr).toBe('warning: --fields: no record has romo.name: check the name\n');
  });
});
