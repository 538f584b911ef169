// How --jq's library was chosen: the jq manual sample (jq-manual-cases.json) through each candidate, with its load
// time and size on disk. The candidates are not dependencies of clinic; install them apart, then point at them:
//   npm install --prefix /tmp/jq-candidates --no-save jq-web jq-wasm@3.0.0-jq-1.8.2 @michaelhomer/jqjs
//   node test/bench/jq-candidates.mjs /tmp/jq-candidates
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const { cases: JQ_MANUAL_CASES } = JSON.parse(
  readFileSync(new URL('./jq-manual-cases.json', import.meta.url)),
);

const root = process.argv[2] ?? '/tmp/jq-candidates';
const require = createRequire(join(root, 'package.json'));

/** Each candidate: how to load it, and a run of one program over one JSON text → its outputs as JSON values. */
const CANDIDATES = {
  'jq-wasm': async () => {
    const jq = await require('jq-wasm').loadJq();
    return (text, program) => {
      const { stdout, stderr, exitCode } = jq.raw(text, program, ['-c']);
      if (exitCode !== 0) throw new Error(stderr);
      return stdout === '' ? [] : stdout.split('\n').map((line) => JSON.parse(line));
    };
  },
  'jq-web': async () => {
    const jq = await require('jq-web');
    return (text, program) => {
      const stdout = jq.raw(text, program, ['-c']) ?? '';
      return stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    };
  },
  '@michaelhomer/jqjs': async () => {
    const { default: jq } = await import(pathToFileURL(require.resolve('@michaelhomer/jqjs')).href);
    return (text, program) =>
      [...jq(program, JSON.parse(text))].map((value) => JSON.parse(JSON.stringify(value)));
  },
};

function packageFacts(name) {
  const dir = dirname(require.resolve(`${name}/package.json`));
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const bytes = Number(execFileSync('du', ['-sb', dir]).toString().split('\t')[0]);
  return { version: pkg.version, license: pkg.license, size: `${(bytes / 1048576).toFixed(1)} MiB` };
}

const rows = [];
for (const [name, load] of Object.entries(CANDIDATES)) {
  const started = process.hrtime.bigint();
  let run;
  try {
    run = await load();
  } catch (error) {
    rows.push({ name, passed: 0, failures: [`does not load: ${error.message}`] });
    continue;
  }
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  const failures = [];
  for (const { program, input, outputs } of JQ_MANUAL_CASES) {
    try {
      const got = run(JSON.stringify(input), program);
      if (!isDeepStrictEqual(got, outputs)) failures.push(`${program}: ${JSON.stringify(got)}`);
    } catch (error) {
      failures.push(`${program}: ${String(error.message ?? error).split('\n')[0]}`);
    }
  }
  rows.push({
    name,
    ...packageFacts(name),
    loadMs,
    passed: JQ_MANUAL_CASES.length - failures.length,
    failures,
  });
}

console.log(`jq manual sample: ${JQ_MANUAL_CASES.length} cases, Node ${process.version}\n`);
for (const row of rows) {
  const facts = row.version
    ? ` (${row.version}, ${row.license}, ${row.size} installed, loaded in ${row.loadMs.toFixed(0)} ms)`
    : '';
  console.log(`${row.name}${facts}: ${row.passed}/${JQ_MANUAL_CASES.length} passed`);
  for (const failure of row.failures) console.log(`  fails ${failure}`);
}
