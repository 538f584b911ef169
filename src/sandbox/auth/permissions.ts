// What a token's scopes and a user's role in the tenant allow; both must agree before a handler runs.
import type { Role } from '../data/types.js';

const READS = [
  'customers.read',
  'users.read',
  'appointments.read',
  'channels.read',
  'conversations.read',
  'announcements.read',
  'ai-reports.read',
  'account-transaction-types.read',
  'data-erasure-requests.read',
] as const;

const WRITES = [
  'customers.write',
  'leads.write',
  'conversations.write',
  'form-templates.write',
  'sales.write',
  'data-erasure-requests.write',
] as const;

export type Ability = (typeof READS)[number] | (typeof WRITES)[number];

/** Everyone reads; viewers only read; only admins erase data; salespeople leave form templates alone. */
const ROLE_ABILITIES: Record<Role, readonly Ability[]> = {
  admin: [...READS, ...WRITES],
  staff: [
    ...READS,
    'customers.write',
    'leads.write',
    'conversations.write',
    'form-templates.write',
    'sales.write',
  ],
  salesperson: [...READS, 'customers.write', 'leads.write', 'conversations.write', 'sales.write'],
  viewer: READS,
};

export function roleAllows(role: Role, ability: Ability): boolean {
  return ROLE_ABILITIES[role].includes(ability);
}

export function scopesAllow(granted: readonly string[], required: string): boolean {
  return granted.includes('*') || granted.includes(required);
}
