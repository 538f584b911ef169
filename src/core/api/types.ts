// Shapes of the API's resources as far as clinic-api.md shows them; unknown fields pass through untouched.

export interface TenantRef {
  id: number;
  name: string;
  slug: string;
  avatar_url?: string | null;
  is_active?: boolean;
}

export interface Account {
  id: number;
  name: string;
  email: string;
  tenants: TenantRef[];
  [field: string]: unknown;
}

export interface RecordState {
  is_read_only: boolean;
  reason_code: string | null;
}

/** Customer fields beyond these are not shown in the API document. */
export interface Customer {
  id: number;
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  phone_number?: string | null;
  is_masked?: boolean;
  record_state?: RecordState;
  [field: string]: unknown;
}

export interface DataEnvelope<T> {
  success?: boolean;
  data: T;
}
