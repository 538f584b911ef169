// Confirmations of destructive actions: decided before any request, asked on a terminal, skipped with --yes.
import { DeclinedError, UsageError } from '../core/errors.js';
import type { Context } from './context.js';
import { sanitize } from './output/sanitize.js';

/** Call before any request: with neither --yes nor a terminal to ask on (or --no-input), exit 2 naming --yes. */
export function ensureConfirmable(ctx: Context, action: string): void {
  if (ctx.globals.yes || ctx.globals.dryRun || ctx.io.canPrompt) return;
  // Said as it is: on a terminal it is --no-input, not the lack of a terminal, that refuses.
  const why = ctx.globals.input ? 'there is no terminal to ask on' : '--no-input forbids the prompt';
  throw new UsageError(`${action} needs a confirmation and ${why}: pass --yes`);
}

/** A yes/no question (skipped with --yes); "no" sends nothing and exits 2. */
export async function confirmOrCancel(ctx: Context, question: string): Promise<void> {
  if (ctx.globals.yes) return;
  if (!(await ctx.prompter.confirm(sanitize(question))))
    throw new DeclinedError('cancelled: nothing was sent');
}

/**
 * For what cannot be undone: the user types `expected` back (skipped with --yes); anything else exits 2. The
 * question, long (who is erased), is a line of its own before a short prompt: a prompt the terminal wraps leaves the
 * prompt library's cursor inside its text.
 */
export async function confirmByTyping(ctx: Context, question: string, expected: string): Promise<void> {
  if (ctx.globals.yes) return;
  ctx.io.alert(sanitize(question));
  const typed = await ctx.prompter.input(`Type ${expected} to confirm:`);
  if (typed.trim() !== expected) {
    throw new DeclinedError(
      `cancelled: you typed '${sanitize(typed.trim())}', not ${expected}; nothing was sent`,
    );
  }
}
