// Seeded appointments, announcements, AI reports and sales, in fixed id blocks per tenant.
import { pick, type Random, randomInt } from '../random.js';
import type {
  AiReportRecord,
  AnnouncementRecord,
  AppointmentRecord,
  AppointmentStatus,
  SaleItem,
  SaleRecord,
} from './clinic-types.js';
import { blockIds } from './fixtures.js';
import { apiTimestamp, minutesAfterEpoch, SEED_EPOCH_MS } from './time.js';
import type { CustomerRecord, MembershipRecord } from './types.js';

const DAY_MINUTES = 24 * 60;

const APPOINTMENT_TITLES = [
  'Initial consultation',
  'Follow-up visit',
  'Hygiene cleaning',
  'X-ray review',
  'Physiotherapy session',
  'Treatment planning',
] as const;

const APPOINTMENT_NOTES = [
  'Bring previous X-rays',
  'Patient prefers the ground-floor room',
  'Running 10 minutes late, called ahead',
] as const;

/** The first four appointments are history; the rest are booked ahead. */
const PAST_STATUSES: readonly AppointmentStatus[] = ['completed', 'no_show', 'cancelled', 'completed'];

export function seedAppointments(
  random: Random,
  tenantId: number,
  patients: readonly CustomerRecord[],
  memberships: readonly MembershipRecord[],
): AppointmentRecord[] {
  const living = patients.filter((patient) => !patient.is_erased);
  // Every third appointment is with a patient who came from a lead, so masking shows up in the list.
  const fromLeads = living.filter((patient) => patient.lead_id !== null);
  const customerFor = (index: number) =>
    (index % 3 === 1 ? fromLeads[index % Math.max(1, fromLeads.length)] : undefined) ??
    living[(index * 5) % Math.max(1, living.length)];
  const clinicians = memberships.filter((m) => m.tenantId === tenantId && m.role !== 'viewer');
  return blockIds('appointments', tenantId).map((id, index) => {
    const day = index * 6 - 20;
    const startMs = minutesAfterEpoch(day * DAY_MINUTES + randomInt(random, 16, 34) * 30);
    const endMs = startMs + pick(random, [30, 45, 60]) * 60_000;
    const createdMs = startMs - randomInt(random, 2, 20) * DAY_MINUTES * 60_000;
    return {
      id,
      tenant_id: tenantId,
      customer_id: customerFor(index)?.id ?? null,
      user_id: clinicians[index % Math.max(1, clinicians.length)]?.userId ?? 1,
      title: pick(random, APPOINTMENT_TITLES),
      status: PAST_STATUSES[index] ?? 'scheduled',
      starts_at: apiTimestamp(startMs),
      ends_at: apiTimestamp(endMs),
      notes: random() < 0.3 ? pick(random, APPOINTMENT_NOTES) : null,
      created_at: apiTimestamp(createdMs),
      updated_at: apiTimestamp(createdMs),
    };
  });
}

/** Three current announcements, one expired (ended before the seed epoch) and one inactive. */
export function seedAnnouncements(tenantId: number): AnnouncementRecord[] {
  const [a = 0, b = 0, c = 0, expired = 0, inactive = 0] = blockIds('announcements', tenantId);
  const far = '2030-12-31T23:59:59.000000Z';
  const made = (days: number) => apiTimestamp(minutesAfterEpoch(days * DAY_MINUTES));
  const announcement = (
    id: number,
    title: string,
    content: string,
    severity: AnnouncementRecord['severity'],
    options: { active?: boolean; start?: string; end?: string } = {},
  ): AnnouncementRecord => ({
    id,
    tenant_id: tenantId,
    title,
    content,
    is_active: options.active ?? true,
    severity,
    start_date: options.start ?? made(-10),
    end_date: options.end ?? far,
    created_at: made(-12),
    updated_at: made(-11),
  });
  return [
    announcement(a, 'Holiday opening hours', 'The clinic closes at 14:00 on public holidays.', 'info'),
    announcement(b, 'New booking system', 'Online bookings now confirm by SMS; tell patients.', 'warning'),
    announcement(c, 'Planned maintenance', 'The panel is offline on Sunday 02:00-03:00 UTC.', 'critical'),
    announcement(expired, 'Flu clinic', 'Walk-in flu vaccinations on Thursdays.', 'info', {
      start: '2025-10-01T00:00:00.000000Z',
      end: '2025-11-30T23:59:59.000000Z',
    }),
    announcement(inactive, 'Draft: price changes', 'New price list from next quarter (draft).', 'warning', {
      active: false,
    }),
  ];
}

/** Two ready reports and one still generating (its PDF answers BAD_REQUEST). */
export function seedAiReports(tenantId: number): AiReportRecord[] {
  const titles = [
    'Monthly activity - December 2025',
    'Lead conversion - Q4 2025',
    'Patient feedback - January',
  ];
  const periods = [
    ['2025-12-01', '2025-12-31'],
    ['2025-10-01', '2025-12-31'],
    ['2026-01-01', '2026-01-31'],
  ];
  return blockIds('aiReports', tenantId).map((id, index) => ({
    id,
    tenant_id: tenantId,
    title: titles[index] ?? `Report ${id}`,
    status: index === 2 ? 'generating' : 'ready',
    period_start: periods[index]?.[0] ?? '2026-01-01',
    period_end: periods[index]?.[1] ?? '2026-01-31',
    created_at: apiTimestamp(minutesAfterEpoch(index * DAY_MINUTES)),
  }));
}

const PRODUCTS: readonly Omit<SaleItem, 'quantity'>[] = [
  { product_id: 101, name: 'Whitening kit', unit_price: 49.99 },
  { product_id: 102, name: 'Electric toothbrush', unit_price: 89 },
  { product_id: 103, name: 'Mouthwash 500 ml', unit_price: 6.5 },
  { product_id: 104, name: 'Night guard', unit_price: 120 },
  { product_id: 105, name: 'Floss picks (pack of 50)', unit_price: 3.25 },
];

/** Two sales awaiting the stock deduction and one already deducted. */
export function seedSales(
  random: Random,
  tenantId: number,
  patients: readonly CustomerRecord[],
): SaleRecord[] {
  const living = patients.filter((patient) => !patient.is_erased);
  return blockIds('sales', tenantId).map((id, index) => {
    const items = pickItems(random);
    const createdMs = SEED_EPOCH_MS + (index - 5) * DAY_MINUTES * 60_000;
    const deducted = index === 2;
    return {
      id,
      tenant_id: tenantId,
      customer_id: living[index * 2]?.id ?? null,
      total: Math.round(items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0) * 100) / 100,
      currency: 'GBP',
      items,
      stock_deducted: deducted,
      stock_deducted_at: deducted ? apiTimestamp(createdMs + 3_600_000) : null,
      created_at: apiTimestamp(createdMs),
      updated_at: apiTimestamp(createdMs + (deducted ? 3_600_000 : 0)),
    };
  });
}

function pickItems(random: Random): SaleItem[] {
  const count = randomInt(random, 1, 3);
  const start = randomInt(random, 0, PRODUCTS.length - 1);
  return Array.from({ length: count }, (_, offset) => {
    const product = PRODUCTS[(start + offset) % PRODUCTS.length] ?? PRODUCTS[0];
    const { product_id, name, unit_price } = product as Omit<SaleItem, 'quantity'>;
    return { product_id, name, quantity: randomInt(random, 1, 3), unit_price };
  });
}
