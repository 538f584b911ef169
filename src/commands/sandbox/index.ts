// sandbox: the verbs' declarations; `start` loads the sandbox only when it runs.
import { defineCommand, defineNoun } from '../../cli/command.js';

const start = defineCommand({
  name: 'start',
  summary: 'run a local Clinic API with seeded data',
  description:
    'Run a complete local Clinic API on 127.0.0.1 with deterministic seeded tenants, users and customers,\n' +
    'personal access tokens, pagination, validation and rate limits. Prints one JSON line when ready\n' +
    '({"base_url","auth_url","client_id","realtime","tenants","token"}; token = a personal access token with\n' +
    'all scopes) and points a profile at it. Stops cleanly on Ctrl-C or SIGTERM.',
  options: [
    { flags: '--port <n>', description: 'port (0 = any free port)', defaultValue: '0' },
    { flags: '--seed <n>', description: 'seed of the generated data', defaultValue: '1' },
    { flags: '--records <n>', description: 'customers per tenant', defaultValue: '40' },
    { flags: '--rate-limit <n>', description: 'requests per minute per user (0 = off)', defaultValue: '60' },
    { flags: '--faults <spec>', description: 'inject faults, e.g. 5xx=0.05,429=0.05,reset=0.02,slow=0.05' },
    {
      flags: '--access-token-ttl <seconds>',
      description: 'lifetime of OAuth access tokens (default 15 days)',
    },
    {
      flags: '--refresh-token-ttl <seconds>',
      description: 'lifetime of OAuth refresh tokens (default 30 days)',
    },
    {
      flags: '--write-profile <name>',
      description: 'profile to point at the sandbox',
      defaultValue: 'sandbox',
    },
    { flags: '--no-write-profile', description: 'leave the config file alone' },
  ],
  examples: [
    'clinic sandbox start',
    'clinic sandbox start --port 8080 --records 500 --rate-limit 0',
    'clinic sandbox start --faults 5xx=0.1,reset=0.05 --write-profile flaky',
  ],
  load: async () => (await import('./start.js')).start,
});

export default defineNoun({
  name: 'sandbox',
  summary: 'a local Clinic API to try everything on',
  examples: ['clinic sandbox start', 'clinic sandbox start --port 0 --seed 7'],
  commands: [start],
});
