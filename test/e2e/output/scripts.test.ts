// Names in many scripts on a real terminal of 60, 80 and 120 columns (util-linux `script`): every line of a table and
// of a record view is as wide as its frame by glibc's count (test/helpers/glibc-width.ts), never wider than the
// terminal, and names are whole where there is room. Hebrew vowel points, a Devanagari virama, Thai tone marks take no
// cell; Hangul, ideographs and emoji two.
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv } from '../../helpers/cli.js';
import { glibcWidth } from '../../helpers/glibc-width.js';
import { onPty, plain } from '../../helpers/pty.js';
import { useWorld } from '../../helpers/world.js';

const NAMES: [first: string, last: string][] = [
  ['अनुष्का', 'शर्मा'],
  ['אָבִיגַיִל', 'בלג'],
  ['مُحَمَّد', 'حمد'],
  ['นิ้ว', 'วน'],
  ['한국어', '山田太郎'],
  ['👩‍👩‍👧', 'e\u0301te\u0301'],
];

const world = useWorld();

async function createdIds(): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, [first, last]] of NAMES.entries()) {
    const created = await world.clinic([
      'customers',
      'create',
      '--set',
      `first_name=${first}`,
      '--set',
      `last_name=${last}`,
      '--set',
      `email=script${index}@example.com`,
      '-o',
      'json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    ids.push(String((JSON.parse(created.stdout) as { id: number }).id));
  }
  return ids;
}

async function screen(args: string[], cols: number): Promise<string[]> {
  const env = { ...baseEnv(world.configDir), TZ: 'UTC' } as NodeJS.ProcessEnv;
  const session = onPty([process.execPath, BIN, '--profile', 'sandbox', ...args], { cols, rows: 60, env });
  const { code, output } = await session.exited;
  expect(code, plain(output)).toBe(0);
  return plain(output)
    .split('\n')
    .filter((line) => /^[┌│└]/.test(line));
}

describe('names in many scripts, on a terminal', () => {
  let ids: string[] = [];

  it.each([60, 80, 120])(
    'a list and a record view at %i columns keep every line as wide as the frame',
    async (cols) => {
      if (ids.length === 0) ids = await createdIds();
      const newest = [
        '--filter',
        'sort_by=id',
        '--filter',
        'sort_order=desc',
        '--per-page',
        String(NAMES.length),
      ];
      const tables = [await screen(['customers', 'list', ...newest], cols)];
      for (const id of ids) tables.push(await screen(['customers', 'get', id], cols));
      for (const lines of tables) {
        expect(lines.length).toBeGreaterThan(3);
        const frame = glibcWidth(lines[0] as string);
        expect(frame).toBeLessThanOrEqual(cols);
        for (const line of lines) expect(glibcWidth(line), `${line}\n${lines.join('\n')}`).toBe(frame);
      }
      if (cols === 120) {
        const list = (tables[0] as string[]).join('\n');
        for (const [first, last] of NAMES) expect(list).toContain(`${first} ${last}`);
      }
    },
  );
});
