// What many requests join and leave in turn (the deadlines, the acts waiting on a signal's abort, the sections under
// a lock): a linked list whose links let go of everything once removed. Not a Set: V8 replaces a Set's table as
// entries come and go, and a replaced table keeps its entries and a pointer to the table after it. A full collection
// promotes whatever is young, and a table with it; from then on each young collection found the tables after that one
// alive through it, and promoted them with all their entries reached (a request, its answer, a page's text): some
// 10 MB in an export of 100,000 records, and the full collections that clear it.

/** A place in a WaitingList: what `add` returns and `remove` takes. */
export interface Link<T> {
  value: T | undefined;
  previous: Link<T> | undefined;
  next: Link<T> | undefined;
  listed: boolean;
}

export class WaitingList<T> {
  private first: Link<T> | undefined;
  private last: Link<T> | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(value: T): Link<T> {
    const link: Link<T> = { value, previous: this.last, next: undefined, listed: true };
    if (this.last) this.last.next = link;
    else this.first = link;
    this.last = link;
    this.count++;
    return link;
  }

  /** Takes `link` out (false when it was out already); it keeps nothing afterwards, not even its value. */
  remove(link: Link<T>): boolean {
    if (!link.listed) return false;
    const { previous, next } = link;
    if (previous) previous.next = next;
    else this.first = next;
    if (next) next.previous = previous;
    else this.last = previous;
    link.value = link.previous = link.next = undefined;
    link.listed = false;
    this.count--;
    return true;
  }

  /** The values in the order they were added: a copy, so that they may be removed while it is read. */
  values(): T[] {
    const values: T[] = [];
    for (let link = this.first; link; link = link.next) values.push(link.value as T);
    return values;
  }

  /** Each link in the order they were added; `remove` may be called on the one just given. */
  *links(): Generator<Link<T>> {
    for (let link = this.first; link;) {
      const next = link.next;
      yield link;
      link = next;
    }
  }

  clear(): void {
    for (const link of this.links()) this.remove(link);
  }
}
