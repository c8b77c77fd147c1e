import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addQuantity, cmpQuantity, milliValue, parseQuantity, quantityString } from './quantity';

const canon = (s: string) => quantityString(parseQuantity(s)!);

describe('Quantity', () => {
  it('prints the canonical form upstream prints', () => {
    expect(canon('100m')).toBe('100m');
    expect(canon('0.1')).toBe('100m');
    expect(canon('1500m')).toBe('1500m');
    expect(canon('1000m')).toBe('1');
    expect(canon('1000')).toBe('1k');
    expect(canon('1024Mi')).toBe('1Gi');
    expect(canon('1536Mi')).toBe('1536Mi');
    expect(canon('512')).toBe('512');
    expect(canon('0.5Gi')).toBe('512Mi');
    expect(canon('1e3')).toBe('1e3');
    expect(canon('0')).toBe('0');
    expect(canon('-2')).toBe('-2');
    expect(canon('1.5Ki')).toBe('1536');
    expect(canon('0.0001')).toBe('100u');
  });

  it('rounds precision below a nano up and rejects garbage', () => {
    expect(canon('0.0000000001')).toBe('1n');
    expect(parseQuantity('12x')).toBeNull();
    expect(parseQuantity('')).toBeNull();
    expect(parseQuantity(2)).toEqual(parseQuantity('2'));
  });

  it('adds keeping the first format and compares exactly', () => {
    const sum = addQuantity(parseQuantity('64Mi')!, parseQuantity('64Mi')!);
    expect(quantityString(sum)).toBe('128Mi');
    expect(cmpQuantity(parseQuantity('1')!, parseQuantity('1000m')!)).toBe(0);
    expect(cmpQuantity(parseQuantity('1Gi')!, parseQuantity('1G')!)).toBe(1);
    expect(milliValue(parseQuantity('1n')!)).toBe(1n);
  });

  it('re-parses its own output to the same value (property)', () => {
    const suffix = fc.constantFrom('', 'm', 'k', 'M', 'Ki', 'Mi', 'Gi', 'n', 'u');
    fc.assert(
      fc.property(fc.nat(1_000_000), suffix, (n, s) => {
        const q = parseQuantity(`${n}${s}`)!;
        const again = parseQuantity(quantityString(q))!;
        return again.nano === q.nano;
      }),
      { numRuns: 500 },
    );
  });
});
