// `clinic conversations messages ID [--after MESSAGE_ID]`: GET /v1/conversations/{id}/messages, page by page.
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { type ListInput, parseListOptions } from '../../cli/list-options.js';
import { cellText, valueAt } from '../../cli/output/fields.js';
import type { Column } from '../../cli/output/table.js';
import { parseId } from '../../cli/parse-args.js';
import { listPaged } from '../../cli/resource-verbs.js';
import { paths } from '../../core/api/resources.js';
import type { MESSAGES_OPTIONS } from './index.js';

/**
 * The body is the longest and wraps: it narrows first (the time and the sender stay on an 80-column terminal), its
 * lines wrapping, and is dropped last of all.
 */
export const MESSAGE_COLUMNS: Column[] = [
  { header: 'ID', path: 'id', keep: true },
  { header: 'TIME', path: 'created_at', priority: 8 },
  {
    header: 'SENDER',
    path: 'sender_type',
    text: (r: unknown) =>
      `${cellText(valueAt(r, 'sender_type'))} ${cellText(valueAt(r, 'sender_id'))}`.trim(),
    priority: 7,
  },
  { header: 'STATUS', path: 'status', keep: true },
  { header: 'MEDIA', path: 'media_type', priority: 2 },
  { header: 'BODY', path: 'body', priority: 9, min: 20, wrap: true },
];

export interface MessagesOptions {
  conversationId: number;
  after?: number;
  list: ListInput;
}

export function parse({ args, options }: CommandInput<typeof MESSAGES_OPTIONS>): MessagesOptions {
  return {
    conversationId: parseId(args[0] ?? '', 'conversation ID'),
    after: options.after,
    list: parseListOptions(options, { after: '--after' }),
  };
}

export async function listMessages(options: MessagesOptions, ctx: Context): Promise<void> {
  const query: [string, string][] = options.after === undefined ? [] : [['after', String(options.after)]];
  const list = { noun: 'messages', path: paths.messages(options.conversationId), columns: MESSAGE_COLUMNS };
  await listPaged(ctx, list, options.list, query);
}

export const run = verb(parse, listMessages);
