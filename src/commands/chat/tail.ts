// `clinic chat tail`: live chat events, delivered one by one as they arrive: printed (NDJSON, or one human line
// each), or POSTed to --forward-to; with --checkpoint, each conversation's last delivered id is kept for a restart.
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { CancelledError, UsageError } from '../../core/errors.js';
import { profileCommand } from '../../core/config/settings.js';
import { realtimeTarget } from '../../core/realtime/target.js';
import {
  type ChatEventKind,
  conversationOf,
  eventRecord,
  type TailEvent,
} from '../../core/realtime/events.js';
import { forwardUrl } from '../../core/realtime/forward-url.js';
import type { Checkpoint } from '../../core/realtime/checkpoint.js';
import type { TailOptions } from '../../core/realtime/tail.js';
import { type ListShape, showStream } from '../../cli/present.js';
import { humanLine } from './human-line.js';
import type { TAIL_OPTIONS } from './index.js';

export interface TailCommandOptions {
  conversations?: Set<number>;
  since?: number;
  kinds: ChatEventKind[];
  timeoutMs?: number;
  reconnectTimeoutMs: number;
  checkpoint?: string;
  forwardTo?: URL;
  forwardSecret?: string;
}

export function parse({ options }: CommandInput<typeof TAIL_OPTIONS>): TailCommandOptions {
  if (options.since !== undefined && !options.conversation?.length)
    throw new UsageError('--since needs --conversation ID: the conversations to print from');
  if (options.forwardSecret !== undefined && options.forwardTo === undefined)
    throw new UsageError('--forward-secret goes with --forward-to URL: the endpoint it signs for');
  return {
    conversations: options.conversation?.length ? new Set(options.conversation) : undefined,
    since: options.since,
    kinds: options.events ?? ['created'],
    timeoutMs: options.timeout === undefined ? undefined : options.timeout * 1000,
    reconnectTimeoutMs: (options.reconnectTimeout ?? 120) * 1000,
    checkpoint: options.checkpoint,
    // Checked here, before anything is read or connected: exit 2 in one line.
    forwardTo: options.forwardTo === undefined ? undefined : forwardUrl(options.forwardTo),
    forwardSecret: options.forwardSecret,
  };
}

type TailRun = Omit<TailOptions, 'print' | 'resume' | 'dropped' | 'seen' | 'resumedLower'>;

/** NDJSON, or a human line each on a terminal; whole events (no --fields). */
const TAIL_OUTPUT = { formats: ['ndjson', 'table'], fields: false } as const;

export async function tailChat(options: TailCommandOptions, ctx: Context): Promise<void> {
  await ctx.output(TAIL_OUTPUT); // an -o it cannot write (csv) is refused before anything is read or connected
  const settings = await ctx.settings();
  const { realtime, authEndpoint } = realtimeTarget(settings);
  const tenant = settings.get('tenant');
  if (!tenant)
    throw new UsageError(
      `chat tail needs a tenant: pass --tenant ID, set CLINIC_TENANT, or run '${profileCommand(settings.profile, 'tenants use ID')}'`,
    );
  const client = await ctx.http();
  const { runChatTail } = await import('../../core/realtime/tail.js');
  const tail: TailRun = {
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
  };
  const deliverWith = async (checkpoint?: Checkpoint) => {
    /** Before a delivery: the checkpoint file knows the event's conversation (a crash then loses none of it). */
    const known = async (event: TailEvent) => {
      const conversation = conversationOf(event);
      if (checkpoint && conversation !== undefined) await checkpoint.recorded(conversation);
    };
    /** After a delivery (printed, or accepted or refused for good by the endpoint): the checkpoint moves on. */
    const delivered = (event: TailEvent) => {
      if (checkpoint?.error) throw checkpoint.error;
      const conversation = conversationOf(event);
      if (checkpoint && event.kind === 'created' && conversation !== undefined)
        checkpoint.delivered(conversation, event.data.id as number);
    };
    // A conversation named with --since is in the checkpoint from the start: a crash before its first delivery
    // still resumes from there.
    if (checkpoint && options.since !== undefined)
      for (const id of options.conversations ?? [])
        if (!checkpoint.positions().has(id)) checkpoint.delivered(id, options.since);
    const resume = checkpoint?.positions();
    const seen = checkpoint && ((conversation: number, id: number) => checkpoint.seen(conversation, id));
    // A conversation that can no longer be read leaves the checkpoint: a restart does not ask for it again.
    const forgotten = checkpoint && ((conversation: number) => checkpoint.forget(conversation));
    // A conversation whose server's ids went below its checkpoint goes on from there, in the file too.
    const resumedLower =
      checkpoint && ((conversation: number, after: number) => checkpoint.resumeAfter(conversation, after));
    /** The tail, each event delivered by `deliver` between the checkpoint's two steps, until stopped. */
    const runWith = (
      deliver: (event: TailEvent, ending: AbortSignal) => Promise<void>,
      extra: Pick<TailOptions, 'dropped'> = {},
    ) =>
      untilStopped(
        ctx,
        runChatTail({
          ...tail,
          resume,
          seen,
          forgotten,
          resumedLower,
          ...extra,
          print: async (event, ending) => {
            await known(event);
            await deliver(event, ending);
            delivered(event);
          },
        }),
      );
    if (options.forwardTo) {
      const { startForwarding } = await import('./forwarding.js');
      const forwarding = await startForwarding(ctx, {
        url: options.forwardTo,
        secret: options.forwardSecret,
        tenant,
        checkpoint: checkpoint && resume && { path: checkpoint.path, start: resume },
      });
      try {
        await runWith((event, ending) => forwarding.deliver(event, ending), {
          dropped: (event) => forwarding.dropped(event),
        });
      } finally {
        forwarding.report();
      }
      return;
    }
    await showStream(ctx, TAIL_LIST(ctx, options.since !== undefined), (writer) =>
      runWith((event) => writer.write(event)),
    );
  };
  if (options.checkpoint === undefined) return deliverWith();
  const { withCheckpoint } = await import('../../core/realtime/checkpoint.js');
  const owner = { tenant, base_url: settings.get('base_url') as string };
  await withCheckpoint(options.checkpoint, owner, deliverWith, {
    forgetting: (conversation, limit) =>
      ctx.io.alert(
        `warning: the checkpoint keeps ${limit.toLocaleString('en')} conversations: conversation ${conversation}, ` +
          'the least recently delivered to, is forgotten (a restart no longer fills what it receives while no tail ' +
          'runs); name the conversations that matter with --conversation',
      ),
  });
}

/**
 * The tail's run, ended by SIGTERM (`systemctl stop`, `docker stop`) as by --timeout: a service's normal stop, exit 0
 * with what was delivered flushed and checkpointed. Ctrl-C (SIGINT) stays an interruption (exit 130).
 */
async function untilStopped(ctx: Context, run: Promise<void>): Promise<void> {
  try {
    await run;
  } catch (error) {
    const signal = (ctx.signal.reason as { signal?: string } | undefined)?.signal;
    if (!(error instanceof CancelledError && signal === 'SIGTERM')) throw error;
    ctx.io.err('stopped (SIGTERM)');
  }
}

/**
 * A line per event as it arrives: the human line on a terminal, else an NDJSON object (whole: no --fields). `dated`:
 * history is shown (--since), so every line's time carries room for a date.
 */
const TAIL_LIST = (ctx: Context, dated: boolean): ListShape<TailEvent> => ({
  columns: [],
  output: TAIL_OUTPUT,
  live: {
    line: (event, view) => humanLine(event, { ...view, now: ctx.clock.now(), dated }),
    record: eventRecord,
  },
});

export const run = verb(parse, tailChat);
