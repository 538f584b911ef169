// `clinic chat tail`: live chat events, printed line by line as they arrive (NDJSON, or one human line each).
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { profileCommand } from '../../core/config/settings.js';
import { realtimeTarget } from '../../core/realtime/target.js';
import { type ChatEventKind, shortName, type TailEvent } from '../../core/realtime/events.js';
import { type ListShape, showStream } from '../../cli/present.js';
import { humanLine } from './human-line.js';
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

export async function tailChat(options: TailCommandOptions, ctx: Context): Promise<void> {
  const settings = await ctx.settings();
  const { realtime, authEndpoint } = realtimeTarget(settings);
  const tenant = settings.get('tenant');
  if (!tenant)
    throw new UsageError(
      `chat tail needs a tenant: pass --tenant ID, set CLINIC_TENANT, or run '${profileCommand(settings.profile, 'tenants use ID')}'`,
    );
  const client = await ctx.http();
  const { runChatTail } = await import('../../core/realtime/tail.js');
  await showStream(ctx, TAIL_LIST(ctx), (writer) =>
    runChatTail({
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
      lost: (line) => ctx.io.alert(line),
      print: (event) => writer.write(event),
    }),
  );
}

/** A line per event as it arrives: the human line on a terminal, else an NDJSON object (whole: no --fields). */
const TAIL_LIST = (ctx: Context): ListShape<TailEvent> => ({
  columns: [],
  output: { formats: ['ndjson', 'table'], fields: false },
  live: {
    line: (event, view) => humanLine(event, { ...view, now: ctx.clock.now() }),
    record: (event) => ({ event: shortName(event.kind), source: event.source, data: event.data }),
  },
});

export const run = verb(parse, tailChat);
