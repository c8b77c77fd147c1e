// goSort against Go's sort.Sort: each permutation below is what Go 1.19's
// sort.Sort (the algorithm of the Go kubectl 1.32 is built with) made of the keys, with the Less of
// kubectl's sorter.go (a missing value, -1 here, is less than anything, itself
// included) so that the order of equal and missing keys is Go's, not a stable one.
import { describe, expect, it } from 'vitest';
import { goSort, goSortArray } from './goSort';

const CASES: [number[], number[]][] = [
  [
    [4, 6, -1, 4, -1, 3, -1, -1, 5, 4, -1, 5, 2, 4],
    [6, 4, 10, 2, 7, 12, 5, 3, 9, 0, 13, 8, 11, 1],
  ],
  [
    [3, -1, 2, 0, 1, 4, 0, 4, 3, 6, 1, 4, 6, 3, 1, 4, 6, 4, 4, -1, -1, 0, 6, 2, 4, 1, 2, 0, 2, 4, 5, -1, 5, 5, 2, 1, 0, 0, -1, 3],
    [20, 31, 38, 1, 19, 3, 37, 36, 6, 27, 21, 10, 4, 25, 14, 35, 28, 2, 34, 23, 26, 39, 0, 13, 8, 11, 18, 15, 17, 29, 5, 7, 24, 33, 32, 30, 12, 9, 16, 22],
  ],
  [
    [1, 0, 6, 1, 2, 2, 4, 6, 0, 2, 4, 0, 6, 4, 4, 1, 1, 3, 6, 5, 5, 4, -1, 2, 6, 3, 3, 2, 0, 4, 5, 2, 6, 2, 2, 6, 5, 2, 6, 1, 1, 0, 5, 0, 5, 0, 2, -1, -1, 5, 2, 2, 1, 4, 1, 5, 0, 1, 3, 3, -1, 0, 3, 1, 3, 4, -1, 3, 0, 2, 1, 4, 2, 6, 5, 1, 5, 4, 1, 6, 4, -1, -1, -1, 4, 4, 4, 0, 1, -1],
    [66, 82, 83, 60, 22, 48, 89, 47, 81, 56, 87, 11, 41, 43, 68, 45, 1, 8, 28, 61, 16, 3, 88, 0, 39, 54, 52, 57, 63, 78, 15, 70, 75, 40, 23, 51, 4, 37, 5, 34, 33, 69, 72, 31, 50, 9, 46, 27, 58, 67, 17, 64, 26, 62, 25, 59, 53, 71, 10, 80, 77, 85, 29, 21, 13, 65, 84, 6, 14, 86, 20, 55, 19, 36, 74, 42, 76, 44, 30, 49, 12, 79, 7, 24, 35, 18, 32, 38, 73, 2],
  ],
];

describe('goSort', () => {
  for (const [keys, want] of CASES) {
    it(`orders ${keys.length} keys as Go's sort.Sort`, () => {
      const idx = keys.map((_, i) => i);
      goSortArray(idx, (a, b) => (keys[a]! < 0 ? true : keys[b]! < 0 ? false : keys[a]! < keys[b]!));
      expect(idx).toEqual(want);
    });
  }
  it('sorts long runs (the heapsort and pattern-breaking paths) into order', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => (i * 7919) % 1000);
    const data = [...keys];
    goSort({ len: data.length, less: (i, j) => data[i]! < data[j]!, swap: (i, j) => ([data[i], data[j]] = [data[j]!, data[i]!]) });
    expect(data).toEqual([...keys].sort((a, b) => a - b));
  });
});
