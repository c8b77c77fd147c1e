// kubectl describe job's Completed Indexes (describe.go capIndexesListOrNone).
import { describe, expect, it } from 'vitest';
import { capIndexes } from './describers';

describe('capIndexes', () => {
  it('prints <none>, a short list whole, and a long one cut after the first comma past 50 characters', () => {
    expect(capIndexes('', 50)).toBe('<none>');
    expect(capIndexes('0-3,5', 50)).toBe('0-3,5');
    const long = Array.from({ length: 40 }, (_, i) => String(i * 2)).join(',');
    const cut = capIndexes(long, 50);
    expect(cut.endsWith(',...')).toBe(true);
    expect(long.startsWith(cut.slice(0, -3))).toBe(true);
    expect(cut.length).toBeGreaterThan(50);
    expect(cut.slice(0, -4).length).toBeLessThan(50 + 4);
  });
});
