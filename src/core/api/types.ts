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

export interface DataEnvelope<T> {
  success?: boolean;
  data: T;
}
