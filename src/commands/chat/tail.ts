// `clinic chat tail`: live chat events, printed line by line as they arrive (NDJSON, or one human line each).
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { sanitize } from '../../cli/output/sanitize.js';
import { UsageError } from '../../core/errors.js';
import { realtimeTarget } from '../../core/realtime/target.js';
import { type ChatEventKind, shortName, type TailEvent } from '../../core/realtime/events.js';
import type { TAIL_OPTIONS } from './index.js';

export interface TailCommandOptions {
  conversations?: Set<number>;
  since?: number;
  kinds: ChatEventKind[];
  timeoutMs?: number;
  reconnectTimeoutMs: number;
}

export function parse({ options }: CommandInput<typeof TAIL_OPTIONS>): TailCommandOptions {
  if (options.since !== undefined && !options.conversation?.length)
    throw new UsageError('--since needs --conversation ID: the conversations to print from');
  return {
    conversations: options.conversation?.length ? new Set(options.conversation) : undefined,
    since: options.since,
    kinds: options.events ?? ['created'],
    timeoutMs: options.timeout === undefined ? undefined : options.timeout * 1000,
    reconnectTimeoutMs: (options.reconnectTimeout ?? 120) * 1000,
  };
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** One human line: time, conversation, sender, status, body, cut to the terminal's width. */
export function humanLine(event: TailEvent, width: number, now: Date): string {
  const { data } = event;
  let line: string;
  if (event.kind === 'created') {
    const time = text(data.created_at).slice(11, 19) || now.toISOString().slice(11, 19);
    const sender = `${text(data.sender_type)}${data.sender_id === undefined ? '' : ` ${text(data.sender_id)}`}`;
    const fill = event.source === 'rest' ? ' (missed)' : '';
    const media = data.media_type ? `[${text(data.media_type)}] ` : '';
    line = `${time}  #${text(data.conversation_id)}  ${sender}  ${text(data.status)}${fill}  ${media}${text(data.body)}`;
  } else if (event.kind === 'deleted') {
    const by = data.deletedByUserName ? ` by ${text(data.deletedByUserName)}` : '';
    line = `${now.toISOString().slice(11, 19)}  #${text(data.conversationId)}  message ${text(data.chatLogId)} deleted${by}`;
  } else {
    line = `${now.toISOString().slice(11, 19)}  #${text(data.conversation_id)}  read`;
  }
  const clean = sanitize(line);
  return clean.length > width ? `${clean.slice(0, Math.max(1, width - 1))}…` : clean;
}

export async function tailChat(options: TailCommandOptions, ctx: Context): Promise<void> {
  const settings = await ctx.settings();
  const { realtime, authEndpoint } = realtimeTarget(settings);
  const tenant = settings.get('tenant');
  if (!tenant)
    throw new UsageError(
      "chat tail needs a tenant: pass --tenant ID, set CLINIC_TENANT, or run 'clinic tenants use ID'",
    );
  const client = await ctx.http();
  const human = (await ctx.output()).format === 'table';
  const { runChatTail } = await import('../../core/realtime/tail.js');
  await runChatTail({
    client,
    clock: ctx.clock,
    signal: ctx.signal,
    realtime,
    authEndpoint,
    tenant,
    kinds: options.kinds,
    conversations: options.conversations,
    since: options.since,
    timeoutMs: options.timeoutMs,
    reconnectTimeoutMs: options.reconnectTimeoutMs,
    status: (line) => ctx.io.err(line),
    print: (event) =>
      ctx.io.write(
        human
          ? `${humanLine(event, ctx.io.columns, new Date(ctx.clock.now()))}\n`
          : `${JSON.stringify({ event: shortName(event.kind), source: event.source, data: event.data })}\n`,
      ),
  });
}

export const run = verb(parse, tailChat);
