// async.BoundedFrequencyRunner (pkg/util/async), as kube-proxy v1.32 makes it:
// a run asked for happens at once unless the token bucket (one token per
// minInterval, burst 2) is empty, then when the next token comes; and at the
// latest maxInterval after the last run (an hour: kube-proxy leaves periodic
// checks to its canary monitor). retryAfter schedules a run after a failure.
import { registerClass } from '../sim/serial';

export class BoundedFrequencyRunner {
  /** Tokens in the bucket at `last`. */
  private tokens: number;
  private last = -Infinity;
  /** When the next run is due (Infinity: none asked). */
  dueAt = Infinity;
  lastRunAt = -Infinity;

  constructor(
    readonly minIntervalMs: number,
    readonly maxIntervalMs: number,
    readonly burst: number,
  ) {
    this.tokens = burst;
  }

  private refill(now: number): void {
    if (this.last !== -Infinity) this.tokens = Math.min(this.burst, this.tokens + (now - this.last) / this.minIntervalMs);
    this.last = now;
  }

  /** Run() at `now`: when the run will happen. */
  request(now: number): number {
    this.refill(now);
    const at = this.tokens >= 1 ? now : now + (1 - this.tokens) * this.minIntervalMs;
    this.dueAt = Math.min(this.dueAt, at);
    return this.dueAt;
  }

  /** A run after `delayMs`, unless one is due sooner (RetryAfter). */
  retryAfter(now: number, delayMs: number): number {
    this.dueAt = Math.min(this.dueAt, now + delayMs);
    return this.dueAt;
  }

  /** The run happens at `now` (it is due): takes its token; the next is due at the latest maxInterval on. */
  ran(now: number): number {
    this.refill(now);
    this.tokens = Math.max(0, this.tokens - 1);
    this.lastRunAt = now;
    this.dueAt = now + this.maxIntervalMs;
    return this.dueAt;
  }
}

registerClass('BoundedFrequencyRunner', BoundedFrequencyRunner);
