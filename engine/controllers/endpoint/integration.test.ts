// The whole control plane: the endpoint-controller's Endpoints object for a
// Service, following pods whose status is patched as a kubelet would.
import { describe, it, expect } from 'vitest';
import { call, controlPlane, createNode, runUntil } from '../../scheduler/testing/cluster';
import { makeReady, webPods, webService } from '../endpointslice/testing';
import type { Engine } from '../../facade/engine';

const endpointsOf = (e: Engine) => call(e, 'GET', '/api/v1/namespaces/default/endpoints/web');

describe('endpoint-controller on the control plane', () => {
  it('publishes Endpoints (and an EndpointSlice) for a Service and follows its pods', () => {
    const e = controlPlane(11);
    createNode(e, { name: 'node-1', kwok: false });
    webService(e);
    webPods(e, 2);
    makeReady(e, 'web-0', '10.244.0.10');
    makeReady(e, 'web-1', '10.244.0.11', false);
    runUntil(e, () => endpointsOf(e).body?.subsets?.[0]?.notReadyAddresses?.length === 1, 'Endpoints with a not-ready address', 60_000);
    const ep = endpointsOf(e).body;
    expect(ep.metadata.labels).toEqual({ tier: 'front' });
    expect(ep.subsets).toHaveLength(1);
    expect(ep.subsets[0].addresses.map((a: any) => [a.ip, a.nodeName, a.targetRef.name])).toEqual([['10.244.0.10', 'node-1', 'web-0']]);
    expect(ep.subsets[0].notReadyAddresses.map((a: any) => a.ip)).toEqual(['10.244.0.11']);
    expect(ep.subsets[0].ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    // Its EndpointSlice twin exists too.
    const slices = () => call(e, 'GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', undefined, { query: { labelSelector: 'kubernetes.io/service-name=web' } }).body.items;
    runUntil(e, () => slices()[0]?.endpoints?.length === 2, 'the EndpointSlice', 60_000);
    expect(slices()).toHaveLength(1);

    makeReady(e, 'web-1', '10.244.0.11', true);
    runUntil(e, () => endpointsOf(e).body.subsets[0].addresses.length === 2, 'both ready', 60_000);
    expect(endpointsOf(e).body.subsets[0].notReadyAddresses).toBeUndefined();

    // Deleting the service deletes its Endpoints.
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/services/web').status).toBe(200);
    runUntil(e, () => endpointsOf(e).status === 404, 'Endpoints deleted', 60_000);
  }, 60_000);
});
