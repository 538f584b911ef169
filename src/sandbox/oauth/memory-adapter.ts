// oidc-provider storage kept in one Map per sandbox, so two sandboxes in one process never share tokens or sessions.
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  expiresAtMs: number;
}

// Models whose records die with their grant (refresh-token reuse and revocation revoke the whole grant).
const GRANT_BOUND = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode']);
const SWEEP_ABOVE = 1000;

/** The library's own memory adapter is a module-wide singleton and prints a warning; this one is neither. */
export function createMemoryAdapter(now: () => number = Date.now): AdapterFactory {
  const entries = new Map<string, Entry>();
  const byGrant = new Map<string, Set<string>>();
  const byIndex = new Map<string, string>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs > now()) return entry;
    entries.delete(key);
    return undefined;
  };
  const sweep = () => {
    for (const key of entries.keys()) live(key);
  };

  return (model: string): Adapter => {
    const keyOf = (id: string) => `${model}:${id}`;
    const find = async (id: string) => {
      const entry = live(keyOf(id));
      return entry === undefined ? undefined : { ...entry.payload };
    };
    const findByIndex = (index: string) => {
      const id = byIndex.get(index);
      return id === undefined ? Promise.resolve(undefined) : find(id);
    };
    return {
      async upsert(id, payload, expiresIn) {
        if (entries.size > SWEEP_ABOVE) sweep();
        const key = keyOf(id);
        entries.set(key, { payload: { ...payload }, expiresAtMs: now() + expiresIn * 1000 });
        if (model === 'Session' && payload.uid) byIndex.set(`sessionUid:${payload.uid}`, id);
        if (payload.userCode) byIndex.set(`userCode:${payload.userCode}`, id);
        if (GRANT_BOUND.has(model) && payload.grantId) {
          const keys = byGrant.get(payload.grantId) ?? new Set<string>();
          byGrant.set(payload.grantId, keys.add(key));
        }
      },
      find,
      findByUid: (uid) => findByIndex(`sessionUid:${uid}`),
      findByUserCode: (userCode) => findByIndex(`userCode:${userCode}`),
      async consume(id) {
        const entry = live(keyOf(id));
        // Marking, not deleting: a second use of a code or rotated refresh token must be recognised as reuse.
        if (entry !== undefined) entry.payload.consumed = Math.floor(now() / 1000);
      },
      async destroy(id) {
        entries.delete(keyOf(id));
      },
      async revokeByGrantId(grantId) {
        for (const key of byGrant.get(grantId) ?? []) entries.delete(key);
        byGrant.delete(grantId);
      },
    };
  };
}
