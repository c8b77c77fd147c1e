// The work queue, as client-go's util/workqueue/queue.go: fair (FIFO), stingy
// (an item waiting more than once is processed once; an item is never handed
// to two workers at once: re-added while processing, it waits for Done and is
// queued again then), with shutdown. It never blocks: `get` returns null when
// nothing is ready, and every call carries the virtual time, for metrics.
import { registerClass } from '../../sim/serial';
import { QueueMetrics } from './metrics';

/** Items are keys ("namespace/name"): compared by value, snapshot as plain data. */
export type QueueKey = string | number;

export class WorkQueue<T extends QueueKey = string> {
  /** Order of work: every element is dirty and not processing. queue[head] is next. */
  protected queue: T[] = [];
  protected head = 0;
  /** Items that need processing. */
  readonly dirty = new Set<T>();
  /** Items handed out by get and not yet done; may be dirty again meanwhile. */
  readonly processing = new Set<T>();
  shuttingDown = false;
  /** ShutDownWithDrain: shut down once processing is empty. */
  drain = false;
  readonly metrics: QueueMetrics<T>;

  constructor(readonly name = '') {
    this.metrics = new QueueMetrics<T>(name);
  }

  /** Add: marks item as needing processing. */
  add(item: T, now: number): void {
    this.advance(now);
    this.addNow(item, now);
  }

  /** Len: items waiting to be handed out (not those being processed). */
  len(): number {
    return this.queue.length - this.head;
  }

  /**
   * Get: the next item to process, now in the processing set, or null when
   * none is ready (then, if shuttingDown, the worker should exit). Call done(item) after.
   */
  get(now: number): T | null {
    this.advance(now);
    if (this.len() === 0) return null;
    const item = this.queue[this.head]!;
    this.head++;
    if (this.head > 64 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.metrics.get(item, now);
    this.processing.add(item);
    this.dirty.delete(item);
    return item;
  }

  /** Done: the item's processing ended; if it was added meanwhile it is queued again. */
  done(item: T, now: number): void {
    if (!this.processing.has(item)) throw new Error(`workqueue ${this.name}: done(${String(item)}) for an item not being processed`);
    this.advance(now);
    this.metrics.done(item, now);
    this.processing.delete(item);
    if (this.dirty.has(item)) this.queue.push(item);
  }

  /** ShutDown: ignore new items; workers exit once the queue is empty. */
  shutDown(): void {
    this.drain = false;
    this.shuttingDown = true;
  }

  /** ShutDownWithDrain: as shutDown, and the owner waits for `drained`. */
  shutDownWithDrain(): void {
    this.drain = true;
    this.shuttingDown = true;
  }

  /** Every item handed out is done (what ShutDownWithDrain waits for). */
  get drained(): boolean {
    return this.processing.size === 0;
  }

  /** Items waiting, in order (UI). */
  pending(): T[] {
    return this.queue.slice(this.head);
  }

  /** Lets time pass before an operation at `now` (the delaying queue promotes due items). */
  protected advance(_now: number): void {}

  protected addNow(item: T, now: number): void {
    if (this.shuttingDown) return;
    // Touch would reorder a priority queue; the FIFO queue ignores it.
    if (this.dirty.has(item)) return;
    this.metrics.add(item, now);
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.queue.push(item);
  }
}

registerClass('WorkQueue', WorkQueue);
