// /interaction/:uid: renders the sign-in or consent page for a pending authorization and finishes it on POST.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { SandboxStore } from '../data/store.js';
import type { MountHandler } from '../dispatcher.js';
import { readFormBody } from '../http/body.js';
import { messagePage, sendHtml } from './html.js';
import { consentPage, loginPage } from './interaction-pages.js';
import { SANDBOX_SCOPES } from './scopes.js';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

const EXPIRED =
  'This sign-in request is unknown or has expired (or cookies are blocked). Start the sign-in again from the CLI.';

export function createInteractionHandler(provider: Provider, store: SandboxStore): MountHandler {
  return async (req, res, target) => {
    const uid = /^\/interaction\/([A-Za-z0-9_-]+)$/.exec(target.path)?.[1];
    if (uid === undefined) return sendHtml(res, 404, messagePage('Not found', 'There is no page here.'));
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.setHeader('Allow', 'GET, POST');
      return sendHtml(res, 405, messagePage('Method not allowed', 'Use GET or POST.'));
    }
    let interaction: Interaction;
    try {
      interaction = await provider.interactionDetails(req, res);
    } catch {
      return sendHtml(res, 400, messagePage('Sign-in expired', EXPIRED));
    }
    // The cookie names the live interaction; a stale tab's uid must not act on a newer one.
    if (interaction.uid !== uid) return sendHtml(res, 400, messagePage('Sign-in expired', EXPIRED));

    const page = { uid, clientId: String(interaction.params.client_id ?? ''), store };
    const prompt = interaction.prompt.name;
    if (req.method === 'GET') {
      if (prompt === 'login') return sendHtml(res, 200, loginPage(page));
      if (prompt === 'consent') return sendHtml(res, 200, consentPage(consentInput(interaction, store)));
      return sendHtml(res, 400, messagePage('Unsupported step', `The sandbox has no page for '${prompt}'.`));
    }

    const form = await readFormBody(req).catch(() => undefined);
    if (form === undefined) return sendHtml(res, 413, messagePage('Too large', 'The form was too large.'));
    if (prompt === 'login') {
      // `login` as well as `user`, so scripts written for oidc-provider's dev pages keep working.
      const id = form.get('user') ?? form.get('login') ?? '';
      if (!/^[1-9]\d*$/.test(id) || store.user(Number(id)) === undefined) {
        return sendHtml(res, 400, loginPage({ ...page, error: `There is no sandbox user '${id}'.` }));
      }
      return finish(provider, req, res, { login: { accountId: id } });
    }
    if (prompt === 'consent') {
      if (form.get('decision') === 'deny') {
        return finish(provider, req, res, {
          error: 'access_denied',
          error_description: 'The user denied the request.',
        });
      }
      // Anything but an explicit deny allows, so a plain POST (no button value) also works headless.
      return finish(provider, req, res, {
        consent: { grantId: await grantRequested(provider, interaction) },
      });
    }
    return sendHtml(res, 400, messagePage('Unsupported step', `The sandbox has no page for '${prompt}'.`));
  };
}

function consentInput(interaction: Interaction, store: SandboxStore) {
  const accountId = interaction.session?.accountId;
  const user = accountId === undefined ? undefined : store.user(Number(accountId));
  const requested = String(interaction.params.scope ?? '').split(' ');
  return {
    uid: interaction.uid,
    clientId: String(interaction.params.client_id ?? ''),
    userName: user?.name ?? 'an unknown user',
    // Unknown scopes are dropped by the provider, so only the ones that will be granted are shown.
    scopes: requested.filter((scope) => SANDBOX_SCOPES.includes(scope)),
  };
}

/** Grants what the request asked for: its OpenID scopes and claims, and its scopes on each resource (the API). */
async function grantRequested(provider: Provider, interaction: Interaction): Promise<string> {
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const existing =
    interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId);
  const grant =
    existing ??
    new provider.Grant({
      accountId: interaction.session?.accountId,
      clientId: String(interaction.params.client_id),
    });
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '));
  }
  return grant.save();
}

function finish(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  result: Parameters<Provider['interactionFinished']>[2],
): Promise<void> {
  // Merged with the earlier login (the default), so the consent step's result still says who signed in.
  return provider.interactionFinished(req, res, result);
}
