// Every command the CLI declares, with the words that run it: for tests that hold each one to a rule (a
// confirmation, --dry-run), so a command added later cannot slip past it.
import { type CommandDef, isNoun, type NounDef } from '../../src/cli/command.js';
import { loadCommands } from '../../src/commands/index.js';

export interface Declared {
  path: string[];
  def: CommandDef;
}

function walk(defs: (CommandDef | NounDef)[], path: string[] = []): Declared[] {
  return defs.flatMap((def) =>
    isNoun(def) ? walk(def.commands, [...path, def.name]) : [{ path: [...path, def.name], def }],
  );
}

/** Every declared command, in help order. */
export async function declaredCommands(): Promise<Declared[]> {
  return walk(await loadCommands());
}
