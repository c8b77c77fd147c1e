import { describe, expect, it } from 'vitest';
import { BoundedFrequencyRunner } from './runner';

describe('BoundedFrequencyRunner (minInterval 1 s, burst 2, maxInterval 1 h)', () => {
  it('runs a burst of two at once, then one a second; and at the latest an hour after the last run', () => {
    const r = new BoundedFrequencyRunner(1000, 3_600_000, 2);
    expect(r.request(0)).toBe(0);
    expect(r.ran(0)).toBe(3_600_000);
    expect(r.request(10)).toBe(10);
    r.ran(10);
    // The bucket is empty: the third waits for its token (refilled at one a second).
    expect(r.request(20)).toBe(1000);
    r.ran(1000);
    expect(r.request(1500)).toBe(2000);
    r.ran(2000);
    // Idle: due an hour after the last run.
    expect(r.dueAt).toBe(3_602_000);
    // A failed sync asks for a retry later; a request before that wins.
    expect(r.retryAfter(10_000, 30_000)).toBe(40_000);
    expect(r.request(12_000)).toBe(12_000);
  });
});
