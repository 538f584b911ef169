// `chat tail` as a service, in process against a fake API: a checkpoint's conversations are filled before live
// events; with a slow consumer (an endpoint down, an output not read) each conversation is still delivered in id
// order, what REST cannot fetch again is named as it is dropped, and an ending tail tells its delivery to stop.
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../../src/core/errors.js';
import type { TailEvent } from '../../../src/core/realtime/events.js';
import { CONVERSATION, gatedOutput, ids, range, startFakeTail, until } from '../../helpers/fake-chat-tail.js';

describe('chat tail resumed from a checkpoint', () => {
  it('fills each conversation after its checkpointed id before any live event, and says so', async () => {
    const printed: TailEvent[] = [];
    const tail = startFakeTail({
      resume: new Map([[CONVERSATION, 3]]),
      print: async (e) => void printed.push(e),
    });
    tail.api.publish(6); // 4, 5 and 6 were created while the tail was down
    await tail.subscribed();
    tail.send(7);
    await until(() => printed.length >= 4, 'four messages');
    tail.stop();
    await tail.done;
    expect(tail.api.afters).toEqual([3]);
    expect(printed.map((e) => [e.data.id, e.source])).toEqual([
      [4, 'rest'],
      [5, 'rest'],
      [6, 'rest'],
      [7, 'realtime'],
    ]);
    expect(tail.status).toContain('filled 3 missed messages (from the checkpoint)');
  });

  it.each([
    ['a false id it was told once (2^53 - 1)', 2 ** 53 - 1],
    ['ids that went back (a database restored)', 400],
  ])(
    'a checkpoint above the server (%s): its next new message is printed and said, and the conversation goes on',
    async (_, position) => {
      const printed: TailEvent[] = [];
      const lower: [number, number][] = [];
      const tail = startFakeTail({
        resume: new Map([[CONVERSATION, position]]),
        print: async (e) => void printed.push(e),
        resumedLower: (conversation, after) => lower.push([conversation, after]),
      });
      tail.api.publish(50); // the server's newest is far below the checkpoint: the fill from it finds nothing
      await tail.subscribed();
      await until(() => tail.api.afters.length === 1, 'the fill from the checkpoint');
      tail.send(51);
      tail.send(51); // a repeat is still printed once
      tail.send(52);
      await until(() => printed.length === 2, 'the new messages');
      tail.api.publish(53); // missed while the connection was down
      tail.handlers()!.state('connecting', 'connected');
      tail.handlers()!.state('connected', 'connecting');
      tail.handlers()!.subscribed();
      await until(() => printed.length === 3, 'the gap after a reconnect');
      tail.stop();
      await tail.done;
      expect(ids(printed)).toEqual([51, 52, 53]);
      expect(tail.api.afters).toEqual([position, 50]); // from just before 51, not from the checkpoint
      expect(lower).toEqual([[CONVERSATION, 50]]);
      expect(tail.lost).toEqual([
        `conversation ${CONVERSATION} resumed after message ${position}, but the server sent message 51: its ids went ` +
          'back, or the start was not one of its messages; following it from 51 on (what came before that while ' +
          'the tail was away may have been missed)',
      ]);
    },
  );

  it('tells of each live message as it arrives, before its delivery: the checkpoint learns the conversation', async () => {
    const seen: [number, number][] = [];
    const tail = startFakeTail({
      print: () => new Promise<void>(() => undefined), // an endpoint that never answers
      seen: (conversation, id) => seen.push([conversation, id]),
    });
    await tail.subscribed();
    tail.send(1);
    tail.send(2);
    expect(seen).toEqual([
      [CONVERSATION, 1],
      [CONVERSATION, 2],
    ]);
    tail.stop();
  });

  it('a conversation outside --conversation is not resumed', async () => {
    const printed: TailEvent[] = [];
    const tail = startFakeTail({
      resume: new Map([[CONVERSATION, 3]]),
      conversations: new Set([CONVERSATION + 1]),
      print: async (e) => void printed.push(e),
    });
    tail.api.publish(6);
    await tail.subscribed();
    await new Promise((resolve) => setTimeout(resolve, 50));
    tail.stop();
    await tail.done;
    expect(tail.api.afters).toEqual([]);
    expect(printed).toEqual([]);
  });
});

describe('chat tail with a slow consumer', () => {
  it('delivers every message once and in id order, the endpoint taking a few at a time as messages arrive', async () => {
    // An endpoint that accepts only as many as it is allowed to, between arrivals: the queue fills, messages are let
    // go, fills run, while newer messages keep coming.
    const delivered: TailEvent[] = [];
    let allowance = 0;
    let wake: () => void = () => undefined;
    const print = async (event: TailEvent) => {
      while (allowance === 0) await new Promise<void>((resolve) => (wake = resolve));
      allowance--;
      delivered.push(event);
    };
    const tail = startFakeTail({ print, maxQueued: 5 });
    await tail.subscribed();
    let next = 1;
    for (let round = 0; round < 300; round++) {
      for (let i = 0; i < (round % 4) + 1; i++) tail.send(next++);
      allowance += round % 3;
      wake();
      await new Promise((resolve) => setImmediate(resolve));
    }
    allowance = Infinity;
    wake();
    await until(() => delivered.length >= next - 1, 'every message delivered');
    await new Promise((resolve) => setTimeout(resolve, 50)); // anything delivered twice would show by now
    tail.stop();
    await tail.done;
    expect(ids(delivered)).toEqual(range(1, next - 1));
    expect(delivered.some((e) => e.source === 'rest')).toBe(true); // some were let go and fetched again
  });

  it('names each deleted or read event it drops while the queue is full, and nothing else is said', async () => {
    const consumer = gatedOutput();
    const dropped: TailEvent[] = [];
    const tail = startFakeTail({ print: consumer.print, maxQueued: 2, dropped: (e) => dropped.push(e) });
    await tail.subscribed();
    for (let id = 1; id <= 6; id++) tail.event('read', { conversation_id: CONVERSATION, n: id });
    consumer.open();
    tail.stop();
    await tail.done;
    // The first is being delivered, the next two wait in the queue: the rest are dropped, each named.
    expect(dropped.map((e) => [e.kind, e.data.n])).toEqual([
      ['read', 4],
      ['read', 5],
      ['read', 6],
    ]);
    expect(tail.lost).toEqual([]);
  });

  it('an ending tail aborts the delivery in flight and every one after it: none waits for the endpoint', async () => {
    const endings: AbortSignal[] = [];
    const tail = startFakeTail({
      print: (_event, ending) => {
        endings.push(ending);
        // An endpoint that never answers: only the tail's end stops this delivery.
        return new Promise<void>((_resolve, reject) => {
          const give = () => reject(new CancelledError('interrupted'));
          if (ending.aborted) give();
          else ending.addEventListener('abort', give, { once: true });
        });
      },
    });
    await tail.subscribed();
    for (let id = 1; id <= 5; id++) tail.send(id);
    await until(() => endings.length === 1, 'the first delivery');
    tail.stop();
    expect(await tail.done).toBeInstanceOf(CancelledError);
    expect(endings).toHaveLength(5);
    expect(endings.every((signal) => signal.aborted)).toBe(true);
  });
});
