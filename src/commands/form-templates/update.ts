// `clinic form-templates update ID [--name] [--description] [--active|--inactive]`: PUT /v1/form-templates/{id}.
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { parseId } from '../../cli/parse-args.js';
import { sendAndShow } from '../../cli/present.js';
import { paths } from '../../core/api/resources.js';
import { UsageError } from '../../core/errors.js';
import type { UPDATE_OPTIONS } from './index.js';

export interface TemplateUpdate {
  id: number;
  body: { name?: string; description?: string; is_active?: boolean };
}

export function parse({ args, options }: CommandInput<typeof UPDATE_OPTIONS>): TemplateUpdate {
  const id = parseId(args[0] ?? '', 'form template ID');
  if (options.active && options.inactive) throw new UsageError('--active and --inactive disagree: give one');
  const body: TemplateUpdate['body'] = {};
  if (options.name !== undefined) body.name = options.name;
  if (options.description !== undefined) body.description = options.description;
  if (options.active || options.inactive) body.is_active = options.active === true;
  if (Object.keys(body).length === 0)
    throw new UsageError('nothing to change: give --name, --description, --active or --inactive');
  return { id, body };
}

/** The fields of the PUT body: the API document's generic rule makes a PUT a replacement of all of them. */
const FIELDS = ['name', 'description', 'is_active'] as const;

export async function updateTemplate({ id, body }: TemplateUpdate, ctx: Context): Promise<void> {
  // Only the fields given are sent (as the sandbox and most servers take a PUT); a server that replaces as the
  // document's generic rule says would clear the rest: said, before anything is sent.
  const left = FIELDS.filter((field) => !(field in body));
  if (left.length > 0)
    ctx.io.err(
      `note: only ${FIELDS.filter((field) => field in body).join(', ')} sent; the API document calls PUT a replacement, ` +
        `so a server that follows it may clear ${left.join(' and ')}: give all three to be sure`,
    );
  await sendAndShow(ctx, { method: 'PUT', path: paths.formTemplate(id), body }, `form template ${id}`);
}

export const run = verb(parse, updateTemplate);
