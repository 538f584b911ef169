// Everything a command needs, made in one place; heavy parts (undici, keytar) are built only when asked for.
import type { Dispatcher } from 'undici';
import type { CredentialStore, StoreKind } from '../core/auth/credential-store.js';
import { FileStore } from '../core/auth/file-store.js';
import { KeychainStore, type KeytarLoader } from '../core/auth/keychain-store.js';
import { Session } from '../core/auth/session.js';
import { type Clock, systemClock } from '../core/clock.js';
import { type ConfigData, loadConfig } from '../core/config/config-file.js';
import type { OutputFormat } from '../core/config/keys.js';
import { credentialsFile, type Env } from '../core/config/paths.js';
import { Settings, selectProfile } from '../core/config/settings.js';
import { UsageError } from '../core/errors.js';
import { HttpClient } from '../core/http/client.js';
import type { GlobalOptions } from './globals.js';
import { IO, type Streams } from './io.js';
import type { OutputSpec } from './output/render.js';
import { cliVersion } from './version.js';

export interface ContextDeps {
  streams: Streams;
  env: Env;
  clock?: Clock;
  /** An undici dispatcher (tests pass a MockAgent); by default one keep-alive Agent. */
  dispatcher?: Dispatcher;
  keytar?: KeytarLoader;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
}

export interface Context {
  readonly io: IO;
  readonly env: Env;
  readonly clock: Clock;
  readonly globals: GlobalOptions;
  readonly signal: AbortSignal;
  readonly version: string;
  config(): Promise<ConfigData>;
  settings(): Promise<Settings>;
  session(): Promise<Session>;
  store(kind: StoreKind): CredentialStore;
  http(options?: { auth?: boolean }): Promise<HttpClient>;
  output(): Promise<OutputSpec>;
  /** The format the user chose (flag, env or profile), once resolved: errors are then also written as JSON. */
  readonly chosenFormat?: OutputFormat;
  /** Drops cached config after a command changed it. */
  reload(): void;
  close(): Promise<void>;
}

export function createContext(deps: ContextDeps, globals: GlobalOptions): Context {
  const io = new IO(deps.streams, { colourAllowed: globals.colour, inputAllowed: globals.input });
  const clock = deps.clock ?? systemClock;
  const signal = deps.signal ?? new AbortController().signal;
  let config: Promise<ConfigData> | undefined;
  let session: Session | undefined;
  let dispatcher: Dispatcher | undefined = deps.dispatcher;
  const stores = new Map<StoreKind, CredentialStore>();

  const ctx: Context = {
    io,
    env: deps.env,
    clock,
    globals,
    signal,
    version: cliVersion(),
    config: () => {
      config ??= loadConfig(deps.env);
      return config;
    },
    async settings() {
      const data = await ctx.config();
      const flags = { base_url: globals.baseUrl, tenant: globals.tenant, output: globals.output };
      return new Settings(selectProfile(globals.profile, deps.env, data), data, deps.env, flags);
    },
    store(kind) {
      let store = stores.get(kind);
      if (!store) {
        store = kind === 'file' ? new FileStore(credentialsFile(deps.env)) : new KeychainStore(deps.keytar);
        stores.set(kind, store);
      }
      return store;
    },
    async session() {
      session ??= new Session(await ctx.settings(), deps.env, (kind) => ctx.store(kind), clock);
      return session;
    },
    async http({ auth = true } = {}) {
      const settings = await ctx.settings();
      const baseUrl = settings.get('base_url');
      if (!baseUrl) {
        throw new UsageError(
          `no API address for profile '${settings.profile.name}': start one with 'clinic sandbox start' and use ` +
            `--profile sandbox, or run 'clinic config set base_url URL'`,
        );
      }
      if (!dispatcher) {
        const { Agent } = await import('undici');
        dispatcher = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 8 });
      }
      return new HttpClient({
        baseUrl,
        tenant: settings.get('tenant'),
        userAgent: `clinic/${ctx.version}`,
        tokens: auth ? await ctx.session() : undefined,
        dispatcher,
        clock,
        signal,
        maxRetries: globals.maxRetries,
        trace: globals.debug ? (line) => io.err(`debug: ${line}`) : undefined,
        notice: (line) => io.err(line),
      });
    },
    async output() {
      const settings = await ctx.settings();
      const configured = settings.get('output') as OutputFormat | undefined;
      (ctx as { chosenFormat?: OutputFormat }).chosenFormat = configured;
      return {
        format: configured ?? (io.stdoutIsTTY ? 'table' : 'json'),
        fields: globals.fields,
        colour: io.colour,
        width: io.columns,
      };
    },
    reload() {
      config = undefined;
      session = undefined;
    },
    async close() {
      if (dispatcher && dispatcher !== deps.dispatcher) await dispatcher.close();
    },
  };
  return ctx;
}
