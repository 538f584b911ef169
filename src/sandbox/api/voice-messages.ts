// POST /v1/conversations/{id}/messages/voice: a multipart upload of one `file` part, queued as an audio message.
import { offsetTimestamp } from '../data/time.js';
import type { FieldErrors } from '../http/responses.js';
import { type PartInfo, readMultipart } from '../http/multipart.js';
import { addFieldError, throwIfInvalid } from './field-errors.js';
import { findConversation } from './conversations.js';
import { ok, type Route, type TenantContext, tenantRoute } from './route.js';

/** The API's bound on `file` is 51200, unit not shown: the sandbox reads it as KiB (50 MiB). */
export const VOICE_FILE_MAX_KIB = 51200;
const MAX_FILE_BYTES = VOICE_FILE_MAX_KIB * 1024;
/** Up to this much the body is read to the end and answered 422; beyond it, 413 and the connection closes. */
const MAX_BODY_BYTES = 2 * MAX_FILE_BYTES;

export const voiceMessageRoutes: Route[] = [
  tenantRoute('POST', '/v1/conversations/{id}/messages/voice', 'conversations.write', sendVoiceMessage),
];

async function sendVoiceMessage(ctx: TenantContext) {
  const conversation = findConversation(ctx);
  const upload = await readMultipart(ctx.req, MAX_BODY_BYTES);
  checkFile(
    upload.parts.find((part) => part.name === 'file'),
    upload.complete,
  );
  const nowMs = ctx.now();
  const log = ctx.store.chat.add(
    {
      tenant_id: ctx.tenant.id,
      conversation_id: conversation.id,
      sender_type: 'user',
      sender_id: ctx.user.id,
      body: 'Voice message',
      media_type: 'audio',
      status: 'queued',
      read_at: null,
    },
    nowMs,
  );
  conversation.last_message_at = offsetTimestamp(nowMs);
  return ok({ status: 'queued', message_id: String(log.id), conversation_id: String(conversation.id) }, 201);
}

function checkFile(file: PartInfo | undefined, complete: boolean): void {
  const errors: FieldErrors = {};
  const add = (message: string) => addFieldError(errors, 'file', message);
  if (file === undefined) add('The file field is required.');
  else if (file.filename === null) add('The file field must be a file.');
  else if (!complete) add('The file failed to upload.');
  else if (file.size === 0) add('The file field must not be empty.');
  else if (file.size > MAX_FILE_BYTES) {
    add(`The file field must not be greater than ${VOICE_FILE_MAX_KIB} kilobytes.`);
  }
  throwIfInvalid(errors);
}
