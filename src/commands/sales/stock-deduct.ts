// `clinic sales stock-deduct ID`: POST /v1/sales/{id}/stock-deduct, after a confirmation.
import { type CommandInput, verb } from '../../cli/command.js';
import { confirmOrCancel } from '../../cli/confirm.js';
import type { Context } from '../../cli/context.js';
import { parseId } from '../../cli/parse-args.js';
import { sendAndShow } from '../../cli/present.js';
import { paths } from '../../core/api/resources.js';

export const parse = ({ args }: CommandInput) => ({ id: parseId(args[0] ?? '', 'sale ID') });

export async function stockDeduct({ id }: { id: number }, ctx: Context): Promise<void> {
  if (!ctx.globals.dryRun) await confirmOrCancel(ctx, `Deduct the product items of sale ${id} from stock?`);
  await sendAndShow(ctx, { method: 'POST', path: paths.stockDeduct(id) }, `sale ${id}`);
}

export const run = verb(parse, stockDeduct);
