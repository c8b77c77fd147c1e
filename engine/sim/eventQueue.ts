// A 4-ary min-heap of simulation events ordered by (time, seq). `seq` is a
// global insertion counter, so events scheduled for the same instant run in the
// order they were scheduled: a stable total order, hence determinism.
//
// The heap is kept as three parallel arrays (times, seqs, events) rather than
// one array of {time, seq, event} objects: sifting compares only the two number
// arrays, which sit contiguously in memory (no pointer chase per comparison),
// and pushing allocates no wrapper. This is the kernel's hottest loop. The
// arrays never shrink (`n` counts the live prefix): a queue that hovers around
// a size would otherwise have its backing stores trimmed and regrown. Four
// children per node halve the depth (thousands of pending timers are common)
// for a few more comparisons on contiguous numbers.
import { registerClass } from './serial';

export interface Scheduled<E> {
  time: number;
  seq: number;
  event: E;
}

export class EventQueue<E> {
  private times: number[] = [];
  private seqs: number[] = [];
  /** Slots at and after `n` are empty (undefined), so popped events can be collected. */
  private events: (E | undefined)[] = [];
  private n = 0;
  private nextSeq = 0;

  get size(): number {
    return this.n;
  }

  push(time: number, event: E): void {
    const times = this.times;
    const seqs = this.seqs;
    const events = this.events;
    const seq = this.nextSeq++;
    let i = this.n++;
    if (i === events.length) {
      times.push(time);
      seqs.push(seq);
      events.push(event);
    }
    // Sift the hole at i up.
    while (i > 0) {
      const parent = (i - 1) >> 2;
      const pt = times[parent]!;
      if (pt < time || (pt === time && seqs[parent]! < seq)) break;
      times[i] = pt;
      seqs[i] = seqs[parent]!;
      events[i] = events[parent]!;
      i = parent;
    }
    times[i] = time;
    seqs[i] = seq;
    events[i] = event;
  }

  /** Time of the earliest event; undefined when empty. Allocation-free. */
  peekTime(): number | undefined {
    return this.n === 0 ? undefined : this.times[0];
  }

  /** Removes and returns the earliest event (read its time with peekTime first). Allocation-free. */
  popEvent(): E | undefined {
    const events = this.events;
    const n = this.n - 1;
    if (n < 0) return undefined;
    const top = events[0]!;
    const times = this.times;
    const seqs = this.seqs;
    const lastT = times[n]!;
    const lastS = seqs[n]!;
    const lastE = events[n]!;
    events[n] = undefined;
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
        events[i] = events[c]!;
        i = c;
      }
      times[i] = lastT;
      seqs[i] = lastS;
      events[i] = lastE;
    }
    return top;
  }

  /** The earliest event with its time and sequence number (allocates: not for hot paths). */
  peek(): Scheduled<E> | undefined {
    if (this.n === 0) return undefined;
    return { time: this.times[0]!, seq: this.seqs[0]!, event: this.events[0]! };
  }

  /** Removes the earliest event, with its time and sequence number (allocates: not for hot paths). */
  pop(): Scheduled<E> | undefined {
    const head = this.peek();
    if (head) this.popEvent();
    return head;
  }

  /** Every pending event, in no particular order (for views of messages in flight). */
  items(): Scheduled<E>[] {
    const out: Scheduled<E>[] = new Array(this.n);
    for (let i = 0; i < out.length; i++) out[i] = { time: this.times[i]!, seq: this.seqs[i]!, event: this.events[i]! };
    return out;
  }
}

registerClass('EventQueue', EventQueue);
