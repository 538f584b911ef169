// Realtime without TLS only to a loopback host, checked when the target is built (before anything connects).
import { describe, expect, it } from 'vitest';
import type { ConfigData } from '../../../src/core/config/config-file.js';
import { Settings } from '../../../src/core/config/settings.js';
import { UsageError } from '../../../src/core/errors.js';
import { realtimeAddress, realtimeTarget } from '../../../src/core/realtime/target.js';
import { requireSecureRealtime } from '../../../src/core/secure-url.js';

describe('requireSecureRealtime', () => {
  it.each(['127.0.0.1', '127.10.0.3', 'localhost', '[::1]', '::1'])('tls off to %s is allowed', (host) => {
    expect(() => requireSecureRealtime(host, false, 'realtime.tls=false')).not.toThrow();
  });

  it.each([
    'rt.clinic.test',
    '192.0.2.2',
    '10.0.0.1',
    '0.0.0.0',
    '127.0.0.1.evil.test',
    'localhost.evil.test',
    '127.1',
    '[::ffff:127.0.0.1]',
    '',
  ])('tls off to %j is refused', (host) => {
    expect(() => requireSecureRealtime(host, false, 'realtime.tls=false')).toThrow(UsageError);
  });

  it('tls on goes anywhere', () => {
    expect(() => requireSecureRealtime('rt.clinic.test', true, 'realtime.tls=false')).not.toThrow();
  });
});

function target(realtime: Record<string, string>, env: Record<string, string> = {}) {
  const data: ConfigData = {
    profiles: { p: { base_url: 'https://api.clinic.test/api', realtime: { key: 'k', ...realtime } } },
  };
  return realtimeTarget(new Settings({ name: 'p', source: 'flag' }, data, env));
}

describe('realtimeTarget', () => {
  it('refuses a non-loopback host without TLS, from the profile or the environment', () => {
    expect(() => target({ host: 'rt.clinic.test', tls: 'false' })).toThrow(
      /realtime\.tls=false \(profile p\)/,
    );
    expect(() => target({ host: 'rt.clinic.test' }, { CLINIC_REALTIME_TLS: 'false' })).toThrow(
      /CLINIC_REALTIME_TLS=false.*'rt\.clinic\.test'/,
    );
    expect(() =>
      target({ host: '127.0.0.1', tls: 'false' }, { CLINIC_REALTIME_HOST: 'rt.clinic.test' }),
    ).toThrow(UsageError);
  });

  it('refuses hosted Pusher without TLS (the cluster host is not loopback)', () => {
    expect(() => target({ cluster: 'eu', tls: 'false' })).toThrow(/'ws-eu\.pusher\.com'/);
  });

  it('allows the sandbox (loopback without TLS) and anything with TLS', () => {
    const sandbox = target({ host: '127.0.0.1', port: '6001', tls: 'false' });
    expect(realtimeAddress(sandbox)).toBe('ws://127.0.0.1:6001/app/k');
    expect(realtimeAddress(target({ cluster: 'eu' }))).toBe('wss://ws-eu.pusher.com:443/app/k');
  });
});
