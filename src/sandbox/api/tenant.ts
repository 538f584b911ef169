// Resolves the X-Tenant header to a tenant the user belongs to, with the API's 400/404/428 answers.
import type { IncomingMessage } from 'node:http';
import type { SandboxStore } from '../data/store.js';
import type { Role, TenantRecord } from '../data/types.js';
import { ApiError, codedError, legacyError } from '../http/responses.js';
import { parsePositiveInteger } from './field-errors.js';

export interface TenantMembership {
  tenant: TenantRecord;
  role: Role;
}

export function resolveTenant(req: IncomingMessage, store: SandboxStore, userId: number): TenantMembership {
  const tenantId = readTenantHeader(req);
  const tenant = store.tenant(tenantId);
  const role = store.roleOf(userId, tenantId);
  // A tenant the user is not in answers like one that does not exist, so ids leak nothing.
  if (tenant === undefined || role === undefined) throw new ApiError(legacyError(404, 'Tenant not found.'));
  if (tenant.setup_next_step !== null) {
    throw new ApiError(
      codedError(428, 'SETUP_REQUIRED', 'Tenant setup is incomplete.', {
        // The real API shows success: true on this error; clients must go by the status.
        success: true,
        data: { next_step: tenant.setup_next_step },
      }),
    );
  }
  return { tenant, role };
}

/** The X-Tenant header as a tenant id, or the API's 400 when it is missing or not a positive integer. */
export function readTenantHeader(req: IncomingMessage): number {
  const header = req.headers['x-tenant'];
  const raw = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (raw === '') throw new ApiError(legacyError(400, 'The X-Tenant header is required.'));
  const tenantId = parsePositiveInteger(raw);
  if (tenantId === undefined)
    throw new ApiError(legacyError(400, 'The X-Tenant header must be a positive integer.'));
  return tenantId;
}
