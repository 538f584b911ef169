// The fixed cast of every sandbox: four tenants, four users and their roles (independent of the seed).
import { apiTimestamp, minutesAfterEpoch } from './time.js';
import type { MembershipRecord, TenantRecord, UserRecord } from './types.js';

const AVATAR_BASE = 'https://avatars.clinic-sandbox.test';

function tenant(id: number, name: string, slug: string, extra: Partial<TenantRecord> = {}): TenantRecord {
  return {
    id,
    name,
    slug,
    avatar_url: `${AVATAR_BASE}/tenants/${slug}.png`,
    is_active: true,
    setup_next_step: null,
    ...extra,
  };
}

export const TENANTS: readonly TenantRecord[] = [
  tenant(1, 'Northside Clinic', 'northside'),
  tenant(2, 'Harbor Dental', 'harbor-dental'),
  tenant(3, 'Lakeview Physio', 'lakeview-physio', {
    setup_next_step: 'Add a billing address in Settings > Billing',
  }),
  tenant(4, 'Closed Clinic', 'closed-clinic', { is_active: false }),
];

interface Person {
  id: number;
  name: string;
  title: string;
  blood_group: string;
  language: string[];
  bio: string;
}

function user(person: Person): UserRecord {
  const [first = '', last = ''] = person.name.split(' ');
  const createdMs = minutesAfterEpoch(-365 * 24 * 60 + person.id * 97);
  // Fields in the order the API document lists them, so answers read naturally.
  return {
    id: person.id,
    name: person.name,
    email: `${first}.${last}@clinic-sandbox.test`.toLowerCase(),
    title: person.title,
    phone: `+44 7700 90010${person.id}`,
    emergency_contact_name: 'Alex',
    emergency_contact_surname: last,
    emergency_contact_phone_number: `+44 7700 90020${person.id}`,
    blood_group: person.blood_group,
    language: person.language,
    avatar_url: `${AVATAR_BASE}/users/${person.id}.png`,
    is_active: true,
    bio: person.bio,
    last_login_at: apiTimestamp(minutesAfterEpoch(-60 * person.id)),
    last_login_ip: '127.0.0.1',
    created_at: apiTimestamp(createdMs),
    updated_at: apiTimestamp(createdMs + 3_600_000),
  };
}

export const USERS: readonly UserRecord[] = [
  user({
    id: 1,
    name: 'Dana Admin',
    title: 'Practice Manager',
    blood_group: 'A+',
    language: ['en'],
    bio: 'Runs the front office.',
  }),
  user({
    id: 2,
    name: 'Sam Sales',
    title: 'Patient Coordinator',
    blood_group: 'O+',
    language: ['en', 'es'],
    bio: 'Turns enquiries into bookings.',
  }),
  user({
    id: 3,
    name: 'Vera Viewer',
    title: 'Auditor',
    blood_group: 'B-',
    language: ['en', 'de'],
    bio: 'Reviews records, read only.',
  }),
  user({
    id: 4,
    name: 'Noor Nurse',
    title: 'Dental Nurse',
    blood_group: 'AB+',
    language: ['en', 'ar'],
    bio: 'Chairside and recall calls.',
  }),
];

export const MEMBERSHIPS: readonly MembershipRecord[] = [
  { userId: 1, tenantId: 1, role: 'admin' },
  { userId: 1, tenantId: 2, role: 'admin' },
  { userId: 1, tenantId: 3, role: 'admin' },
  { userId: 2, tenantId: 1, role: 'salesperson' },
  { userId: 3, tenantId: 1, role: 'viewer' },
  { userId: 3, tenantId: 2, role: 'viewer' },
  { userId: 4, tenantId: 2, role: 'staff' },
];

/** The user whose leads are confidential to everyone else but admins. */
export const LEAD_OWNER_USER_ID = 2;
