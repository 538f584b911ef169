// `chat tail` whose output is not being read: the queue stays under its limit, the messages let go are fetched
// over REST once printing resumes, and every message is printed exactly once.
import { describe, expect, it } from 'vitest';
import { gatedOutput, ids, range, startFakeTail, until } from '../../helpers/fake-chat-tail.js';

function startTail(maxQueued: number) {
  const output = gatedOutput();
  let longest = 0;
  const tail = startFakeTail({
    print: output.print,
    maxQueued,
    watchQueue: (length) => (longest = Math.max(longest, length)),
  });
  return {
    ...tail,
    output,
    longest: () => longest,
    /** A live event REST cannot fetch again. */
    read: (id: number) => tail.event('read', { conversation_id: 1, id }),
    ready: () => until(() => tail.handlers() !== undefined, 'the connection'),
  };
}

describe('chat tail with an output nobody reads', () => {
  it('keeps its queue under the limit; once printing resumes every message is printed once, in order', async () => {
    const tail = startTail(20);
    await tail.ready();
    for (let id = 1; id <= 3000; id++) tail.send(id);
    expect(tail.longest()).toBeLessThanOrEqual(21); // the events, plus one fill waiting its turn
    tail.output.open();
    await until(() => tail.output.printed.length >= 3000, 'every message printed');
    await new Promise((resolve) => setTimeout(resolve, 50)); // anything printed twice would show by now
    tail.stop();
    await tail.done;
    expect(ids(tail.output.printed)).toEqual(range(1, 3000));
    // Those accepted (the one being printed and the 20 queued) live; the rest from REST.
    const live = tail.output.printed.filter((e) => e.source === 'realtime').length;
    expect(live).toBe(21);
    expect(tail.output.printed.slice(live).every((e) => e.source === 'rest')).toBe(true);
    // One fill, from the last point known complete (the first message): the live ones after it are not repeated.
    expect(tail.api.afters).toEqual([1]);
    expect(tail.status).toContain('filled 2979 missed messages (catching up)');
  });

  it('a reader that stalls again and again: live events late, repeated and let go, still each once', async () => {
    const tail = startTail(15);
    await tail.ready();
    let next = 1;
    for (let round = 0; round < 8; round++) {
      const burst = range(next, next + 199);
      next += 200;
      // Out of order and repeated, as a realtime server may deliver them.
      const order = [...burst.slice(100), ...burst.slice(0, 100).reverse(), ...burst.slice(50, 80)];
      tail.api.publish(next - 1);
      for (const id of order) tail.send(id);
      expect(tail.longest()).toBeLessThanOrEqual(16);
      tail.output.open();
      await new Promise((resolve) => setTimeout(resolve, round % 2 ? 0 : 5));
      tail.output.close();
    }
    tail.output.open();
    await until(() => tail.output.printed.length >= next - 1, 'every message printed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    tail.stop();
    await tail.done;
    const printed = ids(tail.output.printed);
    expect(new Set(printed).size).toBe(printed.length);
    expect([...printed].sort((a, b) => a - b)).toEqual(range(1, next - 1));
  });

  it('says that events were dropped on the line that --quiet keeps (lost), not among the notes', async () => {
    const tail = startTail(2);
    await tail.ready();
    for (let id = 1; id <= 10; id++) tail.read(id);
    tail.output.open();
    tail.stop();
    await tail.done;
    expect(tail.lost).toEqual([
      'the output is not being read: deleted and read events are dropped until it is (REST cannot fetch them)',
      '7 deleted and read events were dropped: the output was not read',
    ]);
    expect(tail.status.join('\n')).not.toContain('dropped');
  });
});
