// The API's embedded shapes, as one viewer sees them: RelatedCustomer and RelatedUser.
import type { CustomerRecord, UserRecord } from '../data/types.js';
import { identityFor, recordStateFor, type Viewer } from './customer-view.js';
import type { TenantContext } from './route.js';

export function viewerOf(ctx: TenantContext): Viewer {
  return { userId: ctx.user.id, role: ctx.role };
}

export function relatedCustomer(person: CustomerRecord, viewer: Viewer) {
  const identity = identityFor(person, viewer);
  return {
    id: person.id,
    record_state: recordStateFor(person, viewer),
    first_name: identity.first_name,
    last_name: identity.last_name,
    phone_number: identity.phone_number,
    email: identity.email,
    is_masked: identity.is_masked,
    is_lead_stage: person.is_lead_stage,
    lead_id: person.lead_id,
  };
}

/**
 * A RelatedUser without `avatar_url`, which the document has "present only on responses that opt in" and names no
 * way of opting in to.
 */
export function relatedUser(user: UserRecord) {
  return { id: user.id, name: user.name };
}

/** A RelatedUser with its photo, for a shape whose own field list has `avatar_url` (the LeadNote author). */
export function relatedUserWithAvatar(user: UserRecord) {
  return { ...relatedUser(user), avatar_url: user.avatar_url };
}
