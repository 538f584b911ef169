// Confirmations of destructive actions: decided before any request, asked on a terminal, skipped with --yes.
import { CancelledError, UsageError } from '../core/errors.js';
import type { Context } from './context.js';
import { sanitize } from './output/sanitize.js';

/** Call before any request: with neither --yes nor a terminal to ask on, exit 2 naming --yes. */
export function ensureConfirmable(ctx: Context, action: string): void {
  if (ctx.globals.yes || ctx.globals.dryRun || ctx.io.canPrompt) return;
  throw new UsageError(`${action} needs a confirmation and there is no terminal to ask on: pass --yes`);
}

/** A yes/no question (skipped with --yes); "no" cancels the command. */
export async function confirmOrCancel(ctx: Context, question: string): Promise<void> {
  if (ctx.globals.yes) return;
  if (!(await ctx.prompter.confirm(sanitize(question))))
    throw new CancelledError('cancelled: nothing was sent');
}

/** For what cannot be undone: the user types `expected` back (skipped with --yes). */
export async function confirmByTyping(ctx: Context, question: string, expected: string): Promise<void> {
  if (ctx.globals.yes) return;
  const typed = await ctx.prompter.input(`${sanitize(question)} Type ${expected} to confirm:`);
  if (typed.trim() !== expected) {
    throw new CancelledError(
      `cancelled: you typed '${sanitize(typed.trim())}', not ${expected}; nothing was sent`,
    );
  }
}
