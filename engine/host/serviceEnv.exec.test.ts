// Service environment variables as `kubectl exec POD -- env` shows them in a
// container (the kubelet's service informer, getServiceEnvVarMap,
// envvars.FromServices), through the in-page kubectl host.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { ApiBridge } from './apiBridge';
import { KubectlHost } from './kubectlHost';
import { kubectlRunner } from './testing';
import { runUntil } from '../scheduler/testing/cluster';

describe('Service variables in a container', () => {
  it('kubectl exec … env shows them; $(VAR) sees them; the pod’s own env wins', { timeout: 120_000 }, async () => {
    const e = controlPlane(13, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => e.clusterView()?.nodes[0]?.ready === 'True', 'a Ready node', 60_000, 500);
    const bridge = new ApiBridge(e);
    const host = new KubectlHost(bridge, () => e.sim.now);
    const kubectl = kubectlRunner(e, bridge, host, { stepMs: 20, maxFrames: 200_000 });
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'redis-primary', namespace: 'default' }, spec: { selector: { app: 'redis' }, ports: [{ name: 'redis', port: 6379 }] } };
    const created = call(e, 'POST', '/api/v1/namespaces/default/services', service);
    expect(created.status).toBe(201);
    const ip = created.body.spec.clusterIP as string;
    const kip = call(e, 'GET', '/api/v1/namespaces/default/services/kubernetes').body.spec.clusterIP as string;
    const pod = (name: string, extra: Record<string, unknown> = {}, env: unknown[] = []) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: { ...extra, containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'sleep 3600'], env }] },
    });
    const env = [
      { name: 'REDIS_URL', value: 'redis://$(REDIS_PRIMARY_SERVICE_HOST):$(REDIS_PRIMARY_SERVICE_PORT)' },
      { name: 'REDIS_PRIMARY_SERVICE_PORT', value: '1234' },
    ];
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod('linked', {}, env)).status).toBe(201);
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod('unlinked', { enableServiceLinks: false })).status).toBe(201);
    for (const n of ['linked', 'unlinked']) runUntil(e, () => call(e, 'GET', `/api/v1/namespaces/default/pods/${n}`).body.status?.phase === 'Running', `${n} Running`, 60_000, 200);

    const vars = (out: string) => new Map(out.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]));
    const linked = await kubectl('exec', 'linked', '--', 'env');
    expect(linked.exitCode).toBe(0);
    const l = vars(linked.stdout);
    expect(l.get('REDIS_PRIMARY_SERVICE_HOST')).toBe(ip);
    expect(l.get('REDIS_PRIMARY_SERVICE_PORT')).toBe('1234'); // the container's own value wins
    expect(l.get('REDIS_PRIMARY_SERVICE_PORT_REDIS')).toBe('6379');
    expect(l.get('REDIS_PRIMARY_PORT_6379_TCP')).toBe(`tcp://${ip}:6379`);
    expect(l.get('REDIS_PRIMARY_PORT_6379_TCP_ADDR')).toBe(ip);
    // Defined before REDIS_PRIMARY_SERVICE_PORT, so $(…) of it reads the service's value.
    expect(l.get('REDIS_URL')).toBe(`redis://${ip}:6379`);
    expect(l.get('KUBERNETES_SERVICE_HOST')).toBe(kip);
    expect(l.get('KUBERNETES_SERVICE_PORT_HTTPS')).toBe('443');
    expect(l.get('KUBERNETES_PORT')).toBe(`tcp://${kip}:443`);

    const u = vars((await kubectl('exec', 'unlinked', '--', 'env')).stdout);
    expect(u.get('KUBERNETES_SERVICE_HOST')).toBe(kip);
    expect([...u.keys()].some((k) => k.startsWith('REDIS_'))).toBe(false);
  });
});
