// Writes completions/clinic.bash, completions/_clinic, completions/clinic.fish and man/clinic.1 from the built
// command declarations (the bundle's exported tree: data only, no command's code is loaded). Run after the build;
// `--check` writes nothing and exits 1 when a committed file differs. test/shell/generated.test.ts checks them too.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const bundle = require('../dist/bundle/main.cjs');
const { generateFiles } = await import('../dist/cli/completion/generate.js');
const root = new URL('../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

const files = generateFiles(
  {
    commands: await bundle.loadCommands(),
    globalOptions: bundle.GLOBAL_OPTIONS,
    versionOption: bundle.VERSION_OPTION,
    helpOption: bundle.HELP_OPTION,
    description: bundle.PROGRAM_DESCRIPTION,
    examples: bundle.PROGRAM_EXAMPLES,
  },
  version,
);

const check = process.argv.includes('--check');
let stale = 0;
for (const [path, text] of Object.entries(files)) {
  const url = new URL(path, root);
  if (check) {
    let committed = '';
    try {
      committed = readFileSync(url, 'utf8');
    } catch {
      // missing: stale
    }
    if (committed !== text) {
      console.error(`${path} is out of date: run npm run completions`);
      stale++;
    }
  } else {
    mkdirSync(new URL('.', url), { recursive: true });
    writeFileSync(url, text);
    console.error(`wrote ${path}`);
  }
}
process.exitCode = stale ? 1 : 0;
