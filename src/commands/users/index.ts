// users: the declaration; its code loads only when it runs.
import { defineCommand, defineNoun } from '../../cli/command.js';

const get = defineCommand({
  name: 'get',
  summary: 'show one user of the tenant',
  description:
    'Show a user (GET /v1/users/{id}). The API document does not show the fields of a user record (assumed):\n' +
    'whatever the server sends is printed; --fields picks from it.',
  args: [{ name: 'id', description: 'user id' }],
  examples: ['clinic users get 3', 'clinic users get 3 --fields name,email -o json'],
  load: async () => (await import('./get.js')).run,
});

export default defineNoun({
  name: 'users',
  summary: 'users (staff) of the tenant',
  category: 'Clinic data',
  examples: ['clinic users get 3'],
  commands: [get],
});
