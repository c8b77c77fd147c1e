import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { KObject } from '../../apimachinery/types';
import { computeHash, fnv32a, safeEncodeString } from './hash';
import { equalIgnoreHash, getProportion, maxSurge, maxUnavailable, newRSNewReplicas, resolveFenceposts, scaledValue, setNewReplicaSetAnnotations } from './util';
import { deployment } from './testSim';

const rs = (replicas: number, annotations: Record<string, string> = {}): KObject => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: `rs-${replicas}`, annotations }, spec: { replicas } });

describe('hash', () => {
  it('FNV-32a matches the reference vectors', () => {
    const b = (s: string) => [...new TextEncoder().encode(s)];
    expect(fnv32a(b(''))).toBe(0x811c9dc5);
    expect(fnv32a(b('a'))).toBe(0xe40c292c);
    expect(fnv32a(b('foobar'))).toBe(0xbf9cf968);
  });
  it('SafeEncodeString maps bytes onto the 27 safe characters', () => {
    expect(safeEncodeString('0123')).toBe('4567'); // '0' is byte 48, 48 % 27 = 21
  });
  it('ComputeHash depends on the template and the collision count, not on key order', () => {
    const t1 = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
    const t1b = { spec: { containers: [{ image: 'x', name: 'c' }] }, metadata: { labels: { app: 'a' } } };
    expect(computeHash(t1)).toBe(computeHash(t1b));
    expect(computeHash(t1)).not.toBe(computeHash({ ...t1, spec: { containers: [{ name: 'c', image: 'y' }] } }));
    expect(computeHash(t1, 1)).not.toBe(computeHash(t1));
    expect(computeHash(t1)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  });
});

describe('fenceposts (deployment_util_test.go TestResolveFenceposts)', () => {
  it.each([
    ['0', '0', 0, 0, 1],
    ['39%', '39%', 10, 4, 3],
    ['oops', '1', 10, 0, 1],
    ['55%', '5%', 5, 3, 0],
    ['25%', '25%', 10, 3, 2],
    ['25%', '25%', 1, 1, 0],
  ])('maxSurge %s maxUnavailable %s of %i → %i / %i', (s, u, desired, surge, unavailable) => {
    const toV = (v: string) => (/^\d+$/.test(v) ? Number(v) : v);
    expect(resolveFenceposts(toV(s), toV(u), desired)).toEqual({ surge, unavailable });
  });
  it('surge rounds up, unavailable rounds down', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 1000 }), (pct, total) => {
        expect(scaledValue(`${pct}%`, total, true)).toBe(Math.ceil((pct * total) / 100));
        expect(scaledValue(`${pct}%`, total, false)).toBe(Math.floor((pct * total) / 100));
      }),
    );
  });
  it('MaxUnavailable is capped by replicas and 0 for Recreate', () => {
    expect(maxUnavailable(deployment('d', 2, 'x', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 5 } } }))).toBe(2);
    expect(maxUnavailable(deployment('d', 2, 'x', { strategy: { type: 'Recreate' } }))).toBe(0);
    expect(maxSurge(deployment('d', 2, 'x', { strategy: { type: 'Recreate' } }))).toBe(0);
  });
});

describe('NewRSNewReplicas (TestNewRSNewReplicas)', () => {
  it.each([
    // [strategy, replicas, maxSurge, current new, old total, expected]
    ['RollingUpdate', 1, 1, 0, 1, 1],
    ['RollingUpdate', 5, 1, 1, 5, 1],
    ['RollingUpdate', 10, '25%', 0, 10, 3],
    ['RollingUpdate', 10, '25%', 3, 8, 5],
    ['Recreate', 1, 0, 0, 1, 1],
  ] as const)('%s %i surge %s new=%i old=%i → %i', (type, replicas, surge, cur, old, want) => {
    const d = deployment('d', replicas, 'x', { strategy: { type, ...(type === 'RollingUpdate' ? { rollingUpdate: { maxSurge: surge, maxUnavailable: 0 } } : {}) } });
    expect(newRSNewReplicas(d, [rs(old), rs(cur)], cur)).toBe(want);
  });
});

describe('GetProportion (TestGetProportion)', () => {
  it('scales by the max-replicas annotation, bounded by what may be added', () => {
    const d = deployment('d', 20, 'x', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } });
    const r = rs(10, { 'deployment.kubernetes.io/max-replicas': '10' });
    expect(getProportion(r, d, 10, 0)).toBe(10);
    expect(getProportion(r, d, 10, 5)).toBe(5);
    expect(getProportion(rs(0), d, 10, 0)).toBe(0);
    const down = deployment('d', 5, 'x', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } });
    expect(getProportion(r, down, -5, 0)).toBe(-5);
  });
});

describe('SetNewReplicaSetAnnotations', () => {
  it('raises the revision, keeps a revision history on rollback, copies annotations', () => {
    const d = deployment('d', 3, 'x');
    d.metadata.annotations = { team: 'a', 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
    const r = rs(3, { 'deployment.kubernetes.io/revision': '1' });
    expect(setNewReplicaSetAnnotations(d, r, 3, true)).toBe(true);
    expect(r.metadata.annotations).toEqual({ team: 'a', 'deployment.kubernetes.io/revision': '3', 'deployment.kubernetes.io/revision-history': '1' });
    setNewReplicaSetAnnotations(d, r, 5, true);
    expect(r.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1,3');
    expect(setNewReplicaSetAnnotations(d, r, 4, true)).toBe(false);
  });
  it('a new ReplicaSet gets desired-replicas and max-replicas', () => {
    const r = rs(0);
    setNewReplicaSetAnnotations(deployment('d', 10, 'x'), r, 1, false);
    expect(r.metadata.annotations).toEqual({ 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '13' });
  });
});

describe('equalIgnoreHash', () => {
  const HASH = 'pod-template-hash';
  const t = (labels: Record<string, string> | undefined, image = 'nginx:1.27', extra: Record<string, unknown> = {}) => ({
    ...(labels === undefined ? {} : { metadata: { labels, ...extra } }),
    spec: { containers: [{ name: 'app', image }] },
  });
  it('ignores only the pod-template-hash label', () => {
    expect(equalIgnoreHash(t({ app: 'a', [HASH]: '5d8f' }), t({ app: 'a' }))).toBe(true);
    expect(equalIgnoreHash(t({ app: 'a', [HASH]: '5d8f' }), t({ app: 'a', [HASH]: '77c4' }))).toBe(true);
    expect(equalIgnoreHash(t({ app: 'a' }), t({ app: 'b' }))).toBe(false);
    expect(equalIgnoreHash(t({ app: 'a' }), t({ app: 'a' }, 'nginx:1.28'))).toBe(false);
  });
  it('reads no labels left, and no metadata, as empty', () => {
    expect(equalIgnoreHash(t({ [HASH]: '5d8f' }), t(undefined))).toBe(true);
    expect(equalIgnoreHash(t({}), t(undefined))).toBe(true);
    expect(equalIgnoreHash(t({ [HASH]: '5d8f' }, 'nginx:1.27', { annotations: { a: '1' } }), t(undefined))).toBe(false);
    expect(equalIgnoreHash(undefined, {})).toBe(true);
  });
  it('leaves the templates as they were', () => {
    const a = t({ app: 'a', [HASH]: '5d8f' });
    equalIgnoreHash(a, t({ app: 'a' }));
    expect(a.metadata!.labels).toEqual({ app: 'a', [HASH]: '5d8f' });
  });
});
