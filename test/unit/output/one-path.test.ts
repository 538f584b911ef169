// One output path, read from the source: only ctx.output() (output/format.ts) decides the format, and commands show
// records through present.ts, never through the writers' parts or a JSON.stringify of their own.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => ({ file: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
}

/** The code without its comments, so a comment naming a thing is not taken for a use of it. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Each file with the lines matching `pattern`, `file:line: text`. */
function uses(files: { file: string; text: string }[], pattern: RegExp): string[] {
  return files.flatMap(({ file, text }) =>
    code(text)
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

/** The parts of the writers: a command that takes them prints around present.ts (its own loop, its own closing). */
const WRITER_PARTS = /\bcli\/output\/(render|table|csv)\.js$/;

/** The modules a source takes values from (`import type` takes none: only values print). */
const valueImports = (text: string) =>
  [...text.matchAll(/^import (?!type )[^;]*?from\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)].map(
    (m) => (m[1] ?? m[2]) as string,
  );

/** Where a command may still take them, and why. */
const OWN_WRITING: Record<string, string> = {
  'src/commands/doctor/render.ts': "doctor's report: one record in JSON, its checks as a list otherwise",
};

/** Where a command may still build a JSON text itself, and why it is not output. */
const OWN_JSON: Record<string, string> = {
  'src/commands/api/request.ts': "the server's error body, on one line of the error message (stderr)",
};

const commands = () => sources('src/commands');

describe('one output path', () => {
  it('only the resolver reads the chosen format: --output, CLINIC_OUTPUT, the profile, or the terminal', () => {
    const resolvers = ['src/cli/context.ts', 'src/cli/output/format.ts', 'src/core/config/keys.ts'];
    const rest = [...sources('src/cli'), ...sources('src/core'), ...commands()].filter(
      ({ file }) => !resolvers.includes(file),
    );
    expect(uses(rest, /globals\.output\b|get\(\s*'output'\s*\)|formatInArgv/)).toEqual([]);
    // The variable is named by the help of -o (globals.ts) and read by the resolvers alone.
    const named = rest.filter(({ file }) => file !== 'src/cli/globals.ts');
    expect(uses(named, /CLINIC_OUTPUT/)).toEqual([]);
    expect(uses(commands(), /stdoutIsTTY|\.isTTY\b/)).toEqual([]);
  });

  it('commands show records through present.ts, not through the parts of the writers', () => {
    const taken = commands()
      .filter(({ file }) => !(file in OWN_WRITING))
      .flatMap(({ file, text }) =>
        valueImports(text)
          .filter((specifier) => WRITER_PARTS.test(specifier))
          .map((specifier) => `${file}: ${specifier}`),
      );
    expect(taken).toEqual([]);
  });

  it('commands build no JSON text of their own', () => {
    const own = uses(commands(), /JSON\.stringify/).filter(
      (use) => !((use.split(':')[0] as string) in OWN_JSON),
    );
    expect(own).toEqual([]);
  });

  it('catches a command going around them (the checks are not blind)', () => {
    const around = [
      {
        file: 'src/commands/x/list.ts',
        text: [
          "import { createListWriter } from '../../cli/output/render.js';",
          "  const human = ctx.globals.output === 'table';",
          '  await ctx.io.write(`${JSON.stringify(record)}\\n`);',
          '  if (ctx.io.stdoutIsTTY) {}',
        ].join('\n'),
      },
    ];
    expect(uses(around, /globals\.output\b/)).toHaveLength(1);
    expect(uses(around, /JSON\.stringify/)).toHaveLength(1);
    expect(uses(around, /stdoutIsTTY/)).toHaveLength(1);
    expect(valueImports(around[0]?.text ?? '').filter((specifier) => WRITER_PARTS.test(specifier))).toEqual([
      '../../cli/output/render.js',
    ]);
    expect(valueImports("import type { OutputSpec } from '../../cli/output/render.js';")).toEqual([]);
  });
});
