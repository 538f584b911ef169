// The sign-in (pick a sandbox user) and consent (allow or deny the scopes) pages shown at /interaction/:uid.
import type { SandboxStore } from '../data/store.js';
import { escapeHtml, layout } from './html.js';

export interface LoginPageInput {
  uid: string;
  clientId: string;
  store: SandboxStore;
  /** Shown above the list, e.g. after an unknown user id was posted. */
  error?: string;
}

export function loginPage({ uid, clientId, store, error }: LoginPageInput): string {
  const buttons = store.users.map((user) => {
    const roles = store
      .tenantsOf(user.id)
      .map((tenant) => `${store.roleOf(user.id, tenant.id)} at ${tenant.name}`)
      .join(', ');
    const label = `${user.name} — ${roles || 'no tenant'}`;
    return `<button type="submit" name="user" value="${user.id}" data-user="${user.id}">${escapeHtml(label)}</button>`;
  });
  return layout(
    'Sign in to the Clinic sandbox',
    [
      error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(error)}</p>`,
      `<p><code>${escapeHtml(clientId)}</code> wants you to sign in. Pick a sandbox user (no password):</p>`,
      `<form method="post" action="/interaction/${escapeHtml(uid)}" id="login-form">`,
      '<input type="hidden" name="prompt" value="login">',
      ...buttons,
      '</form>',
    ].join('\n'),
  );
}

export interface ConsentPageInput {
  uid: string;
  clientId: string;
  userName: string;
  scopes: readonly string[];
}

export function consentPage({ uid, clientId, userName, scopes }: ConsentPageInput): string {
  const items = scopes.map(
    (scope) => `<li data-scope="${escapeHtml(scope)}"><code>${escapeHtml(scope)}</code></li>`,
  );
  return layout(
    'Allow access?',
    [
      `<p><code>${escapeHtml(clientId)}</code> asks to act as <strong>${escapeHtml(userName)}</strong> with:</p>`,
      `<ul id="consent-scopes">${items.join('')}</ul>`,
      `<form method="post" action="/interaction/${escapeHtml(uid)}" id="consent-form">`,
      '<input type="hidden" name="prompt" value="consent">',
      // Allow comes first so pressing Enter allows, as on most consent screens.
      '<button type="submit" name="decision" value="allow" id="consent-allow">Allow</button>',
      '<button type="submit" name="decision" value="deny" id="consent-deny">Deny</button>',
      '</form>',
      '<p class="muted">The user\'s role in each tenant still limits what these scopes allow.</p>',
    ].join('\n'),
  );
}
