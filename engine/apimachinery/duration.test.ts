import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { goDurationString, parseGoDuration } from './duration';

describe('Go durations', () => {
  it('parses time.ParseDuration texts to ms', () => {
    expect(parseGoDuration('15s')).toBe(15_000);
    expect(parseGoDuration('1m30.5s')).toBe(90_500);
    expect(parseGoDuration('-2h')).toBe(-7_200_000);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('1500us')).toBeCloseTo(1.5);
    expect(parseGoDuration('12.001s')).toBeCloseTo(12_001);
    for (const bad of ['', '15', 's', '1x', '1s2', '-']) expect(parseGoDuration(bad)).toBeNaN();
  });

  it('reads back what goDurationString writes', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 ** 9 }), (ms) => Math.abs(parseGoDuration(goDurationString(ms)) - ms) < 1e-6 * ms));
  });
});
