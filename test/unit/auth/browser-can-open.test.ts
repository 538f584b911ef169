// Whether login can open a browser here: on a headless Linux (over SSH) it cannot, and must not say it did.
import { describe, expect, it } from 'vitest';
import { browserCanOpen } from '../../../src/core/auth/oauth/browser-can-open.js';

describe('browserCanOpen', () => {
  it('a Linux desktop session, X11 or Wayland, or $BROWSER: yes', () => {
    expect(browserCanOpen({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(browserCanOpen({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(browserCanOpen({ BROWSER: 'w3m' }, 'linux')).toBe(true);
    expect(browserCanOpen({ BROWSER: 'lynx' }, 'freebsd')).toBe(true);
  });

  it('macOS, Windows and WSL always: yes', () => {
    expect(browserCanOpen({}, 'darwin')).toBe(true);
    expect(browserCanOpen({}, 'win32')).toBe(true);
    expect(browserCanOpen({ WSL_DISTRO_NAME: 'Debian' }, 'linux')).toBe(true);
  });

  it('a Linux or BSD machine without a desktop session: no (a blank BROWSER is none)', () => {
    expect(browserCanOpen({}, 'linux')).toBe(false);
    expect(browserCanOpen({ DISPLAY: '', WAYLAND_DISPLAY: '', BROWSER: '  ' }, 'linux')).toBe(false);
    expect(browserCanOpen({}, 'freebsd')).toBe(false);
  });
});
