import { describe, it, expect } from 'vitest';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, ItemFastSlowRateLimiter, MaxOfRateLimiter, defaultControllerRateLimiter } from './rateLimiters';
import { cloneState } from '../../sim/serial';

describe('rate limiters (client-go default_rate_limiters.go)', () => {
  it('ItemExponentialFailureRateLimiter doubles per failure up to the cap, per item, until forgotten', () => {
    const r = new ItemExponentialFailureRateLimiter(5, 1_000_000);
    expect([1, 2, 3, 4, 5].map(() => r.when('a', 0))).toEqual([5, 10, 20, 40, 80]);
    expect(r.when('b', 0)).toBe(5);
    expect(r.numRequeues('a')).toBe(5);
    for (let i = 0; i < 30; i++) r.when('a', 0);
    expect(r.when('a', 0)).toBe(1_000_000);
    for (let i = 0; i < 2_000; i++) r.when('a', 0); // 2^exp overflows to Infinity: still the cap
    expect(r.when('a', 0)).toBe(1_000_000);
    r.forget('a');
    expect(r.numRequeues('a')).toBe(0);
    expect(r.when('a', 0)).toBe(5);
  });

  it('BucketRateLimiter lets a burst through, then spaces by 1/qps, refilling over time', () => {
    const r = new BucketRateLimiter(10, 100);
    const first = Array.from({ length: 100 }, (_, i) => r.when(`k${i}`, 0));
    expect(first.every((d) => d === 0)).toBe(true);
    expect(r.when('x', 0)).toBeCloseTo(100);
    expect(r.when('y', 0)).toBeCloseTo(200);
    expect(r.when('z', 50)).toBeCloseTo(250); // reservations queue up: 300 ms from 0
    // After 30 s the bucket is full again (at most burst).
    expect(r.available(30_050)).toBe(100);
    expect(r.when('w', 30_050)).toBe(0);
    expect(r.numRequeues('w')).toBe(0);
  });

  it('ItemFastSlowRateLimiter', () => {
    const r = new ItemFastSlowRateLimiter(10, 1_000, 2);
    expect([r.when('a', 0), r.when('a', 0), r.when('a', 0)]).toEqual([10, 10, 1_000]);
    r.forget('a');
    expect(r.when('a', 0)).toBe(10);
  });

  it('DefaultControllerRateLimiter: the worse of per-item backoff and the overall bucket', () => {
    const r = defaultControllerRateLimiter();
    expect(r).toBeInstanceOf(MaxOfRateLimiter);
    expect(r.when('a', 0)).toBe(5);
    expect(r.when('a', 0)).toBe(10);
    for (let i = 0; i < 98; i++) r.when(`other${i}`, 0); // empties the bucket (100 so far)
    expect(r.when('fresh', 0)).toBeCloseTo(100); // the bucket wins over 5 ms
    expect(r.when('a', 0)).toBeCloseTo(200); // 20 ms backoff < 200 ms bucket wait
    expect(r.numRequeues('a')).toBe(3);
    r.forget('a');
    expect(r.numRequeues('a')).toBe(0);
  });

  it('a cloned limiter continues identically', () => {
    const r = defaultControllerRateLimiter();
    for (let i = 0; i < 120; i++) r.when(i % 3 === 0 ? 'a' : `k${i}`, i * 5);
    const c = cloneState(r);
    const seq = (x: typeof r) => Array.from({ length: 50 }, (_, i) => x.when(i % 2 ? 'a' : 'b', 600 + i * 20));
    expect(seq(c)).toEqual(seq(r));
  });
});
