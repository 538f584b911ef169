// chat: `chat tail`, live chat events; its code (and pusher-js) loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { noun } from '../../cli/declare.js';
import { option } from '../../cli/options.js';
import { CHAT_EVENT_KINDS } from '../../core/realtime/events.js';

export const TAIL_OPTIONS = [
  option.ids('--conversation <id>', 'only this conversation'),
  option.id('--since <message-id>', 'first print the messages after this one (of the --conversation ones)'),
  option.choiceList('--events <kinds>', 'which events to print, default created', CHAT_EVENT_KINDS),
  option.int('--timeout <seconds>', 'stop after this long (exit 0)', { min: 1 }),
  option.int(
    '--reconnect-timeout <seconds>',
    'give up after the connection is down this long (default 120; exit 1)',
    {
      min: 1,
    },
  ),
  {
    ...option.file(
      '--checkpoint <file>',
      'keep the last delivered message id of each conversation in FILE (0600, one tail per file); started again, ' +
        'the tail first delivers what came after (at least once)',
    ),
    writes: true,
  },
  {
    ...option.text(
      '--forward-to <url>',
      'POST each event as JSON to URL, signed (https, or http to 127.0.0.1, localhost or [::1]); nothing on stdout',
    ),
    writes: true,
  },
  option.text(
    '--forward-secret <secret>',
    'the signing secret of --forward-to; prefer CLINIC_FORWARD_SECRET (a command line shows in ps)',
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
    'Runs until Ctrl-C (exit 130), SIGTERM (a service stopped: exit 0) or --timeout (exit 0); a refused\n' +
    'authorization exits 3 or 4, a connection lost for good (down longer than --reconnect-timeout, or refused by\n' +
    'the server) exits 1.\n' +
    'Realtime settings come from the profile (realtime.key with realtime.cluster, or realtime.host, port, tls).\n' +
    '\n' +
    'As a service (systemd, cron): --checkpoint FILE keeps, after each delivery, the last message id delivered\n' +
    'in each conversation; started again (after a crash, a kill, a reboot), the tail first delivers what those\n' +
    'conversations received meanwhile, over REST, then live events. At least once: only messages delivered after\n' +
    "the file's last write can come twice. A conversation is in the file from the first message the tail sees\n" +
    'of it (delivered or not), or from the start with --conversation ID --since MESSAGE_ID. The API has no\n' +
    'tenant-wide message list: messages of conversations this tail never saw nor was given that way cannot be\n' +
    'recovered, and deleted and read events never are.\n' +
    '--forward-to URL POSTs each event (the NDJSON object) to URL, one at a time, in order per conversation,\n' +
    'with Clinic-Event-Id (the same on every retry and after a restart) and Clinic-Signature:\n' +
    't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">. The secret: CLINIC_FORWARD_SECRET (recommended),\n' +
    '--forward-secret, else one is generated, printed once on stderr and kept beside the checkpoint\n' +
    '(FILE.secret, 0600). A 2xx delivers; 408, 429, 5xx, redirects, timeouts and refused connections are\n' +
    'tried again (1 s doubling to 30 s), never dropped; another 4xx is said on stderr and skipped. An endpoint\n' +
    'that cannot work as it is (a host not found, https to a plain-http server, a certificate refused, a\n' +
    'connection refused for a minute) is said once, even with --quiet, and again if it fails anew after working.\n' +
    'With --checkpoint only what the endpoint accepted is recorded. See docs/chat-tail.md.',
  options: TAIL_OPTIONS,
  dryRun: 'read-only',
  examples: [
    'clinic --profile sandbox chat tail',
    'clinic chat tail --conversation 2 --since 8 -o ndjson | jq .data.body',
    'clinic chat tail --events created,deleted,read --timeout 600',
    'clinic chat tail --checkpoint ~/.local/state/clinic/chat.checkpoint -o ndjson >> chat.ndjson',
    'clinic chat tail --forward-to http://127.0.0.1:8080/clinic --checkpoint chat.checkpoint',
  ],
  noJq: 'chat tail prints events as they happen, so there is no whole output to filter: pipe -o ndjson into jq',
  noRaw: true,
  load: async () => (await import('./tail.js')).run,
});

export default noun({
  name: 'chat',
  summary: 'live chat events: tail',
  category: 'Clinic data',
  examples: ['clinic chat tail'],
  commands: [tail],
});
