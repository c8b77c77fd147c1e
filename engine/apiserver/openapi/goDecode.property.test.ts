import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Error, QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR, quantityError, RFC3339, RFC3339_MICRO, timeError } from './goDecode';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Naive StdEncoding with padding, to generate valid inputs. */
function encode(bytes: number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = bytes.slice(i, i + 3);
    const n = (a << 16) | (b << 8) | c;
    const chars = [(n >> 18) & 63, (n >> 12) & 63, (n >> 6) & 63, n & 63].map((k) => B64[k]);
    const real = Math.min(3, bytes.length - i);
    out += chars.slice(0, real + 1).join('') + '='.repeat(3 - real);
  }
  return out;
}

describe('base64Error (encoding/base64 StdEncoding)', () => {
  it('accepts every padded encoding', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 40 }), (bytes) => base64Error(encode(bytes)) === undefined));
  });

  it('reports where an unpadded tail starts', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 30 }), (bytes) => {
        const padded = encode(bytes);
        const stripped = padded.replace(/=+$/, '');
        if (stripped === padded) return true;
        return base64Error(stripped) === `illegal base64 data at input byte ${stripped.length - (stripped.length % 4)}`;
      }),
    );
  });

  it('matches Go on known inputs', () => {
    expect(base64Error('admin')).toBe('illegal base64 data at input byte 4');
    expect(base64Error('YWRtaW4=')).toBeUndefined();
    expect(base64Error('YW\nRt\raW4=')).toBeUndefined();
    expect(base64Error('YW*t')).toBe('illegal base64 data at input byte 2');
    expect(base64Error('YQ=')).toBe('illegal base64 data at input byte 3');
    expect(base64Error('YQ==YQ==')).toBe('illegal base64 data at input byte 4');
    expect(base64Error('é')).toBe('illegal base64 data at input byte 0');
  });
});

describe('quantityError (resource.ParseQuantity)', () => {
  const suffix = fc.constantFrom('', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'e3', 'E-2');
  it('accepts sign, digits, fraction and a known suffix', () => {
    fc.assert(
      fc.property(fc.constantFrom('', '+', '-'), fc.nat(99999), fc.option(fc.nat(999), { nil: undefined }), suffix, (sign, whole, frac, suf) => {
        const q = `${sign}${whole}${frac === undefined ? '' : `.${frac}`}${suf}`;
        return quantityError(q) === undefined;
      }),
    );
  });

  it('rejects other suffixes and shapes with the right error', () => {
    expect(quantityError('1K')).toBe(QUANTITY_SUFFIX_ERROR);
    expect(quantityError('1ki')).toBe(QUANTITY_SUFFIX_ERROR);
    expect(quantityError('1Mi5')).toBe(QUANTITY_SUFFIX_ERROR);
    expect(quantityError('')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityError('abc')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityError('1.5.5')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityError('1 Gi')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityError(' 500m ')).toBeUndefined();
    expect(quantityError('0')).toBeUndefined();
  });
});

describe('timeError (time.Parse)', () => {
  it('accepts RFC 3339 times', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true }), (d) => {
        const iso = d.toISOString(); // 2024-05-01T10:00:00.000Z
        return timeError(iso, RFC3339) === undefined && timeError(iso.replace(/\.\d+Z$/, 'Z'), RFC3339) === undefined && timeError(iso.replace(/\.(\d+)Z$/, '.$1000+02:00'), RFC3339_MICRO) === undefined;
      }),
    );
  });

  it('gives Go messages', () => {
    expect(timeError('2024-13-01T00:00:00Z', RFC3339)).toBe('parsing time "2024-13-01T00:00:00Z": month out of range');
    expect(timeError('2024-02-30T00:00:00Z', RFC3339)).toBe('parsing time "2024-02-30T00:00:00Z": day out of range');
    expect(timeError('2024-01-01 00:00:00Z', RFC3339)).toBe('parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"');
    expect(timeError('2024-01-01T00:00:00', RFC3339)).toBe('parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"');
    expect(timeError('2024-01-01T00:00:00Zjunk', RFC3339)).toBe('parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"');
    expect(timeError('2024-01-01T00:00:00Z', RFC3339_MICRO)).toBe('parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
  });
});

describe('timeError on the canonical form', () => {
  it('accepts exactly the in-range dates and times, as time.Parse does', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.boolean(), (y, mo, d, h, mi, s, micro) => {
        const text = `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}${micro ? '.123456' : ''}Z`;
        const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
        date.setUTCFullYear(y);
        const valid = mo >= 1 && mo <= 12 && d >= 1 && h < 24 && mi < 60 && s < 60 && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
        expect(timeError(text, micro ? RFC3339_MICRO : RFC3339) === undefined).toBe(valid);
      }),
      { numRuns: 3000 },
    );
  });
});
