// `<noun> get ID`, the verb every noun with records shares: apart from the list verbs (resource-verbs.ts), so showing
// one record loads nothing of paging or exports.
import { type CommandInput, type CommandRun, verb } from './command.js';
import { parseId } from './parse-args.js';
import { showResource } from './present.js';

/** `<noun> get ID`: GET path(id), one record. */
export function showById(what: string, path: (id: number) => string): CommandRun {
  return verb(
    ({ args }: CommandInput) => ({ id: parseId(args[0] ?? '', `${what} ID`) }),
    async ({ id }, ctx) => {
      const client = await ctx.http();
      const request = { method: 'GET', path: path(id) };
      await showResource(ctx, await client.request(request), `${what} ${id}`, request.path);
    },
  );
}
