// `clinic completion SHELL`: prints the completion script shipped in the package's completions/ folder (generated
// from the command declarations by `npm run completions`), so what users source is what the package ships.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verb } from '../../cli/command.js';
import { UsageError } from '../../core/errors.js';
import { SHELLS } from './index.js';

type Shell = (typeof SHELLS)[number];

const SCRIPTS: Record<Shell, string> = { bash: 'clinic.bash', zsh: '_clinic', fish: 'clinic.fish' };

export function parseShell(args: string[]): Shell {
  const [shell = ''] = args;
  if (!(SHELLS as readonly string[]).includes(shell))
    throw new UsageError(`unknown shell '${shell}'; use one of ${SHELLS.join(', ')}`);
  return shell as Shell;
}

/**
 * The package's completions/ folder: above this module, whether it runs from the bundle (dist/bundle), from tsc's
 * output (dist/commands/completion) or from the sources (src/commands/completion).
 */
async function readShipped(file: string): Promise<string> {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    try {
      return await readFile(join(dir, 'completions', file), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`completions/${file} is missing from this installation of clinic`);
}

export const run = verb(
  ({ args }) => parseShell(args),
  async (shell: Shell, ctx) => {
    await ctx.io.write(await readShipped(SCRIPTS[shell]));
  },
);
