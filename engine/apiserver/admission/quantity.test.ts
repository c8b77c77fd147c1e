import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addQuantity, cmpQuantity, formatQuantity, intValue, milliValue, quantityOf, quantityOrNull, subQuantity, ZERO } from '../validation/quantity';
import { addInto, maxInto, parseResourceList } from './quantity';

const q = (s: string) => quantityOrNull(s)!;

describe('Quantity arithmetic admission relies on', () => {
  it('parses what admission reads and rejects garbage', () => {
    expect(formatQuantity(q('0.0001'))).toBe('100u');
    expect(formatQuantity(q(' 1500m '))).toBe('1500m');
    expect(quantityOrNull('12x')).toBeNull();
    expect(quantityOrNull('')).toBeNull();
    expect(quantityOrNull(undefined)).toBeNull();
    expect(quantityOrNull(2)).toEqual(quantityOrNull('2'));
  });

  it('adds keeping the first format (a fresh zero takes the addend’s) and compares exactly', () => {
    expect(formatQuantity(addQuantity(q('64Mi'), q('64Mi')))).toBe('128Mi');
    expect(formatQuantity(addQuantity(ZERO, q('64Mi')))).toBe('64Mi');
    expect(formatQuantity(addQuantity(q('0'), q('64Mi')))).toBe('67108864');
    expect(formatQuantity(subQuantity(q('1Gi'), q('512Mi')))).toBe('512Mi');
    expect(cmpQuantity(q('1'), q('1000m'))).toBe(0);
    expect(cmpQuantity(q('1Gi'), q('1G'))).toBe(1);
    expect(cmpQuantity(quantityOf(3), q('3'))).toBe(0);
    expect(milliValue(q('1n'))).toBe(1n);
    // Rounded away from zero either side, as int64Amount.AsScaledInt64 does.
    expect(milliValue(q('-1n'))).toBe(-1n);
    expect(intValue(q('1500m'))).toBe(2n);
    expect(intValue(q('-1500m'))).toBe(-2n);
  });

  it('re-parses its own output to the same value (property)', () => {
    const suffix = fc.constantFrom('', 'm', 'k', 'M', 'Ki', 'Mi', 'Gi', 'n', 'u');
    fc.assert(
      fc.property(fc.nat(1_000_000), suffix, (n, s) => {
        const v = q(`${n}${s}`);
        return q(formatQuantity(v)).nanos === v.nanos;
      }),
      { numRuns: 500 },
    );
  });
});

describe('ResourceList', () => {
  it('parses a list, leaving out what is not a quantity', () => {
    const l = parseResourceList({ cpu: '100m', memory: '64Mi', bad: 'lots', n: 2 });
    expect([...l.keys()]).toEqual(['cpu', 'memory', 'n']);
    expect(parseResourceList(['1']).size).toBe(0);
    expect(parseResourceList(null).size).toBe(0);
  });

  it('sums and maxes per key', () => {
    const a = parseResourceList({ cpu: '100m', memory: '64Mi' });
    addInto(a, parseResourceList({ cpu: '1', pods: '2' }));
    expect(Object.fromEntries([...a].map(([k, v]) => [k, formatQuantity(v)]))).toEqual({ cpu: '1100m', memory: '64Mi', pods: '2' });
    maxInto(a, parseResourceList({ cpu: '500m', memory: '1Gi' }));
    expect(Object.fromEntries([...a].map(([k, v]) => [k, formatQuantity(v)]))).toEqual({ cpu: '1100m', memory: '1Gi', pods: '2' });
  });
});
