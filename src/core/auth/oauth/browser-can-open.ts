// Whether this machine can show a browser at all, asked before a sign-in opens one: on a headless Linux (over SSH)
// xdg-open fails where no one sees it, and "opened the sign-in page" would be a lie. Its own module: no imports, so
// the CLI's context can ask it without loading the opener.

/**
 * $BROWSER, macOS and Windows (WSL included) always can; elsewhere only a desktop session can (DISPLAY for X11,
 * WAYLAND_DISPLAY), as xdg-open needs one.
 */
export function browserCanOpen(
  env: Record<string, string | undefined>,
  platform = process.platform,
): boolean {
  if (env.BROWSER?.trim()) return true;
  if (platform === 'darwin' || platform === 'win32' || env.WSL_DISTRO_NAME) return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}
