// man: the declaration; its code loads only when it runs.
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  name: 'man',
  category: 'Tools',
  summary: 'print the manual page (roff), for man or to install where man finds it',
  description:
    "Print clinic's manual page, the one shipped in the package's man/ folder (npm and the .deb install it for\n" +
    '`man clinic`). Useful where clinic came as the single executable: read it with `clinic man | man -l -`, or\n' +
    'install it: clinic man > ~/.local/share/man/man1/clinic.1',
  dryRun: 'read-only',
  examples: ['clinic man | man -l -', 'clinic man > clinic.1'],
  noJq: 'man prints a manual page, not JSON',
  noRaw: true,
  load: async () => (await import('./print.js')).run,
});
