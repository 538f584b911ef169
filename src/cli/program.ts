// Builds the commander tree from the command declarations; only parses, then hands over to each command's run.
import { Command, CommanderError, Option } from 'commander';
import { UsageError } from '../core/errors.js';
import type { CommandDef, CommandInput, NounDef, OptionDef } from './command.js';
import { isNoun } from './command.js';
import type { Context } from './context.js';
import type { GlobalOptions } from './globals.js';

export interface ProgramHooks {
  /** Builds the context once the global options are known. */
  context(raw: Record<string, unknown>): Promise<Context>;
  write(text: string): void;
  writeErr(text: string): void;
  /** Help is wrapped at 80 columns, or narrower on a narrower terminal (so bin/clinic.js can serve it cached). */
  helpWidth?: number;
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
    .option(
      '--csv-raw',
      "CSV cells exactly as they are: no ' before cells a spreadsheet would run as formulas",
    )
    .option('--debug', 'trace each HTTP exchange to stderr, secrets redacted (also CLINIC_DEBUG=1)')
    .option('--no-color', 'no colour (NO_COLOR is honoured too)')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--no-input', 'never prompt; fail where a prompt would be needed')
    .option('--dry-run', 'on commands that write: print the request and send nothing')
    .option('--max-retries <n>', 'retries for retryable failures (default 4; 0 = off)')
    .option(
      '--request-timeout <seconds>',
      'deadline of one whole HTTP exchange, body included (default 60; CLINIC_REQUEST_TIMEOUT); not downloads or chat tail',
    );
}

/** A typed option: commander calls its parser, so a bad value fails here with one usage line. */
function toOption(def: OptionDef): Option {
  const option = new Option(def.flags, def.description);
  const flag = /--[a-z0-9-]+/i.exec(def.flags)?.[0] ?? def.flags;
  const { parse } = def;
  if (parse) {
    option.argParser((text: string, previous: unknown) => {
      // `--customer 5 --customer 6` must not quietly act on 6.
      if (!def.repeatable && previous !== undefined && previous !== def.defaultValue)
        throw new UsageError(`${flag} was given more than once; give it once (it takes one value)`);
      const value = parse(text, flag);
      return def.repeatable ? [...((previous as unknown[] | undefined) ?? []), value] : value;
    });
  }
  if (def.defaultValue !== undefined) option.default(def.defaultValue);
  return option;
}

/** A command's summary, arguments, typed options and examples, as commander knows them. */
function declare(parent: Command, def: CommandDef): Command {
  const command = parent
    .command(def.name)
    .summary(def.summary)
    .description(def.description ?? def.summary);
  if (def.category) command.helpGroup(`${def.category}:`);
  for (const arg of def.args ?? []) {
    const name = `${arg.name}${arg.variadic ? '...' : ''}`;
    command.argument(arg.optional ? `[${name}]` : `<${name}>`, arg.description);
  }
  for (const option of def.options ?? []) command.addOption(toOption(option));
  command.addHelpText('after', examplesText(def.examples));
  return command;
}

const inputOf = (command: Command): CommandInput => ({ args: [...command.args], options: command.opts() });

function addCommand(parent: Command, def: CommandDef, hooks: ProgramHooks): void {
  const command = declare(parent, def);
  command.action(async () => {
    const ctx = await hooks.context(command.optsWithGlobals());
    const run = await def.load();
    await run(inputOf(command), ctx);
  });
}

function addNoun(parent: Command, noun: NounDef, hooks: ProgramHooks): void {
  const group = parent
    .command(noun.name)
    .summary(noun.summary)
    .description(noun.description ?? noun.summary);
  if (noun.category) group.helpGroup(`${noun.category}:`);
  group.addHelpText('after', examplesText(noun.examples));
  for (const def of noun.commands) addDeclared(group, def, hooks);
}

function addDeclared(parent: Command, def: CommandDef | NounDef, hooks: ProgramHooks): void {
  if (isNoun(def)) addNoun(parent, def, hooks);
  else addCommand(parent, def, hooks);
}

/**
 * The command tree. Given the argv it will parse, only the command its first word names is declared (if it names
 * one): the others would cost every start-up the building of some hundred commands and options for nothing.
 */
export function buildProgram(
  version: string,
  commands: readonly (CommandDef | NounDef)[],
  hooks: ProgramHooks,
  argv?: readonly string[],
): Command {
  const program = new Command('clinic')
    .description('Administer clinic data through the Clinic Management Service API')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    // Commander's usage errors stay one line: its "(Did you mean …?)" joins the error line.
    .configureOutput({
      writeOut: hooks.write,
      writeErr: (text) => hooks.writeErr(text.replace(/\n\(Did you mean (.+?)\?\)/, ' (did you mean $1?)')),
      getOutHelpWidth: () => hooks.helpWidth ?? 80,
      getErrHelpWidth: () => hooks.helpWidth ?? 80,
    })
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
  const named = argv && commands.find((def) => def.name === firstWord(program, argv));
  for (const def of named ? [named] : commands) addDeclared(program, def, hooks);
  return program;
}

/** The first word of argv that is not a global option or its value: the command's name, when there is one. */
function firstWord(program: Command, argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return argv[i + 1];
    if (!arg.startsWith('-') || arg === '-') return arg;
    const flag = arg.split('=')[0];
    const option = program.options.find((o) => o.long === flag || o.short === flag);
    const inline = arg.includes('=') || (!arg.startsWith('--') && arg.length > 2);
    if (option && (option.required || option.optional) && !inline) i++;
  }
  return undefined;
}

export type { GlobalOptions };

/** Parses argv for one declared command without running it: what its verb's parse receives (for tests). */
export function parseCommandInput(def: CommandDef, argv: string[]): CommandInput {
  const root = new Command('clinic').exitOverride().configureOutput({ writeOut() {}, writeErr() {} });
  const command = declare(root, def);
  let input: CommandInput | undefined;
  command.action(() => void (input = inputOf(command)));
  try {
    root.parse([def.name, ...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) throw new UsageError(error.message.replace(/^error: /, ''));
    throw error;
  }
  if (!input) throw new Error(`${def.name} did not parse`);
  return input;
}
