// The declaration builders (src/cli/declare.ts): what they declare, and that declaring loads no command's code.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getVerb, idArg, listVerb, noun } from '../../../src/cli/declare.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The modules loaded with `file`, following the imports that load a module (`import type` is erased under
 * verbatimModuleSyntax; `import()` runs only when called): repository paths, `.ts`.
 */
function loadedWith(file: string, seen = new Set<string>()): Set<string> {
  seen.add(relative(ROOT, file));
  const source = readFileSync(file, 'utf8');
  for (const m of source.matchAll(/^(?:import|export)(?!\s+type\b)[^;'"]*?from\s+'(\.[^']+)'/gm)) {
    const target = resolve(dirname(file), m[1] as string).replace(/\.js$/, '.ts');
    if (!seen.has(relative(ROOT, target))) loadedWith(target, seen);
  }
  return seen;
}

/** The modules `file` names in `import('…')`: loaded when called. */
const lazyWith = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/\bimport\('(\.[^']+)'\)/g)].map((m) =>
    relative(ROOT, resolve(dirname(file), m[1] as string)).replace(/\.js$/, '.ts'),
  );

describe('declarations', () => {
  it("load none of what they load lazily (their commands' code, the shared verbs) ahead of time", () => {
    const nouns = readdirSync(join(ROOT, 'src/commands'), { withFileTypes: true }).filter((entry) =>
      entry.isDirectory(),
    );
    const declarations = ['src/cli/declare.ts', ...nouns.map((noun) => `src/commands/${noun.name}/index.ts`)];
    const early = declarations.flatMap((file) => {
      const loaded = loadedWith(join(ROOT, file));
      return lazyWith(join(ROOT, file)).filter((lazy) => loaded.has(lazy));
    });
    expect(early).toEqual([]);
    expect(lazyWith(join(ROOT, 'src/cli/declare.ts'))).toContain('src/cli/resource-verbs.ts');
    expect(lazyWith(join(ROOT, 'src/cli/declare.ts'))).toContain('src/cli/show-verb.ts');
  });
});

describe('declaration builders', () => {
  const help = {
    summary: 'show one thing',
    examples: ['clinic things get 1', 'clinic things get 1 -o json'],
  };

  it('idArg: the record id, named by what it is', () => {
    expect(idArg('form template')).toEqual([{ name: 'id', description: 'form template id' }]);
  });

  it("noun: without examples of its own, its first verb's first; its own otherwise", () => {
    const get = getVerb({ what: 'thing', path: 'user', ...help });
    expect(noun({ name: 'things', summary: 'things', commands: [get] }).examples).toEqual([
      'clinic things get 1',
    ]);
    const own = noun({ name: 'things', summary: 'things', examples: ['clinic things'], commands: [get] });
    expect(own.examples).toEqual(['clinic things']);
  });

  it('getVerb and listVerb declare the standard verb, its help as given, and load its run', async () => {
    const get = getVerb({ what: 'thing', path: 'user', description: 'GET /v1/users/{id}', ...help });
    expect(get).toMatchObject({
      name: 'get',
      args: idArg('thing'),
      description: 'GET /v1/users/{id}',
      ...help,
    });
    const list = listVerb({ noun: 'things', path: 'channels', paged: false, columns: [], ...help });
    expect(list).toMatchObject({ name: 'list', ...help });
    expect(list.options?.map((option) => option.flags)).toContain('--all');
    expect(list).not.toHaveProperty('description');
    for (const def of [get, list]) expect(await def.load()).toBeTypeOf('function');
  });
});
