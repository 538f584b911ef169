// `clinic man` as a person meets it at a terminal (60, 80 and 120 columns): the page formatted by the system's man,
// never its roff source; without man, the source and a note saying so. Into a pipe, the source as before.
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, tempConfigDir } from '../../helpers/cli.js';
import { onPty, plain } from '../../helpers/pty.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/** This machine's man, where it has one (CI installs man-db). */
const man = (process.env.PATH ?? '').split(':').find((dir) => dir && existsSync(join(dir, 'man')));

/** `clinic man` on a terminal `cols` wide, with `env`: its exit code and what the terminal showed, as lines. */
async function onTerminal(cols: number, env: NodeJS.ProcessEnv = {}) {
  const config = await tempConfigDir();
  const t = onPty([process.execPath, BIN, 'man'], {
    cols,
    rows: 40,
    env: { CLINIC_CONFIG_DIR: config, ...env },
  });
  const { code, output } = await t.exited;
  return {
    code,
    lines: plain(output)
      .split('\n')
      .map((line) => line.trimEnd()),
  };
}

describe.skipIf(!man)('on a terminal', () => {
  it.each([60, 80, 120])(
    '%i columns: the page as man shows it, as wide as the terminal, no roff',
    async (cols) => {
      const { code, lines } = await onTerminal(cols);
      expect(code).toBe(0);
      expect(lines[0]).toMatch(/^CLINIC\(1\) +User Commands +CLINIC\(1\)$/);
      // man keeps a margin of a few columns.
      expect(lines[0]!.length).toBeGreaterThan(cols - 5);
      expect(lines).toContain('NAME');
      expect(lines).toContain('SYNOPSIS');
      expect(lines.filter((line) => /^\.(TH|SH|TP|B|I|PP)\b/.test(line))).toEqual([]);
      // Text is filled to the width; examples (`$ clinic …`) are kept as written, as man keeps them.
      const text = lines.filter((line) => !/^\s+\$ /.test(line));
      expect(Math.max(...text.map((line) => line.length))).toBeLessThanOrEqual(cols);
    },
  );
});

describe('without man', () => {
  const folder = useTempDir('clinic-no-man-');
  it('on a terminal: the source, and one note on stderr that says why', async () => {
    // A PATH with what the terminal needs (script, stty, sh) and no man.
    const bare = folder.path;
    for (const tool of ['script', 'stty', 'sh'])
      await symlink(
        realpathSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim()),
        join(bare, tool),
      );
    const { code, lines } = await onTerminal(80, { PATH: bare });
    expect(code).toBe(0);
    expect(lines).toContain(
      "note: no `man` here to format the page: this is its source (roff); `clinic --help` and each command's --help say the same",
    );
    expect(lines.some((line) => line.startsWith('.TH CLINIC 1'))).toBe(true);
  });

  it.each([
    ['fails', 'exit 1', 'it exited with 1'],
    // A child of man's that keeps the output open: given up after 5 s, the child ended with it.
    ['never lets go of the output', '(sleep 300 &) ; echo formatted ; exit 0', 'it took more than 5s'],
  ])(
    'a man that %s: the source, with a note saying so',
    async (_, script, why) => {
      const bare = folder.path;
      for (const tool of ['script', 'stty', 'sh', 'sleep', 'cat'])
        await symlink(
          realpathSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim()),
          join(bare, tool),
        ).catch(() => undefined);
      await writeFile(join(bare, 'man'), `#!/bin/sh\ncat >/dev/null\n${script}\n`, { mode: 0o755 });
      const started = Date.now();
      const { code, lines } = await onTerminal(80, { PATH: bare });
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(lines).toContain(`note: man could not format the page (${why}): this is its source (roff)`);
      expect(lines.some((line) => line.startsWith('.TH CLINIC 1'))).toBe(true);
    },
    30_000,
  );

  it('into a pipe: the source, whatever the machine has, nothing on stderr', async () => {
    const result = await runCli(await tempConfigDir(), ['man']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\.TH CLINIC 1 /m);
    expect(result.stderr).toBe('');
  });
});
