// `clinic leads notes add LEAD_ID --content TEXT [--user-id N]`: POST /v1/leads/{id}/notes.
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { parseId } from '../../cli/parse-args.js';
import { sendAndShow } from '../../cli/present.js';
import { paths } from '../../core/api/resources.js';
import { UsageError } from '../../core/errors.js';
import type { NOTE_ADD_OPTIONS } from './index.js';

export interface NoteAddOptions {
  leadId: number;
  content: string;
  userId?: number;
}

export function parse({ args, options }: CommandInput<typeof NOTE_ADD_OPTIONS>): NoteAddOptions {
  const leadId = parseId(args[0] ?? '', 'lead ID');
  if (options.content === undefined) throw new UsageError('--content is required: the text of the note');
  return { leadId, content: options.content, userId: options.userId };
}

export async function addNote(options: NoteAddOptions, ctx: Context): Promise<void> {
  const body = {
    content: options.content,
    ...(options.userId === undefined ? {} : { user_id: options.userId }),
  };
  await sendAndShow(ctx, { method: 'POST', path: paths.leadNotes(options.leadId), body }, 'the new note');
}

export const run = verb(parse, addNote);
