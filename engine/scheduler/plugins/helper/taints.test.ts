import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from '../../framework/api';
import { doNotScheduleTaintsFilter, findMatchingUntoleratedTaint, preferNoScheduleTaintsFilter, toleratesTaint, tolerationsTolerateTaint } from './taints';

// Cases after k8s.io/api/core/v1/toleration_test.go (TestTolerationToleratesTaint)
// and component-helpers/scheduling/corev1/helpers_test.go.
describe('toleratesTaint', () => {
  const cases: { name: string; toleration: Toleration; taint: Taint; want: boolean }[] = [
    { name: 'empty toleration tolerates only taints with empty key and value', toleration: {}, taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' }, want: false },
    { name: 'empty toleration, empty taint key/value', toleration: {}, taint: { key: '', effect: 'NoSchedule' }, want: true },
    { name: 'operator Exists, empty key: tolerates everything', toleration: { operator: 'Exists' }, taint: { key: 'foo', value: 'bar', effect: 'NoExecute' }, want: true },
    { name: 'effect differs', toleration: { key: 'foo', operator: 'Exists', effect: 'NoExecute' }, taint: { key: 'foo', effect: 'NoSchedule' }, want: false },
    { name: 'key differs', toleration: { key: 'foo', operator: 'Exists' }, taint: { key: 'bar', effect: 'NoSchedule' }, want: false },
    { name: 'Equal, same value', toleration: { key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }, taint: { key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }, want: true },
    { name: 'Equal, different value', toleration: { key: 'foo', operator: 'Equal', value: 'value1' }, taint: { key: 'foo', value: 'value2', effect: 'NoSchedule' }, want: false },
    { name: 'no operator means Equal', toleration: { key: 'foo', value: 'bar' }, taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' }, want: true },
    { name: 'Exists with a value still matches any value', toleration: { key: 'foo', operator: 'Exists', effect: 'NoSchedule' }, taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' }, want: true },
    { name: 'unknown operator', toleration: { key: 'foo', operator: 'Lt' as 'Equal', value: '5' }, taint: { key: 'foo', value: '3', effect: 'NoSchedule' }, want: false },
  ];
  for (const c of cases) it(c.name, () => expect(toleratesTaint(c.toleration, c.taint)).toBe(c.want));
});

describe('findMatchingUntoleratedTaint', () => {
  const taints: Taint[] = [
    { key: 'soft', value: 'x', effect: 'PreferNoSchedule' },
    { key: 'a', value: '1', effect: 'NoSchedule' },
    { key: 'b', value: '2', effect: 'NoExecute' },
  ];
  it('returns the first untolerated taint among the filtered ones', () => {
    expect(findMatchingUntoleratedTaint(taints, [], doNotScheduleTaintsFilter)).toBe(taints[1]);
    expect(findMatchingUntoleratedTaint(taints, [{ key: 'a', operator: 'Exists' }], doNotScheduleTaintsFilter)).toBe(taints[2]);
    expect(findMatchingUntoleratedTaint(taints, [{ key: 'a', operator: 'Exists' }, { key: 'b', value: '2' }], doNotScheduleTaintsFilter)).toBeUndefined();
  });
  it('without filter considers every taint', () => {
    expect(findMatchingUntoleratedTaint(taints, [])).toBe(taints[0]);
    expect(findMatchingUntoleratedTaint(taints, [], preferNoScheduleTaintsFilter)).toBe(taints[0]);
  });
  it('no taints', () => {
    expect(findMatchingUntoleratedTaint(undefined, undefined)).toBeUndefined();
    expect(tolerationsTolerateTaint(undefined, taints[0]!)).toBe(false);
  });
});
