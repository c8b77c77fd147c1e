// metrics-server on the simulated cluster: installed as its manifest installs
// it, scraping the kubelets, registered through the aggregation layer, read by
// kubectl top (the in-page kubectl, over the worker's API bridge).
import { describe, it, expect } from 'vitest';
import { call, controlPlane, runUntil } from '../scheduler/testing/cluster';
import { kubectlOn as kubectl } from '../host/testing/kubectl';
import type { Engine } from '../facade/engine';

const apiService = (e: Engine) => call(e, 'GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io').body;

describe('metrics-server through the aggregation layer', () => {
  it('is unavailable until it has two scrapes, then serves node and pod metrics; kubectl top reads them', async () => {
    const e = controlPlane(11, { nodes: 2 });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'php', labels: { app: 'php' }, annotations: { 'kubeglass.io/cpu-load': '300m' } }, spec: { nodeName: 'node-2', containers: [{ name: 'php', image: 'registry.k8s.io/hpa-example', resources: { requests: { cpu: '500m' } } }] } };
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod).status).toBe(201);
    runUntil(e, () => !!availableOf(e), 'an Available condition', 60_000);
    // The first answers: the pod is not ready (its storage has one point).
    expect(availableOf(e)).toMatchObject({ status: 'False', reason: 'MissingEndpoints', message: 'endpoints for service/metrics-server in "kube-system" have no addresses with port name "https"' });
    const early = await kubectl(e, ['top', 'node']);
    expect(early.stderr).toBe('error: Metrics API not available\n');
    expect(call(e, 'GET', '/apis/metrics.k8s.io/v1beta1/nodes').text).toBe('service unavailable\n');
    runUntil(e, () => availableOf(e)?.status === 'True', 'the APIService Available', 120_000);
    expect(availableOf(e)).toMatchObject({ reason: 'Passed', message: 'all checks passed' });
    e.advance(20_000);

    const groups = call(e, 'GET', '/apis').body.groups.map((g: any) => g.name);
    expect(groups.at(-1)).toBe('metrics.k8s.io');
    const nodes = call(e, 'GET', '/apis/metrics.k8s.io/v1beta1/nodes').body;
    expect(nodes.kind).toBe('NodeMetricsList');
    expect(nodes.items.map((n: any) => n.metadata.name)).toEqual(['node-1', 'node-2']);
    expect(nodes.items[0].metadata.labels['kubernetes.io/hostname']).toBe('node-1');
    expect(nodes.items[0].window).toMatch(/^\d+(\.\d+)?s$/);
    const pm = call(e, 'GET', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/php').body;
    expect(pm).toMatchObject({ kind: 'PodMetrics', apiVersion: 'metrics.k8s.io/v1beta1', metadata: { name: 'php', namespace: 'default', labels: { app: 'php' } } });
    const cpuNanos = Number(String(pm.containers[0].usage.cpu).replace(/n$/, ''));
    // The annotation's 300m of load plus the image's idle few millicores.
    expect(cpuNanos / 1e6).toBeGreaterThan(300);
    expect(cpuNanos / 1e6).toBeLessThan(310);
    expect(call(e, 'GET', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/nope').body.message).toBe('pod "nope" not found');
    // RBAC applies before the proxy: an anonymous caller is refused by kube-apiserver itself.
    expect(call(e, 'GET', '/apis/metrics.k8s.io/v1beta1/nodes', undefined, { token: null }).status).toBe(403);

    const top = await kubectl(e, ['top', 'node']);
    expect(top.exitCode).toBe(0);
    const lines = top.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME +CPU\(cores\) +CPU\(%\) +MEMORY\(bytes\) +MEMORY\(%\) +$/);
    expect(lines[2]).toMatch(/^node-2 +3\d\dm +[789]% +\d+Mi +\d+% +$/);
    const topPod = await kubectl(e, ['top', 'pod']);
    expect(topPod.stdout).toMatch(/^NAME +CPU\(cores\) +MEMORY\(bytes\) +\nphp +30\dm +\d+Mi +\n$/);
    const sum = await kubectl(e, ['top', 'pod', '-A', '--containers', '--sum', '--no-headers']);
    expect(sum.stdout.split('\n').filter(Boolean)).toHaveLength(3);
    const none = await kubectl(e, ['top', 'pod', '-n', 'kube-node-lease']);
    expect(none.stderr).toBe('No resources found in kube-node-lease namespace.\n');
  }, 120_000);
});

function availableOf(e: Engine): any {
  return (apiService(e)?.status?.conditions ?? []).find((c: any) => c.type === 'Available');
}
