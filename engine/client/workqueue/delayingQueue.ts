// The delaying queue, as client-go's util/workqueue/delaying_queue.go: addAfter
// holds an item until its time, then adds it. Upstream a goroutine waits on a
// heap of entries; here the owner schedules a timer at nextReadyAt() and calls
// tick(now) (every other call also promotes what is due first). An item waiting
// twice keeps the earlier time.
import { registerClass } from '../../sim/serial';
import { WorkQueue, type QueueKey } from './queue';

interface WaitFor<T> {
  item: T;
  readyAt: number;
  /** Insertion order: equal times leave in the order they were asked. */
  seq: number;
  /** Position in the heap. */
  index: number;
}

export class DelayingQueue<T extends QueueKey = string> extends WorkQueue<T> {
  /** Min-heap on (readyAt, seq). */
  protected waiting: WaitFor<T>[] = [];
  /** The entry of each waiting item (upstream knownEntries). */
  protected readonly known = new Map<T, WaitFor<T>>();
  private waitSeq = 0;

  /** AddAfter: adds the item once `delayMs` has passed; at once when delayMs <= 0. */
  addAfter(item: T, delayMs: number, now: number): void {
    if (this.shuttingDown) return;
    this.advance(now);
    this.metrics.retry();
    if (delayMs <= 0) {
      this.addNow(item, now);
      return;
    }
    const readyAt = now + delayMs;
    const existing = this.known.get(item);
    if (existing) {
      // Only ever sooner.
      if (readyAt < existing.readyAt) {
        existing.readyAt = readyAt;
        this.up(existing.index);
      }
      return;
    }
    const entry: WaitFor<T> = { item, readyAt, seq: this.waitSeq++, index: this.waiting.length };
    this.waiting.push(entry);
    this.known.set(item, entry);
    this.up(entry.index);
  }

  /** Adds every item whose time has come, each at its ready time. */
  tick(now: number): void {
    this.advance(now);
  }

  /** When the next waiting item is due (null: none waiting): the owner's timer. */
  nextReadyAt(): number | null {
    return this.waiting[0]?.readyAt ?? null;
  }

  /** Items waiting for their time, soonest first (UI). */
  waitingItems(): { item: T; readyAt: number }[] {
    return [...this.waiting].sort(before).map((w) => ({ item: w.item, readyAt: w.readyAt }));
  }

  override shutDown(): void {
    super.shutDown();
    this.dropWaiting();
  }

  override shutDownWithDrain(): void {
    super.shutDownWithDrain();
    this.dropWaiting();
  }

  protected override advance(now: number): void {
    for (;;) {
      const first = this.waiting[0];
      if (!first || first.readyAt > now) return;
      this.pop();
      this.known.delete(first.item);
      this.addNow(first.item, first.readyAt);
    }
  }

  /** Upstream's waiting loop ends with the queue: entries are never added. */
  private dropWaiting(): void {
    this.waiting = [];
    this.known.clear();
  }

  private pop(): void {
    const last = this.waiting.pop()!;
    if (this.waiting.length === 0) return;
    this.waiting[0] = last;
    last.index = 0;
    this.down(0);
  }

  private up(i: number): void {
    const h = this.waiting;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (before(h[parent]!, h[i]!) <= 0) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.waiting;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l]!, h[m]!) < 0) m = l;
      if (r < h.length && before(h[r]!, h[m]!) < 0) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number): void {
    const h = this.waiting;
    const a = h[i]!;
    const b = h[j]!;
    h[i] = b;
    h[j] = a;
    a.index = j;
    b.index = i;
  }
}

function before<T>(a: WaitFor<T>, b: WaitFor<T>): number {
  return a.readyAt - b.readyAt || a.seq - b.seq;
}

registerClass('DelayingQueue', DelayingQueue);
