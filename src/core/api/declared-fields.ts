// The fields each resource of the API document (clinic-api.md) declares, as dotted paths to their leaves: CSV's first
// columns, so an export's columns never depend on which records happen to come first.
import { isDigits } from '../plain-text.js';

/** A resource's fields in the document's order; a nested object's fields under its name. */
type Shape = readonly (string | readonly [string, Shape])[];

const RECORD_STATE: Shape = ['is_read_only', 'reason_code'];
const RELATED_USER: Shape = ['id', 'name', 'avatar_url'];
const RELATED_CUSTOMER: Shape = [
  'id',
  ['record_state', RECORD_STATE],
  'first_name',
  'last_name',
  'phone_number',
  'email',
  'is_masked',
  'is_lead_stage',
  'lead_id',
];

const RESOURCES = {
  DataErasureRequest: [
    'id',
    'tenant_id',
    'customer_id',
    ['customer', RELATED_CUSTOMER],
    ['requested_by', RELATED_USER],
    ['cancelled_by', RELATED_USER],
    'status',
    'request_reason',
    'scope_summary',
    'verification_channel',
    'verification_expires_at',
    'resend_count',
    'last_sent_at',
    'verified_at',
    'executed_at',
    'execution_report',
    'certificate_code',
    'cancelled_at',
    'cancellation_reason',
    ['state_allows', ['resend', 'cancel', 'retry', 'certificate']],
    'created_at',
    'updated_at',
  ],
  /** (assumed) The document shows a customer only as a RelatedCustomer; a customer record has those fields too. */
  Customer: RELATED_CUSTOMER,
  FormTemplate: [
    'id',
    'name',
    'system_name',
    'description',
    'is_active',
    'created_at',
    'updated_at',
    'deleted_at',
    'questions',
  ],
  LeadNote: [
    'id',
    ['record_state', RECORD_STATE],
    'content',
    'user_id',
    'origin',
    'source_lead_id',
    'created_at',
    'updated_at',
    'deleted_at',
    ['author', RELATED_USER],
  ],
  Announcement: [
    'id',
    'title',
    'content',
    'is_active',
    'severity',
    'start_date',
    'end_date',
    'created_at',
    'updated_at',
  ],
  Account: [
    'id',
    'name',
    'email',
    'title',
    'phone',
    'emergency_contact_name',
    'emergency_contact_surname',
    'emergency_contact_phone_number',
    'blood_group',
    'language',
    'avatar_url',
    'is_active',
    'bio',
    'last_login_at',
    'last_login_ip',
    'created_at',
    'updated_at',
    'tenants',
  ],
  /** An element of the account's `tenants`. */
  Tenant: ['id', 'name', 'slug', 'avatar_url', 'is_active'],
  VoiceMessageAck: ['status', 'message_id', 'conversation_id'],
  /** A chat message: the ChatLogCreated payload, which the REST message list serves too. */
  ChatLog: [
    'id',
    'tenant_id',
    'conversation_id',
    'sender_type',
    'sender_id',
    'body',
    'media_type',
    'status',
    'read_at',
    'created_at',
    'updated_at',
  ],
  TransactionType: ['slug', 'label'],
} as const satisfies Record<string, Shape>;

export type ResourceName = keyof typeof RESOURCES;

/**
 * Which resource an API path answers with (its records, for a list): the paths, `{id}` standing for a number. Matched
 * segment by segment (see plain-text.ts: no regular expression to compile on each run).
 */
const RESOURCE_AT: readonly [string[], ResourceName][] = [
  [
    [
      '/v1/data-erasure-requests',
      '/v1/data-erasure-requests/{id}',
      '/v1/data-erasure-requests/{id}/resend',
      '/v1/data-erasure-requests/{id}/cancel',
      '/v1/data-erasure-requests/{id}/retry',
    ],
    'DataErasureRequest',
  ],
  [['/v1/customers', '/v1/customers/{id}'], 'Customer'],
  [['/v1/form-templates/{id}'], 'FormTemplate'],
  [['/v1/leads/{id}/notes'], 'LeadNote'],
  [['/v1/announcements/{id}'], 'Announcement'],
  [['/v1/account'], 'Account'],
  [['/v1/conversations/{id}/messages/voice'], 'VoiceMessageAck'],
  [['/v1/conversations/{id}/messages', '/v1/conversations/{id}/messages/{id}'], 'ChatLog'],
  [['/v1/account-transaction-types'], 'TransactionType'],
];

/** Whether `path` is `template` with each `{id}` a number (one or more digits). */
function pathMatches(path: string, template: string): boolean {
  const segments = path.split('/');
  const wanted = template.split('/');
  return (
    segments.length === wanted.length &&
    wanted.every((segment, i) => (segment === '{id}' ? isDigits(segments[i]!) : segment === segments[i]))
  );
}

function leaves(shape: Shape, prefix: string): string[] {
  return shape.flatMap((field) =>
    typeof field === 'string' ? [`${prefix}${field}`] : leaves(field[1], `${prefix}${field[0]}.`),
  );
}

/** The resource's declared fields, nested ones as dotted paths (`customer.record_state.is_read_only`). */
export function declaredFields(resource: ResourceName): string[] {
  return leaves(RESOURCES[resource], '');
}

/** The declared fields of what `path` answers with; undefined where the document shows no fields. */
export function declaredFieldsAt(path: string): string[] | undefined {
  const found = RESOURCE_AT.find(([templates]) => templates.some((template) => pathMatches(path, template)));
  return found && declaredFields(found[1]);
}
