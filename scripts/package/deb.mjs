// The Debian package, made by dpkg-deb (on every Debian machine) from a staged tree: /usr/bin/clinic (the single
// executable), the man page, the completions where Debian's bash, zsh and fish look for them, and the copyright file.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Debian's names for Node's architectures. */
export const DEBIAN_ARCH = { x64: 'amd64', arm64: 'arm64' };

/** What Node's own binary links against (`ldd`), as Debian names the packages. */
const DEPENDS = 'libc6 (>= 2.28), libgcc-s1 | libgcc1, libstdc++6 (>= 5.2)';

/**
 * Writes `output` (clinic_<version>_<arch>.deb) from the `executable`, the repository's man/ and completions/, and
 * `copyright` (the copyright file's text); `pkg` is package.json, `stage` a folder to build the tree in.
 */
export function buildDeb({ root, stage, executable, pkg, arch, copyright, output }) {
  rmSync(stage, { recursive: true, force: true });
  const put = (path, bytes, mode) => {
    const file = join(stage, path);
    mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
    writeFileSync(file, bytes);
    chmodSync(file, mode);
  };
  const shipped = (path) => readFileSync(join(root, path));
  mkdirSync(join(stage, 'usr/bin'), { recursive: true });
  copyFileSync(executable, join(stage, 'usr/bin/clinic'));
  chmodSync(join(stage, 'usr/bin/clinic'), 0o755);
  // gzip -9n: no name, no time (Node writes neither), so the same page gives the same bytes.
  put('usr/share/man/man1/clinic.1.gz', gzipSync(shipped('man/clinic.1'), { level: 9 }), 0o644);
  put('usr/share/bash-completion/completions/clinic', shipped('completions/clinic.bash'), 0o644);
  put('usr/share/zsh/vendor-completions/_clinic', shipped('completions/_clinic'), 0o644);
  put('usr/share/fish/vendor_completions.d/clinic.fish', shipped('completions/clinic.fish'), 0o644);
  put('usr/share/doc/clinic/copyright', copyright, 0o644);
  const staged = readdirSync(join(stage, 'usr'), { recursive: true, withFileTypes: true }).filter((e) =>
    e.isFile(),
  );
  const bytes = staged.reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
  const installedKiB = Math.ceil(bytes / 1024);
  const control = [
    `Package: ${pkg.name}`,
    `Version: ${pkg.version}`,
    `Architecture: ${arch}`,
    `Maintainer: ${pkg.author ?? 'The clinic developers <clinic@invalid>'}`,
    `Installed-Size: ${installedKiB}`,
    `Depends: ${DEPENDS}`,
    'Section: utils',
    'Priority: optional',
    `Description: ${pkg.description.replace(/^Command-line tool/, 'command-line tool')}`,
    ' clinic administers clinic data through the Clinic Management Service API: scriptable (exact exit',
    ' codes, JSON/NDJSON/CSV on stdout), safe (confirmations, --dry-run, tokens in the OS keychain), and',
    ' shipped with `clinic sandbox start`, a complete local Clinic API to try every command on.',
    ' .',
    ' This package is the single executable: Node.js and every library clinic uses are inside /usr/bin/clinic.',
    '',
  ].join('\n');
  put('DEBIAN/control', control, 0o644);
  chmodSync(join(stage, 'DEBIAN'), 0o755);
  execFileSync('dpkg-deb', ['--build', '--root-owner-group', '-Zgzip', stage, output], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
