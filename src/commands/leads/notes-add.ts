// `clinic leads notes add LEAD_ID --content TEXT [--user-id N]`: POST /v1/leads/{id}/notes.
import { type BulkRequest, checkBulkSets, parseBulkOptions, runBulkCommand } from '../../cli/bulk.js';
import { type CommandDef, type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { parseId } from '../../cli/parse-args.js';
import { sendAndShow } from '../../cli/present.js';
import { addLeadNoteRequest } from '../../core/api/leads.js';
import { BULK_SCHEMAS } from '../../core/bulk/schemas.js';
import { UsageError } from '../../core/errors.js';
import type { NOTE_ADD_OPTIONS } from './index.js';

export type NoteAddOptions =
  | { leadId: number; content: string; userId?: number; bulk?: undefined }
  | { bulk: BulkRequest; set: string[] };

export function parse({ args, options }: CommandInput<typeof NOTE_ADD_OPTIONS>): NoteAddOptions {
  const bulk = parseBulkOptions(options);
  if (bulk) {
    const single = [
      args[0] !== undefined && 'LEAD_ID',
      options.content !== undefined && '--content',
      options.userId !== undefined && '--user-id',
    ];
    const stray = single.find(Boolean);
    if (stray)
      throw new UsageError(`${stray} and --from disagree: each record gives lead_id, content and user_id`);
    return { bulk, set: checkBulkSets(options.set) };
  }
  if (options.set !== undefined) throw new UsageError('--set goes with --from FILE');
  const leadId = parseId(args[0] ?? '', 'lead ID');
  if (options.content === undefined) throw new UsageError('--content is required: the text of the note');
  return { leadId, content: options.content, userId: options.userId };
}

export async function addNote(options: NoteAddOptions, ctx: Context, spec: CommandDef): Promise<void> {
  if (options.bulk) return runBulkCommand(ctx, spec, BULK_SCHEMAS.leadNotes, options.bulk, options.set);
  const note = { lead_id: options.leadId, content: options.content, user_id: options.userId };
  await sendAndShow(ctx, addLeadNoteRequest(note), 'the new note');
}

export const run = verb(parse, addNote);
