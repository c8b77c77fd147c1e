// Whose Leases have owners (v1.32): a kubelet's node Lease is owned by its
// Node (SetNodeOwnerFunc: apiVersion v1, kind Node, name, uid — nothing else),
// so the garbage collector removes it with the Node; the leader-election
// Leases of kube-controller-manager and kube-scheduler have no owner.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';

const leasePath = (ns: string, name: string) => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/${name}`;

describe('Lease owners', () => {
  it('the node Lease is owned by its Node; the leader-election Leases by nobody', { timeout: 60_000 }, () => {
    const e = controlPlane(5, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => call(e, 'GET', leasePath('kube-node-lease', 'node-1')).status === 200, 'the node Lease', 30_000, 200);
    const node = call(e, 'GET', '/api/v1/nodes/node-1').body;
    const lease = call(e, 'GET', leasePath('kube-node-lease', 'node-1')).body;
    expect(lease.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: node.metadata.uid }]);
    // Renewals keep it.
    e.advance(25_000);
    const renewed = call(e, 'GET', leasePath('kube-node-lease', 'node-1')).body;
    expect(renewed.spec.renewTime).not.toBe(lease.spec.renewTime);
    expect(renewed.metadata.ownerReferences).toEqual(lease.metadata.ownerReferences);

    runUntil(e, () => ['kube-controller-manager', 'kube-scheduler'].every((n) => call(e, 'GET', leasePath('kube-system', n)).status === 200), 'leader Leases', 30_000, 200);
    for (const n of ['kube-controller-manager', 'kube-scheduler']) expect(call(e, 'GET', leasePath('kube-system', n)).body.metadata.ownerReferences).toBeUndefined();
  });
});
