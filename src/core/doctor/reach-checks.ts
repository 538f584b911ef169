// base_url reachable (DNS, TCP, TLS, latency), then the local clock against the server's `Date`.
import { redactUrl } from '../redact.js';
import { type Check, fail, ok, skip, warn } from './check.js';
import { humanDuration, relative } from './duration.js';
import { probe, ProbeError } from '../http/transport/fresh-connection.js';
import { classifySkew, describeSkew, measureSkew } from './skew.js';
import { isRetryableNetworkCode } from '../http/retry-policy.js';
import { parseRetryAfter } from '../http/parse-error.js';
import { passingResult, passingStatus, plainWords, usableRetryAfter, whose } from './passing.js';

/** Slower than this to answer: warn (every command will feel it). */
const SLOW_MS = 2000;
/** A certificate running out within this: warn. */
const CERT_WARN_MS = 14 * 24 * 3600_000;

const PROBE_PATH = '/v1/account';

export const baseUrlCheck: Check = {
  name: 'base-url',
  limitMs: (deps) => Math.min(deps.globals.requestTimeoutMs, 10_000) + 1000,
  async run(deps, found) {
    const name = 'base-url';
    if (found.settingsBroken) return skip(name, found.settingsBroken);
    if (!found.baseUrl) return skip(name, found.unreachable ?? 'no base_url is set');
    const base = new URL(found.baseUrl);
    const target = new URL(`${found.baseUrl.replace(/\/+$/, '')}${PROBE_PATH}`);
    let answer;
    try {
      answer = await probe(target, {
        timeoutMs: Math.min(deps.globals.requestTimeoutMs, 10_000),
        userAgent: `clinic/${deps.version} (doctor)`,
        now: () => deps.clock.now(),
        signal: deps.signal,
      });
    } catch (error) {
      const stage = error instanceof ProbeError ? error.stage : 'http';
      const code = error instanceof ProbeError ? error.code : undefined;
      const message = error instanceof Error ? error.message : String(error);
      const facts = { url: found.baseUrl, stage };
      // Connected, then reset or left without an answer in time: the server's moment, not base_url. The API checks
      // still run (their own requests may well be answered); only the clock has no server time to go by.
      if (stage === 'http' && isRetryableNetworkCode(code)) {
        const what = plainWords(message.replace(/^the connection to \S+ failed: /, ''));
        found.probeFailed = `the probe of ${base.host} failed for a moment (${what})`;
        return passingResult(name, 'fail', `GET ${PROBE_PATH} at ${base.host}`, { what }, facts);
      }
      found.unreachable = `${base.host} cannot be reached`;
      return fail(name, message, fixFor(stage, code, base), facts);
    }
    const facts = {
      url: found.baseUrl,
      address: answer.address,
      http_status: answer.status,
      dns_ms: answer.dnsMs ?? null,
      connect_ms: answer.connectMs ?? null,
      tls_ms: answer.tlsMs ?? null,
      total_ms: answer.totalMs,
      tls_protocol: answer.tls?.protocol ?? null,
      certificate_valid_to: answer.tls?.validTo ?? null,
    };
    const date = answer.headers.date;
    if (date) found.serverDate = { header: date, sentAt: answer.sentAt, answeredAt: answer.answeredAt };
    const steps = [
      answer.dnsMs === undefined ? 'IP address, no DNS' : `DNS ${answer.dnsMs} ms`,
      `connect ${answer.connectMs ?? '?'} ms`,
    ];
    if (answer.tls) {
      const validTo = answer.tls.validTo ? Date.parse(answer.tls.validTo) : Number.NaN;
      steps.push(
        `${answer.tls.protocol ?? 'TLS'} ${answer.tlsMs ?? '?'} ms` +
          (Number.isNaN(validTo) ? '' : `, certificate expires ${relative(validTo, deps.clock.now())}`),
      );
      if (!Number.isNaN(validTo) && validTo - deps.clock.now() < CERT_WARN_MS)
        return warn(
          name,
          `${base.host}'s TLS certificate expires ${relative(validTo, deps.clock.now())}`,
          "tell the API's operators: once it expires, no command can connect",
          facts,
        );
    } else steps.push('plain http, allowed on a loopback address only');
    const summary = `${base.origin} answered HTTP ${answer.status} in ${answer.totalMs} ms (${steps.join(', ')})`;
    if (answer.status >= 300 && answer.status < 400) {
      // Redacted as the HTTP client does: a redirect may carry a token or a password in its address.
      const location = answer.headers.location ? redactUrl(answer.headers.location) : '?';
      return warn(
        name,
        `${base.origin} redirects ${PROBE_PATH} to ${location}; clinic never follows redirects`,
        'set base_url to the address it redirects to (clinic config set base_url URL)',
        facts,
      );
    }
    if (answer.status === 404)
      return warn(
        name,
        `${summary}, but ${PROBE_PATH} is not there`,
        `check base_url (${found.baseUrl}): it should be the API base, ending in /api`,
        facts,
      );
    // Reached (DNS, connect, TLS all done), but the server answered with a failure that may pass (5xx, 429, 408).
    if (passingStatus(answer.status)) {
      const retryAfter = usableRetryAfter(parseRetryAfter(answer.headers['retry-after'], deps.clock.now()));
      const passing = {
        what: `HTTP ${answer.status}`,
        status: answer.status,
        ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
      };
      // A warning: the way there works, and the API checks below say whether the API does.
      return {
        ...passingResult(name, 'warn', `GET ${PROBE_PATH}`, passing, facts),
        detail: `${summary}: a failure that may pass (${whose(passing)})`,
      };
    }
    if (answer.status === 511)
      return warn(
        name,
        `${summary}: the network asks to be signed in to (a captive portal)`,
        'sign in to the network (open any web page in a browser), then run doctor again',
        facts,
      );
    if (answer.status >= 500)
      return warn(
        name,
        `${summary}: a server that does not do this request`,
        `check that base_url (${found.baseUrl}) is the Clinic API, ending in /api`,
        facts,
      );
    if (answer.totalMs > SLOW_MS)
      return warn(
        name,
        `${summary}: slow (${humanDuration(answer.totalMs)})`,
        'check the network, VPN or proxy',
        facts,
      );
    return ok(name, summary, facts);
  },
};

function fixFor(stage: ProbeError['stage'], code: string | undefined, base: URL): string {
  switch (stage) {
    case 'dns':
      return `check the host name in base_url (${base.hostname}), your DNS and VPN`;
    case 'connect':
      if (code === 'ECONNREFUSED')
        return `nothing listens at ${base.host}: start the server (clinic sandbox start for the sandbox) or correct base_url`;
      return 'check the network, firewall or proxy; on a slow link raise --request-timeout';
    case 'tls':
      return (
        "the server's certificate is not trusted here: check the clock (clock-skew below), and for a private CA " +
        'set NODE_EXTRA_CA_CERTS=/path/to/ca.pem'
      );
    default:
      return 'check base_url and the network; --debug shows each exchange';
  }
}

export const clockSkewCheck: Check = {
  name: 'clock-skew',
  limitMs: () => 1000,
  async run(deps, found) {
    const name = 'clock-skew';
    if (!found.serverDate) {
      if (found.settingsBroken || found.unreachable || found.probeFailed)
        return skip(
          name,
          found.settingsBroken ??
            found.unreachable ??
            `no server time to compare with: ${found.probeFailed ?? ''}`,
        );
      return warn(
        name,
        'the server sent no Date header; cannot compare clocks',
        'make sure the clock is synced (NTP)',
      );
    }
    const { header, sentAt, answeredAt } = found.serverDate;
    const skew = measureSkew(header, sentAt, answeredAt);
    if (!skew)
      return warn(name, `the server's Date header is not a date`, 'make sure the clock is synced (NTP)');
    const status = classifySkew(skew.skewMs);
    const detail = describeSkew(skew, humanDuration);
    const facts = { skew_ms: skew.skewMs, server_date: header };
    if (status === 'ok') return ok(name, detail, facts);
    const sync =
      'sync the system clock (Linux: timedatectl set-ntp true; macOS and Windows: set time automatically)';
    if (status === 'warn') return warn(name, detail, sync, facts);
    return fail(name, `${detail}: token expiry and refresh go wrong this far off`, sync, facts);
  },
};
