// Typed option declarations: each says its flags, the key it parses into, its type, choices and ranges, so every
// usage error about an option value comes from here, before the context is made or anything is sent.
import { UsageError } from '../core/errors.js';
import type { Completes, OptionDef } from './command.js';
import { type DateBound, parseDateBound, parseId, parseWholeNumber } from './parse-args.js';

type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
type LongName<F extends string> = F extends `${string}--${infer Rest}`
  ? Rest extends `${infer Name} ${string}`
    ? Name
    : Rest
  : never;
/** Commander's attribute name of a flag list: `-O, --output-file <f>` → `outputFile`, `--no-input` → `input`. */
export type KeyOf<F extends string> =
  LongName<F> extends `no-${infer Name}` ? Camel<Name> : Camel<LongName<F>>;

export function keyOf<F extends string>(flags: F): KeyOf<F> {
  const long = longName(flags);
  if (!long) throw new Error(`option '${flags}' has no long flag`);
  const name = long.startsWith('no-') ? long.slice(3) : long;
  // Whole runs of the name at a time: some sixty options are declared on a start-up.
  let key = '';
  let from = 0;
  for (let i = name.indexOf('-'); i >= 0 && i < name.length - 1; i = name.indexOf('-', i + 1)) {
    if (!isLowerOrDigit(name[i + 1]!)) continue;
    key += name.slice(from, i) + name[i + 1]!.toUpperCase();
    from = i + 2;
    i++;
  }
  return (from === 0 ? name : key + name.slice(from)) as KeyOf<F>;
}

/** The flag an option's messages name: its long form (`--per-page`). */
export const flagOf = (def: Pick<OptionDef, 'flags'>): string => {
  const long = longName(def.flags);
  return long ? `--${long}` : def.flags;
};

// Flags are read without regular expressions: every start-up declares some forty options, and V8 compiles each
// expression on its first runs (a tenth of a millisecond or more apiece).

/** The name after the first `--` that has one (`-O, --output-file <f>` → `output-file`): letters, digits, dashes. */
function longName(flags: string): string | undefined {
  for (let at = flags.indexOf('--'); at >= 0; at = flags.indexOf('--', at + 1)) {
    let end = at + 2;
    while (end < flags.length && isNameChar(flags[end]!)) end++;
    if (end > at + 2) return flags.slice(at + 2, end);
  }
  return undefined;
}

const isLowerOrDigit = (c: string) => (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
const isNameChar = (c: string) => isLowerOrDigit(c) || (c >= 'A' && c <= 'Z') || c === '-';

interface Extra {
  completes?: Completes;
}

function define<T, F extends string>(
  flags: F,
  description: string,
  parse: ((text: string, flag: string, previous?: T) => T) | undefined,
  extra?: Omit<Partial<OptionDef<T>>, 'key' | 'parse'>,
): OptionDef<T, KeyOf<F>> {
  // Made field by field, no object spread: some sixty are declared on a start-up.
  const def: OptionDef<T, KeyOf<F>> = { flags, key: keyOf(flags), description };
  if (parse) def.parse = parse;
  return extra ? Object.assign(def, extra) : def;
}

export const option = {
  /** A switch: true when given. */
  flag<F extends string>(flags: F, description: string) {
    return define<boolean, F>(flags, description, undefined);
  },

  /** Free text; empty text is refused unless allowed. */
  text<F extends string>(flags: F, description: string, extra: Extra & { allowEmpty?: boolean } = {}) {
    return define<string, F>(
      flags,
      description,
      (text, flag) => {
        if (!extra.allowEmpty && text.trim() === '') throw new UsageError(`${flag} needs a value`);
        return text;
      },
      extra.completes === undefined ? undefined : { completes: extra.completes },
    );
  },

  /** A file path (completed as a file). */
  file<F extends string>(flags: F, description: string) {
    return option.text(flags, description, { completes: 'file' });
  },

  /** A whole number within a range. */
  int<F extends string>(flags: F, description: string, range: { min?: number; max?: number } = {}) {
    return define<number, F>(flags, description, (text, flag) => parseWholeNumber(text, flag, range));
  },

  /** A record id: a positive whole number. */
  id<F extends string>(flags: F, description: string) {
    return define<number, F>(flags, description, (text, flag) => parseId(text, flag));
  },

  /** A value its own parser checks, with its own messages (e.g. `-o FORMAT`, `--fields a,b.c`). */
  parsed<T, F extends string>(
    flags: F,
    description: string,
    parse: (text: string, flag: string) => T,
    extra: Extra & { choices?: readonly string[] } = {},
  ) {
    return define<T, F>(flags, description, parse, extra);
  },

  /** One of fixed values. */
  choice<C extends string, F extends string>(flags: F, description: string, choices: readonly C[]) {
    return define<C, F>(
      flags,
      `${description} (${choices.join(', ')})`,
      (text, flag) => {
        const value = choices.find((choice) => choice === text.trim());
        if (value === undefined)
          throw new UsageError(`${flag}: unknown value '${text}'; use one of ${choices.join(', ')}`);
        return value;
      },
      { choices },
    );
  },

  /** Comma-separated values out of fixed ones, e.g. `--events created,deleted`. */
  choiceList<C extends string, F extends string>(flags: F, description: string, choices: readonly C[]) {
    return define<C[], F>(
      flags,
      `${description} (comma-separated: ${choices.join(', ')})`,
      (text, flag) => {
        const values: C[] = [];
        for (const word of text.split(',').map((v) => v.trim())) {
          const value = choices.find((choice) => choice === word);
          if (value === undefined)
            throw new UsageError(`${flag}: unknown value '${word}'; use ${choices.join(', ')}`);
          if (!values.includes(value)) values.push(value);
        }
        return values;
      },
      { choices, list: true },
    );
  },

  /**
   * One end of a date window: an ISO 8601 date-time, or a day meaning the whole day. Checked here, kept as typed:
   * which zone a day is in depends on --utc, so the verb makes it the UTC date-time sent (see parseDateBound).
   */
  dateTime<F extends string>(flags: F, description: string, bound: DateBound) {
    return define<string, F>(flags, description, (text, flag) => {
      parseDateBound(text, flag, bound);
      return text.trim();
    });
  },

  /** Repeatable text, collected in order (e.g. `--set key=value`). */
  many<F extends string>(flags: F, description: string, extra: Extra = {}) {
    return define<string[], F>(
      flags,
      `${description} (repeatable)`,
      (text, _flag, previous = []) => [...previous, text],
      {
        repeatable: true,
        completes: extra.completes,
      },
    );
  },

  /** Repeatable ids (e.g. `--conversation ID`). */
  ids<F extends string>(flags: F, description: string) {
    return define<number[], F>(
      flags,
      `${description} (repeatable)`,
      (text, flag, previous = []) => [...previous, parseId(text, flag)],
      { repeatable: true },
    );
  },
};
