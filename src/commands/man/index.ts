// man: the declaration; its code loads only when it runs.
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  name: 'man',
  category: 'Tools',
  summary: 'show the manual page; into a pipe or a file, its source (roff) for man',
  description:
    "Show clinic's manual page, the one shipped in the package's man/ folder (npm and the .deb install it for\n" +
    '`man clinic`). On a terminal (or with -o table) it is formatted by the system\'s man (without man, its\n' +
    'source is printed). Into a pipe or a file it is the source, useful where clinic came as the single executable:\n' +
    'read it with `clinic man | man -l -`, or install it: clinic man > ~/.local/share/man/man1/clinic.1',
  dryRun: 'read-only',
  examples: ['clinic man | man -l -', 'clinic man > clinic.1'],
  noJq: 'man prints a manual page, not JSON',
  noRaw: true,
  load: async () => (await import('./print.js')).run,
});
