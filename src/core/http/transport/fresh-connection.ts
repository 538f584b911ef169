// The transport's fresh-connection request (doctor's probe): one unauthenticated GET, step by step (DNS, TCP, TLS,
// answer), timing each step and saying which one failed. A socket of its own, so the timings are this connection's,
// not a reused one's.
import type { IncomingHttpHeaders, RequestOptions } from 'node:http';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { ACCEPT_IDENTITY } from '../answer-encoding.js';
import { isoTime } from '../../doctor/duration.js';
import { requestFunction } from '../transport.js';
import { describeNetworkError, firstLine } from './describe-error.js';

export type ProbeStage = 'dns' | 'connect' | 'tls' | 'http';

export class ProbeError extends Error {
  override name = 'ProbeError';
  constructor(
    readonly stage: ProbeStage,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface ProbeAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The IP address connected to. */
  address: string;
  dnsMs?: number;
  connectMs?: number;
  tlsMs?: number;
  totalMs: number;
  tls?: { protocol: string | null; validTo?: string; issuer?: string };
  /** Local clock when the request left and when its answer's headers came. */
  sentAt: number;
  answeredAt: number;
}

export interface ProbeOptions {
  timeoutMs: number;
  userAgent: string;
  now(): number;
  /** Aborted on Ctrl-C: the request is dropped at once. */
  signal?: AbortSignal;
}

const TLS_CODES = /^(CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|ERR_TLS_|ERR_SSL_|EPROTO|HOSTNAME_MISMATCH)/;

export async function probe(url: URL, options: ProbeOptions): Promise<ProbeAnswer> {
  const { now } = options;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const started = now();
  let address = host;
  let dnsMs: number | undefined;
  if (isIP(host) === 0) {
    const { lookup } = await import('node:dns/promises');
    try {
      address = (await withTimeout(lookup(host), options.timeoutMs, 'dns', `no DNS answer for ${host}`))
        .address;
    } catch (error) {
      if (error instanceof ProbeError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new ProbeError('dns', `cannot resolve ${host} (${code ?? reasonOf(error)})`, code);
    }
    dnsMs = now() - started;
  }
  const secure = url.protocol === 'https:';
  const request = await requestFunction(url.origin);
  const family = isIP(address);
  // The address found above, so the request does not look the name up again (and DNS is timed once).
  const lookup = (
    _host: string,
    opts: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => (opts.all ? callback(null, [{ address, family }]) : callback(null, address, family));

  return new Promise<ProbeAnswer>((resolve, reject) => {
    const sentAt = now();
    let connectedAt: number | undefined;
    let secureAt: number | undefined;
    let tls: ProbeAnswer['tls'];
    const requestOptions: RequestOptions = {
      method: 'GET',
      // Only the status and headers are read (Node caps those at 16 KiB); the body is dropped unread, and asked
      // for uncompressed all the same.
      headers: { accept: 'application/json', 'user-agent': options.userAgent, ...ACCEPT_IDENTITY },
      agent: false,
      lookup: lookup as RequestOptions['lookup'],
    };
    const req = request(url, requestOptions);
    const timer = setTimeout(() => {
      const seconds = options.timeoutMs / 1000;
      const error =
        connectedAt === undefined
          ? new ProbeError('connect', `no connection to ${url.host} within ${seconds}s`, 'ETIMEDOUT')
          : secure && secureAt === undefined
            ? new ProbeError('tls', `no TLS handshake with ${url.host} within ${seconds}s`, 'ETIMEDOUT')
            : new ProbeError('http', `no answer from ${url.host} within ${seconds}s`, 'ETIMEDOUT');
      req.destroy(error);
    }, options.timeoutMs);
    const interrupt = () => req.destroy(new ProbeError('http', 'interrupted', 'ABORT_ERR'));
    options.signal?.addEventListener('abort', interrupt, { once: true });
    req.once('close', () => options.signal?.removeEventListener('abort', interrupt));
    req.on('socket', (socket) => {
      socket.once('connect', () => (connectedAt = now()));
      socket.once('secureConnect', () => {
        secureAt = now();
        const tlsSocket = socket as TLSSocket;
        const certificate = tlsSocket.getPeerCertificate();
        tls = {
          protocol: tlsSocket.getProtocol(),
          validTo: certificate?.valid_to ? isoTime(Date.parse(certificate.valid_to)) : undefined,
          issuer: firstOf(certificate?.issuer?.O ?? certificate?.issuer?.CN),
        };
      });
    });
    req.on('response', (response) => {
      clearTimeout(timer);
      const answeredAt = now();
      response.resume();
      response.destroy();
      req.destroy();
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        address,
        dnsMs,
        connectMs: connectedAt === undefined ? undefined : connectedAt - sentAt,
        tlsMs: secureAt === undefined || connectedAt === undefined ? undefined : secureAt - connectedAt,
        totalMs: answeredAt - started,
        tls,
        sentAt,
        answeredAt,
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error instanceof ProbeError) return reject(error);
      const code = error.code;
      if (code && TLS_CODES.test(code))
        return reject(
          new ProbeError('tls', `TLS failed with ${url.host}: ${reasonOf(error)} (${code})`, code),
        );
      if (connectedAt === undefined)
        return reject(
          new ProbeError(
            'connect',
            `cannot connect to ${url.host}: ${describeNetworkError(error, 'diagnostic')}`,
            code,
          ),
        );
      reject(
        new ProbeError(
          'http',
          `the connection to ${url.host} failed: ${describeNetworkError(error, 'diagnostic')}`,
          code,
        ),
      );
    });
    req.end();
  });
}

const reasonOf = firstLine;

const firstOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function withTimeout<T>(promise: Promise<T>, ms: number, stage: ProbeStage, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeError(stage, message, 'ETIMEDOUT')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
