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
  const long = /--([a-z0-9-]+)/i.exec(flags)?.[1];
  if (!long) throw new Error(`option '${flags}' has no long flag`);
  const name = long.startsWith('no-') ? long.slice(3) : long;
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()) as KeyOf<F>;
}

/** The flag an option's messages name: its long form (`--per-page`). */
export const flagOf = (def: Pick<OptionDef, 'flags'>): string =>
  /--[a-z0-9-]+/i.exec(def.flags)?.[0] ?? def.flags;

interface Extra {
  completes?: Completes;
}

function define<T, F extends string>(
  flags: F,
  description: string,
  parse: ((text: string, flag: string, previous?: T) => T) | undefined,
  extra: Omit<Partial<OptionDef<T>>, 'key' | 'parse'> = {},
): OptionDef<T, KeyOf<F>> {
  return { flags, key: keyOf(flags), description, ...(parse ? { parse } : {}), ...extra };
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
      { completes: extra.completes },
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
