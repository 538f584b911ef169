// The Debian package and the checksums beside it: what `dpkg-deb` (Debian's own tool) says the .deb is, and what it
// installs where: /usr/bin/clinic (the very executable), the man page, completions in the places Debian's bash, zsh
// and fish read them, and the copyright file. (CI also installs it with apt-get: .ci/debian-package.)
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { requirePart, tempDir } from '../helpers/cli.js';
import { DEB, EXECUTABLE, RELEASE, ROOT, VERSION } from './release.js';

const dpkg = requirePart(
  spawnSync('sh', ['-c', 'command -v dpkg-deb']).status === 0,
  'the Debian package: needs dpkg-deb (Debian)',
);

describe('release/SHA256SUMS', () => {
  it('checks the executable and the .deb with sha256sum -c', () => {
    const sums = readFileSync(join(RELEASE, 'SHA256SUMS'), 'utf8');
    expect(
      sums
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('  ')[1]),
    ).toEqual([`clinic-${VERSION}-linux-x64`, `clinic_${VERSION}_amd64.deb`]);
    const check = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: RELEASE, encoding: 'utf8' });
    expect(check.stdout).toMatch(/: OK\n.*: OK\n$/);
    expect(check.status).toBe(0);
  });
});

describe.skipIf(!dpkg)('release/clinic_<version>_amd64.deb', () => {
  let tree: string;
  beforeAll(async () => {
    tree = await tempDir('clinic-deb-');
    execFileSync('dpkg-deb', ['-x', DEB, tree]);
  });
  const field = (name: string) => execFileSync('dpkg-deb', ['-f', DEB, name], { encoding: 'utf8' }).trim();
  const installed = (path: string) => readFileSync(join(tree, path));
  const shipped = (path: string) => readFileSync(join(ROOT, path));

  it('is the package clinic of this version for amd64, with a description', () => {
    expect(field('Package')).toBe('clinic');
    expect(field('Version')).toBe(VERSION);
    expect(field('Architecture')).toBe('amd64');
    expect(field('Description')).toMatch(/^command-line tool for the Clinic Management Service API.*\n .+/);
    expect(execFileSync('dpkg-deb', ['-I', DEB], { encoding: 'utf8' })).toMatch(/Depends: libc6/);
  });

  it('installs root-owned files: the executable, the man page, bash, zsh and fish completions, the copyright', () => {
    const listing = execFileSync('dpkg-deb', ['-c', DEB], { encoding: 'utf8' });
    const files = listing
      .split('\n')
      .filter((line) => line.startsWith('-'))
      .map((line) => {
        const [mode, owner, , , , path] = line.split(/\s+/);
        return `${mode} ${owner} ${path}`;
      });
    expect(files).toEqual([
      '-rwxr-xr-x root/root ./usr/bin/clinic',
      '-rw-r--r-- root/root ./usr/share/bash-completion/completions/clinic',
      '-rw-r--r-- root/root ./usr/share/doc/clinic/copyright',
      '-rw-r--r-- root/root ./usr/share/fish/vendor_completions.d/clinic.fish',
      '-rw-r--r-- root/root ./usr/share/man/man1/clinic.1.gz',
      '-rw-r--r-- root/root ./usr/share/zsh/vendor-completions/_clinic',
    ]);
    expect(installed('usr/bin/clinic').equals(readFileSync(EXECUTABLE))).toBe(true);
    expect(gunzipSync(installed('usr/share/man/man1/clinic.1.gz')).equals(shipped('man/clinic.1'))).toBe(
      true,
    );
    expect(
      installed('usr/share/bash-completion/completions/clinic').equals(shipped('completions/clinic.bash')),
    ).toBe(true);
    expect(installed('usr/share/zsh/vendor-completions/_clinic').equals(shipped('completions/_clinic'))).toBe(
      true,
    );
    expect(
      installed('usr/share/fish/vendor_completions.d/clinic.fish').equals(shipped('completions/clinic.fish')),
    ).toBe(true);
  });

  it("says in its copyright file whose code is inside: clinic's, Node's and each bundled package's", () => {
    const copyright = installed('usr/share/doc/clinic/copyright').toString('utf8');
    expect(copyright).toMatch(
      /^Format: https:\/\/www\.debian\.org\/doc\/packaging-manuals\/copyright-format\/1\.0\/\n/,
    );
    expect(copyright).toMatch(/^Files: \*\nCopyright: The clinic developers\nLicense: MIT$/m);
    expect(copyright).toContain(`Node.js ${process.version}`);
    for (const name of ['commander', 'oidc-provider', 'openid-client', 'pusher-js', 'jq-wasm', 'ora'])
      expect(copyright).toMatch(new RegExp(`^ ${name} \\d+\\.\\d+\\.\\d+\\S* \\(`, 'm'));
    expect(copyright).toMatch(/^License: keyring-binary$/m);
  });
});
