// Opens a URL in the user's browser: $BROWSER when set, otherwise the platform's opener (the `open` package).
// The browser gets the sign-in address and nothing else: no CLINIC_* variable (CLINIC_TOKEN above all) reaches it.
import { spawn } from 'node:child_process';
import { browserCanOpen } from './browser-can-open.js';

export interface BrowserOpener {
  open(url: string): Promise<void>;
  /** False where nothing can show a browser (a headless Linux over SSH): opening would only seem to succeed. */
  canOpen?(): boolean;
}

const isClinicVariable = (name: string) => name.startsWith('CLINIC_');

export function browserEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isClinicVariable(name)));
}

export function systemBrowser(env: Record<string, string | undefined>): BrowserOpener {
  return {
    canOpen: () => browserCanOpen(env),
    async open(url) {
      const browser = env.BROWSER?.trim();
      if (browser) {
        // The URL goes in as a positional argument, never pasted into the command line.
        const child =
          process.platform === 'win32'
            ? spawn(browser, [url], { stdio: 'ignore', detached: true, env: browserEnv(env) })
            : spawn('sh', ['-c', `${browser} "$1"`, 'sh', url], {
                stdio: 'ignore',
                detached: true,
                env: browserEnv(env),
              });
        child.on('error', () => undefined);
        child.unref();
        return;
      }
      const { default: open } = await import('open');
      // `open` spawns with process.env and takes no env option: hide our variables for the moment it spawns.
      const hidden = Object.keys(process.env).filter(isClinicVariable);
      const saved = hidden.map((name) => [name, process.env[name]] as const);
      for (const name of hidden) delete process.env[name];
      try {
        await open(url);
      } finally {
        for (const [name, value] of saved) process.env[name] = value;
      }
    },
  };
}
