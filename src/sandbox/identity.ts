// `GET /.well-known/clinic-sandbox`: says that this port is a clinic sandbox, and which one. `clinic sandbox start`
// asks it before pointing a profile elsewhere; it carries no secret and needs none (nor a rate-limit slot).
import type { MountHandler } from './dispatcher.js';
import { sendJson } from './http/responses.js';

export const IDENTITY_PATH = '/.well-known/clinic-sandbox';
export const SANDBOX_SERVICE = 'clinic-sandbox';

export interface SandboxIdentity {
  service: typeof SANDBOX_SERVICE;
  /** Random per start: two sandboxes never share it, whatever their seed. */
  instance: string;
  base_url: string;
}

export function identityHandler(identity: SandboxIdentity): MountHandler {
  return (_req, res) => sendJson(res, { status: 200, body: identity });
}
