// Builds the commander tree from the command declarations; only parses, then hands over to each command's run.
import { Command, Option } from 'commander';
import { commands } from '../commands/index.js';
import type { CommandDef, CommandInput, NounDef } from './command.js';
import { isNoun } from './command.js';
import type { Context } from './context.js';
import type { GlobalOptions } from './globals.js';

export interface ProgramHooks {
  /** Builds the context once the global options are known. */
  context(raw: Record<string, unknown>): Promise<Context>;
  write(text: string): void;
  writeErr(text: string): void;
}

const examplesText = (examples: string[]) => `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`;

function addGlobalOptions(program: Command): void {
  program
    .option('--profile <name>', 'profile to use')
    .option('--tenant <id>', 'tenant for this call (X-Tenant)')
    .option('--base-url <url>', 'override base_url')
    .addOption(new Option('-o, --output <format>', 'output format: table, json, ndjson, csv'))
    .option('--json', 'same as -o json')
    .option('--fields <a,b.c>', 'pick fields (dotted paths) for every format')
    .option('--raw', "print the server's JSON body untouched")
    .option('--debug', 'trace each HTTP exchange to stderr, secrets redacted (also CLINIC_DEBUG=1)')
    .option('--no-color', 'no colour (NO_COLOR is honoured too)')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--no-input', 'never prompt; fail where a prompt would be needed')
    .option('--dry-run', 'on commands that write: print the request and send nothing')
    .option('--max-retries <n>', 'retries for retryable failures (default 4; 0 = off)');
}

function addCommand(parent: Command, def: CommandDef, hooks: ProgramHooks): void {
  const command = parent
    .command(def.name)
    .summary(def.summary)
    .description(def.description ?? def.summary);
  for (const arg of def.args ?? []) {
    const name = `${arg.name}${arg.variadic ? '...' : ''}`;
    command.argument(arg.optional ? `[${name}]` : `<${name}>`, arg.description);
  }
  for (const option of def.options ?? []) {
    if (option.repeatable) {
      command.option(option.flags, option.description, (value: string, previous: string[] = []) => [
        ...previous,
        value,
      ]);
    } else if (option.defaultValue !== undefined) {
      command.option(option.flags, option.description, option.defaultValue);
    } else {
      command.option(option.flags, option.description);
    }
  }
  command.addHelpText('after', examplesText(def.examples));
  command.action(async (...params: unknown[]) => {
    const self = params.at(-1) as Command;
    const input: CommandInput = {
      args: [...self.args],
      options: self.opts(),
    };
    const ctx = await hooks.context(self.optsWithGlobals());
    const run = await def.load();
    await run(input, ctx);
  });
}

function addNoun(program: Command, noun: NounDef, hooks: ProgramHooks): void {
  const group = program.command(noun.name).summary(noun.summary).description(noun.summary);
  group.addHelpText('after', examplesText(noun.examples));
  for (const def of noun.commands) addCommand(group, def, hooks);
}

export function buildProgram(version: string, hooks: ProgramHooks): Command {
  const program = new Command('clinic')
    .description('Administer clinic data through the Clinic Management Service API')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .configureOutput({ writeOut: hooks.write, writeErr: hooks.writeErr })
    .exitOverride();
  addGlobalOptions(program);
  program.addHelpText(
    'after',
    examplesText([
      'clinic sandbox start            # a local Clinic API to try everything on',
      'clinic --profile sandbox customers list --per-page 5',
      'clinic customers list --all -o ndjson > customers.ndjson',
    ]),
  );
  for (const def of commands) {
    if (isNoun(def)) addNoun(program, def, hooks);
    else addCommand(program, def, hooks);
  }
  return program;
}

export type { GlobalOptions };
