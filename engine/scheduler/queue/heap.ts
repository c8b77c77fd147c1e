// A keyed binary heap: pkg/scheduler/backend/heap/heap.go over Go's
// container/heap. The sift steps follow container/heap exactly (up, down,
// Fix, Remove), so pods that compare equal come out in the same order as in
// the real scheduler for the same sequence of operations.
//
// The ordering is an object with a `less` method (a registered class, e.g.
// the QueueSort plugin), never a closure, so the heap stays snapshot-able.
import { registerClass } from '../../sim/serial';

export interface Order<T> {
  less(a: T, b: T): boolean;
}

interface HeapItem<T> {
  key: string;
  obj: T;
  /** Position in `queue`. */
  index: number;
}

export class KeyedHeap<T> {
  private readonly items = new Map<string, HeapItem<T>>();
  private readonly queue: HeapItem<T>[] = [];

  constructor(private readonly order: Order<T>) {}

  get length(): number {
    return this.queue.length;
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  get(key: string): T | undefined {
    return this.items.get(key)?.obj;
  }

  peek(): T | undefined {
    return this.queue[0]?.obj;
  }

  /** Heap.AddOrUpdate: replaces and re-sifts an existing key, else pushes. */
  addOrUpdate(key: string, obj: T): void {
    const item = this.items.get(key);
    if (item) {
      item.obj = obj;
      this.fix(item.index);
      return;
    }
    const fresh: HeapItem<T> = { key, obj, index: this.queue.length };
    this.items.set(key, fresh);
    this.queue.push(fresh);
    this.up(fresh.index);
  }

  /** Heap.Delete; false when the key is absent. */
  delete(key: string): boolean {
    const item = this.items.get(key);
    if (!item) return false;
    // container/heap.Remove
    const n = this.queue.length - 1;
    const i = item.index;
    if (n !== i) {
      this.swap(i, n);
      if (!this.down(i, n)) this.up(i);
    }
    this.removeLast();
    return true;
  }

  pop(): T | undefined {
    if (this.queue.length === 0) return undefined;
    // container/heap.Pop
    const n = this.queue.length - 1;
    this.swap(0, n);
    this.down(0, n);
    return this.removeLast().obj;
  }

  /** The objects in storage order (cheap; not pop order). */
  list(): T[] {
    return this.queue.map((it) => it.obj);
  }

  /** The objects in the order pops would return them now (runs the same sift on a copy). */
  popOrder(): T[] {
    const copy = new KeyedHeap<T>(this.order);
    for (const it of this.queue) {
      const c: HeapItem<T> = { key: it.key, obj: it.obj, index: it.index };
      copy.items.set(c.key, c);
      copy.queue.push(c);
    }
    const out: T[] = [];
    for (let x = copy.pop(); x !== undefined; x = copy.pop()) out.push(x);
    return out;
  }

  private removeLast(): HeapItem<T> {
    const item = this.queue.pop()!;
    this.items.delete(item.key);
    return item;
  }

  private less(i: number, j: number): boolean {
    return this.order.less(this.queue[i]!.obj, this.queue[j]!.obj);
  }

  private swap(i: number, j: number): void {
    const a = this.queue[i]!;
    const b = this.queue[j]!;
    this.queue[i] = b;
    this.queue[j] = a;
    b.index = i;
    a.index = j;
  }

  private fix(i: number): void {
    if (!this.down(i, this.queue.length)) this.up(i);
  }

  private up(j: number): void {
    for (;;) {
      // Go's (j-1)/2 truncates toward zero: the root is its own parent.
      const i = Math.trunc((j - 1) / 2);
      if (i === j || !this.less(j, i)) break;
      this.swap(i, j);
      j = i;
    }
  }

  private down(i0: number, n: number): boolean {
    let i = i0;
    for (;;) {
      const j1 = 2 * i + 1;
      if (j1 >= n || j1 < 0) break;
      let j = j1;
      const j2 = j1 + 1;
      if (j2 < n && this.less(j2, j1)) j = j2;
      if (!this.less(j, i)) break;
      this.swap(i, j);
      i = j;
    }
    return i > i0;
  }
}

registerClass('SchedulerQueueKeyedHeap', KeyedHeap);
