// appointments: the declaration; its code loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { noun } from '../../cli/declare.js';
import { LIST_OPTIONS } from '../../cli/list-flags.js';

const list = defineCommand({
  name: 'list',
  summary: 'list appointments of the tenant',
  description:
    'List appointments (GET /v1/appointments, paginated). The API document shows neither the fields nor the\n' +
    'filters of this endpoint (assumed): pass any query parameter with --filter key=value (the sandbox knows\n' +
    'status, from and to).',
  options: LIST_OPTIONS,
  dryRun: 'read-only',
  examples: [
    'clinic appointments list --per-page 20',
    'clinic appointments list --all -o csv > appointments.csv',
    'clinic appointments list --filter status=scheduled --limit 5',
  ],
  load: async () => (await import('./list.js')).run,
});

export default noun({
  name: 'appointments',
  summary: 'appointments of the tenant',
  category: 'Clinic data',
  examples: ['clinic appointments list'],
  commands: [list],
});
