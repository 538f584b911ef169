// The tails and webhook receivers a `chat tail` test starts against its world, each stopped after the test.
import { afterEach } from 'vitest';
import type { TestWorld } from './cli.js';
import { spawnTail, type Tail } from './tail-process.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

export function useTailRuns(world: TestWorld) {
  const running: Tail[] = [];
  /** Closed after each test: the receivers started here, and any endpoint a test adds with a `close`. */
  const closing: Pick<WebhookReceiver, 'close'>[] = [];
  afterEach(async () => {
    for (const t of running.splice(0)) t.child.kill('SIGKILL');
    for (const r of closing.splice(0)) await r.close();
  });
  return {
    /** `clinic --profile sandbox chat tail ARGS`, killed after the test. */
    tail(args: string[], env: Record<string, string> = {}): Tail {
      const t = spawnTail(world.configDir, args, env);
      running.push(t);
      return t;
    },
    /** A webhook endpoint verifying signatures with `secret`, closed after the test. */
    async receiver(secret: string): Promise<WebhookReceiver> {
      const r = await startWebhookReceiver(secret);
      closing.push(r);
      return r;
    },
    closing,
  };
}
