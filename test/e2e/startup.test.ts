// Start-up budget: --version and --help load none of the heavy modules; every command's help has an example.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

const HEAVY = [
  'undici',
  'openid-client',
  'pusher-js',
  '@napi-rs/keyring',
  'oidc-provider',
  '@inquirer',
  'ora',
  'cli-table3',
  'csv-stringify',
];
const RECORDER = fileURLToPath(new URL('../helpers/record-imports.mjs', import.meta.url));

async function loadedModules(args: string[]): Promise<string[]> {
  const dir = await tempDir();
  const file = join(dir, 'imports.txt');
  const result = await runCli(dir, args, {
    nodeArgs: ['--import', RECORDER],
    env: { RECORD_IMPORTS_FILE: file },
  });
  expect(result.code).toBe(0);
  const urls = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  expect(urls.some((url) => url.includes('/bin/clinic.js') || url.includes('/dist/'))).toBe(true);
  return urls;
}

describe('start-up', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    const { code, stdout } = await runCli(await tempDir(), ['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${pkg.version}\n`);
  });

  for (const args of [['--version'], ['--help'], ['customers', 'list', '--help']]) {
    it(`clinic ${args.join(' ')} loads no heavy module`, async () => {
      const loaded = await loadedModules(args);
      for (const name of HEAVY)
        expect(loaded.filter((url) => url.includes(`/node_modules/${name}`))).toEqual([]);
    });
  }

  it('--help loads the command declarations only: no context, HTTP core or command code', async () => {
    const ours = (await loadedModules(['--help'])).filter((url) => url.includes('/dist/'));
    expect(ours.some((url) => url.includes('/dist/commands/customers/index.js'))).toBe(true);
    const running = [
      '/dist/cli/context.js',
      '/dist/core/http/',
      '/dist/core/auth/',
      '/commands/customers/list.js',
    ];
    for (const part of running) expect(ours.filter((url) => url.includes(part))).toEqual([]);
  });

  it('a command that talks HTTP does load undici (the recorder works)', async () => {
    const dir = await tempDir();
    const file = join(dir, 'imports.txt');
    await runCli(dir, ['--base-url', 'http://127.0.0.1:9/api', 'account'], {
      nodeArgs: ['--import', RECORDER],
      env: { RECORD_IMPORTS_FILE: file, CLINIC_TOKEN: 'x' },
    });
    expect(await readFile(file, 'utf8')).toContain('/node_modules/undici/');
  });

  it('every command has an example in its help', async () => {
    const dir = await tempDir();
    const top = await runCli(dir, ['--help']);
    const nouns = [...top.stdout.matchAll(/^ {2}([a-z][a-z-]*)(?: \[options\])?(?: <[^>]+>)?\s{2,}/gm)]
      .map((m) => m[1] as string)
      .filter((name) => name !== 'help');
    expect(nouns).toEqual(expect.arrayContaining(['login', 'customers', 'config', 'api', 'sandbox']));
    for (const noun of nouns) {
      const help = await runCli(dir, [noun, '--help']);
      expect(help.stdout, noun).toContain('Examples:\n  $ ');
      const verbs = [
        ...help.stdout.matchAll(/^ {2}([a-z][a-z-]*)(?: \[options\])?(?: [<[][^>\]]+[>\]])*\s{2,}/gm),
      ]
        .map((m) => m[1] as string)
        .filter((name) => name !== 'help');
      for (const verb of help.stdout.includes('Commands:') ? verbs : []) {
        const verbHelp = await runCli(dir, [noun, verb, '--help']);
        expect(verbHelp.stdout, `${noun} ${verb}`).toContain('Examples:\n  $ ');
      }
    }
  });
});
