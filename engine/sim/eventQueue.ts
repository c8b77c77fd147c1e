// The pending events of a simulation, ordered by (time, seq). `seq` is a
// global insertion counter, so events scheduled for the same instant run in the
// order they were scheduled: a stable total order, hence determinism.
//
// This is the kernel's hottest structure, so it is laid out for speed:
// - A 4-ary min-heap kept as three parallel arrays of numbers (times, seqs, and
//   `slots`: where each event sits in `pool`) rather than one array of
//   {time, seq, event} objects: sifting compares and moves only numbers, which
//   sit contiguously in memory and need no GC write barrier (moving object
//   references through a long-lived array does), and pushing allocates no
//   wrapper. Four children per node halve the depth for a few more
//   comparisons. The arrays never shrink (`n` counts the live prefix): a queue
//   that hovers around a size would otherwise have its arrays trimmed and regrown.
// - A "lane" beside the heap: a FIFO that takes every pushed event no earlier
//   than the lane's last one, so it is sorted by construction. Long timers (a
//   client's 8 s attempt timeout per request, thousands pending) land there at
//   O(1) and stay out of the heap, which keeps only the near-future traffic.
// pop takes the smaller of the heap's top and the lane's head: the order is
// exactly that of a single heap.
import { registerClass } from './serial';

export interface Scheduled<E> {
  time: number;
  seq: number;
  event: E;
}

// Lane slots consumed before the lane's arrays are compacted. Small enough that the compaction first runs while a simulation is still
// settling (an election), not seconds into a load: code that first runs after
// the kernel loop is optimized deoptimizes it. Compacting only once the
// consumed prefix is half the arrays keeps the copying at most one element
// per pop, whatever this is.
const LANE_COMPACT = 64;

export class EventQueue<E> {
  private times: number[] = [];
  private seqs: number[] = [];
  private slots: number[] = [];
  private n = 0;
  /** The heap's events, each at a fixed index until popped (then undefined, so it can be collected). */
  private pool: (E | undefined)[] = [];
  /** Free indexes of `pool`. */
  private free: number[] = [];
  /** The lane: entries [laneHead, length) are pending, in (time, seq) order. */
  private laneTimes: number[] = [];
  private laneSeqs: number[] = [];
  private laneEvents: (E | undefined)[] = [];
  private laneHead = 0;
  private nextSeq = 0;

  get size(): number {
    return this.n + this.laneEvents.length - this.laneHead;
  }

  push(time: number, event: E): void {
    const seq = this.nextSeq++;
    const lt = this.laneTimes;
    const ln = lt.length;
    if (ln === this.laneHead || time >= lt[ln - 1]!) {
      // No earlier than the lane's last event (and later in seq): append.
      lt.push(time);
      this.laneSeqs.push(seq);
      this.laneEvents.push(event);
      return;
    }
    let slot: number;
    if (this.free.length !== 0) {
      slot = this.free.pop()!;
      this.pool[slot] = event;
    } else {
      slot = this.pool.length;
      this.pool.push(event);
    }
    const times = this.times;
    const seqs = this.seqs;
    const slots = this.slots;
    let i = this.n++;
    if (i === times.length) {
      times.push(time);
      seqs.push(seq);
      slots.push(slot);
    }
    // Sift the hole at i up.
    while (i > 0) {
      const parent = (i - 1) >> 2;
      const pt = times[parent]!;
      if (pt < time || (pt === time && seqs[parent]! < seq)) break;
      times[i] = pt;
      seqs[i] = seqs[parent]!;
      slots[i] = slots[parent]!;
      i = parent;
    }
    times[i] = time;
    seqs[i] = seq;
    slots[i] = slot;
  }

  /** Time of the earliest event; undefined when empty. Allocation-free. */
  peekTime(): number | undefined {
    const lh = this.laneHead;
    if (lh < this.laneTimes.length) {
      const lt = this.laneTimes[lh]!;
      return this.n !== 0 && this.times[0]! < lt ? this.times[0] : lt;
    }
    return this.n === 0 ? undefined : this.times[0];
  }

  /** Whether the earliest event is the lane's head (rather than the heap's top). */
  private laneFirst(): boolean {
    const lh = this.laneHead;
    if (lh === this.laneTimes.length) return false;
    if (this.n === 0) return true;
    const lt = this.laneTimes[lh]!;
    const ht = this.times[0]!;
    return lt < ht || (lt === ht && this.laneSeqs[lh]! < this.seqs[0]!);
  }

  /** Time of the event popDue() returned last. */
  poppedTime = 0;

  /**
   * Removes and returns the earliest event if it is due at or before `limit`
   * (its time is left in poppedTime), else undefined. peekTime + popEvent in
   * one pass: the kernel's loop. Allocation-free.
   */
  popDue(limit: number): E | undefined {
    const lh = this.laneHead;
    const laneLen = this.laneTimes.length;
    if (this.n === 0) {
      if (lh === laneLen) return undefined;
      const lt = this.laneTimes[lh]!;
      if (lt > limit) return undefined;
      this.poppedTime = lt;
      return this.popLane();
    }
    const ht = this.times[0]!;
    if (lh !== laneLen) {
      const lt = this.laneTimes[lh]!;
      // The tie-break is read on every pop, not only on a tie (rare, and first
      // seen after this loop is optimized: a deopt of the kernel's loop).
      const laneSeqFirst = this.laneSeqs[lh]! < this.seqs[0]!;
      if (lt < ht || (lt === ht && laneSeqFirst)) {
        if (lt > limit) return undefined;
        this.poppedTime = lt;
        return this.popLane();
      }
    }
    if (ht > limit) return undefined;
    this.poppedTime = ht;
    return this.popHeap();
  }

  /** Removes and returns the earliest event (read its time with peekTime first). Allocation-free. */
  popEvent(): E | undefined {
    if (this.laneFirst()) return this.popLane();
    return this.popHeap();
  }

  private popHeap(): E | undefined {
    const n = this.n - 1;
    if (n < 0) return undefined;
    const times = this.times;
    const seqs = this.seqs;
    const slots = this.slots;
    const topSlot = slots[0]!;
    const top = this.pool[topSlot]!;
    this.pool[topSlot] = undefined;
    this.free.push(topSlot);
    const lastT = times[n]!;
    const lastS = seqs[n]!;
    const lastSlot = slots[n]!;
    this.n = n;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const first = 4 * i + 1;
        if (first >= n) break;
        let c = first;
        let ct = times[first]!;
        let cs = seqs[first]!;
        const end = first + 4 < n ? first + 4 : n;
        for (let k = first + 1; k < end; k++) {
          const kt = times[k]!;
          if (kt < ct || (kt === ct && seqs[k]! < cs)) {
            c = k;
            ct = kt;
            cs = seqs[k]!;
          }
        }
        if (lastT < ct || (lastT === ct && lastS < cs)) break;
        times[i] = ct;
        seqs[i] = cs;
        slots[i] = slots[c]!;
        i = c;
      }
      times[i] = lastT;
      seqs[i] = lastS;
      slots[i] = lastSlot;
    }
    return top;
  }

  private popLane(): E {
    const lh = this.laneHead;
    const laneEvents = this.laneEvents;
    const ev = laneEvents[lh]!;
    laneEvents[lh] = undefined;
    const next = lh + 1;
    if (next === laneEvents.length) {
      // Drained: start over at the front.
      this.laneTimes.length = 0;
      this.laneSeqs.length = 0;
      laneEvents.length = 0;
      this.laneHead = 0;
    } else if (next >= LANE_COMPACT && next * 2 >= laneEvents.length) {
      this.laneTimes.splice(0, next);
      this.laneSeqs.splice(0, next);
      laneEvents.splice(0, next);
      this.laneHead = 0;
    } else {
      this.laneHead = next;
    }
    return ev;
  }

  /** The earliest event with its time and sequence number (allocates: not for hot paths). */
  peek(): Scheduled<E> | undefined {
    if (this.laneFirst()) {
      const lh = this.laneHead;
      return { time: this.laneTimes[lh]!, seq: this.laneSeqs[lh]!, event: this.laneEvents[lh]! };
    }
    if (this.n === 0) return undefined;
    return { time: this.times[0]!, seq: this.seqs[0]!, event: this.pool[this.slots[0]!]! };
  }

  /** Removes the earliest event, with its time and sequence number (allocates: not for hot paths). */
  pop(): Scheduled<E> | undefined {
    const head = this.peek();
    if (head) this.popEvent();
    return head;
  }

  /** Every pending event, in no particular order (for views of messages in flight). */
  items(): Scheduled<E>[] {
    const out: Scheduled<E>[] = [];
    for (let i = 0; i < this.n; i++) out.push({ time: this.times[i]!, seq: this.seqs[i]!, event: this.pool[this.slots[i]!]! });
    for (let i = this.laneHead; i < this.laneEvents.length; i++) {
      out.push({ time: this.laneTimes[i]!, seq: this.laneSeqs[i]!, event: this.laneEvents[i]! });
    }
    return out;
  }
}

registerClass('EventQueue', EventQueue);
