// How doctor's report is written for scripts (csv columns, --fields per check), and a run stopped by Ctrl-C.
import { describe, expect, it } from 'vitest';
import { writeReport } from '../../../src/commands/doctor/render.js';
import type { OutputSpec } from '../../../src/cli/output/render.js';
import type { Check, DoctorDeps } from '../../../src/core/doctor/check.js';
import type { DoctorReport } from '../../../src/core/doctor/run-checks.js';
import { runDoctor } from '../../../src/core/doctor/run-checks.js';
import { stringSink } from '../../helpers/sink.js';

const REPORT: DoctorReport = {
  ok: true,
  checks: [
    { name: 'config-file', status: 'ok', detail: 'fine', facts: { path: '/c/config.json', mode: '0600' } },
    { name: 'keychain', status: 'warn', detail: 'not available', fix: 'use --insecure-storage' },
  ],
};

const spec = (format: OutputSpec['format'], fields?: string[]): OutputSpec => ({
  format,
  fields,
  colour: false,
  width: 100,
});

async function written(s: OutputSpec, report: DoctorReport = REPORT): Promise<string> {
  const sink = stringSink();
  await writeReport(sink, s, report);
  return sink.text;
}

describe('the report for scripts', () => {
  it('csv has the columns name,status,detail,fix whatever the first check carries', async () => {
    expect((await written(spec('csv'))).split('\r\n')).toEqual([
      'name,status,detail,fix',
      'config-file,ok,fine,',
      'keychain,warn,not available,use --insecure-storage',
      '',
    ]);
  });

  it('--fields picks from each check, in JSON inside "checks"', async () => {
    expect(JSON.parse(await written(spec('json', ['name', 'mode'])))).toEqual({
      ok: true,
      checks: [
        { name: 'config-file', mode: '0600' },
        { name: 'keychain', mode: null },
      ],
    });
    expect((await written(spec('csv', ['name', 'status']))).split('\r\n')[0]).toBe('name,status');
    expect(await written(spec('table', ['name', 'status']))).toMatch(/keychain +│ warn/);
  });

  it('an interrupted report says so; csv of no check at all still has its header', async () => {
    const cut: DoctorReport = { ok: false, checks: [], interrupted: true };
    expect(JSON.parse(await written(spec('json'), cut))).toEqual({
      ok: false,
      interrupted: true,
      checks: [],
    });
    expect(await written(spec('csv'), cut)).toBe('name,status,detail,fix\r\n');
  });
});

describe('Ctrl-C', () => {
  it('stops the running check at once and reports those done before it', async () => {
    const controller = new AbortController();
    const deps = { signal: controller.signal } as DoctorDeps;
    const heard: string[] = [];
    const checks: Check[] = [
      { name: 'a', limitMs: () => 1000, run: async () => ({ name: 'a', status: 'ok', detail: '' }) },
      {
        name: 'hangs',
        limitMs: () => 60_000,
        run: () => {
          setTimeout(() => controller.abort(), 10);
          return new Promise(() => {});
        },
      },
      { name: 'never', limitMs: () => 1000, run: async () => ({ name: 'never', status: 'ok', detail: '' }) },
    ];
    const started = Date.now();
    const report = await runDoctor(deps, { start: (name) => void heard.push(name) }, checks);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(report).toEqual({
      ok: false,
      interrupted: true,
      checks: [{ name: 'a', status: 'ok', detail: '' }],
    });
    expect(heard).toEqual(['a', 'hangs']);
  });
});
