// `clinic sandbox start`: a complete local Clinic API; prints one ready JSON line and runs until Ctrl-C/SIGTERM.

import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { parseWholeNumber } from '../../cli/parse-args.js';
import { showRecord } from '../../cli/present.js';
import { checkProfileName } from '../../core/config/config-file.js';
import { parseChatterRate } from './chatter-rate.js';
import { claimProfile, leftAloneNote, type ProfileClaim } from './profile-claim.js';
import type { START_OPTIONS } from './index.js';

/** The handshake line scripts wait for: one JSON object (-o json or ndjson alike). */
const READY_LINE = { formats: ['ndjson'], fields: false } as const;

export interface SandboxStartOptions {
  port: number;
  seed: number;
  records: number;
  rateLimit: number;
  faults?: string;
  /** Milliseconds every API answer waits first; undefined = none. */
  latencyMs?: number;
  /** Generated patient messages per second (fractions allowed); undefined = the sandbox's default (0, none). */
  chatter?: number;
  accessTokenTtl?: number;
  refreshTokenTtl?: number;
  /** Seconds between two steps of a live data-erasure request; undefined = the sandbox's default (30). */
  erasureStepSeconds?: number;
  /** Profile to point at the sandbox; undefined with --no-write-profile. */
  writeProfile?: string;
}

/** Accepts commander's parsed values or plain text alike (the numbers are checked again either way). */
export function parseSandboxOptions(options: Record<string, unknown>): SandboxStartOptions {
  const num = (key: string, flag: string, fallback: number, range: { min?: number; max?: number }) =>
    options[key] === undefined ? fallback : parseWholeNumber(String(options[key]), flag, range);
  const write = options.writeProfile;
  return {
    port: num('port', '--port', 0, { min: 0, max: 65535 }),
    seed: num('seed', '--seed', 1, {}),
    records: num('records', '--records', 40, { min: 0, max: 100_000 }),
    rateLimit: num('rateLimit', '--rate-limit', 60, { min: 0 }),
    faults: typeof options.faults === 'string' ? options.faults : undefined,
    latencyMs:
      options.latency === undefined ? undefined : num('latency', '--latency', 0, { min: 0, max: 60_000 }),
    chatter: options.chatter === undefined ? undefined : parseChatterRate(String(options.chatter)),
    accessTokenTtl:
      options.accessTokenTtl === undefined
        ? undefined
        : num('accessTokenTtl', '--access-token-ttl', 0, { min: 1 }),
    refreshTokenTtl:
      options.refreshTokenTtl === undefined
        ? undefined
        : num('refreshTokenTtl', '--refresh-token-ttl', 0, { min: 1 }),
    erasureStepSeconds:
      options.erasureStep === undefined
        ? undefined
        : num('erasureStep', '--erasure-step', 0, { min: 0, max: 86_400 }),
    writeProfile:
      write === false ? undefined : checkProfileName(typeof write === 'string' ? write : 'sandbox'),
  };
}

export async function startSandboxCommand(options: SandboxStartOptions, ctx: Context): Promise<void> {
  const { startSandbox, parseFaultSpec } = await import('../../sandbox/index.js');
  if (options.faults) {
    try {
      parseFaultSpec(options.faults);
    } catch (error) {
      const { UsageError } = await import('../../core/errors.js');
      throw new UsageError(`--faults: ${(error as Error).message}`);
    }
  }
  await ctx.output(READY_LINE); // an -o it cannot write (csv, table) is refused before the sandbox starts
  const sandbox = await startSandbox({
    port: options.port,
    seed: options.seed,
    records: options.records,
    rateLimit: options.rateLimit,
    faults: options.faults,
    latencyMs: options.latencyMs,
    chatter: options.chatter,
    accessTokenTtl: options.accessTokenTtl,
    refreshTokenTtl: options.refreshTokenTtl,
    erasureStepSeconds: options.erasureStepSeconds,
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    throw new Error(
      `port ${options.port} on 127.0.0.1 is in use; choose another with --port (0 = any free port)`,
    );
  });
  const { info } = sandbox;
  try {
    let claim: ProfileClaim | undefined;
    if (options.writeProfile) {
      const values: Record<string, string | undefined> = {
        base_url: info.base_url,
        auth_url: info.auth_url,
        client_id: info.client_id,
        tenant: info.tenants[0] ? String(info.tenants[0].id) : undefined,
        'realtime.key': info.realtime.key,
        'realtime.host': info.realtime.host,
        'realtime.port': String(info.realtime.port),
        'realtime.tls': String(info.realtime.tls),
        'realtime.auth_endpoint': info.realtime.auth_endpoint,
      };
      claim = await claimProfile(ctx, options.writeProfile, { instance: sandbox.instance, values });
    }
    await showRecord(ctx, info, READY_LINE);
    if (claim?.written === false) ctx.io.err(leftAloneNote(claim, info.base_url));
    const where = claim?.written ? `; profile '${claim.profile}' points at it` : '';
    ctx.io.err(`sandbox ready at ${info.base_url}${where}. Ctrl-C to stop.`);
    // The next step, for whoever just started it (after the line scripts wait for).
    if (claim?.written)
      ctx.io.err(
        `next, in another terminal: clinic --profile ${claim.profile} login (a browser sign-in as a sandbox user), ` +
          `then e.g. clinic --profile ${claim.profile} customers list`,
      );
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await sandbox.close();
  }
  ctx.io.err('sandbox stopped');
}

export const start: CommandRun<typeof START_OPTIONS> = (input, ctx) =>
  startSandboxCommand(parseSandboxOptions(input.options), ctx);
