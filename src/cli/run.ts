// Runs one invocation of the CLI over the commands it is given and returns its exit code; src/main.ts gives it the
// commands, and only bin/clinic.js exits the process.
import { type Command, CommanderError } from 'commander';
import { ExitCode, toExitCode } from '../core/exit-codes.js';
import type { CommandDef, NounDef } from './command.js';
import type { Context, ContextDeps } from './context.js';
import { type GlobalOptions, parseGlobals } from './globals.js';
import { buildProgram, commandWord, expandHelpCommand, oneLineUsage } from './program.js';
import { errorJson, errorLines, type SignInFacts } from './report-error.js';
import { ApiError, CancelledError, UsageError } from '../core/errors.js';
import { cliVersion } from './version.js';
import { formatAsTyped, isJsonFormat } from './output/format.js';
import type { JqOutput } from './output/jq.js';
import { readerWidth, widthAsked } from './io.js';

/** The declared commands: their top-level names, and each one's declaration loaded on demand. */
export interface CommandCatalog {
  names: readonly string[];
  /** Every declaration, in help order; or only the one `name` names, when it names one. */
  load(name?: string): Promise<(CommandDef | NounDef)[]>;
}

function commanderExitCode(error: CommanderError): number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
  // Help asked for through a group's help command (`clinic erasure help list`) exits 0; a group run without its
  // command word (`clinic erasure`) shows its help as an error.
  if (error.code === 'commander.help' && error.exitCode === 0) return ExitCode.ok;
  return ExitCode.usage;
}

/** Errors are also written as a JSON object when the user chose JSON data (the format as typed before a context). */
async function wantsJsonErrors(ctx: Context | undefined, argv: string[], env: ContextDeps['env']) {
  if (!ctx) return isJsonFormat(formatAsTyped(argv, env));
  const spec = await ctx.output({ configMayFail: true });
  return spec.chosen === true && isJsonFormat(spec.format);
}

/** For 401/403 hints: how to log in to this profile and which scopes its sign-in holds. */
async function signInFacts(ctx: Context | undefined, error: unknown): Promise<SignInFacts | undefined> {
  if (!ctx || !(error instanceof ApiError) || (error.status !== 401 && error.status !== 403))
    return undefined;
  try {
    const { loginCommand } = await import('../core/auth/session.js');
    const session = await ctx.session();
    const stored = session.envToken ? undefined : await session.stored();
    const envToken = session.envToken !== undefined;
    return { loginCommand: loginCommand((await ctx.settings()).profile), scopes: stored?.scopes, envToken };
  } catch {
    return undefined;
  }
}

/** Every command's path (`['customers', 'list']`…), for the help cache built with the bundle. */
export async function commandPaths(catalog: CommandCatalog): Promise<string[][]> {
  const commands = await catalog.load();
  const noop = () => true;
  const paths: string[][] = [];
  const walk = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      paths.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(
    buildProgram(cliVersion(), commands, {
      context: async () => undefined as never,
      write: noop,
      writeErr: noop,
    }),
    [],
  );
  return paths;
}

export async function run(argv: string[], deps: ContextDeps, catalog: CommandCatalog): Promise<number> {
  // The streams are read where used: a stream is made on first use, and most runs never write to stderr.
  const { streams } = deps;
  let ctx: Context | undefined;
  let globals: GlobalOptions | undefined;
  /** --jq: the command's output, filtered when it ends. */
  let jq: JqOutput | undefined;
  /**
   * A terminal echoes Ctrl-C as ^C where the cursor is: the run's last words start a line of their own, not after it
   * (and not below an empty row where the echo's line can be erased, see IO.afterCtrlC).
   */
  const afterCtrlC = () => {
    const sigint = (deps.signal?.reason as { signal?: string } | undefined)?.signal === 'SIGINT';
    if (!sigint || !streams.stderr.isTTY) return '';
    return ctx?.io.afterCtrlC() ?? '\n';
  };
  /** The run's end has been said (its error, or its output complete): nothing more for a forced end to say. */
  let said = false;
  deps.onForcedEnd?.(() => {
    if (said) return;
    said = true;
    ctx?.io.stopDrawing();
    const stopped = new CancelledError('interrupted');
    streams.stderr.write(`${afterCtrlC()}${errorLines(stopped, { json: false, debug: false }).join('\n')}\n`);
    // As typed (-o json, CLINIC_OUTPUT): a profile's own output setting would take a read of the config, not now.
    if (isJsonFormat(formatAsTyped(argv, deps.env))) streams.stderr.write(`${errorJson(stopped)}\n`);
  });
  // Only the command argv names is declared (all of them for help, or for commander's suggestions on a typo).
  const word = commandWord(argv);
  const commands = await catalog.load(word !== undefined && catalog.names.includes(word) ? word : undefined);
  const program = buildProgram(
    cliVersion(),
    commands,
    {
      async context(raw, def) {
        globals = parseGlobals(raw, deps.env);
        // The context (config, HTTP, auth) loads only once a command runs, not for --help.
        const { createContext } = await import('./context.js');
        ctx = createContext(deps, globals);
        if (globals.jq !== undefined)
          jq = await (await import('./output/jq.js')).filterOutput(ctx.io, def, globals.jq);
        return ctx;
      },
      write: (text) => streams.stdout.write(text),
      writeErr: (text) => streams.stderr.write(text),
      // At most 80; in a pipe, the terminal the piped text ends up on (bin/clinic.js serves 80 from its cache).
      helpWidth: () =>
        Math.min(readerWidth(streams, streams.stdout.isTTY === true, widthAsked(deps.env.COLUMNS)) ?? 80, 80),
    },
    argv,
  );

  try {
    await program.parseAsync(expandHelpCommand(program, argv), { from: 'user' });
    await jq?.finish();
    return ExitCode.ok;
  } catch (error) {
    // Its error below a spinner's or a countdown's line would leave that line on the screen.
    ctx?.io.stopDrawing();
    // What a failed command printed is valid (a list is closed) and still filtered; its own error is the one told.
    await jq?.finish().catch(() => undefined);
    const wantsJson = await wantsJsonErrors(ctx, argv, deps.env);
    if (error instanceof CommanderError) {
      // Commander has printed its one line; a script that asked for JSON gets the object too.
      const code = commanderExitCode(error);
      if (code !== ExitCode.ok && wantsJson) {
        const usage = new UsageError(oneLineUsage(error.message.replace(/^error: /, '')));
        streams.stderr.write(`${errorJson(usage)}\n`);
      }
      return code;
    }
    const debug = globals?.debug ?? false;
    const signIn = await signInFacts(ctx, error);
    streams.stderr.write(afterCtrlC());
    for (const line of errorLines(error, { json: false, debug, signIn })) streams.stderr.write(`${line}\n`);
    if (wantsJson) streams.stderr.write(`${errorJson(error)}\n`);
    return toExitCode(error);
  } finally {
    said = true;
    await ctx?.close();
  }
}
