// GET /v1/appointments: paginated, filtered by status and a starts_at window, soonest first.
import { APPOINTMENT_STATUSES, type AppointmentRecord } from '../data/clinic-types.js';
import type { FieldErrors } from '../http/responses.js';
import { throwIfInvalid } from './field-errors.js';
import { paginate, readPageRequest } from './pagination.js';
import { readChoice, readDateWindow, within } from './query-filters.js';
import { relatedCustomer, viewerOf } from './related.js';
import { type Route, type TenantContext, tenantRoute } from './route.js';

export const appointmentRoutes: Route[] = [
  tenantRoute('GET', '/v1/appointments', 'appointments.read', listAppointments),
];

function listAppointments(ctx: TenantContext) {
  const errors: FieldErrors = {};
  const pageRequest = readPageRequest(ctx.query, errors);
  const status = readChoice(ctx.query, 'status', APPOINTMENT_STATUSES, errors);
  const { from, to } = readDateWindow(ctx.query, ['from', 'to'], errors);
  throwIfInvalid(errors);

  const matching = ctx.store
    .ofTenant(ctx.store.appointments, ctx.tenant.id)
    .filter((appointment) => status === undefined || appointment.status === status)
    .filter((appointment) => within(Date.parse(appointment.starts_at), from, to))
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id - b.id)
    .map((appointment) => appointmentView(ctx, appointment));
  return { status: 200, body: paginate(matching, pageRequest, ctx.apiUrl('/v1/appointments')) };
}

function appointmentView(ctx: TenantContext, appointment: AppointmentRecord) {
  const { id, tenant_id, customer_id, ...details } = appointment;
  const person = customer_id === null ? undefined : ctx.store.person(ctx.tenant.id, customer_id);
  const customer = person === undefined ? null : relatedCustomer(person, viewerOf(ctx));
  return { id, tenant_id, customer_id, customer, ...details };
}
