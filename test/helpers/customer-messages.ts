// Messages from customers posted straight into a test world's sandbox, in turn round a few conversations of tenant 1,
// with the ids they were given kept in the order sent.
import type { TestWorld } from './cli.js';

/** `post(i)` sends message `${label} ${i}` to the i-th conversation (round the list); `sent` holds the ids. */
export function customerMessages(world: TestWorld, conversations: readonly number[], label: string) {
  const sent: number[] = [];
  const post = (i: number) =>
    sent.push(
      world.sandbox.postMessage({
        tenantId: 1,
        conversationId: conversations[i % conversations.length]!,
        body: `${label} ${i}`,
        senderType: 'customer',
      }).id,
    );
  return { sent, post };
}
