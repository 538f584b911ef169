// `clinic customers create`: POST /v1/customers with a body from --data and --set, or one per record of --from.

import { readBody } from '../../cli/body-input.js';
import { type BulkRequest, checkBulkSets, parseBulkOptions, runBulkCommand } from '../../cli/bulk.js';
import { type CommandDef, type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { sendAndShow } from '../../cli/present.js';
import { createCustomerRequest } from '../../core/api/customers.js';
import { BULK_SCHEMAS } from '../../core/bulk/schemas.js';
import { UsageError } from '../../core/errors.js';
import type { CREATE_OPTIONS } from './index.js';

export interface CreateOptions {
  data?: string;
  set: string[];
  bulk?: BulkRequest;
}

export function parse({ options }: CommandInput<typeof CREATE_OPTIONS>): CreateOptions {
  const bulk = parseBulkOptions(options);
  if (bulk && options.data !== undefined) throw new UsageError('--data and --from disagree: give one');
  return { data: options.data, set: bulk ? checkBulkSets(options.set) : (options.set ?? []), bulk };
}

export async function createCustomer(options: CreateOptions, ctx: Context, spec: CommandDef): Promise<void> {
  if (options.bulk) return runBulkCommand(ctx, spec, BULK_SCHEMAS.customers, options.bulk, options.set);
  const body = await readBody({ data: options.data, set: options.set }, ctx.io);
  await sendAndShow(ctx, createCustomerRequest(body), 'the new customer');
}

export const run = verb(parse, createCustomer);
