// The system clock's sleep: a delay beyond setTimeout's 32-bit limit must not fire at once (a busy loop).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('systemClock.sleep', () => {
  it('sleeps past 2^31-1 ms in steps instead of waking at once', async () => {
    vi.useFakeTimers();
    let woke = false;
    const long = 2 ** 31 + 60_000;
    void systemClock.sleep(long).then(() => (woke = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(2 ** 31 - 1000);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(woke).toBe(true);
  });

  it('is interrupted by its signal, in the second step too', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const sleeping = systemClock.sleep(2 ** 31 + 60_000, stop.signal);
    await vi.advanceTimersByTimeAsync(2 ** 31);
    stop.abort(new Error('interrupted'));
    await expect(sleeping).rejects.toThrow('interrupted');
  });
});
