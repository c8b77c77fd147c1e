// Stored and served objects have the fields encoding/json writes for the v1.32
// Go types: struct fields always (`status: {}`, `resources: {}`, a node's
// nodeInfo), zero metav1.Time as null (`lastProbeTime: null`, a template's
// `creationTimestamp: null`), even after a patch that sent null.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { applyDefaults } from './index';
import type { KObject } from '../../apimachinery/types';

const SMP = { headers: { 'content-type': 'application/strategic-merge-patch+json' } };

describe('Go serialisation shapes', () => {
  it('conditions get their metav1.Time fields as null; container states are structs', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] }, status: { conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: [{ name: 'c', state: { running: {} } }] } } as unknown as KObject;
    applyDefaults({ group: '', version: 'v1', kind: 'Pod' }, pod);
    expect((pod.status as any).conditions[0]).toEqual({ type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: null });
    expect((pod.status as any).containerStatuses[0]).toMatchObject({ state: { running: { startedAt: null } }, lastState: {} });
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { containers: [] } } } } as unknown as KObject;
    applyDefaults({ group: 'batch', version: 'v1', kind: 'Job' }, job);
    expect(job.status).toEqual({});
    expect((job.spec as any).template.metadata).toEqual({ creationTimestamp: null });
  });

  it('a node created without status reads as a real one: empty nodeInfo, kubelet port 0, spec {}', () => {
    const e = controlPlane(8, { etcdMembers: 1, schedulers: 0, storageDriver: false, metricsServer: false });
    const n = call(e, 'POST', '/api/v1/nodes', { metadata: { name: 'bare' } }).body;
    expect(n.spec).toEqual({});
    expect(n.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 0 } });
    expect(n.status.nodeInfo).toEqual({ machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '' });
    // A status patch that sends null for a condition's time gets it back as null.
    const patched = call(e, 'PATCH', '/api/v1/nodes/bare/status', { status: { conditions: [{ type: 'Ready', status: 'False', lastHeartbeatTime: null }] } }, SMP).body;
    expect(patched.status.conditions).toEqual([{ type: 'Ready', status: 'False', lastHeartbeatTime: null, lastTransitionTime: null }]);
  });

  it('a Deployment, its ReplicaSet and a running pod, as kubectl get -o yaml shows them', { timeout: 60_000 }, () => {
    const e = controlPlane(9, { nodes: 1, etcdMembers: 1 });
    const labels = { app: 'web' };
    const created = call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } }).body;
    expect(created.status).toEqual({});
    expect(created.spec.template.metadata).toEqual({ labels, creationTimestamp: null });
    expect(created.spec.template.spec.containers[0].resources).toEqual({});
    const ready = () => (call(e, 'GET', '/api/v1/namespaces/default/pods').body.items as any[]).find((p) => p.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'));
    runUntil(e, () => !!ready(), 'a Ready pod', 60_000, 200);
    const rs = call(e, 'GET', '/apis/apps/v1/namespaces/default/replicasets').body.items[0];
    expect(rs.spec.template.metadata.creationTimestamp).toBeNull();
    const pod = ready();
    for (const c of pod.status.conditions) expect(c).toHaveProperty('lastProbeTime', null);
    // Ready went from False (ContainersNotReady) to True: its reason and message are gone, as the kubelet's two-way patch removes them.
    const r = pod.status.conditions.find((c: any) => c.type === 'Ready');
    expect(r).not.toHaveProperty('reason');
    expect(r).not.toHaveProperty('message');
    expect(pod.status.containerStatuses[0].lastState).toEqual({});
  });

  it('events in both groups: core has source {} and null times; events.k8s.io has deprecatedSource {} and omits empty strings', () => {
    const e = controlPlane(10, { etcdMembers: 1, schedulers: 0, storageDriver: false, metricsServer: false });
    const v1 = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'x.1' }, eventTime: '2025-01-01T00:00:01.000000Z', reportingController: 'me', reportingInstance: 'me-1', action: 'Do', reason: 'Did', regarding: { kind: 'Pod', namespace: 'default', name: 'x' }, note: 'n', type: 'Normal' };
    expect(call(e, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', v1).status).toBe(201);
    const asV1 = call(e, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events/x.1').body;
    expect(asV1).toMatchObject({ deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null });
    const asCore = call(e, 'GET', '/api/v1/namespaces/default/events/x.1').body;
    expect(asCore).toMatchObject({ source: {}, firstTimestamp: null, lastTimestamp: null, reportingComponent: 'me', reportingInstance: 'me-1', involvedObject: { name: 'x' } });
    const core = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'y.1' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'y' }, reason: 'R', message: 'm', type: 'Normal' };
    expect(call(e, 'POST', '/api/v1/namespaces/default/events', core).status).toBe(201);
    const y = call(e, 'GET', '/api/v1/namespaces/default/events/y.1').body;
    expect(y).toMatchObject({ source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '' });
    const yV1 = call(e, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events/y.1').body;
    expect(yV1).toMatchObject({ deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null, eventTime: null });
    expect(yV1).not.toHaveProperty('reportingController');
    expect(yV1).not.toHaveProperty('reportingInstance');
  });
});
