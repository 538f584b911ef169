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

export function customerView(customer: CustomerRecord, viewer: Viewer) {
  const masked = isMaskedFor(customer, viewer);
  const hide = <T extends string | null>(value: T, mask: (text: string) => string) =>
    masked && value !== null ? mask(value) : value;
  return {
    id: customer.id,
    tenant_id: customer.tenant_id,
    first_name: hide(customer.first_name, maskName),
    last_name: hide(customer.last_name, maskName),
    email: hide(customer.email, maskEmail),
    phone_number: hide(customer.phone_number, maskPhone),
    date_of_birth: customer.date_of_birth,
    gender: customer.gender,
    notes: customer.notes,
    lead_id: customer.lead_id,
    is_lead_stage: false,
    is_masked: masked,
    record_state: customer.is_erased
      ? { is_read_only: true, reason_code: 'CUSTOMER_ERASED' }
      : { is_read_only: false, reason_code: null },
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
