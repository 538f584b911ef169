// One temporary folder for this vitest run, so other processes' temporary files never count against the tests: the
// run's processes inherit it as TMPDIR, and it must be empty when the run ends (test/helpers/temp-folder-setup.ts
// gives each file its own folder in it, and empties and removes it when the file ends).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const outer = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), 'clinic-run-'));
  process.env.TMPDIR = folder;
  return () => {
    // A file whose tests were all filtered out runs no afterAll: its own folder stays behind, empty.
    const left = readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() && /^[\w.-]+-\w{6}$/.test(entry.name)
        ? readdirSync(join(folder, entry.name)).map((name) => `${entry.name}/${name}`)
        : [entry.name],
    );
    rmSync(folder, { recursive: true, force: true });
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    if (left.length === 0) return;
    // vitest reports an error thrown here but still exits 0: fail the run by hand.
    console.error(
      `\nthe test run left ${left.join(', ')} in its temporary folder: use tempDir (test/helpers/temp-dir.ts)`,
    );
    process.exitCode = 1;
  };
}
