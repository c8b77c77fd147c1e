// The rate-limited queue, as client-go's util/workqueue/rate_limiting_queue.go:
// addRateLimited re-adds an item after its limiter's delay (failures back off),
// forget clears the item's history once it succeeds.
import { registerClass } from '../../sim/serial';
import { DelayingQueue } from './delayingQueue';
import type { QueueKey } from './queue';
import { defaultControllerRateLimiter, type RateLimiter } from './rateLimiters';

export class RateLimitingQueue<T extends QueueKey = string> extends DelayingQueue<T> {
  constructor(
    name = '',
    readonly rateLimiter: RateLimiter<T> = defaultControllerRateLimiter<T>(),
  ) {
    super(name);
  }

  /** AddRateLimited: adds the item when the rate limiter says it is ok. */
  addRateLimited(item: T, now: number): void {
    this.addAfter(item, this.rateLimiter.when(item, now), now);
  }

  /** Forget: the item is done retrying (it succeeded or was given up on). */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  /** NumRequeues: how many times the item was rate-limited since its last forget. */
  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }
}

registerClass('RateLimitingQueue', RateLimitingQueue);
