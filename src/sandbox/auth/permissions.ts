// What a token's scopes and a user's role in the tenant allow; both must agree before a handler runs.
import type { Role } from '../data/types.js';

export type Ability = 'customers.read' | 'customers.write' | 'users.read';

const ROLE_ABILITIES: Record<Role, readonly Ability[]> = {
  admin: ['customers.read', 'customers.write', 'users.read'],
  staff: ['customers.read', 'customers.write', 'users.read'],
  salesperson: ['customers.read', 'customers.write', 'users.read'],
  viewer: ['customers.read', 'users.read'],
};

export function roleAllows(role: Role, ability: Ability): boolean {
  return ROLE_ABILITIES[role].includes(ability);
}

export function scopesAllow(granted: readonly string[], required: string): boolean {
  return granted.includes('*') || granted.includes(required);
}
