import { describe, expect, it } from 'vitest';
import { call, controlPlane, createNode, createPod, getPod, runUntil } from '../scheduler/testing/cluster';

describe('kwok-controller', () => {
  it('keeps an API-created fake node Ready past the grace period and runs, then removes, its pods', () => {
    const e = controlPlane(31);
    createNode(e, { name: 'fake-1' });
    createNode(e, { name: 'plain', kwok: false });
    createPod(e, { name: 'p', cpu: '100m', spec: { nodeSelector: { 'kubernetes.io/hostname': 'fake-1' } } });
    runUntil(e, () => getPod(e, 'p')?.status?.phase === 'Running', 'p Running', 60_000);
    expect(getPod(e, 'p').status.podIP).toMatch(/^10\.200\./);
    e.advance(120_000);
    const ready = (n: string) => call(e, 'GET', `/api/v1/nodes/${n}`).body.status.conditions.find((c: any) => c.type === 'Ready').status;
    // The node lifecycle controller sees the kwok heartbeats; the node without one goes Unknown.
    expect(ready('fake-1')).toBe('True');
    expect(ready('plain')).toBe('Unknown');
    expect(call(e, 'GET', '/api/v1/nodes/fake-1').body.spec.taints ?? []).toEqual([]);
    expect(call(e, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/fake-1').body.spec.holderIdentity).toBe('fake-1');
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/pods/p').status).toBe(200);
    runUntil(e, () => call(e, 'GET', '/api/v1/namespaces/default/pods/p').status === 404, 'p removed', 30_000);
  });
});
