// `clinic customers create`: POST /v1/customers with a body from --data and --set.

import { type BodyFlags, readBody } from '../../cli/body-input.js';
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { showDryRun, showResource } from '../../cli/present.js';
import { createCustomerRequest } from '../../core/api/resources.js';

export async function createCustomer(flags: BodyFlags, ctx: Context): Promise<void> {
  const body = await readBody(flags, ctx.io);
  const client = await ctx.http();
  const request = createCustomerRequest(body);
  if (ctx.globals.dryRun) return showDryRun(ctx, client, request);
  await showResource(ctx, await client.request(request), 'the new customer');
}

export default defineCommand({
  name: 'create',
  summary: 'create a customer',
  description:
    'Create a customer (POST /v1/customers). The API document does not show the body fields; the sandbox\n' +
    'takes first_name, last_name (required), email, phone_number and date_of_birth (YYYY-MM-DD).\n' +
    '--set key=value sets a string, --set key:=json a JSON value; both apply on top of --data.',
  options: [
    { flags: '--data <json|@file|->', description: 'the body: JSON text, @file, or - for stdin' },
    {
      flags: '--set <key=value>',
      description: 'set a field (repeatable; key:=json for non-strings)',
      repeatable: true,
    },
  ],
  examples: [
    'clinic customers create --set first_name=Ada --set last_name=Lovelace --set email=ada@example.com',
    'clinic customers create --data @customer.json',
    'echo \'{"first_name":"Ada","last_name":"King"}\' | clinic customers create --data -',
  ],
  run: (input, ctx) =>
    createCustomer(
      {
        data: input.options.data as string | undefined,
        set: (input.options.set as string[] | undefined) ?? [],
      },
      ctx,
    ),
});
