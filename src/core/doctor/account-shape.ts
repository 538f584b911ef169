// What `GET /v1/account` answered, read defensively: the server may send anything, and a check must say what it
// found rather than print `undefined` or crash on a null tenant.

export interface TenantView {
  id: number | string;
  name?: string;
  slug?: string;
  is_active?: boolean;
}

export interface AccountView {
  id: number | string;
  name?: string;
  email?: string;
  tenants: TenantView[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A usable id: a number or a non-empty string (an object or a boolean is not one). */
const idOf = (value: unknown): number | string | undefined =>
  (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.trim() !== '')
    ? value
    : undefined;

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

function tenantOf(value: unknown): TenantView | undefined {
  if (!isObject(value)) return undefined;
  const id = idOf(value.id);
  if (id === undefined) return undefined;
  const tenant: TenantView = { id };
  const name = textOf(value.name);
  const slug = textOf(value.slug);
  if (name !== undefined) tenant.name = name;
  if (slug !== undefined) tenant.slug = slug;
  if (typeof value.is_active === 'boolean') tenant.is_active = value.is_active;
  return tenant;
}

/**
 * The account in an answer's `data`, or undefined when it is not one (not an object, or no id). Tenant entries that
 * are not objects with an id are left out; a name or email that is not text is left unset.
 */
export function readAccount(data: unknown): AccountView | undefined {
  if (!isObject(data)) return undefined;
  const id = idOf(data.id);
  if (id === undefined) return undefined;
  const tenants = Array.isArray(data.tenants) ? data.tenants.flatMap((t) => tenantOf(t) ?? []) : [];
  const account: AccountView = { id, tenants };
  const name = textOf(data.name);
  const email = textOf(data.email);
  if (name !== undefined) account.name = name;
  if (email !== undefined) account.email = email;
  return account;
}

/** `Ada Admin <ada@example.com> (user 7)`, `<ada@example.com> (user 7)`, or `user 7 (no name or email)`. */
export function describeUser(account: AccountView): string {
  const who = [account.name, account.email && `<${account.email}>`].filter(Boolean).join(' ');
  return who ? `${who} (user ${account.id})` : `user ${account.id} (no name or email)`;
}

/** `1 Northside Clinic` or just `1` when the tenant has no name. */
export const describeTenant = (tenant: TenantView): string =>
  tenant.name === undefined ? String(tenant.id) : `${tenant.id} ${tenant.name}`;
