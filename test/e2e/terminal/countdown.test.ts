// A wait for the rate-limit window at a real terminal: a countdown redrawn in place on one line that never wraps,
// erased when the wait is over, among the data and the progress line; into a pipe, the one line scripts have always
// parsed; Ctrl-C during it stops the run at once with the terminal given back.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, startWorld } from '../../helpers/cli.js';
import { onPty, plain } from '../../helpers/pty.js';
import { usePtyClinic } from '../../helpers/pty-modes.js';
import { replay } from '../../helpers/screen.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { useWorld } from '../../helpers/world.js';

// Two requests per 5-second window: an export of three pages waits most of a window for its third.
const world = useWorld(() => startWorld({ rateWindowSeconds: 4 }));
const dir = useTempDir('clinic-countdown-');
const startOnPty = usePtyClinic(world, dir);
const EXPORT = [
  'customers',
  'list',
  '--all',
  '--per-page',
  '5',
  '--limit',
  '15',
  '-o',
  'ndjson',
  '--fields',
  'id',
];
const IDS = Array.from({ length: 15 }, (_, i) => `{"id":${i + 1}}`);

/**
 * Two requests per window from now on, on both sides: the sandbox's count starts again, and so does the profile's
 * budget (the file every clinic process of it shares), which would otherwise hold the window the last test left and
 * make a first wait of any length (under 2 s: told as a line, not a countdown).
 */
async function freshWindow(): Promise<void> {
  world.sandbox.setRateLimit(2);
  await rm(join(world.configDir, 'rate-limit'), { recursive: true, force: true });
}

/** Each count the terminal was shown, in order, repeats dropped. */
function counts(output: string): number[] {
  const seen = [...output.matchAll(/waiting (\d+)s for the rate-limit window/g)].map((m) => Number(m[1]));
  return seen.filter((n, i) => n !== seen[i - 1]);
}

describe('a wait for the rate-limit window', () => {
  it.each([60, 80, 120])(
    'on a terminal of %i columns: counts down in place, never wraps, and leaves only the data',
    async (cols) => {
      await freshWindow();
      const t = startOnPty(EXPORT, { cols });
      const { code, output } = await t.exited;
      const shown = plain(output);
      expect(code, shown).toBe(0);
      const counted = counts(output);
      expect(new Set(counted).size, shown).toBeGreaterThanOrEqual(2);
      expect(counted).toEqual([...counted].sort((a, b) => b - a)); // going down
      if (cols >= 80) expect(output).toContain('for the rate-limit window to reset (Ctrl-C to stop)');
      const screen = replay(output, cols);
      expect(screen.wrapped, shown).toBe(false);
      expect(screen.widest).toBeLessThan(cols);
      // What is left: the data, and the cursor at the start of a clean line.
      expect(screen.rows.filter((row) => row !== '')).toEqual(IDS);
      expect(screen.rows.at(-1)).toBe('');
      expect(screen.column).toBe(0);
    },
    40_000,
  );

  it('into a pipe: stderr is the single line it always was, without a carriage return or an escape', async () => {
    await freshWindow();
    const { code, stdout, stderr } = await world.clinic(EXPORT);
    expect(code, stderr).toBe(0);
    expect(stdout.split('\n').filter(Boolean)).toEqual(IDS);
    expect(stderr).toMatch(/^waiting [1-6]s for the rate-limit window to reset\n$/);
  }, 20_000);

  it('Ctrl-C during the countdown: stops at once, exit 130, the line ended and the terminal as it was', async () => {
    await freshWindow();
    const t = startOnPty(EXPORT, { cols: 80 });
    await t.waitFor(/waiting \d+s for the rate-limit window to reset \(Ctrl-C to stop\)/);
    const typed = Date.now();
    t.type('\x03');
    const { code, output } = await t.exited;
    expect(code, plain(output)).toBe(130);
    expect(Date.now() - typed).toBeLessThan(3000); // not the rest of the window
    const screen = replay(output, 80);
    expect(
      screen.rows.some((row) => row.includes('waiting')),
      JSON.stringify(output),
    ).toBe(false);
    expect(screen.rows).toContain('error: interrupted');
    // Right below the data: the row the terminal echoed ^C on is erased, not left empty above it.
    expect(screen.rows[screen.rows.indexOf('error: interrupted') - 1], JSON.stringify(output)).toMatch(
      /^\{"id":\d+\}$/,
    );
    expect(screen.column).toBe(0);
    // The cursor shown (a spinner hides it while it spins).
    expect(output.lastIndexOf('\x1b[?25h')).toBeGreaterThanOrEqual(output.lastIndexOf('\x1b[?25l'));
    expect(await t.modesAfter()).toEqual({ isig: true, icanon: true, echo: true });
  }, 20_000);

  it("a bulk run: the countdown takes the progress line's place while it waits and gives it back", async () => {
    await freshWindow();
    const file = join(dir.path, 'people.ndjson');
    const people = [1, 2, 3].map((i) => ({ first_name: `P${i}`, last_name: 'Countdown' }));
    await writeFile(file, people.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const t = startOnPty(['customers', 'create', '--from', file], {
      cols: 100,
      stdoutFile: join(dir.path, 'out'),
    });
    const { code, output } = await t.exited;
    expect(code, plain(output)).toBe(0);
    expect(new Set(counts(output)).size, plain(output)).toBeGreaterThanOrEqual(2);
    // Once the wait is over, its line erased and the progress line drawn again (a spinner's frame), then the summary.
    const after = output.slice(output.lastIndexOf('for the rate-limit window to reset'));
    const erased = after.indexOf('\r\x1b[K');
    const progress = after.search(/\S customers create: \d\/3 records/);
    expect(
      [erased, progress].every((at) => at >= 0),
      plain(output),
    ).toBe(true);
    expect(erased).toBeLessThan(progress);
    expect(progress).toBeLessThan(after.indexOf('customers create: 3/3 records, 3 ok'));
    const screen = replay(output, 100);
    expect(screen.rows.some((row) => row.includes('waiting'))).toBe(false);
    expect(screen.rows.join('\n')).toMatch(/^customers create: 3\/3 records, 3 ok, 0 errors .*journal: /m);
  }, 20_000);

  it('Ctrl-C during the countdown in a shell loop: clinic ends by SIGINT, so the loop stops too (exit 130)', async () => {
    await freshWindow();
    const clinic = [process.execPath, BIN, '--profile', 'sandbox', ...EXPORT];
    const loop = 'for i in 1 2; do echo "run $i"; "$@"; done; echo "the loop ended"';
    const t = onPty(['bash', '-c', loop, 'bash', ...clinic], { cols: 80, env: baseEnv(world.configDir) });
    try {
      await t.waitFor(/waiting \d+s for the rate-limit window to reset/);
      t.type('\x03');
      const { code, output } = await t.exited;
      expect(plain(output)).not.toContain('run 2');
      expect(plain(output)).not.toContain('the loop ended');
      expect(code).toBe(130);
    } finally {
      t.kill();
    }
  }, 20_000);
});
