// Commands are declared as data (name, arguments, options, examples, and how to load the code that runs them);
// program.ts turns the declarations into commander's tree.
import type { Context } from './context.js';

export interface ArgDef {
  name: string;
  description: string;
  optional?: boolean;
  variadic?: boolean;
}

export interface OptionDef {
  /** Commander flags, e.g. `--per-page <n>`. */
  flags: string;
  description: string;
  /** Repeatable: values are collected into an array. */
  repeatable?: boolean;
  defaultValue?: string | boolean;
}

/** What commander parsed for one command: positional arguments and the command's own options. */
export interface CommandInput {
  args: string[];
  options: Record<string, unknown>;
}

/** What runs a command: parse the input into typed options, then do the work. */
export type CommandRun = (input: CommandInput, ctx: Context) => Promise<void>;

export interface CommandDef {
  name: string;
  summary: string;
  /** Longer help text, e.g. what is assumed about the API. */
  description?: string;
  args?: ArgDef[];
  options?: OptionDef[];
  examples: string[];
  /** Loads the command's module only when it runs, so start-up and --help stay light. */
  load(): Promise<CommandRun>;
}

export interface NounDef {
  name: string;
  summary: string;
  examples: string[];
  commands: CommandDef[];
}

export const defineCommand = (def: CommandDef): CommandDef => def;
export const defineNoun = (def: NounDef): NounDef => def;

export const isNoun = (def: CommandDef | NounDef): def is NounDef => 'commands' in def;
