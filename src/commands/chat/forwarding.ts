// `chat tail --forward-to`: the secret said once, each event POSTed by the forwarder with its stable id, a line per
// delivery on a terminal, and at the end what was not forwarded.
import type { Context } from '../../cli/context.js';
import { CancelledError } from '../../core/errors.js';
import { conversationOf, type TailEvent } from '../../core/realtime/events.js';
import { eventBody, eventId, ReadPoints } from '../../core/realtime/forward-signature.js';
import { forwardSecret } from '../../core/realtime/forward-secret.js';
import { Forwarder } from '../../core/realtime/forwarder.js';
import { redactUrl, registerSecret } from '../../core/redact.js';
import { ForwardHealth } from './forward-health.js';

export interface ForwardingOptions {
  url: URL;
  /** --forward-secret (CLINIC_FORWARD_SECRET is read from the context's environment). */
  secret?: string;
  tenant: string;
  /** The checkpoint file: a generated secret is kept beside it, and its resume points seed the read events' ids. */
  checkpoint?: { path: string; start: ReadonlyMap<number, number> };
}

export interface Forwarding {
  /** Forwards one event; throws CancelledError when the tail ended before the endpoint accepted it. */
  deliver(event: TailEvent, ending: AbortSignal): Promise<void>;
  /** A deleted or read event let go while the endpoint was behind: named on stderr, whatever --quiet says. */
  dropped(event: TailEvent): void;
  /** After the run: says how many events in hand were not forwarded. */
  report(): void;
}

export async function startForwarding(ctx: Context, options: ForwardingOptions): Promise<Forwarding> {
  const { io } = ctx;
  const secret = await forwardSecret({
    flag: options.secret,
    env: ctx.env.CLINIC_FORWARD_SECRET,
    checkpoint: options.checkpoint?.path,
    notice: (line) => io.alert(line),
  });
  if (secret.from === 'generated') {
    // Said even with --quiet: without it the endpoint cannot verify a single event. Said once: kept beside the
    // checkpoint, later runs use it without showing it again.
    const kept = secret.file
      ? `kept in ${secret.file} for the next runs`
      : 'a new one each run: set CLINIC_FORWARD_SECRET, or use --checkpoint to keep one';
    io.alert(`forward secret: ${secret.value} (the endpoint verifies Clinic-Signature with it; ${kept})`);
  } else if (secret.from === 'kept') io.err(`signing with the forward secret kept in ${secret.file}`);
  registerSecret(secret.value); // from now on never shown again, whatever echoes it

  const { tenant } = options;
  /** Each conversation's last message forwarded: a read event's id says up to where it was read. */
  const lastMessage = new ReadPoints(options.checkpoint?.start);
  const times = (ms: number) =>
    ctx.globals.utc ? new Date(ms).toISOString().slice(11, 19) : new Date(ms).toTimeString().slice(0, 8);
  // The endpoint's address may carry a credential of its own (`?token=`): shown as every traced URL is, redacted.
  const where = redactUrl(options.url.href);
  // An endpoint that cannot work as it is (a host not found, https to a plain-http server) is said once, with --quiet.
  const health = new ForwardHealth({ where, clock: ctx.clock, alert: (line) => io.alert(line) });
  const forwarder = new Forwarder({
    transport: health.watch(await ctx.transport()),
    url: options.url,
    secret: secret.value,
    clock: ctx.clock,
    userAgent: `clinic/${ctx.version}`,
    timeoutMs: ctx.globals.requestTimeoutMs,
    trace: ctx.trace,
    accepted: (id, status, ms) => {
      health.reached();
      // A line per delivery for a person watching; a service's log gets the retries and refusals only.
      if (io.stderrIsTTY) io.err(`${times(ctx.clock.now())}  ${id}  -> ${status} (${Math.round(ms)} ms)`);
    },
    retrying: (wait) => {
      const watcher = io.showWait(wait);
      health.retrying(); // its alert, once, after the first retry's line
      return watcher;
    },
    refused: (line) => {
      health.reached();
      io.alert(`warning: ${line}`);
    },
  });
  io.err(`forwarding to ${where}`);
  let notForwarded = 0;
  const idOf = (event: TailEvent) => {
    const conversation = conversationOf(event);
    return eventId(event, tenant, conversation === undefined ? undefined : lastMessage.get(conversation));
  };
  return {
    async deliver(event, ending) {
      const id = idOf(event);
      try {
        await forwarder.forward(id, eventBody(event), ending);
      } catch (error) {
        if (error instanceof CancelledError) notForwarded++;
        throw error;
      }
      const conversation = conversationOf(event);
      if (event.kind === 'created' && conversation !== undefined && typeof event.data.id === 'number')
        lastMessage.forwarded(conversation, event.data.id);
    },
    dropped(event) {
      io.alert(
        `dropped ${idOf(event)}: the endpoint is behind and the queue is full (REST cannot fetch deleted and read events again)`,
      );
    },
    report() {
      if (notForwarded === 0) return;
      const again = options.checkpoint
        ? '; the next run with this --checkpoint forwards the messages among them again'
        : '';
      io.alert(
        `${notForwarded} event${notForwarded === 1 ? ' was' : 's were'} not forwarded: the tail ended before the endpoint accepted ${notForwarded === 1 ? 'it' : 'them'}${again}`,
      );
    },
  };
}
