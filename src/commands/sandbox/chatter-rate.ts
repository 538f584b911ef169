// `--chatter N`: generated patient messages per second, a decimal number such as 2 or 0.5 (0 = none).
import type { OptionDef } from '../../cli/command.js';
import { UsageError } from '../../core/errors.js';

export const MAX_CHATTER_PER_SECOND = 1000;

export function parseChatterRate(text: string, flag = '--chatter'): number {
  const value = text.trim();
  const rate = /^(\d+(\.\d*)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
  if (!(rate >= 0 && rate <= MAX_CHATTER_PER_SECOND)) {
    throw new UsageError(
      `${flag} must be a number of messages per second from 0 to ${MAX_CHATTER_PER_SECOND} (e.g. 2 or 0.5), got '${text}'`,
    );
  }
  return rate;
}

/** Declared by hand: the typed helpers only take whole numbers. */
export const CHATTER_OPTION: OptionDef<number, 'chatter'> = {
  flags: '--chatter <n>',
  key: 'chatter',
  description:
    'generated patient messages per second, fractions allowed, e.g. 0.5 (default 0 = none); now and then a ' +
    'conversation is also read or one of those messages deleted',
  parse: parseChatterRate,
};
