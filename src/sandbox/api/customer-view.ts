// Serializes a customer for one viewer: confidential lead patients are masked, erased ones read-only.
import type { CustomerRecord, Role } from '../data/types.js';

export interface Viewer {
  userId: number;
  role: Role;
}

/** A patient who came from a lead is confidential to the lead's assignee and admins. */
export function isMaskedFor(customer: CustomerRecord, viewer: Viewer): boolean {
  if (customer.lead_id === null || customer.assigned_user_id === null) return false;
  return viewer.role !== 'admin' && viewer.userId !== customer.assigned_user_id;
}

/** Name, email and phone as this viewer may see them. */
export function identityFor(customer: CustomerRecord, viewer: Viewer) {
  const masked = isMaskedFor(customer, viewer);
  const hide = <T extends string | null>(value: T, mask: (text: string) => string) =>
    masked && value !== null ? mask(value) : value;
  return {
    first_name: hide(customer.first_name, maskName),
    last_name: hide(customer.last_name, maskName),
    email: hide(customer.email, maskEmail),
    phone_number: hide(customer.phone_number, maskPhone),
    is_masked: masked,
  };
}

/** Erased people are read-only for everyone; a salesperson cannot write to another rep's lead. */
export function recordStateFor(customer: CustomerRecord, viewer: Viewer) {
  if (customer.is_erased) return { is_read_only: true, reason_code: 'CUSTOMER_ERASED' } as const;
  const othersLead =
    customer.is_lead_stage &&
    customer.assigned_user_id !== null &&
    customer.assigned_user_id !== viewer.userId;
  if (viewer.role === 'salesperson' && othersLead) {
    return { is_read_only: true, reason_code: 'LEAD_NOT_ASSIGNED' } as const;
  }
  return { is_read_only: false, reason_code: null } as const;
}

export function customerView(customer: CustomerRecord, viewer: Viewer) {
  const { is_masked, ...identity } = identityFor(customer, viewer);
  return {
    id: customer.id,
    tenant_id: customer.tenant_id,
    first_name: identity.first_name,
    last_name: identity.last_name,
    email: identity.email,
    phone_number: identity.phone_number,
    date_of_birth: customer.date_of_birth,
    gender: customer.gender,
    notes: customer.notes,
    lead_id: customer.lead_id,
    is_lead_stage: customer.is_lead_stage,
    is_masked,
    record_state: recordStateFor(customer, viewer),
    assigned_user_id: customer.assigned_user_id,
    created_at: customer.created_at,
    updated_at: customer.updated_at,
  };
}

export type CustomerView = ReturnType<typeof customerView>;

function maskName(name: string): string {
  return `${name.slice(0, 1)}***`;
}

function maskEmail(email: string): string {
  return `${email.slice(0, 1)}***@***`;
}

function maskPhone(phone: string): string {
  return `***${phone.replace(/\D/g, '').slice(-4)}`;
}
