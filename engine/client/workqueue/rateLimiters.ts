// Rate limiters for the rate-limited queue, as client-go's
// util/workqueue/default_rate_limiters.go, on virtual time. When(item, now)
// says how long an item must wait before it is added again; limiters keep
// their state in fields (no closures) so they snapshot.
import { registerClass } from '../../sim/serial';
import type { QueueKey } from './queue';

export interface RateLimiter<T extends QueueKey = string> {
  /** How long (ms) the item should wait; counts as a failure for per-item limiters. */
  when(item: T, now: number): number;
  /** Failures recorded for the item. */
  numRequeues(item: T): number;
  /** The item succeeded: stop tracking it. */
  forget(item: T): void;
}

/** baseDelay * 2^failures, capped at maxDelay, per item. */
export class ItemExponentialFailureRateLimiter<T extends QueueKey = string> implements RateLimiter<T> {
  readonly failures = new Map<T, number>();

  constructor(
    readonly baseDelayMs: number,
    readonly maxDelayMs: number,
  ) {}

  when(item: T, _now: number): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseDelayMs * 2 ** exp;
    return backoff > this.maxDelayMs ? this.maxDelayMs : backoff;
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }
}

/**
 * An overall token bucket (golang.org/x/time/rate Limiter behind
 * BucketRateLimiter): `qps` tokens a second up to `burst`; each When reserves
 * one token and waits for it when the bucket is empty. Not per item.
 */
export class BucketRateLimiter<T extends QueueKey = string> implements RateLimiter<T> {
  /** Tokens at `last`; negative when reservations run ahead. Starts full. */
  tokens: number;
  last = 0;

  constructor(
    readonly qps: number,
    readonly burst: number,
  ) {
    this.tokens = burst;
  }

  when(_item: T, now: number): number {
    // advance: refill for the time passed (a clock going back refills nothing).
    const elapsed = Math.max(0, now - this.last);
    let tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.qps);
    tokens -= 1;
    const wait = tokens < 0 ? (-tokens / this.qps) * 1000 : 0;
    this.last = Math.max(now, this.last);
    this.tokens = tokens;
    return wait;
  }

  /** Tokens available at `now` (UI). */
  available(now: number): number {
    return Math.min(this.burst, this.tokens + (Math.max(0, now - this.last) / 1000) * this.qps);
  }

  numRequeues(_item: T): number {
    return 0;
  }

  forget(_item: T): void {}
}

/** fastDelay for the first maxFastAttempts failures of an item, slowDelay after. */
export class ItemFastSlowRateLimiter<T extends QueueKey = string> implements RateLimiter<T> {
  readonly failures = new Map<T, number>();

  constructor(
    readonly fastDelayMs: number,
    readonly slowDelayMs: number,
    readonly maxFastAttempts: number,
  ) {}

  when(item: T, _now: number): number {
    const n = (this.failures.get(item) ?? 0) + 1;
    this.failures.set(item, n);
    return n <= this.maxFastAttempts ? this.fastDelayMs : this.slowDelayMs;
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }
}

/** The worst of several limiters; every one is asked, so each keeps counting. */
export class MaxOfRateLimiter<T extends QueueKey = string> implements RateLimiter<T> {
  readonly limiters: RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T, now: number): number {
    let ret = 0;
    for (const l of this.limiters) ret = Math.max(ret, l.when(item, now));
    return ret;
  }

  numRequeues(item: T): number {
    let ret = 0;
    for (const l of this.limiters) ret = Math.max(ret, l.numRequeues(item));
    return ret;
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }
}

/** DefaultControllerRateLimiter: per-item 5 ms doubling to 1000 s, and 10 qps (burst 100) overall. */
export function defaultControllerRateLimiter<T extends QueueKey = string>(): MaxOfRateLimiter<T> {
  return new MaxOfRateLimiter<T>(new ItemExponentialFailureRateLimiter<T>(5, 1_000_000), new BucketRateLimiter<T>(10, 100));
}

registerClass('ItemExponentialFailureRateLimiter', ItemExponentialFailureRateLimiter);
registerClass('BucketRateLimiter', BucketRateLimiter);
registerClass('ItemFastSlowRateLimiter', ItemFastSlowRateLimiter);
registerClass('MaxOfRateLimiter', MaxOfRateLimiter);
