// A realtime server that sends one huge message: the connection refuses it (close 1009) instead of buffering it.
import { describe, expect, it } from 'vitest';
import { MAX_REALTIME_MESSAGE_BYTES } from '../../../src/core/limits.js';
import { chatEvent, connectLogged, fakePusherServer, until } from '../../helpers/fake-pusher.js';

/** A server that, once the channel is subscribed, sends one chat event of `size` bytes of text. */
const hugeEventServer = (size: number) =>
  fakePusherServer({
    subscribed: (socket) => socket.send(chatEvent({ id: 1, conversation_id: 1, text: 'x'.repeat(size) })),
  });

describe('a realtime message above the cap', () => {
  it('is refused: the connection closes with 1009 and the event never arrives', async () => {
    const { port, closes } = await hugeEventServer(MAX_REALTIME_MESSAGE_BYTES + 1024);
    const seen = connectLogged(port);
    await until(() => closes.length > 0);
    expect(closes[0]).toBe(1009);
    expect(seen.errors).toContain(1009);
    expect(seen.events).toEqual([]);
  });

  it('a message under the cap still arrives', async () => {
    const { port } = await hugeEventServer(64 * 1024);
    const seen = connectLogged(port);
    await until(() => seen.events.length > 0);
    expect((seen.events[0] as { text: string }).text).toHaveLength(64 * 1024);
  });
});
