// `clinic man`: prints the manual page shipped in the package's man/ folder (generated from the command declarations
// by `npm run completions`), so the single executable carries it too. On a terminal (or -o table), formatted by the
// system's `man`; into a pipe or a file, its source (roff), for `man -l -` or to install.
import { verb } from '../../cli/command.js';
import { CancelledError } from '../../core/errors.js';
import { readShippedFile } from '../../core/shipped-file.js';
import { formatWithMan } from './format.js';

export const run = verb(
  () => undefined,
  async (_options: undefined, ctx) => {
    const page = await readShippedFile('man/clinic.1', import.meta.url);
    // A person's view (a terminal, or -o table) is the formatted page; any other, its source.
    const { format } = await ctx.output({ fields: false });
    if (format === 'table') {
      const formatted = await formatWithMan(page, ctx.io.columns, ctx.signal);
      if ('text' in formatted) return ctx.io.write(formatted.text);
      if (ctx.signal.aborted) throw new CancelledError('interrupted');
      ctx.io.err(
        'missing' in formatted
          ? "note: no `man` here to format the page: this is its source (roff); `clinic --help` and each command's --help say the same"
          : `note: man could not format the page (${formatted.failed}): this is its source (roff)`,
      );
    }
    await ctx.io.write(page);
  },
);
