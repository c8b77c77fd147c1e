// Flow control window of in-flight MsgApps to one follower (upstream
// tracker/inflights.go, v3.5): a ring buffer of the last index of each
// unacknowledged message, grown lazily up to `size`.
import { registerClass } from '../../../sim/serial';
import { panic } from '../util';

export class Inflights {
  /** index of the first inflight in buffer */
  start = 0;
  /** number of inflights */
  count = 0;
  /** capacity (MaxInflightMsgs) */
  size: number;
  buffer: number[] = [];

  constructor(size: number) {
    this.size = size;
  }

  /** Records an inflight message whose last entry has index `inflight`. Indexes must be increasing. */
  add(inflight: number): void {
    if (this.full()) panic('cannot add into a Full inflights');
    // A modulo rather than \`if (next >= size) next -= size\`: the subtraction
    // first runs when the ring wraps, well after the leader's append path is
    // optimized, and code that never ran has no type feedback (a deopt).
    const next = (this.start + this.count) % this.size;
    if (next >= this.buffer.length) this.grow();
    this.buffer[next] = inflight;
    this.count++;
  }

  /** Doubles the buffer (up to size) so a small window stays small. */
  private grow(): void {
    let newSize = this.buffer.length * 2;
    if (newSize === 0) newSize = 1;
    else if (newSize > this.size) newSize = this.size;
    const b = new Array<number>(newSize).fill(0);
    for (let i = 0; i < this.buffer.length; i++) b[i] = this.buffer[i]!;
    this.buffer = b;
  }

  /** Frees the inflights with index <= to. */
  freeLE(to: number): void {
    if (this.count === 0 || to < this.buffer[this.start]!) return; // out of the left side of the window
    let idx = this.start;
    let i = 0;
    for (; i < this.count; i++) {
      if (to < this.buffer[idx]!) break; // found the first large inflight
      idx = (idx + 1) % this.size;
    }
    this.count -= i;
    this.start = idx;
    if (this.count === 0) {
      // inflights is empty, reset the start index so that we don't grow the buffer unnecessarily.
      this.start = 0;
    }
  }

  freeFirstOne(): void {
    this.freeLE(this.buffer[this.start]!);
  }

  full(): boolean {
    return this.count === this.size;
  }

  reset(): void {
    this.count = 0;
    this.start = 0;
  }
}

registerClass('RaftInflights', Inflights);
