// The list the deadlines and a signal's acts wait in: order kept, removal at any place, and nothing kept by a link
// once it is out (what a Set's replaced tables did keep: waiting-list.ts).
import { describe, expect, it } from 'vitest';
import { WaitingList } from '../../../src/core/waiting-list.js';

describe('WaitingList', () => {
  it('keeps the order of adding, whichever links leave, first, last or between', () => {
    const list = new WaitingList<string>();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((value) => list.add(value));
    expect(list.values()).toEqual(['a', 'b', 'c', 'd']);
    expect(list.remove(b!)).toBe(true);
    expect(list.values()).toEqual(['a', 'c', 'd']);
    expect(list.remove(a!)).toBe(true);
    expect(list.remove(d!)).toBe(true);
    expect(list.values()).toEqual(['c']);
    expect(list.size).toBe(1);
    list.add('e');
    expect(list.values()).toEqual(['c', 'e']);
    expect(list.remove(c!)).toBe(true);
    expect(list.values()).toEqual(['e']);
  });

  it('a link taken out holds nothing (no value, no neighbour), and taking it out again changes nothing', () => {
    const list = new WaitingList<object>();
    list.add({});
    const middle = list.add({ page: 'text' });
    list.add({});
    expect(list.remove(middle)).toBe(true);
    expect(middle).toEqual({ value: undefined, previous: undefined, next: undefined, listed: false });
    expect(list.remove(middle)).toBe(false);
    expect(list.size).toBe(2);
  });

  it('links() may take out the link it just gave; clear() leaves every link empty', () => {
    const list = new WaitingList<number>();
    const links = [1, 2, 3, 4, 5].map((value) => list.add(value));
    for (const link of list.links()) if (link.value! % 2 === 0) list.remove(link);
    expect(list.values()).toEqual([1, 3, 5]);
    list.clear();
    expect(list.size).toBe(0);
    expect(list.values()).toEqual([]);
    expect(links.every((link) => !link.listed && link.value === undefined && link.next === undefined)).toBe(
      true,
    );
    list.add(6);
    expect(list.values()).toEqual([6]);
  });
});
