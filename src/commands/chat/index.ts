// chat: `chat tail`, live chat events; its code (and pusher-js) loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { noun } from '../../cli/declare.js';
import { option } from '../../cli/options.js';
import { CHAT_EVENT_KINDS } from '../../core/realtime/events.js';

export const TAIL_OPTIONS = [
  option.ids('--conversation <id>', 'only this conversation'),
  option.id('--since <message-id>', 'first print the messages after this one (of the --conversation ones)'),
  option.choiceList('--events <kinds>', 'which events to print (default created)', CHAT_EVENT_KINDS),
  option.int('--timeout <seconds>', 'stop after this long (exit 0)', { min: 1 }),
  option.int(
    '--reconnect-timeout <seconds>',
    'give up after the connection is down this long (default 120; exit 1)',
    {
      min: 1,
    },
  ),
] as const;

const tail = defineCommand({
  name: 'tail',
  summary: "print the tenant's chat events as they happen, each message exactly once",
  description:
    'Subscribe to private-chat-log.{tenant} (pusher-js; authorized by POSTing socket_id and channel_name to\n' +
    'realtime.auth_endpoint, default {base_url}/broadcasting/auth, with your token and X-Tenant) and print each\n' +
    'event as it arrives. After every reconnect, and after the machine wakes from sleep, the messages missed in\n' +
    'each conversation seen or named are fetched over REST (GET /v1/conversations/{id}/messages?after=) and\n' +
    'printed in id order before newer live ones: every message exactly once. On a terminal: one line per event\n' +
    '(time, conversation, sender, status, body); otherwise NDJSON lines\n' +
    '{"event":"ChatLogCreated","source":"realtime"|"rest","data":{...}}. Status changes go to stderr.\n' +
    'Runs until Ctrl-C (exit 130) or --timeout (exit 0); a refused authorization exits 3 or 4, a connection\n' +
    'lost for good (down longer than --reconnect-timeout, or refused by the server) exits 1.\n' +
    'Realtime settings come from the profile (realtime.key with realtime.cluster, or realtime.host, port, tls).',
  options: TAIL_OPTIONS,
  examples: [
    'clinic --profile sandbox chat tail',
    'clinic chat tail --conversation 2 --since 8 -o ndjson | jq .data.body',
    'clinic chat tail --events created,deleted,read --timeout 600',
  ],
  noJq: 'chat tail prints events as they happen, so there is no whole output to filter: pipe -o ndjson into jq',
  load: async () => (await import('./tail.js')).run,
});

export default noun({
  name: 'chat',
  summary: 'live chat events: tail',
  category: 'Clinic data',
  examples: ['clinic chat tail'],
  commands: [tail],
});
