// The layers, read from the source: src/cli and src/core never reach the commands (src/main.ts joins them), and the
// sandbox is reached only by `clinic sandbox` and reaches nothing of the CLI.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SRC = join(ROOT, 'src');

/** Every module specifier a file names: `import … from`, `export … from`, `import '…'`, `import()`, `typeof
 * import()`, `require()` and `lazyRequire()`; a computed one is returned as `<computed>` so it cannot slip by. */
export function specifiers(source: string): { specifier: string; dynamic: boolean }[] {
  const found: { specifier: string; dynamic: boolean }[] = [];
  const literal = String.raw`(['"\`])([^'"\`]*)\1`;
  for (const m of source.matchAll(new RegExp(String.raw`\b(?:from|import)\s*${literal}`, 'g')))
    found.push({ specifier: m[2] as string, dynamic: false });
  for (const m of source.matchAll(
    /(?<!function\s+)\b(?:import|require|lazyRequire)\s*(?:<[^>()]*>)?\s*\(\s*([^)]*)\)/g,
  )) {
    const arg = (m[1] as string).trim();
    const quoted = new RegExp(`^${literal}$`).exec(arg);
    found.push({
      specifier: quoted && !arg.includes('${') ? (quoted[2] as string) : '<computed>',
      dynamic: true,
    });
  }
  return found; // (`function lazyRequire<T>(id)` declares the helper: no import)
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.[cm]?[jt]s$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Each import of the files under `dirs`, with the file it resolves to (relative to the repository). */
function importsUnder(...dirs: string[]) {
  return dirs.flatMap((dir) =>
    sourceFiles(join(SRC, dir)).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8')).map(({ specifier, dynamic }) => ({
        from: relative(ROOT, file),
        specifier,
        dynamic,
        target: specifier.startsWith('.') ? relative(ROOT, resolve(dirname(file), specifier)) : specifier,
      })),
    ),
  );
}

/** API constants and types the CLI and the sandbox both speak (style.md: the sandbox may share the API's types). */
const SHARED_API_TYPES = ['src/core/api/erasure-states.ts'];

const inside = (target: string, dir: string) => target === dir || target.startsWith(`${dir}/`);
const srcDirs = () =>
  readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

describe('layers', () => {
  it('finds every form of import, computed ones included', () => {
    const source = [
      "import { a } from '../x/a.js';",
      "import type {\n  B,\n} from '../x/b.js';",
      "export * from '../x/c.js';",
      "import '../x/d.js';",
      "const e = await import('../x/e.js');",
      'type F = typeof import("../x/f.js");',
      "const g = lazyRequire<G>('../x/g.js');",
      'const h = await import(name);',
      'const i = await import(`../x/${name}.js`);',
    ].join('\n');
    expect(specifiers(source).map((s) => s.specifier)).toEqual([
      '../x/a.js',
      '../x/b.js',
      '../x/c.js',
      '../x/d.js',
      '../x/e.js',
      '../x/f.js',
      '../x/g.js',
      '<computed>',
      '<computed>',
    ]);
  });

  it('src/cli and src/core import nothing from src/commands, nor the composition root', () => {
    const imports = importsUnder('cli', 'core');
    expect(imports.length).toBeGreaterThan(100);
    const wrong = imports.filter(
      ({ target }) => inside(target, 'src/commands') || /^src\/main(\.[jt]s)?$/.test(target),
    );
    expect(wrong).toEqual([]);
    expect(imports.filter(({ specifier }) => specifier === '<computed>')).toEqual([]);
  });

  it('only src/commands/sandbox imports the sandbox, and only when `clinic sandbox start` runs', () => {
    const imports = importsUnder(...srcDirs().filter((dir) => dir !== 'sandbox'));
    const ofSandbox = imports.filter(({ target }) => inside(target, 'src/sandbox'));
    expect(ofSandbox.filter(({ from }) => !inside(from, 'src/commands/sandbox'))).toEqual([]);
    // Loaded on demand: a static import would load the sandbox (oidc-provider…) with the command's declaration.
    expect(ofSandbox.filter(({ dynamic }) => !dynamic)).toEqual([]);
    expect(ofSandbox.map(({ from }) => from)).toContain('src/commands/sandbox/start.ts');
    expect(imports.filter(({ specifier }) => specifier === '<computed>')).toEqual([]);
  });

  it('the sandbox imports nothing of the CLI but the pure API-types modules', () => {
    const wrong = importsUnder('sandbox').filter(
      ({ target }) =>
        !SHARED_API_TYPES.some((shared) => target === shared.replace(/\.ts$/, '.js')) &&
        ['src/cli', 'src/core', 'src/commands', 'src/main.ts', 'src/main.js'].some((dir) =>
          inside(target, dir),
        ),
    );
    expect(wrong).toEqual([]);
  });

  it('only the transport sends HTTP: no other http/https client, fetch or undici in src (the sandbox aside)', () => {
    const transport = (file: string) =>
      file === 'src/core/http/transport.ts' || inside(file, 'src/core/http/transport');
    // A server is no second road: the OAuth loopback listens with node:http's createServer only.
    const server = /^import \{ createServer[^}]*\} from 'node:http';$/;
    const roads = /undici|\bfetch\(|https?\.request|from 'node:https?'|import\('node:https?'\)/;
    const found = sourceFiles(SRC)
      .map((file) => relative(ROOT, file))
      .filter((file) => !inside(file, 'src/sandbox') && !transport(file))
      .flatMap((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .map((line, i) => ({ file, line: i + 1, text: line.trim() }))
          .filter(({ text }) => roads.test(text) && !server.test(text)),
      );
    expect(found).toEqual([]);
  });

  it('the API-types modules the sandbox shares import nothing, so they carry none of the CLI along', () => {
    for (const shared of SHARED_API_TYPES) {
      expect(specifiers(readFileSync(join(ROOT, shared), 'utf8')), shared).toEqual([]);
    }
  });
});
