import { afterEach, describe, expect, it } from 'vitest';
import { parseRfc3339, rfc3339, rfc3339Micro } from './time';
import { DEFAULT_EPOCH_MS, enterEpoch } from '../../sim/epoch';

describe('API timestamps from the virtual clock', () => {
  afterEach(() => enterEpoch(DEFAULT_EPOCH_MS));

  it('metav1.Time is to the second, MicroTime to the microsecond', () => {
    expect(rfc3339(0)).toBe('2025-01-01T00:00:00Z');
    expect(rfc3339(999)).toBe('2025-01-01T00:00:00Z');
    expect(rfc3339(1_000)).toBe('2025-01-01T00:00:01Z');
    expect(rfc3339(999)).toBe('2025-01-01T00:00:00Z'); // back again: the remembered second is not reused
    expect(rfc3339(86_400_000 + 3_723_000)).toBe('2025-01-02T01:02:03Z');
    expect(rfc3339Micro(5_123.5)).toBe('2025-01-01T00:00:05.123500Z');
    expect(parseRfc3339(rfc3339(42_000))).toBe(42_000);
  });

  it('follows the running simulation’s epoch', () => {
    expect(rfc3339(1_000)).toBe('2025-01-01T00:00:01Z');
    enterEpoch(Date.UTC(2026, 11, 3, 7, 0, 0));
    expect(rfc3339(1_000)).toBe('2026-12-03T07:00:01Z');
  });
});
