// `npm run package` (after `npm run build`): the release of this platform in release/: the single executable
// (clinic-<version>-<platform>-<arch>, .exe on Windows: Node and the whole CLI in one file, no Node needed), on
// Linux the Debian package (clinic_<version>_<arch>.deb), and SHA256SUMS. Nothing is downloaded: the executable is
// a copy of the Node running this script, with the CLI injected (Node's single-executable application support,
// postject); the packages come from node_modules. docs/release.md says what differs on macOS and Windows.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BUNDLE_ASSET,
  BUNDLE_CACHE_ASSET,
  shapeCacheAsset,
  wrapBundle,
} from '../dist/executable/installation.js';
import { packageAsset } from '../dist/executable/packages.js';
import { bundleMain, bundlePackages, packagesLoaded } from './package/bundles.mjs';
import { copyrightFile } from './package/copyright.mjs';
import { buildDeb, DEBIAN_ARCH } from './package/deb.mjs';
import { buildExecutable } from './package/sea.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// What goes into the release is made in a temporary folder (never in dist/, which npm pack ships).
const work = mkdtempSync(join(tmpdir(), 'clinic-package-'));
const release = join(root, 'release');
const started = Date.now();
const step = (what) => console.error(`package: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

const platform = `${process.platform}-${process.arch}`;
const executableName = `clinic-${pkg.version}-${platform}${process.platform === 'win32' ? '.exe' : ''}`;

/** The keyring's platform binary: the optional package npm installed for this platform (musl Linux aside). */
function keyringBinary() {
  const flavour = { linux: '-gnu', win32: '-msvc' }[process.platform] ?? '';
  const name = `@napi-rs/keyring-${platform}${flavour}`;
  const require = createRequire(join(root, 'node_modules/@napi-rs/keyring/package.json'));
  let dir;
  try {
    dir = dirname(require.resolve(`${name}/package.json`));
  } catch {
    throw new Error(`${name} is not installed (npm ci without --omit=optional installs it)`);
  }
  const file = readdirSync(dir).find((entry) => entry.endsWith('.node'));
  const notices = readdirSync(dir).find((entry) => /^LICENSE/i.test(entry));
  return { file: join(dir, file), notices: notices ? readFileSync(join(dir, notices), 'utf8') : '' };
}

mkdirSync(join(work, 'packages'));
rmSync(release, { recursive: true, force: true });
mkdirSync(release);
try {
  await makeRelease();
} finally {
  rmSync(work, { recursive: true, force: true });
}

async function makeRelease() {
  step('bundling the main script and the packages');
  const keyring = keyringBinary();
  const keyringBytes = readFileSync(keyring.file);
  const keyringSha256 = createHash('sha256').update(keyringBytes).digest('hex');
  await bundleMain(root, join(work, 'main.cjs'), pkg.version);
  const packages = packagesLoaded(root);
  const metafile = await bundlePackages(root, join(work, 'packages'), packages, keyringSha256);

  step("the bundled CLI's code cache");
  const wrapped = join(work, 'main.function.cjs');
  writeFileSync(wrapped, wrapBundle(readFileSync(join(root, 'dist/bundle/main.cjs'), 'utf8')));
  execFileSync(
    process.execPath,
    [join(root, 'scripts/package/bundle-cache.mjs'), wrapped, join(work, 'main.cjs.cache')],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { PATH: process.env.PATH ?? '' },
    },
  );

  step('the executable');
  const assets = {
    [BUNDLE_ASSET]: wrapped,
    [BUNDLE_CACHE_ASSET]: join(work, 'main.cjs.cache'),
    // The caches of each warmed command alone (scripts/package/bundle-cache.mjs).
    ...Object.fromEntries(
      JSON.parse(readFileSync(join(work, 'main.cjs.cache.json'), 'utf8')).map((shape) => [
        shapeCacheAsset(shape),
        join(work, `main.cjs.cache.${shape}`),
      ]),
    ),
    'dist/help.json': join(root, 'dist/help.json'),
    'completions/clinic.bash': join(root, 'completions/clinic.bash'),
    'completions/_clinic': join(root, 'completions/_clinic'),
    'completions/clinic.fish': join(root, 'completions/clinic.fish'),
    'man/clinic.1': join(root, 'man/clinic.1'),
    'native/keyring.node': keyring.file,
    'jq.wasm': createRequire(join(root, 'package.json')).resolve('jq-wasm/jq.wasm'),
    ...Object.fromEntries(
      packages.map(([kind, id]) => [
        packageAsset(kind, id),
        join(work, 'packages', kind, `${encodeURIComponent(id)}.cjs`),
      ]),
    ),
  };
  const executable = join(release, executableName);
  await buildExecutable({
    main: join(work, 'main.cjs'),
    assets,
    blob: join(work, 'sea-prep.blob'),
    configFile: join(work, 'sea-config.json'),
    output: executable,
  });

  const outputs = [executable];
  const arch = DEBIAN_ARCH[process.arch];
  if (process.platform === 'linux' && arch) {
    step('the Debian package');
    const deb = join(release, `clinic_${pkg.version}_${arch}.deb`);
    // Packages bundled into dist/bundle/main.cjs by scripts/bundle.mjs (commander, get-east-asian-width); the rest came through
    // esbuild here.
    const inMain = JSON.parse(readFileSync(join(root, 'dist/bundle/main.cjs.inputs.json'), 'utf8'));
    const main = { inputs: Object.fromEntries(inMain.map((input) => [input, {}])) };
    buildDeb({
      root,
      stage: join(work, 'deb'),
      executable,
      pkg,
      arch,
      copyright: copyrightFile({ root, metafiles: [metafile, main], keyringNotices: keyring.notices }),
      output: deb,
    });
    outputs.push(deb);
  }

  const sums = outputs.map(
    (file) => `${createHash('sha256').update(readFileSync(file)).digest('hex')}  ${basename(file)}\n`,
  );
  writeFileSync(join(release, 'SHA256SUMS'), sums.join(''));
  step(
    `done: ${[...outputs, join(release, 'SHA256SUMS')].map((file) => `release/${basename(file)}`).join(', ')}`,
  );
}
