// `clinic erasure watch ID`: polls until a terminal status, printing each change with its time: the server's (the
// request's updated_at), else the time this poll saw it.
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import type { LineView } from '../../cli/output/render.js';
import { sanitize } from '../../cli/output/sanitize.js';
import { parseId } from '../../cli/parse-args.js';
import { showStream } from '../../cli/present.js';
import { type ErasureRequest, getErasureRequest, TERMINAL_STATUSES } from '../../core/api/erasure.js';
import { ApiError, CancelledError, NetworkError, OutcomeError } from '../../core/errors.js';
import type { WATCH_OPTIONS } from './index.js';

export interface WatchOptions {
  id: number;
  intervalMs: number;
  timeoutMs?: number;
}

export function parse({ args, options }: CommandInput<typeof WATCH_OPTIONS>): WatchOptions {
  return {
    id: parseId(args[0] ?? '', 'erasure request ID'),
    intervalMs: (options.interval ?? 5) * 1000,
    timeoutMs: options.timeout === undefined ? undefined : options.timeout * 1000,
  };
}

/** Faults worth waiting out while polling: the network, server errors, rate limits. */
const isTransient = (error: unknown) =>
  error instanceof NetworkError ||
  (error instanceof ApiError && (error.status >= 500 || error.status === 429));

interface StatusChange {
  /** When this poll saw the status. */
  time: string;
  id: number;
  status: string;
  /** When the server says the request last changed (its updated_at), where that is a time. */
  changed_at?: string;
}

/**
 * Tables would wait for the end: a human gets one line per change as it happens instead, at local time: the server's
 * time of the change, which a poll sees up to --interval later.
 */
function changeLine(change: StatusChange, { times }: LineView): string {
  const ms = Date.parse(change.changed_at ?? change.time);
  times.shown(ms);
  return `${times.at(ms)}  erasure request ${change.id}  ${sanitize(change.status)}`;
}

export async function watchErasure(options: WatchOptions, ctx: Context): Promise<void> {
  const { clock } = ctx;
  const client = await ctx.http();
  const started = clock.now();
  const deadline = options.timeoutMs === undefined ? undefined : started + options.timeoutMs;
  let last: string | undefined;
  await showStream(ctx, { columns: [], live: { line: changeLine } }, async (writer) => {
    for (;;) {
      let request: ErasureRequest | undefined;
      try {
        request = await getErasureRequest(client, options.id);
      } catch (error) {
        if (!isTransient(error)) throw error;
        ctx.io.err(`warning: ${sanitize((error as Error).message)}; still watching`);
      }
      if (request && request.status !== last) {
        last = request.status;
        const change: StatusChange = {
          time: new Date(clock.now()).toISOString(),
          id: options.id,
          status: last,
        };
        const changedAt = serverTime(request.updated_at);
        if (changedAt !== undefined) change.changed_at = changedAt;
        await writer.write(change);
        if ((TERMINAL_STATUSES as readonly string[]).includes(last)) break;
      }
      if (deadline !== undefined && clock.now() >= deadline) {
        throw new OutcomeError(
          `gave up after ${Math.round((clock.now() - started) / 1000)}s: erasure request ${options.id} is ` +
            `still ${sanitize(last ?? 'unknown')}`,
        );
      }
      const wait =
        deadline === undefined ? options.intervalMs : Math.min(options.intervalMs, deadline - clock.now());
      await clock.sleep(wait, ctx.signal).catch(() => {
        throw new CancelledError('interrupted');
      });
    }
  });
  if (last !== 'completed')
    throw new OutcomeError(
      `erasure request ${options.id} ended ${sanitize(last ?? 'unknown')}, not completed`,
    );
  ctx.io.err(`erasure request ${options.id} completed`);
}

export const run = verb(parse, watchErasure);

/** A server's timestamp as an ISO instant, or undefined for anything that is not one (a hostile or missing value). */
function serverTime(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 64) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}
