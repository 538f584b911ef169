// `clinic conversations agent status|enable|disable ID`: the AI assistant of a conversation.
import { type CommandInput, verb } from '../../cli/command.js';
import { parseId } from '../../cli/parse-args.js';
import { sendAndShow, showResource } from '../../cli/present.js';
import { paths } from '../../core/api/resources.js';

const parse = ({ args }: CommandInput) => ({ id: parseId(args[0] ?? '', 'conversation ID') });

export const status = verb(parse, async ({ id }, ctx) => {
  const client = await ctx.http();
  await showResource(
    ctx,
    await client.request({ method: 'GET', path: paths.agent(id) }),
    'the assistant state',
    undefined,
    'any value', // its answer's shape is not shown
  );
});

const turn = (on: boolean) =>
  verb(parse, ({ id }, ctx) =>
    sendAndShow(ctx, { method: 'POST', path: paths.agentSwitch(id, on) }, 'the assistant state'),
  );

export const enable = turn(true);
export const disable = turn(false);
