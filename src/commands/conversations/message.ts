// `clinic conversations message ID MESSAGE_ID`: GET /v1/conversations/{id}/messages/{messageId}.
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { parseId } from '../../cli/parse-args.js';
import { showResource } from '../../cli/present.js';
import { paths } from '../../core/api/resources.js';

export const parse = ({ args }: CommandInput) => ({
  conversationId: parseId(args[0] ?? '', 'conversation ID'),
  messageId: parseId(args[1] ?? '', 'message ID'),
});

export async function showMessage(ids: ReturnType<typeof parse>, ctx: Context): Promise<void> {
  const client = await ctx.http();
  const path = paths.message(ids.conversationId, ids.messageId);
  await showResource(ctx, await client.request({ method: 'GET', path }), `message ${ids.messageId}`, path);
}

export const run = verb(parse, showMessage);
