// `clinic erasure create --customer ID [--reason TEXT]`: POST /v1/data-erasure-requests after a typed confirmation.
import { type BulkRequest, checkBulkSets, parseBulkOptions, runBulkCommand } from '../../cli/bulk.js';
import { type CommandDef, type CommandInput, verb } from '../../cli/command.js';
import { confirmByTyping } from '../../cli/confirm.js';
import type { Context } from '../../cli/context.js';
import { sendAndShow } from '../../cli/present.js';
import { createErasureRequest } from '../../core/api/erasure.js';
import { BULK_SCHEMAS } from '../../core/bulk/schemas.js';
import { UsageError } from '../../core/errors.js';
import { whoIs } from './customer-identity.js';
import type { CREATE_OPTIONS } from './index.js';

export type ErasureCreate =
  { customerId: number; reason?: string; bulk?: undefined } | { bulk: BulkRequest; set: string[] };

export function parse({ options }: CommandInput<typeof CREATE_OPTIONS>): ErasureCreate {
  const bulk = parseBulkOptions(options);
  if (bulk) {
    const stray = [
      options.customer !== undefined && '--customer',
      options.reason !== undefined && '--reason',
    ].find(Boolean);
    if (stray)
      throw new UsageError(`${stray} and --from disagree: each record gives customer_id and request_reason`);
    return { bulk, set: checkBulkSets(options.set) };
  }
  if (options.set !== undefined) throw new UsageError('--set goes with --from FILE');
  if (options.customer === undefined)
    throw new UsageError('--customer ID is required: whose data is to be erased');
  return { customerId: options.customer, reason: options.reason };
}

export async function createErasure(options: ErasureCreate, ctx: Context, spec: CommandDef): Promise<void> {
  if (options.bulk) return runBulkCommand(ctx, spec, BULK_SCHEMAS.erasure, options.bulk, options.set);
  if (!ctx.globals.dryRun && !ctx.globals.yes) {
    const who = await whoIs(ctx, options.customerId);
    await confirmByTyping(
      ctx,
      `This requests the erasure of all data of ${who}, for good.`,
      String(options.customerId),
    );
  }
  const request = createErasureRequest({ customer_id: options.customerId, request_reason: options.reason });
  await sendAndShow(ctx, request, 'the new erasure request');
}

export const run = verb(parse, createErasure);
