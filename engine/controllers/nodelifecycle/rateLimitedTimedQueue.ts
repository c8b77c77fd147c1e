// The node lifecycle controller's per-zone tainting queue
// (pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go): a unique
// queue of node names ordered by processAt, drained under a token-bucket
// limiter (client-go flowcontrol, burst 1). A value taken off the queue stays
// in the set, so it is not queued again until remove() (markNodeAsReachable).
import { registerClass } from '../../sim/serial';

/** flowcontrol.NewTokenBucketRateLimiter on virtual time; qps 0 is the never limiter. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    now: number,
  ) {
    this.tokens = qps > 0 ? burst : 0;
    this.last = now;
  }

  private refill(now: number): void {
    if (this.qps <= 0) return;
    if (now > this.last) this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = Math.max(this.last, now);
  }

  tryAccept(now: number): boolean {
    if (this.qps <= 0) return false;
    this.refill(now);
    if (this.tokens >= 1 - 1e-9) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  /** When a token will be available (Infinity for the never limiter). */
  nextTokenAt(now: number): number {
    if (this.qps <= 0) return Infinity;
    this.refill(now);
    if (this.tokens >= 1 - 1e-9) return now;
    return now + Math.ceil(((1 - this.tokens) / this.qps) * 1000);
  }
}

export interface TimedValue {
  value: string;
  uid: string;
  addedAt: number;
  processAt: number;
}

/** EvictionRateLimiterBurst. */
export const EVICTION_RATE_LIMITER_BURST = 1;

export class RateLimitedTimedQueue {
  /** Ordered by processAt, then insertion. */
  private queue: TimedValue[] = [];
  private readonly set = new Set<string>();
  limiter: TokenBucket;

  constructor(qps: number, now: number) {
    this.limiter = new TokenBucket(qps, EVICTION_RATE_LIMITER_BURST, now);
  }

  /** Adds unless the value is already known (queued or processed but not removed). */
  add(value: string, uid: string, now: number): boolean {
    if (this.set.has(value)) return false;
    this.set.add(value);
    this.insert({ value, uid, addedAt: now, processAt: now });
    return true;
  }

  private insert(v: TimedValue): void {
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1]!.processAt > v.processAt) i--;
    this.queue.splice(i, 0, v);
  }

  /** Forgets the value entirely (it may be added again). */
  remove(value: string): boolean {
    const had = this.set.delete(value);
    // Whatever is queued is in the set: an unknown value has nothing to filter out
    // (markNodeAsReachable removes every Ready node on every monitor pass).
    if (had) this.queue = this.queue.filter((v) => v.value !== value);
    return had;
  }

  has(value: string): boolean {
    return this.set.has(value);
  }

  queued(): readonly TimedValue[] {
    return this.queue;
  }

  /**
   * Try: takes values in order while the limiter allows and they are due;
   * fn returning {ok:false, waitMs} puts the value back for later.
   */
  try(now: number, fn: (v: TimedValue) => { ok: boolean; waitMs: number }): void {
    for (let guard = 0; guard < 100_000; guard++) {
      const head = this.queue[0];
      if (!head) return;
      if (!this.limiter.tryAccept(now)) return;
      if (now < head.processAt) return;
      this.queue.shift();
      const r = fn(head);
      if (!r.ok) this.insert({ ...head, processAt: now + r.waitMs + 1e-6 });
    }
  }

  /** SwapLimiter: a new limiter for a new rate; drained if the old one was empty (burst 1). */
  swapLimiter(qps: number, now: number): void {
    if (this.limiter.qps === qps) return;
    const next = new TokenBucket(qps, EVICTION_RATE_LIMITER_BURST, now);
    if (qps > 0 && !this.limiter.tryAccept(now)) next.tryAccept(now);
    this.limiter = next;
  }

  /** When try() could next make progress (Infinity when empty or never allowed). */
  nextAt(now: number): number {
    const head = this.queue[0];
    if (!head) return Infinity;
    return Math.max(head.processAt, this.limiter.nextTokenAt(now));
  }
}

registerClass('TokenBucket', TokenBucket);
registerClass('RateLimitedTimedQueue', RateLimitedTimedQueue);
