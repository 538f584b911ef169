// Which OAuth server and client a profile signs in with.
import { profileCommand, type Settings } from '../../config/settings.js';
import { UsageError } from '../../errors.js';

/** auth_url (default: the origin of base_url) and client_id of the profile, or a usage error saying what to set. */
export async function oauthClientSettings(
  settings: Settings,
): Promise<{ authUrl: string; clientId: string }> {
  const baseUrl = settings.get('base_url');
  const authUrl = settings.get('auth_url') ?? (baseUrl ? new URL(baseUrl).origin : undefined);
  const clientId = settings.get('client_id');
  const profile = settings.profile.name;
  const set = (what: string) => `run '${profileCommand(settings.profile, `config set ${what}`)}'`;
  if (!authUrl) throw new UsageError(`no auth_url for profile '${profile}': ${set('auth_url URL')}`);
  if (!clientId) throw new UsageError(`no client_id for profile '${profile}': ${set('client_id ID')}`);
  return { authUrl, clientId };
}
