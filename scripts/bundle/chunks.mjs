// esbuild's code splitting, in one CommonJS file: the chunks of an ES module build (format 'esm', splitting), each
// made a function of the file that runs the first time a chunk is asked for. A run compiles and runs only the chunks
// its command loads (a `customers get` a quarter of the code): the other chunks' declarations are never made, and
// V8's code cache holds next to nothing of them.
//
// A chunk's `import … from` statements become reads of what the chunk (or built-in module) exports, and its final
// `export { … }` the object of what it exports, each rewritten in place and padded to the same length, so the chunk's
// own source map still fits column for column: the file's map is the chunks' maps put together. Imports are read once,
// as the chunk starts (esbuild's chunks import only from chunks that have finished running: the build refuses a
// cycle), which is an ES module's live binding as long as no module reassigns what it exports (the build refuses
// `export let` and `export var` in src/).
import { isBuiltin } from 'node:module';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { init, parse } from 'es-module-lexer';

/**
 * The name of what the file's loader hands each chunk: its import (`__q`). A chunk returns what it exports, which the
 * loader keeps in the chunk's place in `__chunks`: no second table, and no callback made for each chunk it runs.
 */
const IMPORT = '__q';

/** The chunks splitChunks may move to the other part: esbuild's (`chunk-[hash]`), never an entry. */
const MORE_PREFIX = './chunk-';

/** What the other part is handed (the loader's __more): every name the file's own code may use from its scope. */
const MORE_BINDINGS =
  '__dyni, __metaUrl, __executable, __chunks, exports, require, module, __filename, __dirname';

/**
 * The file's first line: the loader. `__dyni` (every `import(` of the file: combineChunks) serves a chunk's dynamic
 * import of another chunk, and hands anything else on (a package, the sandbox) to the one bin/clinic.js gives. A
 * chunk not in the file is asked of `__loadMore`, where bin/clinic.js gives one: the chunks the build moved to a file
 * of their own (splitChunks), loaded into `__chunks` at the first such ask.
 */
const LOADER = [
  'var __dyni = __dyni || ((id) => import (id));',
  'function __chunk(name) { const run = __chunks[name]; if (typeof run !== "function") return run; return (__chunks[name] = run(__chunkImport) ?? {}); }',
  'function __chunkOf(id) { return Object.hasOwn(__chunks, id) || __more(id) ? id : undefined; }',
  'var __moreLoaded = false;',
  'function __more(id) { if (__moreLoaded || typeof __loadMore !== "function" || !id.startsWith(MORE_PREFIX)) return false; __loadMore(__dyni, __metaUrl, typeof __executable === "undefined" ? undefined : __executable, __chunks, exports, require, module, __filename, __dirname); __moreLoaded = true; return Object.hasOwn(__chunks, id); }'.replace(
    'MORE_PREFIX',
    JSON.stringify(MORE_PREFIX),
  ),
  'function __chunkImport(id) { const name = __chunkOf(id); return name === undefined ? require(id) : __chunk(name); }',
  'var __dyniOutside = __dyni;',
  '__dyni = (id) => { let name; try { name = __chunkOf(id); } catch (error) { return Promise.reject(error); } return name === undefined ? __dyniOutside(id) : Promise.resolve().then(() => __chunk(name)); };',
].join(' ');

/**
 * The chunks (esbuild's outputs: `{ path, text }`, `.js` and their `.js.map`) as one CommonJS file of `prelude`
 * (one line, no line break), the loader and the chunks, exporting the entry chunk's exports; its source map; and
 * where each chunk is in it (`chunks`, for splitChunks: its name as imported, the offsets of its entry in `__chunks`
 * and of its function's body).
 */
export async function combineChunks(outputs, { entry, prelude, file }) {
  await init;
  const js = outputs.filter(({ path }) => path.endsWith('.js'));
  const maps = new Map(
    outputs
      .filter(({ path }) => path.endsWith('.js.map'))
      .map(({ path, text }) => [basename(path).slice(0, -4), text]),
  );
  const names = new Set(js.map(({ path }) => basename(path)));
  if (!names.has(entry)) throw new Error(`no chunk ${entry} among ${[...names].join(', ')}`);
  // A table without a prototype is a dictionary to V8: the other part's chunks are added to it (splitChunks) at the
  // cost of a hash table's entries, not a new shape of the object for each (a copy of all its keys).
  const lines = [`${prelude} ${LOADER}`, 'var __chunks = { __proto__: null,'];
  const placed = [];
  // The file's length so far, each line with its line break.
  let length = lines.reduce((sum, line) => sum + line.length + 1, 0);
  // The file's line count so far: a chunk's code may hold line breaks of its own (template literals).
  let lineCount = lines.length;
  const sections = [];
  const graph = new Map();
  for (const { path, text } of js) {
    const name = basename(path);
    const { code, imports } = asFunctionBody(name, text, names);
    graph.set(name, imports);
    // Named as the chunks import each other (`./chunk-NAME.js`): looked up as asked, with no string made for it.
    const header = `${JSON.stringify(`./${name}`)}: function (${IMPORT}) {`;
    lines.push(header);
    lineCount++;
    const map = maps.get(name);
    if (map) sections.push({ offset: { line: lineCount, column: 0 }, map: JSON.parse(map) });
    lines.push(code, '},');
    lineCount += code.split('\n').length + 1;
    const body = length + header.length + 1;
    placed.push({
      name: `./${name}`,
      start: length,
      body,
      bodyEnd: body + code.length,
      end: body + code.length + 4,
    });
    length = body + code.length + 4;
  }
  refuseCycles(graph);
  lines.push('};', `module.exports = __chunk(${JSON.stringify(`./${entry}`)});`);
  // Every dynamic import goes through __dyni, a chunk's and a package's alike: bin/clinic.js runs the file through
  // vm.Script, where import() has no loader to call (it hands in its own). Same length as `import(`, so the source
  // map's columns stay right.
  const code = lines.join('\n').replace(/\bimport\(/g, '__dyni(');
  if (/\bimport\(/.test(code)) throw new Error('a dynamic import was left in the bundle');
  return {
    code: `${code}\n//# sourceMappingURL=${basename(file)}.map\n`,
    map: `${JSON.stringify(flattened(sections, basename(file)))}\n`,
    chunks: placed,
  };
}

/**
 * The combined file (`code`, its `chunks` as combineChunks placed them) in two: `core`, the file with only the chunks
 * named in `kept` (the loader, the entry and what the commonest runs load: scripts/compile-cache.mjs), and `more`, a
 * function of the file's own names (MORE_BINDINGS) that puts the others into `__chunks`, which the loader
 * calls (through bin/clinic.js's `__loadMore`) the first time a chunk not in the file is asked for. A run that loads
 * none of them reads and compiles half the code. The text of each chunk is left as it is; `core` keeps no source map
 * comment (its lines no longer match the map, which is main.cjs's).
 */
export function splitChunks(code, chunks, kept) {
  let core = '';
  let more = `(function (${MORE_BINDINGS}) {\n`;
  let at = 0;
  for (const { name, start, body, bodyEnd, end } of chunks) {
    // Where combineChunks placed it, or the build stops: a part cut elsewhere would run as something else.
    if (
      code.slice(start, body) !== `${JSON.stringify(name)}: function (${IMPORT}) {\n` ||
      code.slice(bodyEnd, end) !== '\n},\n'
    )
      throw new Error(`the bundle's chunk ${name} is not where it was placed`);
    if (kept.has(name) || !name.startsWith(MORE_PREFIX)) continue;
    core += code.slice(at, start);
    at = end;
    more += `__chunks[${JSON.stringify(name)}] = function (${IMPORT}) {\n${code.slice(body, bodyEnd)}\n};\n`;
  }
  core += code.slice(at).replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n');
  return { core, more: `${more}})` };
}

/**
 * The chunks' maps, each placed at its chunk's first line, as one map: Node reads no index map (`sections`) for the
 * stack traces of --debug.
 */
function flattened(sections, file) {
  const sources = [];
  const names = [];
  const indexOf = (list, value) => {
    const at = list.indexOf(value);
    return at === -1 ? list.push(value) - 1 : at;
  };
  const lines = [];
  for (const { offset, map } of sections) {
    const decoded = decode(map.mappings);
    decoded.forEach((segments, line) => {
      lines[offset.line + line] = segments.map((segment) => {
        if (segment.length === 1) return segment;
        const [column, source, sourceLine, sourceColumn, name] = segment;
        const placed = [column, indexOf(sources, map.sources[source]), sourceLine, sourceColumn];
        return name === undefined ? placed : [...placed, indexOf(names, map.names[name])];
      });
    });
  }
  return { version: 3, file, sources, names, mappings: encode(Array.from(lines, (line) => line ?? [])) };
}

/** A chunk's code as the body of its function: its static imports and its exports rewritten (see the top). */
function asFunctionBody(name, text, chunks) {
  const source = text.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n');
  if (new RegExp(`\\b${IMPORT}\\b`).test(source))
    throw new Error(`${name} uses ${IMPORT}, the loader's name`);
  const [imports, exports] = parse(source);
  let code = source;
  const imported = [];
  // From the last to the first, so each statement's offsets still hold when it is rewritten.
  for (const statement of imports.filter(({ d }) => d === -1).reverse()) {
    const specifier = statement.n;
    const chunk = specifier?.startsWith('./') ? specifier.slice(2) : undefined;
    if (chunk !== undefined && !chunks.has(chunk))
      throw new Error(`${name} imports ${specifier}: no such chunk`);
    if (chunk === undefined && !isBuiltin(specifier ?? ''))
      throw new Error(`${name} imports ${specifier} statically: only Node's built-ins and chunks may be`);
    if (chunk !== undefined) imported.push(chunk);
    const original = code.slice(statement.ss, statement.se);
    const ended = original.endsWith(';');
    const replaced = `${importAsRead(ended ? original.slice(0, -1) : original, specifier, chunk !== undefined)}${ended ? ';' : ''}`;
    if (replaced.length > original.length)
      throw new Error(`${name}: '${original}' cannot be rewritten in as many characters`);
    code = code.slice(0, statement.ss) + replaced.padEnd(original.length) + code.slice(statement.se);
  }
  // import() is left to __dyni (scripts/bundle.mjs rewrites it); import.meta is defined away.
  if (imports.some(({ d }) => d === -2)) throw new Error(`${name} uses import.meta`);
  const clause = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(code);
  if (exports.length > 0 && !clause) throw new Error(`${name}: its exports are not one final export { … }`);
  if (clause) {
    for (const { s } of exports)
      if (s < clause.index) throw new Error(`${name}: an export outside its final export { … }`);
    const values = clause[1]
      .split(',')
      .filter((part) => part.trim() !== '')
      .map((part) => {
        const [local, exported = local] = part.trim().split(/\s+as\s+/);
        const key = exported.startsWith('"') ? exported : JSON.stringify(exported);
        return `${key}: ${local}`;
      });
    code = `${code.slice(0, clause.index)}return { ${values.join(', ')} };\n`;
  }
  return { code: code.replace(/\n$/, ''), imports: imported };
}

/**
 * A static import statement (esbuild's minified forms: `import"m"`, `import{a as b,c}from"m"`, `import X from"m"`,
 * `import*as X from"m"`) as a read of what `m` exports; a chunk's default is never imported so (esbuild names them).
 */
function importAsRead(statement, specifier, isChunk) {
  const from = JSON.stringify(specifier);
  const bare = /^import\s*(["'])/.exec(statement);
  if (bare) return `${IMPORT}(${from})`;
  const match = /^import\s*([\s\S]*?)\s*from\s*["'][^"']*["']$/.exec(statement);
  if (!match) throw new Error(`an import statement of an unknown form: ${statement}`);
  const clause = match[1];
  const named = /^\{([^}]*)\}$/.exec(clause);
  if (named) {
    const bindings = named[1]
      .split(',')
      .filter((part) => part.trim() !== '')
      .map((part) => {
        const [imported, local = imported] = part.trim().split(/\s+as\s+/);
        const key = imported.startsWith('"') ? `[${imported}]` : imported;
        return key === local ? local : `${key}:${local}`;
      });
    return `var{${bindings.join(',')}}=${IMPORT}(${from})`;
  }
  const namespace = /^\*\s*as\s+([\w$]+)$/.exec(clause);
  if (namespace) return `var ${namespace[1]}=${IMPORT}(${from})`;
  // A built-in's default is its module.exports, as Node's own ES module loader gives it.
  if (/^[\w$]+$/.test(clause) && !isChunk) return `var ${clause}=${IMPORT}(${from})`;
  throw new Error(`an import statement of an unknown form: ${statement}`);
}

/** Throws if chunks import each other in a circle: a chunk would read what another had not yet exported. */
function refuseCycles(graph) {
  const state = new Map();
  const visit = (name, path) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting')
      throw new Error(`chunks import each other: ${[...path, name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const next of graph.get(name) ?? []) visit(next, [...path, name]);
    state.set(name, 'done');
  };
  for (const name of graph.keys()) visit(name, []);
}

const basename = (path) => path.split(/[\\/]/).pop();
