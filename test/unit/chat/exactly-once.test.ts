// Exactly-once printing of chat messages across gap fills: ids once, in order, held live events, bounded memory.
import { describe, expect, it } from 'vitest';
import type { ChatLog } from '../../../src/core/realtime/events.js';
import { ExactlyOnce } from '../../../src/core/realtime/exactly-once.js';

const log = (id: number, conversation_id = 1): ChatLog => ({ id, conversation_id, body: `m${id}` });

function setup(wanted?: Set<number>) {
  const printed: [number, string][] = [];
  const once = new ExactlyOnce(async (l, source) => void printed.push([l.id, source]), wanted);
  return { once, printed };
}

/** A REST list that serves `logs` after the given id, and records what was asked. */
function rest(logs: ChatLog[]) {
  const asked: [number, number][] = [];
  const fetchAfter = async function* (conversation: number, after: number) {
    asked.push([conversation, after]);
    yield* logs.filter((l) => l.conversation_id === conversation && l.id > after).sort((a, b) => a.id - b.id);
  };
  return { fetchAfter, asked };
}

describe('ExactlyOnce', () => {
  it('a new message below where a conversation was started, arriving while its fill runs: printed, said once, and the next fill starts just before it', async () => {
    const printed: [number, string][] = [];
    const wentBack: [number, number, number][] = [];
    const once = new ExactlyOnce(async (l, source) => void printed.push([l.id, source]), {
      wentBack: (conversation, id, after) => wentBack.push([conversation, id, after]),
    });
    once.startAfter(1, 1_000);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const asked: number[] = [];
    const filling = once.fill(async function* (_conversation, after) {
      asked.push(after);
      await gate; // the server's answer comes after the live message: nothing after 1,000
      yield* [];
    });
    await once.live(log(51));
    await once.live(log(51));
    release();
    await filling;
    await once.live(log(52));
    await once.fill(rest([log(50), log(51), log(52), log(53)]).fetchAfter);
    expect(printed).toEqual([
      [51, 'realtime'],
      [52, 'realtime'],
      [53, 'rest'],
    ]);
    expect(wentBack).toEqual([[1, 51, 1_000]]);
    expect(asked).toEqual([1_000]);
  });

  it.each([
    { why: 'dropping repeats and older ids', arriving: [1, 2, 2, 1, 3], printed: [1, 2, 3] },
    { why: 'the late 9 printed too', arriving: [10, 9, 11, 9, 10], printed: [10, 9, 11] },
  ])('prints live messages $arriving once each, as they came: $why', async ({ arriving, printed: ids }) => {
    const { once, printed } = setup();
    for (const id of arriving) await once.live(log(id));
    expect(printed).toEqual(ids.map((id) => [id, 'realtime']));
  });

  it('fills each seen conversation after its last id, then the events held meanwhile, each once and in order', async () => {
    const { once, printed } = setup();
    await once.live(log(10, 1));
    await once.live(log(11, 2));
    const missed = [log(12, 1), log(13, 2), log(14, 1), log(16, 1)];
    const server = rest(missed);
    const filling = once.fill(async function* (conversation, after) {
      // A live event races the catch-up: it arrives while REST is being read, and REST has it too.
      await once.live(log(16, 1));
      await once.live(log(17, 2));
      yield* server.fetchAfter(conversation, after);
    });
    expect(await filling).toBe(4);
    expect(server.asked).toEqual([
      [1, 10],
      [2, 11],
    ]);
    expect(printed).toEqual([
      [10, 'realtime'],
      [11, 'realtime'],
      [12, 'rest'],
      [14, 'rest'],
      [16, 'rest'],
      [13, 'rest'],
      [17, 'realtime'],
    ]);
  });

  it('--since starts a named conversation after that id; unnamed conversations are not printed', async () => {
    const { once, printed } = setup(new Set([5]));
    once.startAfter(5, 100);
    await once.fill(rest([log(99, 5), log(101, 5), log(102, 6)]).fetchAfter);
    await once.live(log(103, 6));
    await once.live(log(104, 5));
    expect(printed).toEqual([
      [101, 'rest'],
      [104, 'realtime'],
    ]);
  });

  it('remembers at most 10,000 conversations, forgetting the least recent', async () => {
    const { once } = setup();
    for (let c = 1; c <= 10_050; c++) await once.live(log(c, c));
    expect(once.conversations).toHaveLength(10_000);
    expect(once.conversations[0]).toBe(51);
  });
});

describe('ExactlyOnce over a long fill', () => {
  it('a fill of 300,000 messages of one conversation ends in moments, its memory trimmed to the window', async () => {
    const count = 300_000;
    let delivered = 0;
    const once = new ExactlyOnce(async () => void delivered++);
    once.startAfter(1, 0);
    const started = performance.now();
    await once.fill(async function* (conversation, after) {
      for (let id = after + 1; id <= count; id++) yield log(id, conversation);
    });
    expect(delivered).toBe(count);
    expect(once.remembered).toBeLessThanOrEqual(512);
    // Shifting ids off one at a time took over 5 s here; one splice takes milliseconds.
    expect(performance.now() - started).toBeLessThan(4_000);
    // Still exactly once: what was trimmed counts as printed.
    await once.live(log(1));
    await once.live(log(count));
    await once.live(log(count + 1));
    expect(delivered).toBe(count + 1);
  });
});
