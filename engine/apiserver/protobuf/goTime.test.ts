import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GO_ZERO_TIME_UNIX, formatGoDuration, formatRFC3339, formatRFC3339Micro, parseGoDuration, parseRFC3339 } from './goTime';

describe('RFC 3339 times', () => {
  it('formats Unix seconds in UTC', () => {
    expect(formatRFC3339(0)).toBe('1970-01-01T00:00:00Z');
    expect(formatRFC3339(1735689600)).toBe('2025-01-01T00:00:00Z');
    expect(formatRFC3339(1709251199)).toBe('2024-02-29T23:59:59Z');
    expect(formatRFC3339(-1)).toBe('1969-12-31T23:59:59Z');
    expect(formatRFC3339(GO_ZERO_TIME_UNIX)).toBe('0001-01-01T00:00:00Z');
    expect(formatRFC3339Micro(1735689600, 123456789)).toBe('2025-01-01T00:00:00.123456Z');
  });

  it('parses offsets and fractions', () => {
    expect(parseRFC3339('2025-01-01T00:00:00Z')).toEqual({ seconds: 1735689600, nanos: 0 });
    expect(parseRFC3339('2025-01-01T01:30:00.5+01:30')).toEqual({ seconds: 1735689600, nanos: 500_000_000 });
    expect(parseRFC3339('2025-01-01 00:00:00Z')).toBeNull();
    expect(parseRFC3339('2025-13-01T00:00:00Z')).toBeNull();
  });

  it('agrees with the platform calendar (checked in the test only)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62135596800, max: 253402300799 }), (s) => {
        expect(formatRFC3339(s)).toBe(new Date(s * 1000).toISOString().replace('.000Z', 'Z'));
        expect(parseRFC3339(formatRFC3339(s))).toEqual({ seconds: s, nanos: 0 });
      }),
    );
  });
});

describe('Go durations', () => {
  it('formats like time.Duration.String', () => {
    const cases: [number, string][] = [
      [0, '0s'],
      [1, '1ns'],
      [1_500, '1.5\u00b5s'],
      [1_500_000, '1.5ms'],
      [1_000_000_000, '1s'],
      [1_500_000_000, '1.5s'],
      [60_000_000_000, '1m0s'],
      [3_600_000_000_000, '1h0m0s'],
      [3_723_500_000_000, '1h2m3.5s'],
      [-123_000_000_000, '-2m3s'],
      [100 * 3_600_000_000_000, '100h0m0s'],
    ];
    for (const [ns, s] of cases) {
      expect(formatGoDuration(ns)).toBe(s);
      expect(parseGoDuration(s)).toEqual({ ok: true, ns });
    }
  });

  it('parses what ParseDuration accepts and reports what it refuses', () => {
    expect(parseGoDuration('1h30m')).toEqual({ ok: true, ns: 5_400_000_000_000 });
    expect(parseGoDuration('250ms')).toEqual({ ok: true, ns: 250_000_000 });
    expect(parseGoDuration('0')).toEqual({ ok: true, ns: 0 });
    expect(parseGoDuration('')).toEqual({ ok: false, error: 'time: invalid duration ""' });
    expect(parseGoDuration('5')).toEqual({ ok: false, error: 'time: missing unit in duration "5"' });
    expect(parseGoDuration('5y')).toEqual({ ok: false, error: 'time: unknown unit "y" in duration "5y"' });
  });
});
