// Chat messages printed exactly once whatever order they come in: late and repeated live events, fills whose answers
// and pages come in any order, messages let go and fetched again, with memory bounded by a floor and a window.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatLog } from '../../../src/core/realtime/events.js';
import { ExactlyOnce, type ExactlyOnceLimits } from '../../../src/core/realtime/exactly-once.js';

const log = (id: number, conversation_id = 1): ChatLog => ({ id, conversation_id, body: `m${id}` });

function setup(options: { wanted?: Set<number>; limits?: Partial<ExactlyOnceLimits> } = {}) {
  const printed: [number, string][] = [];
  let due = 0;
  const once = new ExactlyOnce(async (l, source) => void printed.push([l.id, source]), {
    ...options,
    fillDue: () => due++,
  });
  return { once, printed, due: () => due };
}

/** A REST list answering with `answer` (any order), recording each `after` asked. */
function rest(answer: (conversation: number, after: number) => ChatLog[]) {
  const asked: [number, number][] = [];
  const fetchAfter = async function* (conversation: number, after: number) {
    asked.push([conversation, after]);
    yield* answer(conversation, after);
  };
  return { fetchAfter, asked };
}

describe('exactly once, whatever the order', () => {
  it('a fill answered newest first prints every missed message, oldest first', async () => {
    const { once, printed } = setup();
    await once.live(log(10));
    const server = rest((_, after) => [log(14), log(13), log(12), log(11)].filter((l) => l.id > after));
    expect(await once.fill(server.fetchAfter)).toBe(4);
    expect(printed.map(([id]) => id)).toEqual([10, 11, 12, 13, 14]);
    expect(printed.slice(1).every(([, source]) => source === 'rest')).toBe(true);
  });

  it('fills from the point up to which all is known, not from the newest printed id', async () => {
    const { once, printed } = setup();
    await once.live(log(10));
    await once.live(log(12)); // 11 is outstanding: late, or lost with the connection
    const server = rest((_, after) => [log(11), log(12), log(13)].filter((l) => l.id > after));
    await once.fill(server.fetchAfter);
    expect(server.asked).toEqual([[1, 10]]);
    expect(printed.map(([id]) => id)).toEqual([10, 12, 11, 13]);
    // Settled at 13 now: the next fill starts there.
    await once.fill(server.fetchAfter);
    expect(server.asked.at(-1)).toEqual([1, 13]);
  });

  it('a message let go is fetched by the next fill from below it, even under what was printed', async () => {
    const { once, printed, due } = setup();
    await once.live(log(20));
    once.letGo(log(15)); // late and dropped from a full queue
    once.letGo(log(20)); // already printed: nothing to fetch
    expect(due()).toBe(1);
    const server = rest((_, after) => [log(15), log(20), log(21)].filter((l) => l.id > after));
    await once.fill(server.fetchAfter, 'due');
    expect(server.asked).toEqual([[1, 14]]);
    expect(printed.map(([id]) => id)).toEqual([20, 15, 21]);
  });

  it('a server ignoring `after` does not print the history', async () => {
    const { once, printed } = setup();
    await once.live(log(10));
    await once.fill(rest(() => [log(3), log(7), log(10), log(11)]).fetchAfter);
    expect(printed.map(([id]) => id)).toEqual([10, 11]);
  });

  it('memory stays within the window: settled ids fall under the floor, unsettled ones ask for a fill', async () => {
    const { once, printed, due } = setup({ limits: { window: 8 } });
    let published = 0;
    const server = rest((_, after) =>
      Array.from({ length: published }, (_, i) => log(i + 1)).filter((l) => l.id > after),
    );
    for (let id = 1; id <= 100; id++) {
      published = id;
      await once.live(log(id));
      if (once.anyDue) await once.fill(server.fetchAfter, 'due');
      expect(once.remembered).toBeLessThanOrEqual(9);
    }
    expect(printed.map(([id]) => id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(due()).toBeGreaterThan(5);
    // A repeat of an old message is still not printed again.
    await once.live(log(3));
    expect(printed).toHaveLength(100);
  });
});

type Op =
  | { t: 'publish' }
  | { t: 'live'; pick: number }
  | { t: 'letGo'; pick: number }
  | { t: 'fill'; seed: number; repeat: number; during: number[] };

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.constant<Op>({ t: 'publish' }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('live' as const), pick: fc.nat() }), weight: 3 },
  fc.record({ t: fc.constant('letGo' as const), pick: fc.nat() }),
  fc.record({
    t: fc.constant('fill' as const),
    seed: fc.nat(),
    repeat: fc.nat({ max: 3 }),
    during: fc.array(fc.nat(), { maxLength: 4 }),
  }),
);

/** A seeded shuffle (mulberry32): a fill's answer, its pages and repeats in any order. */
function shuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Runs a schedule against a server whose messages appear in id order (ids with gaps, spread over conversations):
 * live deliveries of any visible message (late, repeated), messages let go, fills answered in any order with repeats
 * and with live deliveries between their records. Ends with every message published and a last fill.
 */
async function play(
  conversationsOf: number[],
  ops: Op[],
  options: { since: boolean; limits?: Partial<ExactlyOnceLimits> },
) {
  const messages = conversationsOf.map((conversation, i) => log(3 * i + 1 + (i % 2), conversation));
  const conversations = [...new Set(conversationsOf)];
  const { once, printed } = setup({ limits: options.limits });
  if (options.since) for (const conversation of conversations) once.startAfter(conversation, 0);
  let visible = 0;
  const touched = new Map<number, number>(); // conversation → id of the first event that reached it
  const delivered = new Set<number>();
  const pick = (n: number) => (visible === 0 ? undefined : messages[n % visible]);
  const live = async (n: number) => {
    const message = pick(n);
    if (!message) return;
    if (!touched.has(message.conversation_id)) touched.set(message.conversation_id, message.id);
    delivered.add(message.id);
    await once.live(message);
  };
  const fill = async (seed: number, repeat: number, during: number[], which: 'all' | 'due') => {
    await once.fill(async function* (conversation, after) {
      const answer = messages
        .slice(0, visible)
        .filter((m) => m.conversation_id === conversation && m.id > after);
      const repeated = [...answer, ...shuffle(answer, seed).slice(0, repeat)];
      let i = 0;
      for (const message of shuffle(repeated, seed + 1)) {
        if (during[i] !== undefined) await live(during[i] as number);
        i++;
        yield message;
      }
    }, which);
  };
  for (const step of ops) {
    if (step.t === 'publish') visible = Math.min(messages.length, visible + 1);
    else if (step.t === 'live') await live(step.pick);
    else if (step.t === 'letGo') {
      const message = pick(step.pick);
      if (message) {
        if (!touched.has(message.conversation_id)) touched.set(message.conversation_id, message.id);
        delivered.add(message.id);
        once.letGo(message);
      }
    } else await fill(step.seed, step.repeat, step.during, 'all');
    if (once.anyDue) await fill(7, 0, [], 'due');
  }
  visible = messages.length;
  await fill(11, 0, [], 'all');
  return { messages, printed, touched, delivered };
}

describe('exactly once, any interleaving (fast-check)', () => {
  const schedule = fc.tuple(
    fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 30, size: 'medium' }),
    fc.array(op, { maxLength: 80, size: 'medium' }),
  );

  it('from a known start (--since): every message printed exactly once, whatever the limits', async () => {
    await fc.assert(
      fc.asyncProperty(
        schedule,
        fc.record({ window: fc.integer({ min: 1, max: 4 }), fillBatch: fc.integer({ min: 1, max: 6 }) }),
        fc.integer({ min: 0, max: 4 }),
        async ([conversationsOf, ops], small, held) => {
          const { messages, printed } = await play(conversationsOf, ops, {
            since: true,
            limits: { ...small, held },
          });
          expect(printed.map(([id]) => id).sort((a, b) => a - b)).toEqual(messages.map((m) => m.id));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('from the live stream: nothing twice; all delivered, let go, or after the first seen is printed', async () => {
    await fc.assert(
      fc.asyncProperty(schedule, fc.integer({ min: 0, max: 4 }), async ([conversationsOf, ops], held) => {
        const { messages, printed, touched, delivered } = await play(conversationsOf, ops, {
          since: false,
          limits: { held },
        });
        const ids = printed.map(([id]) => id);
        expect(new Set(ids).size).toBe(ids.length);
        const owed = messages.filter(
          (m) =>
            delivered.has(m.id) ||
            (touched.has(m.conversation_id) && m.id >= (touched.get(m.conversation_id) as number)),
        );
        // A late message let go may bring its neighbours below the first seen: extra history, never a repeat.
        const printedSet = new Set(ids);
        expect(owed.filter((m) => !printedSet.has(m.id))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
