import { describe, expect, it } from 'vitest';
import { defaultNormalizeScore } from './normalizeScore';

// Port of helper/normalize_score_test.go (TestDefaultNormalizeScore).
describe('defaultNormalizeScore', () => {
  const cases: { reverse: boolean; scores: number[]; expected: number[] }[] = [
    { reverse: false, scores: [1, 2, 3, 4], expected: [25, 50, 75, 100] },
    { reverse: true, scores: [1, 2, 3, 4], expected: [75, 50, 25, 0] },
    { reverse: false, scores: [1000, 10, 20, 30], expected: [100, 1, 2, 3] },
    { reverse: true, scores: [1000, 10, 20, 30], expected: [0, 99, 98, 97] },
    { reverse: false, scores: [1, 1, 1, 1], expected: [100, 100, 100, 100] },
    { reverse: false, scores: [0, 0, 0, 0], expected: [0, 0, 0, 0] },
    { reverse: true, scores: [0, 0, 0, 0], expected: [100, 100, 100, 100] },
  ];
  for (const c of cases) {
    it(`${c.reverse ? 'reverse ' : ''}${c.scores.join(',')}`, () => {
      const list = c.scores.map((score, i) => ({ name: `n${i}`, score }));
      expect(defaultNormalizeScore(100, c.reverse, list)).toBeNull();
      expect(list.map((s) => s.score)).toEqual(c.expected);
    });
  }
  it('truncates like Go integer division', () => {
    const list = [{ name: 'a', score: 1 }, { name: 'b', score: 3 }];
    defaultNormalizeScore(100, false, list);
    expect(list.map((s) => s.score)).toEqual([33, 100]);
  });
});
