// `node scripts/package/bundle-cache.mjs WRAPPED OUT`: V8's code cache of the bundled CLI as the single executable
// compiles it (WRAPPED: dist/bundle/main.cjs through src/executable/installation.ts's wrapBundle), made after the
// commands most runs share have run once against a local sandbox (config, building the program, signing requests,
// reading an answer, JSON output), so the executable compiles none of that at start-up. Run by scripts/package.mjs
// in a Node of its own, with no flags: V8 takes a cache only from a V8 with the same flags, and the executable runs
// with none.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { BUNDLE_ASSET, runBundle } from '../../dist/executable/installation.js';
import { startSandbox } from '../../dist/sandbox/index.js';

const [wrapped, out] = process.argv.slice(2);
const { main, script } = runBundle(readFileSync(wrapped, 'utf8'), join('/clinic', BUNDLE_ASSET));
const sandbox = await startSandbox({ port: 0, records: 3, rateLimit: 0 });
const home = mkdtempSync(join(tmpdir(), 'clinic-bundle-cache-'));
try {
  const env = {
    HOME: home,
    CLINIC_CONFIG_DIR: join(home, 'config'),
    CLINIC_BASE_URL: sandbox.info.base_url,
    CLINIC_TENANT: String(sandbox.info.tenants[0].id),
    CLINIC_TOKEN: sandbox.info.token,
  };
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  for (const argv of [
    ['config', 'list', '-o', 'json'],
    ['customers', 'get', '1', '-o', 'json'],
    ['customers', 'list', '--per-page', '2', '-o', 'json'],
  ]) {
    const code = await main(argv, {
      streams: { stdin: process.stdin, stdout: discard, stderr: process.stderr },
      env,
      signal: new AbortController().signal,
    });
    if (code !== 0) throw new Error(`clinic ${argv.join(' ')} exited ${code}`);
  }
} finally {
  await sandbox.close();
  rmSync(home, { recursive: true, force: true });
}
writeFileSync(out, script.createCachedData());
