// tenants: the verbs' declarations; each verb's code loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { noun } from '../../cli/declare.js';

const list = defineCommand({
  name: 'list',
  summary: "list the account's tenants (clinics)",
  examples: ['clinic tenants list', 'clinic tenants list -o csv'],
  load: async () => (await import('./list.js')).run,
});

const use = defineCommand({
  name: 'use',
  summary: "save a tenant as the profile's default (X-Tenant)",
  args: [{ name: 'id-or-slug', description: 'tenant id or slug' }],
  examples: ['clinic tenants use northside', 'clinic tenants use 2'],
  noJq: 'tenants use prints no JSON',
  load: async () => (await import('./use.js')).run,
});

export default noun({
  name: 'tenants',
  category: 'Sign-in and settings',
  summary: 'list tenants and choose the default one',
  examples: ['clinic tenants list', 'clinic tenants use northside'],
  commands: [list, use],
});
