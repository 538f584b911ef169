// RFC 8252 loopback matching for post_logout_redirect_uris too, so a CLI can end a logout on its own ephemeral port.
import type Provider from 'oidc-provider';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * oidc-provider 8.8.1 ignores the port of a native client's loopback redirect_uri but compares
 * post_logout_redirect_uris exactly (reference.md reports 9.x treating both alike). Patched on this
 * provider's own Client class only: a port-less retry after the library's exact check.
 */
export function allowLoopbackLogoutPorts(provider: Provider): void {
  const proto = provider.Client.prototype;
  const exact = proto.postLogoutRedirectUriAllowed;
  proto.postLogoutRedirectUriAllowed = function (this: typeof proto, value: string): boolean {
    if (exact.call(this, value)) return true;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (this.applicationType !== 'native' || url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) {
      return false;
    }
    url.port = '';
    return exact.call(this, url.href);
  };
}
