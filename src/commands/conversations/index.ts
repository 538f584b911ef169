// conversations: messages, one message, voice upload and the AI assistant; code loads only when it runs.
import { otherwiseWithApi } from '../../cli/assumed.js';
import { defineCommand } from '../../cli/command.js';
import { idArg, noun } from '../../cli/declare.js';
import { LIST_OPTIONS } from '../../cli/list-flags.js';
import { option } from '../../cli/options.js';

export const MESSAGES_OPTIONS = [
  ...LIST_OPTIONS,
  option.id('--after <message-id>', 'only messages after this one (catching up)'),
] as const;

const messages = defineCommand({
  name: 'messages',
  summary: 'list the messages of a conversation',
  description:
    'List the messages (chat logs) of a conversation (GET /v1/conversations/{id}/messages), oldest first;\n' +
    '--after MESSAGE_ID lists only newer ones. Paging parameters beyond `after` are not shown in the API\n' +
    'document (assumed: the common page/per_page).' +
    otherwiseWithApi('clinic api "/v1/conversations/2/messages?after=100&cursor=NEXT"'),
  args: idArg('conversation'),
  options: MESSAGES_OPTIONS,
  dryRun: 'read-only',
  examples: ['clinic conversations messages 2', 'clinic conversations messages 2 --after 8 --all -o ndjson'],
  load: async () => (await import('./messages.js')).run,
});

const message = defineCommand({
  name: 'message',
  summary: 'show one message of a conversation',
  args: [
    { name: 'id', description: 'conversation id' },
    { name: 'message-id', description: 'message id' },
  ],
  dryRun: 'read-only',
  examples: ['clinic conversations message 2 9', 'clinic conversations message 2 9 -o json'],
  load: async () => (await import('./message.js')).run,
});

export const SEND_VOICE_OPTIONS = [
  option.int(
    '--max-kib <n>',
    'refuse a file over N KiB before sending (default 51200; 0: no bound here, the server decides)',
    { min: 0, max: 1024 * 1024 * 1024 },
  ),
] as const;

const sendVoice = defineCommand({
  name: 'send-voice',
  summary: 'send an audio file as a voice message',
  description:
    'Upload FILE as a voice message (POST /v1/conversations/{id}/messages/voice, multipart part `file`),\n' +
    'streamed from disk. Files over 51200 KiB are refused before anything is sent (the API document gives the\n' +
    'bound 51200 without a unit; KiB is assumed: --max-kib sets another bound, 0 none). Prints the\n' +
    'acknowledgement: the message is queued.',
  args: [
    { name: 'id', description: 'conversation id' },
    { name: 'file', description: 'audio file', completes: 'file' },
  ],
  options: SEND_VOICE_OPTIONS,
  dryRun: 'honoured',
  examples: [
    'clinic conversations send-voice 2 ./reply.ogg',
    'clinic conversations send-voice 2 note.m4a -o json',
    'clinic conversations send-voice 2 long-note.ogg --max-kib 0',
  ],
  load: async () => (await import('./send-voice.js')).run,
});

/** `agent status|enable|disable ID`: its run is the export of agent.js named after it. */
const agentVerb = (name: 'status' | 'enable' | 'disable', summary: string) =>
  defineCommand({
    name,
    summary,
    args: idArg('conversation'),
    // status reads; enable and disable print the POST they would send.
    dryRun: name === 'status' ? 'read-only' : 'honoured',
    examples: [`clinic conversations agent ${name} 2`],
    load: async () => (await import('./agent.js'))[name],
  });

const agent = noun({
  name: 'agent',
  summary: 'the AI assistant of a conversation: status, enable, disable',
  description:
    'The AI assistant of a conversation (GET /v1/conversations/{id}/agent, POST .../agent/enable and\n' +
    '.../agent/disable). The shape of its state is not shown in the API document (assumed: printed as sent).' +
    otherwiseWithApi('clinic api /v1/conversations/2/agent'),
  examples: ['clinic conversations agent status 2', 'clinic conversations agent disable 2'],
  commands: [
    agentVerb('status', 'show whether the AI assistant answers in a conversation'),
    agentVerb('enable', 'let the AI assistant answer in a conversation'),
    agentVerb('disable', 'stop the AI assistant answering in a conversation'),
  ],
});

export default noun({
  name: 'conversations',
  summary: 'conversations with patients: messages, voice, AI assistant',
  category: 'Clinic data',
  examples: ['clinic conversations messages 2', 'clinic conversations agent status 2'],
  commands: [messages, message, sendVoice, agent],
});
