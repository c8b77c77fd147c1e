import { describe, it, expect } from 'vitest';
import { RateLimitingQueue } from './rateLimitingQueue';
import { ItemExponentialFailureRateLimiter } from './rateLimiters';
import { cloneState } from '../../sim/serial';

/** A controller's worker loop: fail `key` `failures` times, then succeed. */
function reconcileLoop(q: RateLimitingQueue, failures: Map<string, number>, until: number) {
  const log: { t: number; key: string; ok: boolean; requeues: number }[] = [];
  let t = 0;
  for (;;) {
    const item = q.get(t);
    if (item !== null) {
      const left = failures.get(item) ?? 0;
      const ok = left === 0;
      log.push({ t, key: item, ok, requeues: q.numRequeues(item) });
      if (ok) q.forget(item);
      else {
        failures.set(item, left - 1);
        q.addRateLimited(item, t);
      }
      q.done(item, t);
      continue;
    }
    const next = q.nextReadyAt();
    if (next === null || next > until) return log;
    t = next;
  }
}

describe('RateLimitingQueue (client-go rate_limiting_queue.go)', () => {
  it('retries a failing key with exponential backoff, then forgets it', () => {
    const q = new RateLimitingQueue('deployment');
    q.add('ns/web', 0);
    const log = reconcileLoop(q, new Map([['ns/web', 4]]), 10_000);
    expect(log.map((l) => l.t)).toEqual([0, 5, 15, 35, 75]);
    expect(log.map((l) => l.requeues)).toEqual([0, 1, 2, 3, 4]);
    expect(log.at(-1)!.ok).toBe(true);
    expect(q.numRequeues('ns/web')).toBe(0);
    expect(q.metrics.retries).toBe(4);
    expect(q.metrics.adds).toBe(5);
  });

  it('the overall bucket spaces retries of many keys at 10 per second after a burst of 100', () => {
    const q = new RateLimitingQueue('x');
    for (let i = 0; i < 150; i++) q.addRateLimited(`k${i}`, 0);
    expect(q.len()).toBe(0); // 5 ms per-item backoff still applies to the first 100
    q.tick(5);
    expect(q.len()).toBe(100);
    expect(q.nextReadyAt()).toBeCloseTo(100);
    q.tick(1_000);
    expect(q.len()).toBe(110);
    q.tick(5_000);
    expect(q.len()).toBe(150);
  });

  it('a key re-added while rate-limited and while processing is still processed once at a time', () => {
    const q = new RateLimitingQueue('x', new ItemExponentialFailureRateLimiter(100, 1_000));
    q.add('a', 0);
    expect(q.get(0)).toBe('a');
    q.addRateLimited('a', 0); // ready at 100, while still processing
    q.tick(150);
    expect(q.get(150)).toBeNull();
    q.done('a', 200);
    expect(q.get(200)).toBe('a');
    expect(q.metrics.latency.sum).toBeCloseTo(0.1); // waited from 100 (ready) to 200
  });

  it('a clone taken mid-backoff continues identically', () => {
    const q = new RateLimitingQueue('x');
    const failures = new Map([
      ['a', 6],
      ['b', 3],
    ]);
    q.add('a', 0);
    q.add('b', 0);
    for (let i = 0; i < 120; i++) q.addRateLimited(`noise${i}`, 0);
    const c = cloneState(q);
    expect(c).toBeInstanceOf(RateLimitingQueue);
    const a = reconcileLoop(q, new Map(failures), 60_000);
    const b = reconcileLoop(c, new Map(failures), 60_000);
    expect(b).toEqual(a);
    expect(a.filter((l) => l.key === 'a')).toHaveLength(7);
  });
});
