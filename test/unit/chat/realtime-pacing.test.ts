// A realtime server cannot set the pace of the tail's work with the API: closing every connection with "reconnect at
// once" (4200-4299) has pusher-js wait a second, a subscription said again on the same connection fills nothing, and
// the channel's authorizations and the fills after reconnects are spaced out (1 s doubling to 30 s while they keep
// coming back). Before, one server drove 1,600 reconnects, 1,500 authorizations and 8,000 fills' requests in 10 s.
import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from '../../../src/core/http/client.js';
import type { TailEvent } from '../../../src/core/realtime/events.js';
import { connectLogged, fakePusherServer } from '../../helpers/fake-pusher.js';
import { Spacing } from '../../../src/core/realtime/spacing.js';
import { startFakeTail, until } from '../../helpers/fake-chat-tail.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a server that closes every connection asking for a reconnect at once', () => {
  it.each([4200, 4299])(
    '(%i): pusher-js reconnects after a pause, not hundreds of times a second',
    async (code) => {
      const { port, connections } = await fakePusherServer({ subscribed: (socket) => socket.close(code) });
      const seen = connectLogged(port);
      await sleep(2_500);
      expect(seen.subscribed).toBeGreaterThanOrEqual(1);
      // One at once, then one a second or so.
      expect(connections.count).toBeLessThanOrEqual(5);
    },
  );

  it('a close asking for a pause (4100) or a normal one is as it was', async () => {
    const { port, connections } = await fakePusherServer({ subscribed: (socket) => socket.close(4100) });
    connectLogged(port);
    await until(() => connections.count >= 2, 'a reconnect');
  });
});

/** A tail whose API also answers the channel's authorization, counting each. */
function tailWithAuthorizations() {
  const printed: TailEvent[] = [];
  const tail = startFakeTail({ print: async (event) => void printed.push(event) });
  const authorizations: number[] = [];
  const fetch = tail.api.client.request.bind(tail.api.client);
  tail.api.client.request = async (request: ApiRequest): Promise<ApiResponse> => {
    if (request.method !== 'POST') return fetch(request);
    authorizations.push(Date.now());
    const text = JSON.stringify({ auth: 'key:signature' });
    return { status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T };
  };
  return { tail, printed, authorizations };
}

/** A reconnect as pusher-js goes through one: the connection drops, comes back, and the channel is subscribed. */
function reconnect(tail: ReturnType<typeof startFakeTail>) {
  const on = tail.handlers()!;
  on.state('connecting', 'connected');
  on.state('connected', 'connecting');
  on.subscribed();
}

describe('the tail paces what a server can have it do again and again', () => {
  it('a subscription said again and again on the same connection fills nothing and says nothing', async () => {
    const { tail } = tailWithAuthorizations();
    await tail.subscribed();
    tail.send(1);
    for (let i = 0; i < 200; i++) tail.handlers()!.subscribed();
    await sleep(300);
    tail.stop();
    await tail.done;
    expect(tail.api.afters).toEqual([]);
    expect(tail.status.filter((line) => line === 'reconnected')).toEqual([]);
  });

  it('reconnects every 100 ms for 2.5 s: the gap is filled at once, then again after 1 s, then after 2 s more', async () => {
    const { tail, printed } = tailWithAuthorizations();
    await tail.subscribed();
    tail.send(1);
    const started = Date.now();
    while (Date.now() - started < 2_500) {
      reconnect(tail);
      await sleep(100);
    }
    tail.api.publish(2); // missed while the connection was down: filled, late but once
    await until(() => printed.length === 2, 'the missed message');
    tail.stop();
    await tail.done;
    // 25 reconnects: without the pacing, a fill each.
    expect(tail.api.afters.length).toBeGreaterThanOrEqual(3);
    expect(tail.api.afters.length).toBeLessThanOrEqual(4);
    expect(printed.map((event) => event.data.id)).toEqual([1, 2]);
  });

  it("authorizes a new connection at once, the next soon after it a second later, and only a waiting one's newest", async () => {
    const { tail, authorizations } = tailWithAuthorizations();
    await tail.subscribed();
    const { authorize } = tail.handlers()!;
    const start = Date.now();
    await authorize('1.1', 'private-chat-log.1');
    const second = authorize('1.2', 'private-chat-log.1');
    // A third connection asks while the second waits its turn: the second is given up, not sent.
    await sleep(200);
    const third = authorize('1.3', 'private-chat-log.1');
    await expect(second).rejects.toThrow('a newer connection is authorized instead');
    await third;
    tail.stop();
    await tail.done;
    expect(authorizations).toHaveLength(2);
    expect(authorizations[0]! - start).toBeLessThan(500);
    // The third waited its own doubled turn (2 s), counted from when it asked.
    expect(authorizations[1]! - start).toBeGreaterThanOrEqual(2_000);
    expect(tail.lost).toEqual([]);
    expect(tail.status.some((line) => line.startsWith('could not authorize'))).toBe(false);
  });

  it('a reconnect after a quiet minute is authorized and filled at once', async () => {
    const { tail, printed } = tailWithAuthorizations();
    await tail.subscribed();
    tail.send(1);
    tail.api.publish(2);
    const start = Date.now();
    reconnect(tail);
    await until(() => printed.length === 2, 'the gap filled');
    expect(Date.now() - start).toBeLessThan(500);
    tail.stop();
    await tail.done;
    expect(printed.map((event) => event.data.id)).toEqual([1, 2]);
  });
});

describe('Spacing', () => {
  const clockAt = () => {
    const clock = { at: 0, now: () => clock.at, sleep: async () => undefined };
    return clock;
  };

  it('none the first time; then 1 s, doubling to 30 s while it comes back within a minute; none after a quiet minute', () => {
    const clock = clockAt();
    const spacing = new Spacing(clock);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      waits.push(spacing.next());
      clock.at += 100;
    }
    expect(waits).toEqual([0, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    // A minute after the last one was done (its wait included): at once again.
    clock.at += 30_000 + 60_000;
    expect(spacing.next()).toBe(0);
    expect(spacing.next()).toBe(1_000);
  });
});
