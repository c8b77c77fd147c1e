import { describe, expect, it } from 'vitest';
import { packRev, revMain, revSub, SubSpan } from './revision';

describe('packed revisions', () => {
  it('round-trip and keep (main, sub) order up to main 2^33 and sub 2^20', () => {
    const pairs: [number, number][] = [];
    for (const main of [0, 1, 2, 1023, 1024, 2047, 2048, 2 ** 30 - 1, 2 ** 30, 2 ** 33 - 2, 2 ** 33 - 1]) {
      for (const sub of [0, 1, 2, 77, SubSpan - 2, SubSpan - 1]) pairs.push([main, sub]);
    }
    const revs = pairs.map(([m, s]) => packRev(m, s));
    for (let i = 0; i < pairs.length; i++) {
      expect([revMain(revs[i]!), revSub(revs[i]!)]).toEqual(pairs[i]);
      if (i > 0) expect(revs[i - 1]! < revs[i]!).toBe(true);
    }
  });

  it("a txn's first change is the plain main revision", () => {
    expect(packRev(5000)).toBe(5000);
    expect(packRev(5000, 0)).toBe(5000);
    expect(() => packRev(1, SubSpan)).toThrow();
  });
});
