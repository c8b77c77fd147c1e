// The whole control plane: a Service and pods created through the API, the
// pods' status (IP, Ready) patched as a kubelet would, and the
// endpointslice-controller's slice appearing.
import { describe, it, expect } from 'vitest';
import { call, controlPlane, createNode, runUntil } from '../../scheduler/testing/cluster';
import { makeReady, webPods, webService } from './testing';
import type { Engine } from '../../facade/engine';

const slicesOf = (e: Engine) => call(e, 'GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', undefined, { query: { labelSelector: 'kubernetes.io/service-name=web' } }).body.items as any[];

describe('endpointslice-controller on the control plane', () => {
  it('publishes an EndpointSlice for a Service and follows pod readiness', () => {
    const e = controlPlane(7);
    createNode(e, { name: 'node-1', kwok: false, labels: { 'topology.kubernetes.io/zone': 'zone-a' } });
    webService(e);
    webPods(e, 2);
    makeReady(e, 'web-0', '10.244.0.10');
    makeReady(e, 'web-1', '10.244.0.11', false);
    runUntil(e, () => slicesOf(e).some((s) => (s.endpoints ?? []).length === 2), 'a slice with two endpoints', 60_000);
    const slices = slicesOf(e);
    expect(slices).toHaveLength(1);
    const s = slices[0];
    expect(s.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(s.metadata.labels['endpointslice.kubernetes.io/managed-by']).toBe('endpointslice-controller.k8s.io');
    expect(s.metadata.ownerReferences[0]).toMatchObject({ kind: 'Service', name: 'web', controller: true, blockOwnerDeletion: true });
    expect(s.addressType).toBe('IPv4');
    expect(s.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const byName = Object.fromEntries(s.endpoints.map((x: any) => [x.targetRef.name, x]));
    expect(byName['web-0']).toMatchObject({ addresses: ['10.244.0.10'], conditions: { ready: true, serving: true, terminating: false }, nodeName: 'node-1', zone: 'zone-a' });
    expect(byName['web-1'].conditions.ready).toBe(false);

    makeReady(e, 'web-1', '10.244.0.11', true);
    runUntil(e, () => slicesOf(e)[0].endpoints.every((x: any) => x.conditions.ready), 'web-1 ready in the slice', 60_000);
    expect(slicesOf(e)).toHaveLength(1);
  }, 60_000);
});
