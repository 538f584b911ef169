// What one doctor check reports, what the checks may use, and what earlier checks learnt for later ones.
import type { StoredCredentials, CredentialStore, StoreKind } from '../auth/credential-store.js';
import type { Session } from '../auth/session.js';
import type { Clock } from '../clock.js';
import type { ConfigData } from '../config/config-file.js';
import type { Env } from '../config/paths.js';
import type { Settings } from '../config/settings.js';
import type { HttpClient } from '../http/client.js';
import type { TenantView } from './account-shape.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  /** A stable id, e.g. `token`; scripts select checks by it. */
  name: string;
  status: CheckStatus;
  /** What was found, in one line. */
  detail: string;
  /** For warn and fail: what to do about it. */
  fix?: string;
  /** The check met a failure that may pass (a 503, a reset, a timeout…): the server's, not the setup's (passing.ts). */
  transient?: boolean;
  /** Facts for scripts (timings, expiry, scopes…), written in the JSON output only. */
  facts?: Record<string, unknown>;
}

/** What the checks use: the command's context fits it (core never imports the CLI layer). */
export interface DoctorDeps {
  readonly env: Env;
  readonly clock: Clock;
  readonly version: string;
  readonly globals: { readonly requestTimeoutMs: number; readonly debug?: boolean };
  /** Aborted on Ctrl-C: the running check stops, and doctor reports the checks done so far. */
  readonly signal?: AbortSignal;
  config(): Promise<ConfigData>;
  settings(): Promise<Settings>;
  session(): Promise<Session>;
  store(kind: StoreKind): CredentialStore;
  http(options?: { auth?: boolean; maxRetries?: number; timeoutMs?: number }): Promise<HttpClient>;
}

/** Facts found by one check that later checks build on (a later check skips, with the reason, when one is missing). */
export interface Findings {
  /** Why the settings are unusable (the config file is unreadable, a value is invalid). */
  settingsBroken?: string;
  settings?: Settings;
  baseUrl?: string;
  /** Why the API cannot be reached (no base_url, DNS, refused, TLS…). */
  unreachable?: string;
  /** The server's `Date` header, and when the probe was sent and answered (local clock, ms). */
  serverDate?: { header: string; sentAt: number; answeredAt: number };
  /** Why the reachability probe got no answer, when that may pass (a reset, a timeout): the API checks still run. */
  probeFailed?: string;
  keychainBroken?: string;
  /** Why no usable token is there (not logged in, expired, refresh failed…). */
  noToken?: string;
  stored?: StoredCredentials;
  accountBroken?: string;
  tenants?: TenantView[];
  /** Headers of the latest answer that carried rate-limit headers. */
  rateHeaders?: Record<string, string>;
  answers: number;
}

export interface Check {
  name: string;
  /** Longest the check may take; past it the check fails with "no result within …" and doctor moves on. */
  limitMs(deps: DoctorDeps): number;
  run(deps: DoctorDeps, found: Findings): Promise<CheckResult>;
}

export const ok = (name: string, detail: string, facts?: Record<string, unknown>): CheckResult => ({
  name,
  status: 'ok',
  detail,
  ...(facts ? { facts } : {}),
});

/** A check that found a problem: `warn` lets doctor pass, `fail` does not; the fix says what to do. */
const finding =
  (status: 'warn' | 'fail') =>
  (name: string, detail: string, fix?: string, facts?: Record<string, unknown>): CheckResult => ({
    name,
    status,
    detail,
    ...(fix ? { fix } : {}),
    ...(facts ? { facts } : {}),
  });

export const warn = finding('warn');
export const fail = finding('fail');

export const skip = (name: string, reason: string): CheckResult => ({
  name,
  status: 'skip',
  detail: `skipped: ${reason}`,
});

/** Per HTTP check: --request-timeout, but never more than this, so doctor never hangs on one check. */
export const HTTP_CHECK_LIMIT_MS = 10_000;

export const httpLimit = (deps: DoctorDeps) => Math.min(deps.globals.requestTimeoutMs, HTTP_CHECK_LIMIT_MS);

/** The client doctor's API checks use: no retries (doctor reports what the server says now), a short deadline. */
export const doctorClient = (deps: DoctorDeps) => deps.http({ maxRetries: 0, timeoutMs: httpLimit(deps) });

/** The first line of an error's message. */
export const reason = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
