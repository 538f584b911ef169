// Records kept by the sandbox store: the server-side truth the REST handlers serialize from.

export type Role = 'admin' | 'staff' | 'salesperson' | 'viewer';

export interface TenantRecord {
  id: number;
  name: string;
  slug: string;
  avatar_url: string;
  is_active: boolean;
  /** Non-null while mandatory setup is incomplete: every tenant-scoped call then answers 428. */
  setup_next_step: string | null;
}

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  title: string;
  phone: string;
  emergency_contact_name: string;
  emergency_contact_surname: string;
  emergency_contact_phone_number: string;
  blood_group: string;
  language: string[];
  avatar_url: string;
  is_active: boolean;
  bio: string;
  last_login_at: string;
  last_login_ip: string;
  created_at: string;
  updated_at: string;
}

export interface MembershipRecord {
  tenantId: number;
  userId: number;
  role: Role;
}

export interface CustomerRecord {
  id: number;
  tenant_id: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_number: string | null;
  date_of_birth: string | null;
  gender: string | null;
  notes: string | null;
  lead_id: number | null;
  assigned_user_id: number | null;
  is_erased: boolean;
  /** True for a person still at the lead stage: not a patient, so absent from /v1/customers. */
  is_lead_stage: boolean;
  created_at: string;
  updated_at: string;
}

export interface LeadRecord {
  id: number;
  tenant_id: number;
  name: string;
  status: string;
  assigned_user_id: number | null;
  /** The person: a patient once converted, else a lead-stage customer record. */
  customer_id: number | null;
  created_at: string;
}

export interface LeadNoteRecord {
  id: number;
  tenant_id: number;
  lead_id: number;
  content: string;
  user_id: number;
  origin: 'panel';
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
