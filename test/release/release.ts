// The release `npm run package` wrote (release/), and the executable run as on a machine without Node: in a private
// mount namespace (`unshare -m`, as root) where /dev/null is bound over the node binary and an empty folder over the
// repository's node_modules, so neither a `node` nor a package on disk can be reached from it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CliResult, collectOutput, requirePart, tempDir } from '../helpers/cli.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
export const RELEASE = join(ROOT, 'release');
export const EXECUTABLE = join(RELEASE, `clinic-${VERSION}-${process.platform}-${process.arch}`);
export const DEB = join(RELEASE, `clinic_${VERSION}_amd64.deb`);

if (!existsSync(EXECUTABLE)) throw new Error(`${EXECUTABLE} is missing: run npm run package first`);

const canHide = spawnSync('unshare', ['-m', 'true']).status === 0;
/** Whether Node is hidden from the executable here (root and unshare); elsewhere it runs plainly, with a note. */
export const NODE_HIDDEN = requirePart(
  canHide,
  'running the executable with Node out of reach needs a private mount namespace (unshare -m, as root)',
);

let empty: Promise<string> | undefined;

/** Spawns `command args` (the executable, or a shell that runs it) with Node and node_modules out of reach. */
export async function spawnWithoutNode(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<ChildProcess> {
  const clean = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined),
  ) as NodeJS.ProcessEnv;
  if (!NODE_HIDDEN) return spawn(command, args, { env: clean, stdio: 'pipe' });
  empty ??= tempDir('clinic-no-modules-');
  const hide = 'mount --bind /dev/null "$1" && mount --bind "$2" "$3" && shift 3 && exec "$@"';
  const node = realpathSync(process.execPath);
  return spawn(
    'unshare',
    ['-m', 'sh', '-c', hide, 'sh', node, await empty, join(ROOT, 'node_modules'), command, ...args],
    { env: clean, stdio: 'pipe' },
  );
}

/** Runs the executable with Node out of reach: its stdout, stderr and exit code. */
export async function runExecutable(
  args: string[],
  env: Record<string, string | undefined>,
  input = '',
): Promise<CliResult> {
  const child = await spawnWithoutNode(EXECUTABLE, args, env);
  const result = collectOutput(child);
  child.stdin?.end(input);
  return result;
}
