// Everything a command needs, made in one place; heavy parts (the HTTP transport, keytar) are built only when asked for.
import type { HttpTransport } from '../core/http/transport.js';
import type { CredentialStore, StoreKind } from '../core/auth/credential-store.js';
import { FileStore } from '../core/auth/file-store.js';
import { KeychainStore, type KeytarLoader } from '../core/auth/keychain-store.js';
import type { Configuration } from 'openid-client';
import type { BrowserOpener } from '../core/auth/oauth/browser.js';
import { browserCanOpen } from '../core/auth/oauth/browser-can-open.js';
import { loginCommand, Session } from '../core/auth/session.js';
import { type Clock, systemClock } from '../core/clock.js';
import {
  type ConfigData,
  editConfigFile,
  loadConfig,
  type Profile,
  updateProfile,
} from '../core/config/config-file.js';
import { oauthClientSettings } from '../core/auth/oauth/client-settings.js';
import { credentialsFile, type Env, rateLimitFile, signInLock } from '../core/config/paths.js';
import { profileCommand, Settings, selectProfile } from '../core/config/settings.js';
import type { SettingValues } from '../core/config/keys.js';
import { UsageError } from '../core/errors.js';
import { HttpClient } from '../core/http/client.js';
import { collectYoungWhenFull } from '../core/memory.js';
import type { GlobalOptions } from './globals.js';
import { DEFAULT_WIDTH, IO, type Streams, widthAsked } from './io.js';
import { type Prompter, terminalPrompter } from './prompter.js';
import { decideFormat, knownFormat, type OutputRequest, refusedFormat } from './output/format.js';
import type { OutputSpec } from './output/render.js';
import { HumanTimes } from './output/time.js';
import { cliVersion } from './version.js';
import { SharedPacer } from '../core/http/pacers.js';
import { locksReleased } from '../core/lock.js';

export interface ContextDeps {
  streams: Streams;
  env: Env;
  clock?: Clock;
  /** The HTTP transport for the API and OAuth (tests pass a fake); by default node:http with keep-alive. */
  transport?: HttpTransport;
  keytar?: KeytarLoader;
  browser?: BrowserOpener;
  prompter?: Prompter;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
  /**
   * Told when Ctrl-C was typed at a question (read as a key in raw mode, so no SIGINT reached anyone): bin then ends
   * the run as the terminal would have, by SIGINT to its process group, so a shell loop running it stops too.
   */
  ctrlCTyped?: () => void;
  /**
   * Hands bin what to do if it must end a run that has not stopped within its grace after Ctrl-C (a wait nothing can
   * cut short): the terminal's lines tidied and the run's error said, as its own end would have.
   */
  onForcedEnd?: (lastWords: () => void) => void;
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
  /** Held around any read-change-write of a profile's sign-in in that store (refresh, login, logout). */
  withSignInLock<T>(kind: StoreKind, profile: string, section: () => Promise<T>): Promise<T>;
  http(options?: HttpOptions): Promise<HttpClient>;
  /** The run's one transport, for a request that is not the API's (`chat tail --forward-to`'s POSTs). */
  transport(): Promise<HttpTransport>;
  /** --debug trace lines (redacted where they are made), or undefined without --debug. */
  readonly trace?: (line: string) => void;
  /** The OAuth/OpenID server of the selected profile (discovered once per run), or of the given settings. */
  authServer(settings?: Settings): Promise<Configuration>;
  readonly browser: BrowserOpener;
  /** Questions on the terminal; ask only where `io.canPrompt` (see confirm.ts). */
  readonly prompter: Prompter;
  /** The output format and its options: the one place they are decided (see output/format.ts). */
  output(request?: OutputRequest): Promise<OutputSpec>;
  /** Changes the config file (read afresh under its lock, written atomically) and drops what was cached from it. */
  editConfig(change: (data: ConfigData) => void): Promise<void>;
  /** Changes one profile (default: the selected one), creating it if needed; returns its name. */
  editProfile(change: (profile: Profile) => void, name?: string): Promise<string>;
  close(): Promise<void>;
}

/** How long a run's end waits for the locked sections still running (a read and a write of a small file each). */
const LOCKS_RELEASED_MS = 2000;

/** Which client: with the profile's token (default) or without; retries and deadline other than the globals'. */
export interface HttpOptions {
  auth?: boolean;
  /** Instead of --max-retries (`clinic doctor` reports what the server says now, without waiting out retries). */
  maxRetries?: number;
  /** Instead of --request-timeout, in ms. */
  timeoutMs?: number;
  /**
   * What abandons its requests, instead of the run's Ctrl-C: a bulk run lets those in flight be answered first. A
   * client of its own (not shared with the rest of the run).
   */
  signal?: AbortSignal;
}

export function createContext(deps: ContextDeps, globals: GlobalOptions): Context {
  const io = new IO(deps.streams, {
    colourAllowed: globals.colour,
    inputAllowed: globals.input,
    quiet: globals.quiet,
    // A terminal that cannot move its cursor (an editor's shell buffer) would print every frame of a spinner.
    spinners: deps.env.TERM !== 'dumb',
    columns: widthAsked(deps.env.COLUMNS),
    interrupt: deps.signal,
  });
  const clock = deps.clock ?? systemClock;
  const signal = deps.signal ?? new AbortController().signal;
  let config: Promise<ConfigData> | undefined;
  let session: Session | undefined;
  let transport: HttpTransport | undefined = deps.transport;
  const stores = new Map<StoreKind, CredentialStore>();
  let authServer: Promise<Configuration> | undefined;
  const clients = new Map<string, Promise<HttpClient>>();
  /** After a change to the file: what was read from it is read again when next needed. */
  const forgetConfig = () => {
    config = undefined;
    session = undefined;
    clients.clear();
  };
  // A trace asked for with --debug prints even with --quiet.
  const trace = globals.debug ? (line: string) => io.alert(`debug: ${line}`) : undefined;
  /** One per run (made when output is first asked for), so the time zone is said once whatever is shown. */
  let times: HumanTimes | undefined;
  /** The one transport of this run, shared by the API clients and the sign-in server. */
  async function wire(): Promise<HttpTransport> {
    if (!transport) {
      const { NodeTransport } = await import('../core/http/transport.js');
      transport = new NodeTransport();
      collectYoungWhenFull(); // node:http is loaded: the first request's connection is next (core/memory.ts)
    }
    return transport;
  }

  /** The sign-in server of `settings`, its requests stopped by `signal` (none: each ends on its own deadline). */
  async function loadAuthServer(settings: Settings, signal: AbortSignal | undefined): Promise<Configuration> {
    const { loadAuthorizationServer } = await import('../core/auth/oauth/authorization-server.js');
    return loadAuthorizationServer({
      ...(await oauthClientSettings(settings)),
      trace,
      userAgent: `clinic/${ctx.version}`,
      timeoutMs: globals.requestTimeoutMs,
      signal,
      transport: await wire(),
    });
  }

  /** `settings`: other than the selected profile's effective ones (the untenanted ones a --tenant slug needs). */
  async function buildClient(
    { auth = true, maxRetries, timeoutMs, signal: abandon = signal }: HttpOptions,
    settings?: Settings,
  ): Promise<HttpClient> {
    settings ??= await ctx.settings();
    const baseUrl = settings.get('base_url');
    if (!baseUrl) {
      const { name, source } = settings.profile;
      const known = Object.keys((await ctx.config()).profiles);
      // A profile named (--profile, CLINIC_PROFILE) that does not exist: a typo, most often.
      if (source !== 'default' && !known.includes(name))
        throw new UsageError(
          `there is no profile '${name}'${known.length ? ` (profiles: ${known.join(', ')})` : ''}: ` +
            `make it with '${profileCommand(settings.profile, 'config set base_url URL')}'`,
        );
      throw new UsageError(
        `no API address for profile '${settings.profile.name}': start one with 'clinic sandbox start' and use ` +
          `--profile sandbox, or run '${profileCommand(settings.profile, 'config set base_url URL')}'`,
      );
    }
    const session = auth ? await ctx.session() : undefined;
    return new HttpClient({
      baseUrl,
      tenant: settings.get('tenant'),
      noTenant: `run '${profileCommand(settings.profile, 'tenants use ID')}'`,
      userAgent: `clinic/${ctx.version}`,
      tokens: session,
      tokenName: session?.envToken === undefined ? undefined : 'CLINIC_TOKEN',
      transport: await wire(),
      // The API counts requests per user: every clinic process of this profile and server draws on one budget.
      pacer: new SharedPacer(rateLimitFile(deps.env, settings.profile.name, baseUrl), clock),
      clock,
      signal: abandon,
      maxRetries: maxRetries ?? globals.maxRetries,
      timeoutMs: timeoutMs ?? globals.requestTimeoutMs,
      trace,
      onWait: (wait) => io.showWait(wait),
    });
  }

  /** The settings before --tenant is resolved: enough for the session and the account, which need no tenant. */
  async function untenanted(): Promise<Settings> {
    const data = await ctx.config();
    const flags = { base_url: globals.baseUrl, output: globals.output };
    return new Settings(selectProfile(globals.profile, deps.env, data), data, deps.env, flags);
  }

  /** The id --tenant stands for, found once a run (a slug may need the account: see tenant-flag.ts). */
  let tenantFlag: Promise<string | undefined> | undefined;
  function tenantOfFlag(settings: Settings): Promise<string | undefined> {
    // No flag, or an id: nothing to look up, and nothing more to load.
    if (globals.tenant === undefined || /^\d+$/.test(globals.tenant.trim()))
      return Promise.resolve(globals.tenant?.trim());
    tenantFlag ??= import('./tenant-flag.js').then(({ tenantIdOfFlag }) =>
      tenantIdOfFlag(globals.tenant, settings, {
        account: async () => {
          const { getAccount } = await import('../core/api/resources.js');
          return getAccount(await buildClient({}, settings));
        },
        editProfile: (change) => ctx.editProfile(change, settings.profile.name),
      }),
    );
    return tenantFlag;
  }

  /** The format the user chose; a command that writes one format only reads no setting for it. */
  async function chosenFormat(request: OutputRequest): Promise<SettingValues['output'] | undefined> {
    if (request.formats?.length === 1) return undefined;
    try {
      return (await ctx.settings()).get('output');
    } catch (error) {
      if (!request.configMayFail) throw error;
      return globals.output ?? knownFormat(deps.env.CLINIC_OUTPUT);
    }
  }

  const ctx: Context = {
    io,
    env: deps.env,
    clock,
    globals,
    signal,
    version: cliVersion(),
    browser: deps.browser ?? {
      open: async (url) => (await import('../core/auth/oauth/browser.js')).systemBrowser(deps.env).open(url),
      canOpen: () => browserCanOpen(deps.env),
    },
    prompter: deps.prompter ?? terminalPrompter(deps.streams, signal, deps.ctrlCTyped),
    config: () => {
      config ??= loadConfig(deps.env, (line) => io.err(line));
      return config;
    },
    async settings() {
      const settings = await untenanted();
      const tenant = await tenantOfFlag(settings);
      return tenant === undefined ? settings : settings.withFlag('tenant', tenant);
    },
    async withSignInLock(kind, profile, section) {
      const { withLock } = await import('../core/lock.js');
      return withLock(signInLock(deps.env, kind, profile), section);
    },
    store(kind) {
      let store = stores.get(kind);
      if (!store) {
        store =
          kind === 'file'
            ? new FileStore(credentialsFile(deps.env), (line) => io.err(line))
            : new KeychainStore(deps.keytar);
        stores.set(kind, store);
      }
      return store;
    },
    async session() {
      if (session) return session;
      const settings = await untenanted(); // a session needs no tenant, and resolving --tenant may need the session
      const profile = settings.profile.name;
      session = new Session(
        settings,
        deps.env,
        (kind) => ctx.store(kind),
        clock,
        async (seen, force) => {
          const { refreshCredentials } = await import('../core/auth/refresh.js');
          const kind = settings.get('credential_store') ?? 'keychain';
          return refreshCredentials(
            {
              profile,
              store: ctx.store(kind),
              lock: signInLock(deps.env, kind, profile),
              // Not stopped by Ctrl-C: a refresh token sent is spent (rotation), so its answer is waited for and
              // kept (within the second a stopped run is given); the run then ends as stopped (130).
              server: () => loadAuthServer(settings, undefined),
              clock,
              loginHint: `run: ${loginCommand(settings.profile)}`,
              settings,
            },
            seen,
            force,
          );
        },
        async (bound) => {
          const { recordBinding } = await import('../core/auth/binding.js');
          const kind = settings.get('credential_store') ?? 'keychain';
          await recordBinding(
            { profile, store: ctx.store(kind), lock: signInLock(deps.env, kind, profile) },
            bound,
          );
        },
      );
      return session;
    },
    authServer(other) {
      if (other) return loadAuthServer(other, signal);
      authServer ??= ctx.settings().then((settings) => loadAuthServer(settings, signal));
      return authServer;
    },
    transport: wire,
    trace,
    http(options = {}) {
      if (options.signal) return buildClient(options);
      // One client per run (and per auth mode), so rate-limit pacing carries from request to request.
      const key = JSON.stringify([options.auth ?? true, options.maxRetries, options.timeoutMs]);
      let client = clients.get(key);
      if (!client) {
        client = buildClient(options);
        clients.set(key, client);
      }
      return client;
    },
    async output(request = {}) {
      const refused = globals.jq === undefined ? refusedFormat(globals.output, request) : undefined;
      if (refused) throw new UsageError(refused);
      // Whole records only (chat tail's events): --fields is refused, not passed over. A dry run's view of a request
      // is not the command's records: its --fields is for the run itself.
      if (request.fields === false && globals.fields !== undefined && !globals.dryRun)
        throw new UsageError('--fields does not apply: this command writes whole records');
      const chosen = await chosenFormat(request);
      // --jq filters what -o json would print (output/jq.ts): JSON whatever the profile says.
      const jq = globals.jq !== undefined;
      const format = decideFormat(jq ? 'json' : chosen, io.stdoutIsTTY, request);
      // Only a human view asks how wide the terminal is and whether one watches stderr: asking may make the stderr
      // stream, which a run that never writes to it must not pay for.
      const human = format === 'table';
      return {
        format,
        chosen: chosen !== undefined && (!jq || chosen === 'json'),
        fields: request.fields === false ? undefined : globals.fields,
        declared: request.declared,
        warn: (line) => io.err(line),
        csvRaw: globals.csvRaw,
        terminal: io.stdoutIsTTY,
        watched: human && io.stderrIsTTY,
        colour: io.colour,
        width: human ? io.columns : DEFAULT_WIDTH,
        wide: globals.wide,
        times: (times ??= new HumanTimes(globals.utc, deps.env.TZ)),
        // Notes after a human view (columns not shown, the time zone): io.err, which --quiet silences.
        note: (line) => io.err(line),
      };
    },
    async editConfig(change) {
      await editConfigFile(deps.env, change);
      forgetConfig();
    },
    async editProfile(change, name) {
      const profile = name ?? (await ctx.settings()).profile.name;
      await updateProfile(deps.env, profile, change);
      forgetConfig();
      return profile;
    },
    async close() {
      // A request given up on (Ctrl-C, a list's pages fetched ahead) may still be teaching the shared rate-limit
      // budget under its lock: given back before the process ends (lock.ts).
      await locksReleased(LOCKS_RELEASED_MS);
      if (transport && transport !== deps.transport) await transport.close();
    },
  };
  return ctx;
}
