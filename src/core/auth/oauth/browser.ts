// Opens a URL in the user's browser: $BROWSER when set, otherwise the platform's opener (the `open` package).
import { spawn } from 'node:child_process';

export interface BrowserOpener {
  open(url: string): Promise<void>;
}

export function systemBrowser(env: Record<string, string | undefined>): BrowserOpener {
  return {
    async open(url) {
      const browser = env.BROWSER?.trim();
      if (browser) {
        // The URL goes in as a positional argument, never pasted into the command line.
        const command = process.platform === 'win32' ? browser : `${browser} "$1"`;
        const child =
          process.platform === 'win32'
            ? spawn(browser, [url], { stdio: 'ignore', detached: true })
            : spawn('sh', ['-c', command, 'sh', url], {
                stdio: 'ignore',
                detached: true,
                env: env as NodeJS.ProcessEnv,
              });
        child.on('error', () => undefined);
        child.unref();
        return;
      }
      const { default: open } = await import('open');
      await open(url);
    },
  };
}
