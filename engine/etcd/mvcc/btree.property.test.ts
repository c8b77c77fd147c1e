// The B+tree against a sorted array.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneState } from '../../sim/serial';
import { SortedStringMap } from './btree';

const keyArb = fc
  .array(fc.constantFrom('\0', 'a', 'b', 'c', '\x7f', '\xff'), { maxLength: 5 })
  .map((cs) => cs.join(''));

function naiveRange(sorted: string[], from: string, end: string): string[] {
  return sorted.filter((k) => k >= from && (end === '' || k < end));
}

describe('SortedStringMap', () => {
  it('matches a sorted array for inserts, lookups and range visits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(keyArb, fc.integer()), { minLength: 0, maxLength: 2500 }),
        fc.array(fc.tuple(keyArb, keyArb, fc.integer({ min: 0, max: 50 })), { maxLength: 20 }),
        (entries, ranges) => {
          const t = new SortedStringMap<number>();
          const model = new Map<string, number>();
          for (const [k, v] of entries) {
            expect(t.set(k, v)).toBe(!model.has(k));
            model.set(k, v);
          }
          const sorted = [...model.keys()].sort();
          expect(t.size).toBe(sorted.length);
          for (const k of sorted) expect(t.get(k)).toBe(model.get(k));
          expect(t.get('nope\x01')).toBeUndefined();
          const all: string[] = [];
          t.forEach((k) => all.push(k));
          expect(all).toEqual(sorted);
          for (const [from, end, stopAfter] of ranges) {
            const got: string[] = [];
            t.ascend(from, end, (k) => {
              got.push(k);
              return got.length < stopAfter || stopAfter === 0;
            });
            const want = naiveRange(sorted, from, end);
            expect(got).toEqual(stopAfter === 0 ? want : want.slice(0, stopAfter));
          }
          const bulk = SortedStringMap.fromSorted(sorted, sorted.map((k) => model.get(k)!));
          const bulkAll: string[] = [];
          bulk.forEach((k) => bulkAll.push(k));
          expect(bulkAll).toEqual(sorted);
          for (const k of sorted) expect(bulk.get(k)).toBe(model.get(k));
          expect(bulk.get('nope\x01')).toBeUndefined();
          // a bulk-built tree keeps accepting inserts
          bulk.set('zzz', 1);
          bulk.set('', 2);
          expect(bulk.get('zzz')).toBe(1);
          expect(bulk.size).toBe(new Set([...sorted, 'zzz', '']).size);
          // and it survives a snapshot round trip
          const c = cloneState(t);
          const cAll: string[] = [];
          c.ascend('b', '', (k) => void cAll.push(k));
          expect(cAll).toEqual(naiveRange(sorted, 'b', ''));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('SortedStringMap at depth', () => {
  it('stays ordered through three levels of splits', () => {
    const t = new SortedStringMap<number>();
    const keys: string[] = [];
    let x = 12345;
    for (let i = 0; i < 30000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const k = 'k' + (x % 100000).toString(36);
      if (t.set(k, i)) keys.push(k);
    }
    keys.sort();
    const got: string[] = [];
    t.forEach((k) => got.push(k));
    expect(got).toEqual(keys);
    const mid = keys[Math.floor(keys.length / 2)]!;
    const from: string[] = [];
    t.ascend(mid, '', (k) => {
      from.push(k);
      return from.length < 5;
    });
    expect(from).toEqual(keys.slice(keys.indexOf(mid), keys.indexOf(mid) + 5));
  });
});
