// Node's single-executable application support: the preparation blob (`node --experimental-sea-config`), a copy of
// the Node that runs the build, and the blob injected into it with postject. On macOS the copy's signature is taken
// off before the injection and an ad-hoc one put back after (a release signs it with its own identity then).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { inject } from 'postject';

/** Node's fuse for the blob: the same in every Node that has single-executable support. */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Writes the executable `output` from the main script and the assets ({ name: file }). */
export async function buildExecutable({ main, assets, blob, configFile, output }) {
  // useCodeCache: the main script (bin/clinic.js's start and the installation) is compiled at build time too.
  const config = { main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets };
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  execFileSync(process.execPath, ['--experimental-sea-config', configFile], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  copyFileSync(process.execPath, output);
  chmodSync(output, 0o755);
  const mac = process.platform === 'darwin';
  if (mac) execFileSync('codesign', ['--remove-signature', output]);
  await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: FUSE,
    ...(mac ? { machoSegmentName: 'NODE_SEA' } : {}),
  });
  if (mac) execFileSync('codesign', ['--sign', '-', output]);
}
