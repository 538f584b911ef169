// `clinic erasure resend|cancel|retry ID`: read the request, act only where its state_allows permits.
import { type CommandDef, type CommandInput, verb } from '../../cli/command.js';
import { confirmOrCancel } from '../../cli/confirm.js';
import type { Context } from '../../cli/context.js';
import { parseId } from '../../cli/parse-args.js';
import { sendAndShow } from '../../cli/present.js';
import { checkAllowed, getErasureRequest } from '../../core/api/erasure.js';
import { paths } from '../../core/api/resources.js';
import { UsageError } from '../../core/errors.js';
import { customerIdOf, whoIs } from './customer-identity.js';
import type { CANCEL_OPTIONS } from './index.js';

type Action = 'resend' | 'cancel' | 'retry';

export interface ErasureActionOptions {
  id: number;
  reason?: string;
}

/** What the commands whose spec declares a confirmation ask, once the request's status is known. */
const QUESTIONS: Partial<Record<Action, (id: number, status: string, who: string) => string>> = {
  cancel: (id, status) => `Withdraw erasure request ${id} (now ${status})?`,
  retry: (id, _status, who) => `Run erasure request ${id} again? It erases the data of ${who}, for good.`,
};

export function parse(action: Action) {
  return ({ args, options }: CommandInput<typeof CANCEL_OPTIONS>): ErasureActionOptions => {
    const id = parseId(args[0] ?? '', 'erasure request ID');
    if (action === 'cancel' && options.reason === undefined)
      throw new UsageError('--reason TEXT is required: why the request is withdrawn');
    return { id, reason: options.reason };
  };
}

export function act(action: Action) {
  return async (options: ErasureActionOptions, ctx: Context, spec: CommandDef): Promise<void> => {
    // Where it cannot be confirmed, `verb` has refused it before any request, the read included.
    const question = spec.confirm && QUESTIONS[action];
    const client = await ctx.http();
    const request = await getErasureRequest(client, options.id);
    checkAllowed(request, action);
    if (question && !ctx.globals.dryRun && !ctx.globals.yes) {
      // Whose data goes, as the server shows them, where the question erases it.
      const customer = action === 'retry' ? customerIdOf(request.customer_id) : undefined;
      const who = customer === undefined ? 'the patient' : await whoIs(ctx, customer, { gone: true });
      await confirmOrCancel(ctx, question(options.id, request.status, who));
    }
    const body = action === 'cancel' ? { cancellation_reason: options.reason } : undefined;
    const post = { method: 'POST', path: paths.erasureAction(options.id, action), body };
    await sendAndShow(ctx, post, `erasure request ${options.id}`);
  };
}

export const resend = verb(parse('resend'), act('resend'));
export const cancel = verb(parse('cancel'), act('cancel'));
export const retry = verb(parse('retry'), act('retry'));
