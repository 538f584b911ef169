// The composition root: joins the CLI (src/cli) to the declared commands (src/commands), so neither src/cli nor
// src/core imports a command. The bundle's entry (scripts/bundle.mjs); only bin/clinic.js exits the process.
import type { ContextDeps } from './cli/context.js';
import { type CommandCatalog, commandPaths as pathsOf, run } from './cli/run.js';
import { commandNames, loadCommands } from './commands/index.js';
import { restoreV8Flags } from './core/memory.js';

const catalog: CommandCatalog = { names: commandNames, load: loadCommands };

/**
 * Runs one invocation of the CLI and returns its exit code. V8's flags are as they were at the start once it has
 * returned: the compile cache written after it is then one the next run can take (core/memory.ts).
 */
export async function main(argv: string[], deps: ContextDeps): Promise<number> {
  try {
    return await run(argv, deps, catalog);
  } finally {
    restoreV8Flags();
  }
}

/** Every command's path (`['customers', 'list']`…), for the help cache built with the bundle. */
export function commandPaths(): Promise<string[][]> {
  return pathsOf(catalog);
}

/** The declarations, for scripts/completions.mjs (completions and the man page): data only, no command code. */
export { loadCommands };
export { GLOBAL_OPTIONS } from './cli/globals.js';
export { HELP_OPTION, PROGRAM_DESCRIPTION, PROGRAM_EXAMPLES, VERSION_OPTION } from './cli/program.js';
