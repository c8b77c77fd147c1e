import { describe, expect, it } from 'vitest';
import { matchLabelSelector } from './labelSelector';

describe('matchLabelSelector', () => {
  const labels = { app: 'web', tier: 'front' };
  it('matches matchLabels and every operator', () => {
    expect(matchLabelSelector({ matchLabels: { app: 'web' } }, labels)).toEqual({ ok: true, matches: true });
    expect(matchLabelSelector({ matchLabels: { app: 'db' } }, labels)).toEqual({ ok: true, matches: false });
    expect(matchLabelSelector({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }] }, labels)).toEqual({ ok: true, matches: true });
    expect(matchLabelSelector({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }, labels)).toEqual({ ok: true, matches: false });
    expect(matchLabelSelector({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, labels)).toEqual({ ok: true, matches: true });
    expect(matchLabelSelector({ matchExpressions: [{ key: 'env', operator: 'Exists' }] }, labels)).toEqual({ ok: true, matches: false });
    expect(matchLabelSelector({ matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] }, labels)).toEqual({ ok: true, matches: true });
    expect(matchLabelSelector({}, labels)).toEqual({ ok: true, matches: true });
    expect(matchLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, labels).ok).toBe(false);
  });
});
