// Runs one invocation of the CLI in-process and returns its exit code; only bin/clinic.js exits the process.
import { CommanderError } from 'commander';
import { ExitCode, toExitCode } from '../core/exit-codes.js';
import { type Context, type ContextDeps, createContext } from './context.js';
import { type GlobalOptions, parseGlobals } from './globals.js';
import { buildProgram } from './program.js';
import { errorJson, errorLines } from './report-error.js';
import { cliVersion } from './version.js';

function commanderExitCode(error: CommanderError): number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
  return ExitCode.usage;
}

export async function main(argv: string[], deps: ContextDeps): Promise<number> {
  const { stdout, stderr } = deps.streams;
  let ctx: Context | undefined;
  let globals: GlobalOptions | undefined;
  const program = buildProgram(cliVersion(), {
    context(raw) {
      globals = parseGlobals(raw, deps.env);
      ctx = createContext(deps, globals);
      return ctx;
    },
    write: (text) => stdout.write(text),
    writeErr: (text) => stderr.write(text),
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExitCode(error);
    const format = ctx?.chosenFormat ?? globals?.output ?? deps.env.CLINIC_OUTPUT;
    const debug = globals?.debug ?? false;
    for (const line of errorLines(error, { json: false, debug })) stderr.write(`${line}\n`);
    if (format === 'json' || format === 'ndjson') stderr.write(`${errorJson(error)}\n`);
    return toExitCode(error);
  } finally {
    await ctx?.close();
  }
}
