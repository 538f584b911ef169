// `clinic completion SHELL`: prints the completion script shipped in the package's completions/ folder (generated
// from the command declarations by `npm run completions`), so what users source is what the package ships.
import { verb } from '../../cli/command.js';
import { UsageError } from '../../core/errors.js';
import { readShippedFile } from '../../core/shipped-file.js';
import { SHELLS } from './index.js';

type Shell = (typeof SHELLS)[number];

const SCRIPTS: Record<Shell, string> = { bash: 'clinic.bash', zsh: '_clinic', fish: 'clinic.fish' };

export function parseShell(args: string[]): Shell {
  const [shell = ''] = args;
  if (!(SHELLS as readonly string[]).includes(shell))
    throw new UsageError(`unknown shell '${shell}'; use one of ${SHELLS.join(', ')}`);
  return shell as Shell;
}

export const run = verb(
  ({ args }) => parseShell(args),
  async (shell: Shell, ctx) => {
    await ctx.io.write(await readShippedFile(`completions/${SCRIPTS[shell]}`, import.meta.url));
  },
);
