// A binary min-heap of simulation events ordered by (time, seq). `seq` is a
// global insertion counter, so events scheduled for the same instant run in the
// order they were scheduled: a stable total order, hence determinism.
import { registerClass } from './serial';

export interface Scheduled<E> {
  time: number;
  seq: number;
  event: E;
}

export class EventQueue<E> {
  private heap: Scheduled<E>[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(time: number, event: E): Scheduled<E> {
    const item = { time, seq: this.nextSeq++, event };
    const heap = this.heap;
    heap.push(item);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent]!;
      if (!before(item, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = item;
    return item;
  }

  peek(): Scheduled<E> | undefined {
    return this.heap[0];
  }

  pop(): Scheduled<E> | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (top === undefined) return undefined;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      const n = heap.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const child = r < n && before(heap[r]!, heap[l]!) ? r : l;
        if (!before(heap[child]!, last)) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }

  /** Every pending event, in no particular order (for views of messages in flight). */
  items(): readonly Scheduled<E>[] {
    return this.heap;
  }
}

function before<E>(a: Scheduled<E>, b: Scheduled<E>): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

registerClass('EventQueue', EventQueue);
