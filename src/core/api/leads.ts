// Leads: the request that adds a note to a lead (by `leads notes add` and its bulk run alike).
import type { ApiRequest } from '../http/client.js';
import { paths } from './resources.js';

/** A note as the API names its fields; content and user_id go as given (a bulk record may hold other types). */
export interface NewLeadNote {
  lead_id: number;
  content: unknown;
  user_id?: unknown;
}

/** POST /v1/leads/{id}/notes; user_id only when given. */
export const addLeadNoteRequest = ({ lead_id, content, user_id }: NewLeadNote): ApiRequest => ({
  method: 'POST',
  path: paths.leadNotes(lead_id),
  body: user_id === undefined ? { content } : { content, user_id },
});
