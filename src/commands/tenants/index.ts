// tenants: the verbs' declarations; each verb's code loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { noun } from '../../cli/declare.js';
import { option } from '../../cli/options.js';

export const LIST_TENANTS_OPTIONS = [
  option.flag(
    '--offline',
    'only the tenants this profile remembers (from tenants use and --tenant SLUG): no request is sent',
  ),
] as const;

const list = defineCommand({
  name: 'list',
  summary: "list the account's tenants (clinics)",
  description:
    'List the tenants (clinics) of your account, from GET /v1/account, and remember their slugs in the profile\n' +
    'for --tenant SLUG and completions. --offline lists what the profile remembers without asking the server.',
  options: LIST_TENANTS_OPTIONS,
  dryRun: 'read-only',
  examples: ['clinic tenants list', 'clinic tenants list -o csv', 'clinic tenants list --offline'],
  noRaw: true,
  load: async () => (await import('./list.js')).run,
});

const use = defineCommand({
  name: 'use',
  summary: "save a tenant as the profile's default (X-Tenant)",
  args: [{ name: 'id-or-slug', description: 'tenant id or slug', completes: 'tenant' }],
  examples: ['clinic tenants use northside', 'clinic tenants use 2'],
  noJq: 'tenants use prints no JSON',
  noRaw: true,
  load: async () => (await import('./use.js')).run,
});

export default noun({
  name: 'tenants',
  category: 'Sign-in and settings',
  summary: 'list tenants and choose the default one',
  examples: ['clinic tenants list', 'clinic tenants use northside'],
  commands: [list, use],
});
