import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatQuantity, parseQuantity, type QuantityFormat } from './quantity';

const formats: QuantityFormat[] = ['DecimalSI', 'BinarySI', 'DecimalExponent'];

describe('quantity round trips', () => {
  it('formatting then parsing gives back the same value, and the text is a fixed point', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }), fc.constantFrom(...formats), (nanos, format) => {
        const text = formatQuantity({ nanos, format });
        const r = parseQuantity(text);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.quantity.nanos).toBe(nanos);
        expect(r.canonical).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('canonicalisation is idempotent and preserves the value for decimal texts', () => {
    const digits = fc.stringMatching(/^[0-9]{1,12}$/);
    const suffix = fc.constantFrom('', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'Ki', 'Mi', 'Gi', 'Ti', 'e3', 'e-2', 'E6');
    fc.assert(
      fc.property(digits, fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }), suffix, (int, frac, sfx) => {
        const text = frac === undefined ? `${int}${sfx}` : `${int}.${frac}${sfx}`;
        const a = parseQuantity(text);
        expect(a.ok).toBe(true);
        if (!a.ok) return;
        const b = parseQuantity(a.canonical);
        expect(b.ok && b.quantity.nanos).toBe(a.quantity.nanos);
        // A binary quantity that is no whole number of Ki prints without a suffix
        // ('62.50Ki' → '64000'), which then reads back as decimal ('64k'), as upstream.
        if (a.quantity.format !== 'BinarySI') expect(b.ok && b.canonical).toBe(a.canonical);
        const c = b.ok ? parseQuantity(b.canonical) : b;
        expect(c.ok && c.canonical).toBe(b.ok && b.canonical);
      }),
      { numRuns: 2000 },
    );
  });

  it('matches a naive decimal evaluation (to nano precision, rounded up)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 999 }), (whole, milli) => {
        const r = parseQuantity(`${whole}.${String(milli).padStart(3, '0')}`);
        expect(r.ok && r.quantity.nanos).toBe(BigInt(whole) * 1_000_000_000n + BigInt(milli) * 1_000_000n);
      }),
    );
  });
});
