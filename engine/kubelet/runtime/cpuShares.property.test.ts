import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { milliCpuToShares, shareCpu, type CpuClaim } from './cpuShares';

/** The naive reference: hand out CPU in 0.5-millicore slices, each to the most underserved claim by weight. */
function naive(claims: readonly CpuClaim[], capacity: number): number[] {
  const out = claims.map(() => 0);
  const step = 0.5;
  for (let left = capacity; left >= step; left -= step) {
    let best = -1;
    for (let i = 0; i < claims.length; i++) {
      if (out[i]! + step > claims[i]!.demandMilli + 1e-9) continue;
      if (best < 0 || out[i]! / claims[i]!.shares < out[best]! / claims[best]!.shares) best = i;
    }
    if (best < 0) break;
    out[best]! += step;
  }
  return out;
}

const claim = fc.record({ demandMilli: fc.integer({ min: 0, max: 4000 }), shares: fc.integer({ min: 2, max: 4096 }) });

describe('CFS sharing', () => {
  it('MilliCPUToShares: 1024 per CPU, at least 2', () => {
    expect(milliCpuToShares(0)).toBe(2);
    expect(milliCpuToShares(1)).toBe(2);
    expect(milliCpuToShares(250)).toBe(256);
    expect(milliCpuToShares(1000)).toBe(1024);
  });

  it('gives everyone their demand when it fits', () => {
    expect(
      shareCpu(
        [
          { demandMilli: 500, shares: 2 },
          { demandMilli: 1000, shares: 1024 },
        ],
        2000,
      ),
    ).toEqual([500, 1000]);
  });

  it('shares an oversubscribed node by weight and hands back what a claim leaves', () => {
    // 4 CPUs; a BestEffort burner (2 shares) against two 1-CPU requests: the small claim is met, the rest split 1024:2.
    const got = shareCpu(
      [
        { demandMilli: 4000, shares: 2 },
        { demandMilli: 4000, shares: 1024 },
        { demandMilli: 100, shares: 1024 },
      ],
      4000,
    );
    expect(got[2]).toBe(100);
    expect(got[0]! + got[1]!).toBeCloseTo(3900, 6);
    expect(got[1]! / got[0]!).toBeCloseTo(512, 6);
  });

  it('agrees with slice-by-slice allocation, never exceeds demand or capacity', () => {
    fc.assert(
      fc.property(fc.array(claim, { maxLength: 6 }), fc.integer({ min: 0, max: 8000 }), (claims, capacity) => {
        const got = shareCpu(claims, capacity);
        const total = got.reduce((a, b) => a + b, 0);
        expect(total).toBeLessThanOrEqual(capacity + 1e-6);
        got.forEach((g, i) => expect(g).toBeLessThanOrEqual(claims[i]!.demandMilli + 1e-6));
        const want = claims.reduce((a, c) => a + c.demandMilli, 0);
        expect(total).toBeCloseTo(Math.min(want, capacity), 4);
        const ref = naive(claims, capacity);
        got.forEach((g, i) => expect(Math.abs(g - ref[i]!)).toBeLessThanOrEqual(claims.length * 0.5 + 1e-6));
      }),
      { numRuns: 300 },
    );
  });
});
