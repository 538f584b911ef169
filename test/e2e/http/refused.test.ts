// A connection refused says what to look at: on this machine, most often a sandbox that has stopped (a new one runs
// on a new port); elsewhere, base_url and clinic doctor. Exit 1, the error line, then the hint.
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { lines, runCli, tempDir } from '../../helpers/cli.js';

/** A port on 127.0.0.1 that nothing listens on: one just let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('a stopped sandbox: the error, then a hint to start a new one and sign in to it', async () => {
  const port = await closedPort();
  const dir = await tempDir('clinic-refused-');
  const result = await runCli(dir, ['customers', 'list'], {
    env: { CLINIC_BASE_URL: `http://127.0.0.1:${port}/api`, CLINIC_TOKEN: 't', CLINIC_TENANT: '1' },
  });
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(lines(result.stderr)).toEqual([
    `error: cannot reach http://127.0.0.1:${port}: connection refused`,
    'hint: nothing listens there: if it was a sandbox, it has stopped; clinic sandbox start runs a new one (on a new port: sign in to it again)',
  ]);
});
