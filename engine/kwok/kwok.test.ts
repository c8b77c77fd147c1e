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

describe('kwok-controller node stages', () => {
  it('initializes a fake node created without status (node-initialize) and heartbeats it every 600–610 s', () => {
    const e = controlPlane(32);
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'bare', annotations: { 'kwok.x-k8s.io/node': 'fake' } } };
    expect(call(e, 'POST', '/api/v1/nodes', node).status).toBe(201);
    runUntil(e, () => call(e, 'GET', '/api/v1/nodes/bare').body.status?.phase === 'Running', 'bare initialized', 30_000);
    const st = call(e, 'GET', '/api/v1/nodes/bare').body.status;
    expect(st.conditions.map((c: any) => `${c.type}=${c.status}/${c.reason}`)).toEqual(['Ready=True/KubeletReady', 'MemoryPressure=False/KubeletHasSufficientMemory', 'DiskPressure=False/KubeletHasNoDiskPressure', 'PIDPressure=False/KubeletHasSufficientPID', 'NetworkUnavailable=False/RouteCreated']);
    expect(st.addresses).toEqual([{ address: '10.0.0.1', type: 'InternalIP' }, { address: 'bare', type: 'Hostname' }]);
    expect(st.allocatable).toEqual({ cpu: '1k', memory: '1Ti', pods: '1M' });
    const heartbeat = () => call(e, 'GET', '/api/v1/nodes/bare').body.status.conditions[0].lastHeartbeatTime;
    const first = heartbeat();
    // The Lease carries liveness: no status write for 600 s, then one within the jitter.
    e.advance(590_000);
    expect(heartbeat()).toBe(first);
    expect(call(e, 'GET', '/api/v1/nodes/bare').body.status.conditions[0].status).toBe('True');
    e.advance(25_000);
    expect(heartbeat()).not.toBe(first);
  });
});

describe('kwok-controller node leases (node_lease_controller.go)', () => {
  it('renews each fake node Lease by an Update of its informer copy, every 10 s jittered up to 4 %, and makes a deleted one again', () => {
    const e = controlPlane(33);
    for (const name of ['fake-a', 'fake-b', 'fake-c']) createNode(e, { name });
    const leasePath = (n: string) => `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${n}`;
    runUntil(e, () => ['fake-a', 'fake-b', 'fake-c'].every((n) => call(e, 'GET', leasePath(n)).status === 200), 'leases', 30_000);
    const since = e.requests(0, 1).at(-1)?.id ?? 0;
    const renewals = new Map<string, number[]>();
    const owner = call(e, 'GET', '/api/v1/nodes/fake-a').body.metadata.uid;
    for (let t = 0; t < 600; t++) {
      e.advance(100);
      const spec = call(e, 'GET', leasePath('fake-a')).body.spec;
      const seen = (renewals.get('fake-a') ?? []).at(-1);
      const at = Date.parse(spec.renewTime);
      if (seen !== at) renewals.set('fake-a', [...(renewals.get('fake-a') ?? []), at]);
    }
    const reqs = e.requests(since, 5000).filter((r) => r.client === 'kwok-controller-0' && r.resource === 'leases');
    // Updates (PUT), as KWOK's renewLease does through its lease lister; never a patch.
    expect(new Set(reqs.map((r) => `${r.verb} ${r.code}`))).toEqual(new Set(['update 200']));
    const gaps = renewals.get('fake-a')!.slice(1).map((t, i) => t - renewals.get('fake-a')![i]!);
    expect(gaps.length).toBeGreaterThanOrEqual(4);
    for (const g of gaps) {
      expect(g).toBeGreaterThanOrEqual(10_000);
      expect(g).toBeLessThanOrEqual(10_400);
    }
    // Spread, not one burst: the three nodes renew at different instants.
    const times = ['fake-a', 'fake-b', 'fake-c'].map((n) => call(e, 'GET', leasePath(n)).body.spec.renewTime);
    expect(new Set(times).size).toBe(3);
    const lease = call(e, 'GET', leasePath('fake-a')).body;
    expect(lease.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'fake-a', uid: owner }]);
    expect(lease.spec.leaseDurationSeconds).toBe(40);
    expect(call(e, 'DELETE', leasePath('fake-b')).status).toBe(200);
    runUntil(e, () => call(e, 'GET', leasePath('fake-b')).status === 200, 'fake-b lease made again', 15_000);
    expect(call(e, 'GET', '/api/v1/nodes/fake-b').body.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('True');
  });
});

describe('kwok-controller and a Lease held by someone else', () => {
  it('leaves it alone until its holder lets it expire, then takes it over (tryAcquireOrRenew), counting the transition', () => {
    const e = controlPlane(34);
    const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/fake-x';
    const renewTime = (ms: number) => new Date(Date.parse('2025-01-01T00:00:00Z') + ms).toISOString().replace('Z', '000Z');
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'fake-x', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'other', leaseDurationSeconds: 40, renewTime: renewTime(e.sim.now) } };
    expect(call(e, 'POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', lease).status).toBe(201);
    const createdAt = e.sim.now;
    createNode(e, { name: 'fake-x' });
    e.advance(30_000);
    expect(call(e, 'GET', leasePath).body.spec.holderIdentity).toBe('other');
    runUntil(e, () => call(e, 'GET', leasePath).body.spec.holderIdentity === 'fake-x', 'taken over', 30_000);
    // Not before the holder's renewTime + 40 s had passed.
    expect(e.sim.now - createdAt).toBeGreaterThan(40_000);
    const taken = call(e, 'GET', leasePath).body;
    expect(taken.spec.leaseTransitions).toBe(1);
    expect(taken.spec.leaseDurationSeconds).toBe(40);
    expect(taken.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'fake-x', uid: call(e, 'GET', '/api/v1/nodes/fake-x').body.metadata.uid }]);
  });
});
