// Builds the commander tree from the command declarations; only parses, then hands over to each command's run.
import { Argument, Command, CommanderError, Help, Option } from 'commander';
import { UsageError } from '../core/errors.js';
import type { CommandDef, NounDef, OptionDef, ParsedInput } from './command.js';
import { isNoun } from './command.js';
import type { Context } from './context.js';
import { GLOBAL_OPTIONS } from './globals.js';
import { flagOf } from './options.js';

export interface ProgramHooks {
  /** Builds the context once the global options are known, for the command `def` about to run. */
  context(raw: Record<string, unknown>, def: CommandDef): Promise<Context>;
  write(text: string): void;
  writeErr(text: string): void;
  /** Help is wrapped at 80 columns, or narrower on a narrower terminal (so bin/clinic.js can serve it cached). */
  helpWidth?: () => number;
}

/**
 * A description as commander should wrap it: the line breaks written in a declaration's source only keep its lines
 * short, so they become spaces (with the blanks around them); an empty line still starts a new paragraph. Read line
 * by line, not with regular expressions, which V8 would compile on every start-up.
 */
export function helpParagraphs(text: string): string {
  const lines = text.split('\n');
  const paragraphs: string[][] = [[]];
  lines.forEach((line, i) => {
    const between = i > 0 && i < lines.length - 1;
    // An empty line between two others ends the paragraph; more of them in a row end it once.
    if (line === '' && between) {
      if (lines[i - 1] !== '' || i === 1) paragraphs.push([]);
    } else paragraphs[paragraphs.length - 1]!.push(line);
  });
  return paragraphs
    .map((paragraph) =>
      paragraph
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join(' '),
    )
    .join('\n\n');
}

/** A verb's help names the options every command takes, without listing them all again (as gh's inherited flags). */
const GLOBALS_LINE =
  'Global options (see clinic --help): --profile, --tenant, -o/--output, --json, --fields, --debug, --dry-run, ' +
  '-y/--yes, --no-input, --max-retries and more.';

/** Text broken at spaces into lines of at most `width` characters (a longer word stays whole on its line). */
function wrapWords(text: string, width: number): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
}

/** Narrower than this, an option's description goes under it rather than into a column too thin to read. */
const NARROWEST_DESCRIPTION = 24;
const UNDER_INDENT = 6;

/**
 * Commander's help, fitted to narrow terminals too: a description wraps beside its option while that leaves it
 * room (commander gives up wrapping below 40 columns of it), else on lines of its own under the option.
 */
const FITTED_HELP: Partial<Help> = {
  minWidthToWrap: NARROWEST_DESCRIPTION,
  formatItem(term, termWidth, description, helper) {
    const width = helper.helpWidth ?? 80;
    if (!description || width - termWidth - 4 >= NARROWEST_DESCRIPTION)
      return Help.prototype.formatItem.call(helper, term, termWidth, description, helper);
    const under = helper.boxWrap(description, Math.max(NARROWEST_DESCRIPTION, width - UNDER_INDENT));
    return `  ${term}\n${under.replace(/^/gm, ' '.repeat(UNDER_INDENT))}`;
  },
};

const examplesText = (examples: string[], width = 80) =>
  `\nExamples:\n${examples.map((e) => exampleLines(e, width)).join('\n')}\n`;

/**
 * An example as a shell takes it, fitted to `width`: a command too long for a line goes on with ` \` at a space
 * outside quotes (one to copy whole, never cut inside a word or a quoted value); its comment, if the line is too
 * long, goes on lines of its own above it (a ` \` inside a comment would make the rest of it a command).
 */
export function exampleLines(example: string, width: number): string {
  if (example.length + 4 <= width) return `  $ ${example}`;
  const words = example.match(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g) ?? [example];
  const hash = words.findIndex((word) => word.startsWith('#'));
  const command = hash < 0 ? words : words.slice(0, hash);
  const lines =
    hash < 0
      ? []
      : wrapWords(words.slice(hash + 1).join(' '), width - 4)
          .split('\n')
          .map((line) => `  # ${line}`);
  let line = '  $';
  for (const word of command) {
    // Room for the ` \` that would end the line.
    if (line.trim() !== '$' && line.length + 1 + word.length > width - 2) {
      lines.push(`${line} \\`);
      line = '     ';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** An option every command takes (or, for `--version`, the program): declared as data for help and completions. */
export type GlobalOptionDef = Pick<OptionDef, 'flags' | 'description' | 'choices' | 'completes'>;

export const PROGRAM_DESCRIPTION = 'Administer clinic data through the Clinic Management Service API';
export const VERSION_OPTION: GlobalOptionDef = { flags: '-V, --version', description: 'print the version' };
export const HELP_OPTION: GlobalOptionDef = { flags: '-h, --help', description: 'show help' };
/** `clinic help [command...]`: commander's own help command, described here for help and completions alike. */
export const HELP_COMMAND = {
  summary: "show a command's help: clinic help erasure list",
  argument: 'the command, e.g. erasure list',
  example: 'clinic help erasure list',
} as const;
export const PROGRAM_EXAMPLES = [
  'clinic sandbox start            # a local Clinic API to try everything on',
  'clinic --profile sandbox customers list --per-page 5',
  'clinic customers list --all -o ndjson > customers.ndjson',
];

/**
 * The global options on the program: those argv may mention, or all of them (no argv: help and completions; help
 * asked for; or an option commander may have to name a near miss for). Declaring the other dozen and more would cost
 * every start-up a millisecond, and parseGlobals reads an option not given the same whether declared or not.
 */
function addGlobalOptions(
  program: Command,
  argv?: readonly string[],
  known?: () => ReadonlySet<string>,
): void {
  const all = !argv || !known || argv.some((arg) => asksHelp(arg) || !knownFlag(arg, known));
  for (const def of GLOBAL_OPTIONS)
    if (all || mentions(argv, def.flags)) program.addOption(new Option(def.flags, def.description));
}

/** The words of a flag list that are flags (`-o, --output <format>` → `-o`, `--output`). */
const flagWords = (flags: string) =>
  flags
    .replaceAll(',', ' ')
    .split(' ')
    .filter((word) => word.startsWith('-'));

/**
 * Whether an argument may stand for one of `flags`: the long flag, alone or with `=value`; a short one alone, with its
 * value joined (`-ojson`) or among other short flags (`-yq`). More than exact, never less. Read in place: asked of
 * every global option on every run.
 */
function mentions(argv: readonly string[], flags: string): boolean {
  return argv.some((arg) => {
    if (!arg.startsWith('-')) return false;
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      return namesFlag(flags, equals < 0 ? arg : arg.slice(0, equals));
    }
    for (let i = 1; i < arg.length; i++) if (namesFlag(flags, `-${arg[i]}`)) return true;
    return false;
  });
}

/** Whether `flag` (`--output`, `-o`) is one of the words of a flag list (`-o, --output <format>`). */
function namesFlag(flags: string, flag: string): boolean {
  for (let at = flags.indexOf(flag); at !== -1; at = flags.indexOf(flag, at + 1))
    if (wordEdge(flags, at - 1) && wordEdge(flags, at + flag.length)) return true;
  return false;
}

/** Whether a flag list's word may end or start next to `at`: its ends, a space or a comma. */
const wordEdge = (flags: string, at: number) =>
  at < 0 || at >= flags.length || flags[at] === ' ' || flags[at] === ',';

/** `--help`, the word `help`, or short flags that include `-h` (`-yh`). */
const asksHelp = (arg: string) =>
  arg === '--help' || arg === 'help' || (arg.startsWith('-') && !arg.startsWith('--') && arg.includes('h'));

/**
 * An argument that is no option, or a long option some command or the program declares (`--name` or `--name=…`).
 * `known` is asked only for a long option: a run without one never gathers the flags (some hundred small strings).
 */
function knownFlag(arg: string, known: () => ReadonlySet<string>): boolean {
  if (!arg.startsWith('--') || arg === '--') return true;
  const equals = arg.indexOf('=');
  return known().has(equals < 0 ? arg : arg.slice(0, equals));
}

/** The long flags of the program's options and of every option of `commands`, at any depth. */
function longFlags(commands: readonly (CommandDef | NounDef)[]): Set<string> {
  const flags = new Set(GLOBAL_OPTIONS.flatMap((def) => flagWords(def.flags)));
  for (const flag of [...flagWords(VERSION_OPTION.flags), ...flagWords(HELP_OPTION.flags)]) flags.add(flag);
  const walk = (defs: readonly (CommandDef | NounDef)[]) => {
    for (const def of defs) {
      if (isNoun(def)) walk(def.commands);
      else
        for (const option of def.options ?? []) for (const flag of flagWords(option.flags)) flags.add(flag);
    }
  };
  walk(commands);
  return flags;
}

/** A typed option: commander calls its parser, so a bad value fails here with one usage line. */
function toOption(def: OptionDef): Option {
  const option = new Option(def.flags, def.description);
  const flag = flagOf(def);
  const { parse } = def;
  if (parse) {
    option.argParser((text: string, previous: unknown) => {
      // `--customer 5 --customer 6` must not quietly act on 6.
      if (!def.repeatable && previous !== undefined && previous !== def.defaultValue)
        throw new UsageError(`${flag} was given more than once; give it once (it takes one value)`);
      return parse(text, flag, def.repeatable ? previous : undefined);
    });
  }
  if (def.defaultValue !== undefined) option.default(def.defaultValue);
  return option;
}

/** A command's summary, arguments, typed options and examples, as commander knows them. */
function declare(parent: Command, def: CommandDef, helpWidth: () => number = () => 80): Command {
  const command = parent
    .command(def.name)
    .summary(def.summary)
    .description(helpParagraphs(def.description ?? def.summary));
  if (def.category) command.helpGroup(`${def.category}:`);
  for (const arg of def.args ?? []) {
    const name = `${arg.name}${arg.variadic ? '...' : ''}`;
    const argument = new Argument(arg.optional ? `[${name}]` : `<${name}>`, arg.description);
    const { choices } = arg;
    if (choices)
      argument.argParser((text: string) => {
        if (!choices.includes(text))
          throw new UsageError(`${arg.name}: unknown value '${text}'; use one of ${choices.join(', ')}`);
        return text;
      });
    command.addArgument(argument);
  }
  for (const option of def.options ?? []) command.addOption(toOption(option));
  command.addHelpText(
    'after',
    () => `\n${wrapWords(GLOBALS_LINE, helpWidth())}\n${examplesText(def.examples, helpWidth())}`,
  );
  return command;
}

const inputOf = (command: Command): ParsedInput => ({ args: [...command.args], options: command.opts() });

/** The command as typed: `clinic auth refresh`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * --dry-run on a command with no dry run of its own is refused before anything is done: it must never run for real.
 * A read-only command takes it (there is nothing to hold back), unless an option given makes it write.
 */
function refuseDryRun(command: Command, def: CommandDef): void {
  if (command.optsWithGlobals().dryRun !== true || def.dryRun === 'honoured') return;
  const given = command.opts();
  const writing = (def.options ?? []).find(
    (option) => option.writes && given[option.key] !== undefined && given[option.key] !== false,
  );
  if (def.dryRun === 'read-only' && !writing) return;
  const how = writing ? ` with ${flagOf(writing)}` : '';
  throw new UsageError(`--dry-run is not supported by '${commandPath(command)}'${how}: nothing was done`);
}

/**
 * --raw (the server's body, untouched) on a command that prints none of the server's, or with an option that makes it
 * print a report of its own (--from), is refused before anything is done: it would otherwise be silently ignored.
 */
function refuseRaw(command: Command, def: CommandDef): void {
  if (command.optsWithGlobals().raw !== true) return;
  const given = command.opts();
  const own = (def.options ?? []).find(
    (option) => option.noRaw && given[option.key] !== undefined && given[option.key] !== false,
  );
  if (!def.noRaw && !own) return;
  const how = own ? ` with ${flagOf(own)}` : '';
  throw new UsageError(
    `--raw prints the server's answer untouched, and '${commandPath(command)}'${how} prints none: nothing was done`,
  );
}

function addCommand(parent: Command, def: CommandDef, hooks: ProgramHooks): void {
  const command = declare(parent, def, () => hooks.helpWidth?.() ?? 80);
  command.action(async () => {
    refuseDryRun(command, def);
    refuseRaw(command, def);
    const ctx = await hooks.context(command.optsWithGlobals(), def);
    const run = await def.load();
    await run(inputOf(command), ctx, def);
  });
}

/**
 * `words`: what follows the noun's name on the command line. When it starts with one of the noun's verbs, only
 * that verb is declared; otherwise (help, a typo that wants suggestions) all of them.
 */
function addNoun(parent: Command, noun: NounDef, hooks: ProgramHooks, words: readonly string[] = []): void {
  const group = parent
    .command(noun.name)
    .summary(noun.summary)
    .description(helpParagraphs(noun.description ?? noun.summary));
  if (noun.category) group.helpGroup(`${noun.category}:`);
  group.helpCommand('help [command]', "show a command's help");
  group.addHelpText('after', () => examplesText(noun.examples, hooks.helpWidth?.() ?? 80));
  const named = noun.commands.find((def) => def.name === words[0]);
  for (const def of named ? [named] : noun.commands) addDeclared(group, def, hooks, words.slice(1));
}

function addDeclared(
  parent: Command,
  def: CommandDef | NounDef,
  hooks: ProgramHooks,
  words: readonly string[] = [],
): void {
  if (isNoun(def)) addNoun(parent, def, hooks, words);
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
    .description(PROGRAM_DESCRIPTION)
    .version(version, VERSION_OPTION.flags, VERSION_OPTION.description)
    .helpOption(HELP_OPTION.flags, HELP_OPTION.description)
    .showSuggestionAfterError(true)
    // Commander's usage errors stay one line: its "(Did you mean …?)" joins the error line.
    .configureOutput({
      writeOut: hooks.write,
      writeErr: (text) => hooks.writeErr(oneLineUsage(text)),
      getOutHelpWidth: () => hooks.helpWidth?.() ?? 80,
      getErrHelpWidth: () => hooks.helpWidth?.() ?? 80,
    })
    .exitOverride()
    .configureHelp(FITTED_HELP);
  program.addHelpText('after', () => examplesText(PROGRAM_EXAMPLES, hooks.helpWidth?.() ?? 80));
  const at = argv && firstWordAt(argv);
  const named = at === undefined ? undefined : commands.find((def) => def.name === argv?.[at]);
  let flags: Set<string> | undefined;
  addGlobalOptions(program, argv, named && (() => (flags ??= longFlags([named]))));
  if (named) addDeclared(program, named, hooks, argv?.slice((at as number) + 1));
  else for (const def of commands) addDeclared(program, def, hooks);
  // After the commands: they would inherit it, and a noun's own help command is its plain one.
  program.addHelpCommand(
    new Command('help')
      .argument('[command...]', HELP_COMMAND.argument)
      .summary(HELP_COMMAND.summary)
      .helpGroup('Tools:'),
  );
  return program;
}

/** The global options that take a value (`--profile NAME`, `-o FORMAT`…), by each of their flags. */
let valueFlags: Set<string> | undefined;
const valueFlagSet = () =>
  (valueFlags ??= new Set(
    GLOBAL_OPTIONS.filter((def) => def.flags.includes('<') || def.flags.includes('[')).flatMap((def) =>
      flagWords(def.flags),
    ),
  ));

/** Where the first word of argv that is not a global option or its value stands: the command's name, if any. */
function firstWordAt(argv: readonly string[]): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return i + 1 < argv.length ? i + 1 : undefined;
    if (!arg.startsWith('-') || arg === '-') return i;
    const inline = arg.includes('=') || (!arg.startsWith('--') && arg.length > 2);
    if (valueFlagSet().has(arg.split('=')[0] as string) && !inline) i++;
  }
  return undefined;
}

/** The command argv names (its first word after the global options), if any. */
export function commandWord(argv: readonly string[]): string | undefined {
  const at = firstWordAt(argv);
  return at === undefined ? undefined : argv[at];
}

/** Commander's usage error as one line: its "(Did you mean …?)" joins the error line. */
export function oneLineUsage(text: string): string {
  return text
    .replace(/\n\(Did you mean (.+?)\?\)/, ' (did you mean $1?)')
    .replace(
      /too many arguments for '([^']+)'\. Expected (\d+) arguments? but got (\d+)\./,
      (_all, name: string, expected: string, got: string) =>
        `too many arguments for '${name}': it takes ${expected}, got ${got}`,
    )
    .replace(
      /too many arguments\. Expected (\d+) arguments? but got (\d+)\./,
      'too many arguments: it takes $1, got $2',
    )
    .replace(
      /option '(-[^' ,]+)(?:, (--[^' ]+))?(?: [^']*)?' argument missing/,
      (_all, first: string, long?: string) => `${long ?? first} needs a value`,
    );
}

/**
 * `clinic help erasure list` → `clinic erasure list --help`: commander's own help command reads only one word, so
 * the help of a nested command would show its noun's instead.
 */
export function expandHelpCommand(program: Command, argv: readonly string[]): string[] {
  const at = firstWordAt(argv);
  if (at === undefined || argv[at] !== 'help' || at + 1 >= argv.length) return [...argv];
  const words = argv.slice(at + 1);
  // `clinic help help`: the help command's own help is the program's.
  if (words[0] === 'help') return [...argv.slice(0, at), '--help'];
  let command = program;
  for (const [i, word] of words.entries()) {
    if (word.startsWith('-')) break;
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) {
      const path = ['clinic', ...words.slice(0, i)].join(' ');
      const similar = suggestCommand(command, word);
      throw new UsageError(`unknown command '${word}' (${similar ?? `see '${path} --help'`})`);
    }
    command = sub;
  }
  return [...argv.slice(0, at), ...words, '--help'];
}

/**
 * The suggestion commander makes for a word `command` does not know (`did you mean erasure?`), if any: asked of a
 * copy of its command names, which runs nothing.
 */
function suggestCommand(command: Command, word: string): string | undefined {
  const probe = new Command().exitOverride().showSuggestionAfterError(true);
  probe.configureOutput({ writeOut() {}, writeErr() {}, outputError() {} });
  for (const sub of command.commands) probe.command(sub.name()).aliases(sub.aliases());
  try {
    probe.parse([word], { from: 'user' });
  } catch (error) {
    return /\(did you mean (.+?)\)/.exec(oneLineUsage(String((error as Error).message)))?.[0].slice(1, -1);
  }
  return undefined;
}

/** Parses argv for one declared command without running it: what its verb's parse receives (for tests). */
export function parseCommandInput(def: CommandDef, argv: string[]): ParsedInput {
  const root = new Command('clinic').exitOverride().configureOutput({ writeOut() {}, writeErr() {} });
  const command = declare(root, def);
  let input: ParsedInput | undefined;
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
