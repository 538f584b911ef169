// account: the declaration; its code loads only when it runs.
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  name: 'account',
  category: 'Sign-in and settings',
  summary: 'show the signed-in user and their tenants',
  dryRun: 'read-only',
  examples: ['clinic account', 'clinic account --fields name,email,tenants -o json'],
  load: async () => (await import('./show.js')).run,
});
