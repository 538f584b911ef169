// Commands are declared as data (name, arguments, typed options, examples, and how to load the code that runs
// them); program.ts turns the declarations into commander's tree, and the same tree feeds help and completions.
import type { Context } from './context.js';

/**
 * What an argument or option value names, for completions: a file, a profile or a tenant slug remembered in the
 * config file (read when completing, never over the network), or a config key (known when the scripts are made).
 */
export type Completes = 'file' | 'profile' | 'tenant' | 'config-key';

export interface ArgDef {
  name: string;
  description: string;
  optional?: boolean;
  variadic?: boolean;
  /** The only values allowed (checked when parsed, listed in completions). */
  choices?: readonly string[];
  completes?: Completes;
}

/** One option: its flags, the key it is parsed into, and how its text becomes a typed value. */
export interface OptionDef<T = unknown, K extends string = string> {
  /** Commander flags, e.g. `--per-page <n>`. */
  flags: string;
  /** Where the value lands in the parsed options: the long flag in camelCase (`--per-page` → `perPage`). */
  key: K;
  description: string;
  /**
   * Text → value; throws UsageError. Boolean flags have none. A repeatable option's parser gets each occurrence
   * with the values so far (commander's argParser), and returns them with this one added.
   */
  parse?(text: string, flag: string, previous?: T): T;
  /** The only values allowed (checked by `parse`, listed in help and completions). */
  choices?: readonly string[];
  /** The value is a comma-separated list of the choices (`--events created,deleted`), for completions. */
  list?: boolean;
  /** Repeatable: the parsed values are collected into an array. */
  repeatable?: boolean;
  defaultValue?: T;
  completes?: Completes;
  /** Given, the option makes a read-only command write (a file, another server): --dry-run is refused with it. */
  writes?: boolean;
  /** Given, the command prints a report of its own, no answer of the server's: --raw is refused with it. */
  noRaw?: true;
  /** The parsed type; only the type checker sees it. */
  readonly type?: T;
}

/**
 * The parsed options of a declaration list: `{ perPage: number | undefined, status: 'completed' | … | undefined }`.
 * Every declared key is there (undefined when not given), so a run that reads an option its command does not
 * declare fails to type-check in `defineCommand`.
 */
export type OptionsOf<D extends readonly OptionDef[]> = {
  [O in D[number] as O['key']]: (O extends OptionDef<infer T> ? T : never) | undefined;
};

/** What commander parsed for one command: positional arguments and the command's own typed options. */
export interface CommandInput<D extends readonly OptionDef[] = readonly []> {
  args: string[];
  options: OptionsOf<D>;
}

/** The same, as commander hands it over: values its parsers made, not yet typed by their declarations. */
export interface ParsedInput {
  args: string[];
  options: Readonly<Record<string, unknown>>;
}

/** What runs a command: parse the input into the verb's options, then do the work. `spec` is its declaration. */
export type CommandRun<D extends readonly OptionDef[] = readonly []> = (
  input: CommandInput<D>,
  ctx: Context,
  spec: CommandDef,
) => Promise<void>;

/**
 * A destructive command's confirmation, declared on its spec: the command asks on a terminal and, with neither
 * --yes nor a terminal, is refused after its arguments are parsed and before any request (`verb` sees to that).
 */
export interface Confirmation {
  /** How the refusal names the command: `<action> needs a confirmation and there is no terminal to ask on`. */
  action: string;
  /** With --from: the question before the run; the user types the number of records back. */
  records?: (n: number) => string;
}

/** A command as declared: its run is typed by the options it declares (`D`, inferred). */
export interface CommandSpec<D extends readonly OptionDef[]> extends Omit<CommandDef, 'options' | 'load'> {
  options?: D;
  /** Loads the command's module only when it runs, so start-up and --help stay light. */
  load(): Promise<CommandRun<NoInfer<D>>>;
}

/** A command in the tree: what program.ts, help and completions walk, its options' types checked and set aside. */
export interface CommandDef {
  name: string;
  summary: string;
  /** Longer help text, e.g. what is assumed about the API. */
  description?: string;
  args?: ArgDef[];
  options?: readonly OptionDef[];
  examples: string[];
  /** Set on every command that destroys or changes what cannot be put back. */
  confirm?: Confirmation;
  /**
   * What --dry-run does here. `honoured`: the command prints the requests it would send and sends none.
   * `read-only`: it changes nothing (it reads and prints), so it runs as it would without --dry-run. Left out, the
   * command writes and has no dry run: --dry-run is refused before anything is done (program.ts).
   */
  dryRun?: DryRun;
  /** Where a top-level command sits in the grouped help. */
  category?: Category;
  /** Why --jq has nothing to filter here (the command prints no JSON, or prints as things happen): it is refused. */
  noJq?: string;
  /** The command prints what the CLI makes (settings, a script, a report), no answer of the server's: --raw is refused. */
  noRaw?: true;
  load(): Promise<(input: ParsedInput, ctx: Context, spec: CommandDef) => Promise<void>>;
}

export type DryRun = 'honoured' | 'read-only';

export type Category = 'Sign-in and settings' | 'Clinic data' | 'Data protection' | 'Tools';

export interface NounDef {
  name: string;
  summary: string;
  description?: string;
  category?: Category;
  examples: string[];
  commands: (CommandDef | NounDef)[];
}

/**
 * A command from its declaration. The type checker holds the run to the declared options (each key there, each
 * of the declared type); commander then parses each value with its declaration's `parse` (program.ts), so the values
 * handed to the run have the declared types.
 */
export function defineCommand<const D extends readonly OptionDef[] = readonly []>(
  spec: CommandSpec<D>,
): CommandDef {
  return {
    ...spec,
    async load() {
      const run = await spec.load();
      // The one place commander's values meet their types, which TypeScript cannot follow through commander.
      return (input, ctx, def) => run(input as CommandInput<D>, ctx, def);
    },
  };
}

export const defineNoun = (def: NounDef): NounDef => def;

export const isNoun = (def: CommandDef | NounDef): def is NounDef => 'commands' in def;

/**
 * A verb's run from its parse and its work: `parse(input) → options`, then `run(options, ctx, spec)`. Between the
 * two, a command whose spec declares a confirmation is refused when it cannot be confirmed.
 */
export function verb<D extends readonly OptionDef[], O>(
  parse: (input: CommandInput<D>) => O | Promise<O>,
  run: (options: O, ctx: Context, spec: CommandDef) => Promise<void>,
): CommandRun<D> {
  return async (input, ctx, spec) => {
    const options = await parse(input);
    if (spec.confirm) {
      // Loaded here, not at the top: declarations load at every start-up, confirmations only for these commands.
      const { ensureConfirmable } = await import('./confirm.js');
      // A bulk run is named as typed, with --from: it is the file's records that are confirmed.
      const bulk = 'from' in input.options && input.options.from !== undefined;
      ensureConfirmable(ctx, bulk ? `${spec.confirm.action} --from` : spec.confirm.action);
    }
    return run(options, ctx, spec);
  };
}
