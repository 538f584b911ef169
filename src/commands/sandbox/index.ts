// sandbox: the verbs' declarations; `start` loads the sandbox only when it runs.
import { defineCommand } from '../../cli/command.js';
import { noun } from '../../cli/declare.js';
import { option } from '../../cli/options.js';
import { CHATTER_OPTION } from './chatter-rate.js';

export const START_OPTIONS = [
  { ...option.int('--port <n>', 'port (0 = any free port)', { min: 0, max: 65535 }), defaultValue: 0 },
  { ...option.int('--seed <n>', 'seed of the generated data'), defaultValue: 1 },
  { ...option.int('--records <n>', 'customers per tenant', { min: 0, max: 100_000 }), defaultValue: 40 },
  { ...option.int('--rate-limit <n>', 'requests per minute per user (0 = off)'), defaultValue: 60 },
  option.text(
    '--faults <spec>',
    'inject faults, e.g. 5xx=0.05,429=0.05,reset=0.02,slow=0.05,lost=0.01,ws-drop=0.1 (lost: done, then the ' +
      'answer is cut off; ws-drop: each second, with that chance, every realtime connection drops)',
  ),
  option.int(
    '--latency <ms>',
    'milliseconds every API answer waits first, as a network round trip would (default 0): try pacing and ' +
      '--concurrency against a server that is not next door',
    { min: 0, max: 60_000 },
  ),
  CHATTER_OPTION,
  option.int('--access-token-ttl <seconds>', 'lifetime of OAuth access tokens (default 15 days)', { min: 1 }),
  option.int('--refresh-token-ttl <seconds>', 'lifetime of OAuth refresh tokens (default 30 days)', {
    min: 1,
  }),
  option.int(
    '--erasure-step <seconds>',
    'seconds between two steps of a live data-erasure request (default 30; 0 = frozen)',
    { min: 0, max: 86_400 },
  ),
  {
    ...option.text(
      '--write-profile <name>',
      'profile to point at the sandbox; one that points at another sandbox still running is left alone',
    ),
    defaultValue: 'sandbox',
  },
  option.flag('--no-write-profile', 'leave the config file alone'),
] as const;

const start = defineCommand({
  name: 'start',
  summary: 'run a local Clinic API with seeded data',
  description:
    'Run a complete local Clinic API on 127.0.0.1 with deterministic seeded tenants, users, customers, leads,\n' +
    'conversations, appointments, erasure requests in every status and more, personal access tokens,\n' +
    'pagination, validation and rate limits, and realtime chat events (Pusher protocol on /app/{key}, channel\n' +
    'private-chat-log.{tenant}, authorized at {base_url}/broadcasting/auth). Prints one JSON line when ready\n' +
    '({"base_url","auth_url","client_id","realtime","tenants","token"}; token = a personal access token with\n' +
    'all scopes) and points a profile at it (--write-profile; but a profile that points at another sandbox\n' +
    'still running is left alone, with a note). Data-erasure requests created through the API move one status\n' +
    'every --erasure-step seconds. Stops cleanly on Ctrl-C or SIGTERM. Fixtures: docs/sandbox.md.',
  options: START_OPTIONS,
  examples: [
    'clinic sandbox start',
    'clinic sandbox start --port 8080 --records 500 --rate-limit 0',
    'clinic sandbox start --faults 5xx=0.1,reset=0.05 --write-profile flaky',
    'clinic sandbox start --write-profile sandbox-2    # beside a sandbox still running',
    'clinic sandbox start --erasure-step 1 --no-write-profile',
    'clinic sandbox start --chatter 0.5 --faults ws-drop=0.05',
    'clinic sandbox start --records 5000 --latency 40 --rate-limit 0',
  ],
  noJq: 'sandbox start runs until stopped, so there is no whole output to filter',
  noRaw: true,
  load: async () => (await import('./start.js')).start,
});

export default noun({
  name: 'sandbox',
  category: 'Tools',
  summary: 'a local Clinic API to try everything on',
  examples: ['clinic sandbox start', 'clinic sandbox start --port 0 --seed 7'],
  commands: [start],
});
