// scripts/bundle/chunks.mjs: esbuild's code splitting in one CommonJS file. Built here from small sources through
// esbuild itself, as scripts/bundle.mjs builds the CLI: a chunk runs only when first imported, imports and exports
// (of chunks and of Node's built-ins) keep their values, the source map points into the right source, and what the
// rewriting cannot carry over (a cycle between chunks, a static import of a package) stops the build.
import { mkdir, writeFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';

type Output = { path: string; text: string };
type Placed = { name: string; start: number; body: number; bodyEnd: number; end: number };
type Combine = (
  outputs: Output[],
  options: { entry: string; prelude: string; file: string },
) => Promise<{ code: string; map: string; chunks: Placed[] }>;
type Split = (code: string, chunks: Placed[], kept: Set<string>) => { core: string; more: string };
const { combineChunks, splitChunks } = (await import(
  new URL('../../../scripts/bundle/chunks.mjs', import.meta.url).href
)) as { combineChunks: Combine; splitChunks: Split };

/** The sources (name → text) built as scripts/bundle.mjs builds the CLI, minified or not: esbuild's outputs. */
async function split(sources: Record<string, string>, minify = true): Promise<Output[]> {
  const dir = await tempDir('clinic-chunks-');
  await mkdir(join(dir, 'src'));
  for (const [name, text] of Object.entries(sources)) await writeFile(join(dir, 'src', name), text);
  const { outputFiles } = await build({
    entryPoints: [join(dir, 'src', 'main.ts')],
    outdir: join(dir, 'out'),
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'external',
    sourcesContent: false,
    minify,
    write: false,
    logLevel: 'silent',
  });
  return outputFiles.map(({ path, text }) => ({ path, text }));
}

/**
 * The combined file run as bin/clinic.js runs it (its own require, a dynamic import for what is no chunk, and the
 * loader of the part split off, if any).
 */
function load(code: string, loadMore?: (...bindings: unknown[]) => void): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const wrapped = `(function (exports, require, module, __filename, __dirname, __dyni, __loadMore) {${code}\n})`;
  const outside = (id: string) => Promise.reject(new Error(`import of ${id} outside the bundle`));
  runInThisContext(wrapped)(module.exports, require, module, '/x/main.cjs', '/x', outside, loadMore);
  return module.exports;
}

const SOURCES = {
  'main.ts': `
    import { shared, counter } from './shared.js';
    import { basename } from 'node:path';
    export const name = basename('/a/b/main.ts');
    export const fromShared = shared('main');
    export async function heavy() {
      return (await import('./heavy.js')).default;
    }
    export async function heavyScope() {
      return (await import('./heavy.js')).scope;
    }
    export function count() {
      return counter.next();
    }
    (globalThis as Record<string, unknown>).mainRan = ((globalThis as Record<string, number>).mainRan ?? 0) + 1;
  `,
  'shared.ts': `
    export function shared(who: string) {
      return 'shared with ' + who;
    }
    let n = 0;
    export const counter = { next: () => ++n };
  `,
  'heavy.ts': `
    import { shared, counter } from './shared.js';
    (globalThis as Record<string, number>).heavyRan = ((globalThis as Record<string, number>).heavyRan ?? 0) + 1;
    export default { said: shared('heavy'), at: counter.next() };
    // What the file's wrapper names (a CommonJS package's require, say), seen from a chunk split off too.
    export const scope = [typeof require, typeof module, typeof exports, typeof __filename, typeof __dirname];
    export function fail(): never {
      throw new Error('a line the map must find');
    }
  `,
};

describe('one file of chunks', () => {
  it('runs a chunk only when it is first imported, once, with the imports and exports it had', async () => {
    const outputs = await split(SOURCES);
    expect(outputs.filter(({ path }) => path.endsWith('.js')).length).toBeGreaterThanOrEqual(3);
    const { code } = await combineChunks(outputs, { entry: 'main.js', prelude: '', file: 'main.cjs' });
    const globals = globalThis as Record<string, unknown>;
    delete globals.mainRan;
    delete globals.heavyRan;
    const main = load(code) as {
      name: string;
      fromShared: string;
      heavy: () => Promise<{ said: string; at: number }>;
      count: () => number;
    };
    expect([main.name, main.fromShared, globals.mainRan, globals.heavyRan]).toEqual([
      'main.ts',
      'shared with main',
      1,
      undefined,
    ]);
    expect(main.count()).toBe(1);
    const heavy = await main.heavy();
    // The shared chunk's state is one: heavy's count follows main's.
    expect([heavy.said, heavy.at, globals.heavyRan]).toEqual(['shared with heavy', 2, 1]);
    await main.heavy();
    expect([globals.heavyRan, main.count()]).toEqual([1, 3]);
  });

  it('in two parts, reads the part split off when one of its chunks is first asked for, once', async () => {
    const prelude = "var __metaUrl = () => 'file:///x/main.cjs';";
    const { code, chunks } = await combineChunks(await split(SOURCES), {
      entry: 'main.js',
      prelude,
      file: 'main.cjs',
    });
    const heavyChunk = chunks.find(({ body, bodyEnd }) => code.slice(body, bodyEnd).includes('heavyRan'))!;
    expect(heavyChunk.name).toMatch(/^\.\/chunk-/);
    // Each chunk's entry in the table is where the file says.
    for (const { name, start, body, end } of chunks) {
      expect(code.slice(start, body)).toBe(`${JSON.stringify(name)}: function (__q) {\n`);
      expect(code.slice(end - 4, end)).toBe('\n},\n');
    }
    const kept = new Set(chunks.map(({ name }) => name).filter((name) => name !== heavyChunk.name));
    const { core, more } = splitChunks(code, chunks, kept);
    expect([core.includes('heavyRan'), more.includes('heavyRan'), more.includes('shared with')]).toEqual([
      false,
      true,
      false,
    ]);
    let reads = 0;
    let fails = 1; // the first read fails (a part missing for now): the next ask reads it again
    const loadMore = (...bindings: unknown[]) => {
      reads++;
      if (fails-- > 0) throw new Error('ENOENT: main.more.cjs');
      (runInThisContext(more) as (...args: unknown[]) => void)(...bindings);
    };
    const globals = globalThis as Record<string, unknown>;
    delete globals.mainRan;
    delete globals.heavyRan;
    const main = load(core, loadMore) as {
      heavy: () => Promise<{ said: string; at: number }>;
      heavyScope: () => Promise<string[]>;
      count: () => number;
    };
    expect([globals.mainRan, globals.heavyRan, reads, main.count()]).toEqual([1, undefined, 0, 1]);
    await expect(main.heavy()).rejects.toThrow(/ENOENT: main.more.cjs/);
    const heavy = await main.heavy();
    // The chunk split off shares the core's chunks (one counter), and runs once.
    expect([heavy.said, heavy.at, globals.heavyRan, reads]).toEqual(['shared with heavy', 2, 1, 2]);
    await main.heavy();
    expect([globals.heavyRan, reads, main.count()]).toEqual([1, 2, 3]);
    expect(await main.heavyScope()).toEqual(['function', 'object', 'object', 'string', 'string']);
    // Whole, with no loader of another part, the file asks for none.
    const whole = load(code) as { heavy: () => Promise<unknown> };
    await expect(whole.heavy()).resolves.toBeDefined();
  });

  it('maps a place in the file back to its source, minified and not', async () => {
    for (const minify of [true, false]) {
      const { code, map } = await combineChunks(await split(SOURCES, minify), {
        entry: 'main.js',
        prelude: 'var unrelated = 1;',
        file: 'main.cjs',
      });
      const lines = code.split('\n');
      const line = lines.findIndex((text) => text.includes('a line the map must find'));
      const column = lines[line]!.indexOf('a line the map must find');
      const entry = new SourceMap(JSON.parse(map)).findEntry(line, column) as { originalSource?: string };
      expect(entry.originalSource, `minify: ${minify}`).toMatch(/heavy\.ts$/);
    }
  });

  it('refuses a static import of a package, and chunks that import each other in a circle', async () => {
    const outputs = await split({ 'main.ts': "import { x } from 'some-package'; export const y = x;" }).catch(
      () => undefined,
    );
    // esbuild cannot resolve the package here: the import is written as the build leaves an external one.
    const external = outputs ?? [
      { path: '/o/main.js', text: 'import{x as o}from"some-package";var r=o;export{r as y};\n' },
    ];
    await expect(
      combineChunks(external, { entry: 'main.js', prelude: '', file: 'main.cjs' }),
    ).rejects.toThrow(/imports some-package statically/);
    const circle = [
      { path: '/o/main.js', text: 'import{b as o}from"./chunk-B.js";var a=1;export{a};\n' },
      { path: '/o/chunk-B.js', text: 'import{a as o}from"./main.js";var b=2;export{b};\n' },
    ];
    await expect(combineChunks(circle, { entry: 'main.js', prelude: '', file: 'main.cjs' })).rejects.toThrow(
      /chunks import each other/,
    );
  });

  it('reads a built-in as its exports, whichever way it is imported', async () => {
    const outputs = [
      {
        path: '/o/main.js',
        text: 'import p from"node:path";import*as u from"node:util";import{sep as s}from"node:path";import"node:os";var a=[p.sep,typeof u.format,s];export{a};\n',
      },
    ];
    const { code } = await combineChunks(outputs, { entry: 'main.js', prelude: '', file: 'main.cjs' });
    expect((load(code) as { a: unknown[] }).a).toEqual(['/', 'function', '/']);
  });
});
