// The command declarations walked into the shape the completion and man page generators need. Reads only the
// declarations' data: no command's load() is called, so no command code runs.
import { CONFIG_KEYS } from '../../core/config/keys.js';
import type { ArgDef, CommandDef, Completes, NounDef } from '../command.js';
import { isNoun } from '../command.js';
import { HELP_COMMAND as HELP_TEXT } from '../program.js';

/** What an option is, for completions and the man page. */
export interface OptionSpec {
  /** `--per-page`; every declared option has one. */
  long: string;
  /** `-o`, when there is a short form. */
  short?: string;
  /** The value's placeholder (`n` of `--per-page <n>`), when the option takes a value. */
  value?: string;
  description: string;
  choices?: readonly string[];
  /** The value is a comma-separated list of choices (`--events created,deleted`). */
  commaList: boolean;
  completes?: Completion;
  repeatable: boolean;
}

/**
 * What a value completes to: a declared kind, or (the help command's arguments) a command path. Config keys are
 * known when the scripts are made: they become the value's choices.
 */
export type Completion = Exclude<Completes, 'config-key'> | 'command';

/** A declaration's choices and completion kind as the scripts take them: config keys listed as choices. */
function completion(def: { choices?: readonly string[]; completes?: Completes }, what: string) {
  if (def.completes === 'config-key')
    return {
      choices: plain(
        CONFIG_KEYS.map((spec) => spec.key),
        what,
      ),
    };
  return {
    ...(def.choices ? { choices: plain(def.choices, what) } : {}),
    ...(def.completes ? { completes: def.completes } : {}),
  };
}

export interface ArgSpec {
  name: string;
  description: string;
  optional: boolean;
  variadic: boolean;
  choices?: readonly string[];
  completes?: Completion;
}

export interface CommandNode {
  /** `['erasure', 'list']`; the program is `[]`. */
  path: string[];
  name: string;
  summary: string;
  description?: string;
  examples: string[];
  /** The command's own options (the global ones are in the tree). */
  options: OptionSpec[];
  args: ArgSpec[];
  /** A noun's verbs (or nested nouns); empty for a command that runs. */
  children: CommandNode[];
}

export interface CommandTree {
  program: CommandNode;
  /** Options every command takes, wherever they stand on the line. */
  globals: OptionSpec[];
  help: OptionSpec;
}

/** The declaration of an option as command.ts and program.ts have it. */
export interface DeclaredOption {
  flags: string;
  description: string;
  choices?: readonly string[];
  completes?: Completes;
  list?: boolean;
  repeatable?: boolean;
}

export interface Declarations {
  commands: readonly (CommandDef | NounDef)[];
  globalOptions: readonly DeclaredOption[];
  versionOption: DeclaredOption;
  helpOption: DeclaredOption;
  description: string;
  examples: string[];
}

/**
 * What a command name or a declared choice may be: the completion scripts hold them in shell code (zsh's _arguments
 * evaluates a `(a b c)` action; fish's `complete -a` expands its list), so a word that a shell could expand or split
 * is refused when the scripts are generated, not shipped.
 */
const PLAIN_WORD = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function plain<T extends string | readonly string[] | undefined>(words: T, what: string): T {
  for (const word of typeof words === 'string' ? [words] : (words ?? []))
    if (!PLAIN_WORD.test(word))
      throw new Error(`${what} '${word}' is not a plain word (letters, digits, '.', '_', '-')`);
  return words;
}

const FLAGS = /^(?:(-[A-Za-z0-9]), )?(--[A-Za-z0-9][A-Za-z0-9-]*)(?: [<[]([^>\]]+)[>\]])?$/;

export function optionSpec(def: DeclaredOption): OptionSpec {
  const match = FLAGS.exec(def.flags);
  if (!match) throw new Error(`cannot read the flags '${def.flags}'`);
  const [, short, long, value] = match;
  return {
    long: long as string,
    ...(short ? { short } : {}),
    ...(value ? { value } : {}),
    description: def.description,
    ...completion(def, `a choice of ${long as string}`),
    commaList: Boolean(def.choices) && def.list === true,
    repeatable: def.repeatable ?? false,
  };
}

const argSpec = (def: ArgDef): ArgSpec => ({
  name: def.name,
  description: def.description,
  optional: def.optional ?? false,
  variadic: def.variadic ?? false,
  ...completion(def, `a choice of <${def.name}>`),
});

function node(def: CommandDef | NounDef, parent: string[]): CommandNode {
  const path = [...parent, plain(def.name, 'the command name')];
  const common = {
    path,
    name: def.name,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    examples: def.examples,
  };
  if (isNoun(def))
    return { ...common, options: [], args: [], children: def.commands.map((d) => node(d, path)) };
  return {
    ...common,
    options: (def.options ?? []).map(optionSpec),
    args: (def.args ?? []).map(argSpec),
    children: [],
  };
}

/**
 * `clinic help [command...]`: program.ts adds it to commander itself (it is not a declaration) and expands
 * `clinic help erasure list` to `clinic erasure list --help`. Its arguments complete to the commands under the ones
 * already given.
 */
export const HELP_COMMAND: CommandNode = {
  path: ['help'],
  name: 'help',
  summary: HELP_TEXT.summary,
  examples: [HELP_TEXT.example],
  options: [],
  args: [
    {
      name: 'command',
      description: HELP_TEXT.argument,
      optional: true,
      variadic: true,
      completes: 'command',
    },
  ],
  children: [],
};

export function commandTree(declarations: Declarations): CommandTree {
  return {
    program: {
      path: [],
      name: 'clinic',
      summary: declarations.description,
      examples: declarations.examples,
      options: [optionSpec(declarations.versionOption)],
      args: [],
      children: [...declarations.commands.map((def) => node(def, [])), HELP_COMMAND],
    },
    globals: declarations.globalOptions.map(optionSpec),
    help: optionSpec(declarations.helpOption),
  };
}

/** Every node, the program first, parents before their children. */
export function allNodes(tree: CommandTree): CommandNode[] {
  const nodes: CommandNode[] = [];
  const visit = (n: CommandNode) => {
    nodes.push(n);
    n.children.forEach(visit);
  };
  visit(tree.program);
  return nodes;
}
