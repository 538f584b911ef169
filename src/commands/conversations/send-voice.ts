// `clinic conversations send-voice ID FILE`: multipart upload streamed from disk, checked before sending.
import { basename } from 'node:path';
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { parseId } from '../../cli/parse-args.js';
import { showDryRun, showResource } from '../../cli/present.js';
import { checkUploadFile } from '../../cli/upload-file.js';
import { paths } from '../../core/api/resources.js';
import { UsageError } from '../../core/errors.js';
import type { SEND_VOICE_OPTIONS } from './index.js';

/** The API's bound "51200" for the voice file, its unit not shown: read as KiB unless --max-kib says otherwise. */
export const VOICE_MAX_KIB = 51_200;

export function parse({ args, options }: CommandInput<typeof SEND_VOICE_OPTIONS>) {
  const file = args[1] ?? '';
  if (file.trim() === '') throw new UsageError('give the audio FILE to send');
  const maxKib = options.maxKib ?? VOICE_MAX_KIB;
  return {
    conversationId: parseId(args[0] ?? '', 'conversation ID'),
    file,
    maxBytes: maxKib === 0 ? Infinity : maxKib * 1024,
  };
}

export async function sendVoice(options: ReturnType<typeof parse>, ctx: Context): Promise<void> {
  const checked = await checkUploadFile(
    options.file,
    options.maxBytes,
    " (the API document's 51200, read as KiB: --max-kib N sets another bound, 0 none)",
  );
  const client = await ctx.http();
  const path = paths.voice(options.conversationId);
  if (ctx.globals.dryRun) return showDryRun(ctx, client, { method: 'POST', path }, checked);
  const { multipartBody } = await import('../../core/http/transport/multipart.js');
  const form = multipartBody([{ name: 'file', filename: basename(checked.path), ...checked }]);
  await showResource(
    ctx,
    await client.request({ method: 'POST', path, form }),
    'the voice message',
    path,
    'any value',
  );
}

export const run = verb(parse, sendVoice);
