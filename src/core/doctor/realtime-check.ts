// The realtime endpoint: connect with pusher-js (loaded only now), authorize the tenant's private chat channel
// through the profile's auth endpoint, and report the subscription.
import { UsageError } from '../errors.js';
import { type Check, type DoctorDeps, doctorClient, fail, ok, reason, skip } from './check.js';
import { humanDuration } from './duration.js';
import { probeUpgrade } from '../http/transport/upgrade.js';
import { isRetryableNetworkCode } from '../http/retry-policy.js';
import { passingFailure, passingResult, passingStatus, plainWords } from './passing.js';

const REALTIME_LIMIT_MS = 10_000;

/** Connecting and authorizing: --request-timeout, but never more than 10 s. */
const realtimeLimit = (deps: DoctorDeps) => Math.min(deps.globals.requestTimeoutMs, REALTIME_LIMIT_MS);

export const realtimeCheck: Check = {
  name: 'realtime',
  limitMs: (deps) => realtimeLimit(deps) + 1000,
  async run(deps, found) {
    const name = 'realtime';
    if (found.settingsBroken || !found.settings) return skip(name, found.settingsBroken ?? 'no profile');
    const settings = found.settings;
    if (!settings.get('realtime.key'))
      return skip(
        name,
        `no realtime settings in profile ${settings.profile.name} (realtime.key, realtime.host…)`,
      );
    const { chatChannel, channelAuthorizer, realtimeAddress, realtimeTarget } =
      await import('../realtime/target.js');
    let target;
    try {
      target = realtimeTarget(settings);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return fail(name, reason(error), 'complete the realtime settings (clinic config list shows them)');
    }
    const tenant = settings.get('tenant');
    if (!tenant) return skip(name, 'no tenant set, so no channel to authorize');
    if (found.noToken) return skip(name, `no usable token to authorize the channel (${found.noToken})`);
    if (found.unreachable)
      return skip(name, `the channel is authorized through the API, and ${found.unreachable}`);
    const address = realtimeAddress(target);
    const channel = chatChannel(tenant);
    const client = await doctorClient(deps);
    const { connectChat } = await import('../realtime/connection.js');
    const started = deps.clock.now();
    const limitMs = realtimeLimit(deps);
    const facts = { url: address, channel, auth_endpoint: target.authEndpoint };
    const settingsFix =
      'check realtime.host, realtime.port, realtime.tls and realtime.key (clinic config list)';
    const authorizing = `authorizing ${channel} (POST ${target.authEndpoint})`;
    const connecting = `connecting to ${address}`;

    return new Promise((resolve) => {
      // connectChat's pusher-js starts connecting as it is made, before any state_change can be heard.
      let lastState = 'connecting';
      let frame: string | undefined;
      /** A frame's code 4100-4299: the server asks to come back later or at once (over capacity, …): may pass. */
      let passingFrame = false;
      /** The channel's authorization request is on its way: past the time limit, it got no answer in time. */
      let inFlight = false;
      let connectedAt: number | undefined;
      const open: { connection?: { disconnect(): void } } = {};
      let settled = false;
      const done = (result: Parameters<typeof resolve>[0]) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        deps.signal?.removeEventListener('abort', interrupted);
        open.connection?.disconnect();
        resolve(result);
      };
      /** The end a frame that may pass (4100-4299) explains, when that is what the server said last. */
      const passingEnd = () =>
        passingFrame && frame
          ? passingResult(name, 'fail', connecting, { what: `the server said ${frame}` }, facts)
          : undefined;
      const interrupted = () => done(fail(name, 'interrupted'));
      deps.signal?.addEventListener('abort', interrupted, { once: true });
      const timer = setTimeout(() => {
        const within = humanDuration(limitMs);
        if (inFlight)
          return done(
            passingResult(name, 'fail', authorizing, { what: `no answer within ${within}` }, facts),
          );
        const frameEnd = passingEnd();
        if (frameEnd) return done(frameEnd);
        const where =
          connectedAt === undefined
            ? `could not connect to ${address}`
            : `connected, but ${channel} was not subscribed`;
        done(
          fail(
            name,
            `${where} within ${within} (state ${lastState}${frame ? `, ${frame}` : ''})`,
            settingsFix,
            facts,
          ),
        );
      }, limitMs);
      const authorize = channelAuthorizer(client, target.authEndpoint, tenant);
      open.connection = connectChat(target.realtime, channel, [], {
        authorize: async (socketId, channelName) => {
          inFlight = true;
          try {
            return await authorize(socketId, channelName);
          } finally {
            inFlight = false;
          }
        },
        state: (current) => {
          lastState = current;
          if (current === 'connected') connectedAt ??= deps.clock.now();
          if (current === 'failed')
            done(fail(name, `cannot connect to ${address}: no usable transport`, settingsFix, facts));
          if (current === 'unavailable')
            done(fail(name, `cannot connect to ${address} (state unavailable)`, settingsFix, facts));
          if (current === 'disconnected')
            done(
              passingEnd() ??
                fail(
                  name,
                  frame
                    ? `the realtime server refused the connection (${frame})`
                    : `${address} closed the connection before ${channel} was subscribed`,
                  settingsFix,
                  facts,
                ),
            );
        },
        error: (code, message) => {
          frame = `${code ?? ''} ${plainWords(message)}`.trim();
          // Pusher's protocol: 4000-4099 never again unchanged (settings), 4100-4199 later, 4200-4299 at once.
          passingFrame = code !== undefined && code >= 4100 && code < 4300;
          if (code !== undefined && code >= 4000 && code < 4100)
            done(fail(name, `the realtime server refused the connection (${frame})`, settingsFix, facts));
        },
        refused: (error) => {
          // The API failed for now (5xx, 429, a reset, a timeout): not the settings, the tenant or the token.
          const passing = passingFailure(error);
          if (passing) return done(passingResult(name, 'fail', authorizing, passing, facts));
          done(
            fail(
              name,
              `connected to ${address}, but authorizing ${channel} failed: ${reason(error)}`,
              `check realtime.auth_endpoint (${target.authEndpoint}), the tenant, and the token's access to it`,
              facts,
            ),
          );
        },
        subscribed: () => {
          const ms = deps.clock.now() - started;
          done(ok(name, `${address}: authorized and subscribed to ${channel} in ${ms} ms`, { ...facts, ms }));
        },
        event: () => {},
      });
      if (settled) open.connection.disconnect(); // settled while connecting
      // pusher-js retries a refused or non-WebSocket answer quietly until it gives up; one handshake of our own
      // says at once what the server does.
      probeUpgrade(address, { timeoutMs: limitMs, signal: deps.signal }).then(
        (verdict) => {
          if (!verdict || verdict.upgraded || connectedAt !== undefined) return;
          // Answered 503 or 429, or reset: the server's moment, not the realtime settings.
          if (
            (verdict.status !== undefined && passingStatus(verdict.status)) ||
            isRetryableNetworkCode(verdict.code)
          )
            return done(
              passingResult(
                name,
                'fail',
                connecting,
                {
                  what: verdict.problem,
                  ...(verdict.status === undefined ? {} : { status: verdict.status }),
                },
                facts,
              ),
            );
          done(fail(name, `cannot connect to ${address}: ${verdict.problem}`, settingsFix, facts));
        },
        // An address the probe cannot even make a request of (a port out of range): the check fails, not the run.
        (error: unknown) =>
          done(fail(name, `cannot connect to ${address}: ${reason(error)}`, settingsFix, facts)),
      );
    });
  },
};
