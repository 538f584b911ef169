// `clinic man`: prints the manual page shipped in the package's man/ folder (generated from the command declarations
// by `npm run completions`), so the single executable carries it too.
import { verb } from '../../cli/command.js';
import { readShippedFile } from '../../core/shipped-file.js';

export const run = verb(
  () => undefined,
  async (_options: undefined, ctx) => {
    await ctx.io.write(await readShippedFile('man/clinic.1', import.meta.url));
  },
);
