// The story of issue 5 end to end, every step by the component that does it:
// a Deployment becomes a ReplicaSet (deployment-controller), pods
// (replicaset-controller), bindings (kube-scheduler), running containers
// (each node's kubelet) and ready endpoints (endpointslice-controller).
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';

describe('a Deployment on a fleet of kubelets', () => {
  it('runs its pods on the nodes and publishes them as ready endpoints', () => {
    const e = controlPlane(7, { nodes: 3 });
    runUntil(e, () => call(e, 'GET', '/api/v1/nodes').body.items?.length === 3, 'three nodes registered', 60_000);
    const labels = { app: 'web' };
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 3,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }], resources: { requests: { cpu: '100m', memory: '64Mi' } } }] } },
      },
    };
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', dep).status).toBe(201);
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { selector: labels, ports: [{ port: 80, targetPort: 80 }] } };
    expect(call(e, 'POST', '/api/v1/namespaces/default/services', svc).status).toBe(201);
    const running = () =>
      (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'app=web' } }).body.items ?? []).filter(
        (p: any) => p.status?.phase === 'Running' && p.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'),
      );
    runUntil(e, () => running().length === 3, 'three Running, Ready pods', 120_000, 500);
    const pods = running();
    // Owned by the Deployment's ReplicaSet, spread by the scheduler, with IPs from their node's CIDR.
    const rs = call(e, 'GET', '/apis/apps/v1/namespaces/default/replicasets').body.items;
    expect(rs).toHaveLength(1);
    for (const p of pods) {
      expect(p.metadata.ownerReferences[0]).toMatchObject({ kind: 'ReplicaSet', name: rs[0].metadata.name, controller: true });
      expect(p.spec.nodeName).toMatch(/^node-[123]$/);
      expect(p.status.podIP).toMatch(/^10\.244\.[123]\./);
    }
    expect(new Set(pods.map((p: any) => p.spec.nodeName)).size).toBe(3);
    runUntil(
      e,
      () => {
        const slices = call(e, 'GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', undefined, { query: { labelSelector: 'kubernetes.io/service-name=web' } }).body.items ?? [];
        return slices.flatMap((s: any) => s.endpoints ?? []).filter((ep: any) => ep.conditions?.ready).length === 3;
      },
      'three ready endpoints',
      30_000,
      500,
    );
    const d = call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/web').body;
    runUntil(e, () => call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/web').body.status?.availableReplicas === 3, 'Deployment available', 30_000, 500);
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
  });
});

describe('the cluster view', () => {
  it('shows nodes with their pods, requests and components', () => {
    const e = controlPlane(8, { nodes: 2 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 2, 'two Ready nodes', 60_000, 500);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'solo', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu: '250m', memory: '128Mi' } } }] },
    };
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod).status).toBe(201);
    runUntil(e, () => e.clusterView()!.pods.some((p) => p.name === 'solo' && p.ready), 'solo Running', 60_000, 500);
    const v = e.clusterView()!;
    const p = v.pods.find((x) => x.name === 'solo')!;
    expect(p.phase).toBe('Running');
    const n = v.nodes.find((x) => x.name === p.node)!;
    expect(n.requested).toEqual({ cpu: 250, memory: 128 * 1024 * 1024 });
    expect(n.allocatable.pods).toBe(110);
    expect(v.components.find((c) => c.kind === 'kube-scheduler')!.leader).toBe(true);
  });
});
