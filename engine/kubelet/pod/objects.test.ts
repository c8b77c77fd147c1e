import { describe, expect, it } from 'vitest';
import { ObjectCache } from './objects';

const cm = (v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { v } });

describe("the kubelet's ConfigMap and Secret cache", () => {
  it('serves a pod what it fetched for it within the TTL, and fetches afresh for a pod that refers to it for the first time', () => {
    const c = new ObjectCache();
    const key = ObjectCache.key('configmaps', 'default', 'c');
    expect(c.due([key], 0, 'pod-a')).toEqual([key]);
    c.answered(key, cm('1'), 10);
    // The same pod, a while later: the cached copy.
    expect(c.due([key], 5000, 'pod-a')).toEqual([]);
    expect(c.get('configmaps', 'default', 'c')?.data).toEqual({ v: '1' });
    // A new pod (a rollout's replacement): the cached copy is dropped and fetched again before it starts.
    expect(c.due([key], 6000, 'pod-b')).toEqual([key]);
    expect(c.get('configmaps', 'default', 'c')).toBeUndefined();
    c.answered(key, cm('2'), 6010);
    expect(c.get('configmaps', 'default', 'c')?.data).toEqual({ v: '2' });
    // Past the TTL, any pod's sync refetches.
    expect(c.due([key], 70_000, 'pod-b')).toEqual([key]);
  });
});
