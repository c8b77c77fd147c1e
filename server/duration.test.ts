import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseDurationValue, parseGoDuration } from './duration';

describe('parseGoDuration', () => {
  const ok = (s: string) => {
    const r = parseGoDuration(s);
    if (!r.ok) throw new Error(r.error);
    return r.ms;
  };

  it('reads Go units', () => {
    expect(ok('500ms')).toBe(500);
    expect(ok('30s')).toBe(30_000);
    expect(ok('1m30s')).toBe(90_000);
    expect(ok('2h')).toBe(7_200_000);
    expect(ok('1h2m3s4ms')).toBe(3_723_004);
    expect(ok('250us')).toBeCloseTo(0.25);
    expect(ok('250µs')).toBeCloseTo(0.25);
    expect(ok('1000000ns')).toBeCloseTo(1);
  });

  it('reads fractions and the bare zero', () => {
    expect(ok('1.5s')).toBe(1500);
    expect(ok('.5s')).toBe(500);
    expect(ok('2.s')).toBe(2000);
    expect(ok('0')).toBe(0);
    expect(ok('+10ms')).toBe(10);
  });

  it('refuses what Go refuses, and negative durations', () => {
    for (const s of ['', '10', 's', '.s', '1x', '1.5', 'abc', '1s2', '3 s']) expect(parseGoDuration(s).ok, s).toBe(false);
    const neg = parseGoDuration('-1s');
    expect(neg.ok).toBe(false);
    const unit = parseGoDuration('3d');
    expect(!unit.ok && unit.error).toContain('unknown unit "d"');
  });
});

describe('parseDurationValue', () => {
  it('takes numbers as milliseconds', () => {
    expect(parseDurationValue(1500)).toEqual({ ok: true, ms: 1500 });
    expect(parseDurationValue(0)).toEqual({ ok: true, ms: 0 });
    expect(parseDurationValue(-1).ok).toBe(false);
    expect(parseDurationValue(Infinity).ok).toBe(false);
  });
  it('takes strings as Go durations and refuses other types', () => {
    expect(parseDurationValue(' 30s ')).toEqual({ ok: true, ms: 30_000 });
    expect(parseDurationValue(true).ok).toBe(false);
    expect(parseDurationValue(null).ok).toBe(false);
  });
});

describe('formatGoDuration', () => {
  it('prints like time.Duration.String', () => {
    expect(formatGoDuration(0)).toBe('0s');
    expect(formatGoDuration(500)).toBe('500ms');
    expect(formatGoDuration(1500)).toBe('1.5s');
    expect(formatGoDuration(90_000)).toBe('1m30s');
    expect(formatGoDuration(7_200_000)).toBe('2h0m0s');
  });
  it('round-trips through the parser', () => {
    for (const ms of [1, 999, 1000, 61_000, 3_723_004]) {
      const r = parseGoDuration(formatGoDuration(ms));
      expect(r.ok && r.ms).toBeCloseTo(ms);
    }
  });
});
