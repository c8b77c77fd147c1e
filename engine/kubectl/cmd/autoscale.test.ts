// kubectl autoscale against the simulated control plane, and the
// autoscaling/v1 endpoint it writes through (stored as autoscaling/v2).
import { beforeAll, describe, it, expect } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { kubectlOn } from '../../host/testing/kubectl';
import type { Engine } from '../../facade/engine';

let e: Engine;
const kubectl = async (line: string) => {
  const r = await kubectlOn(e, line.split(' '));
  return r.stdout + r.stderr + `[exit ${r.exitCode}]`;
};
const V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';

beforeAll(() => {
  e = controlPlane(3, { etcdMembers: 1 });
  const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } };
  expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', dep).status).toBe(201);
});

describe('kubectl autoscale', () => {
  it("checks its flags and arguments with kubectl's messages", async () => {
    expect(await kubectl('autoscale deployment web')).toBe('error: required flag(s) "max" not set\n[exit 1]');
    expect(await kubectl('autoscale deployment web --max=0')).toBe('error: --max=MAXPODS is required and must be at least 1, max: 0\n[exit 1]');
    expect(await kubectl('autoscale deployment web --max=2 --min=3')).toBe('error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: 2, min: 3\n[exit 1]');
    expect(await kubectl('autoscale deployment --max=3')).toBe('error: resource(s) were provided, but no name was specified\n[exit 1]');
    expect(await kubectl('autoscale deployment nope --max=3')).toBe('Error from server (NotFound): deployments.apps "nope" not found\n[exit 1]');
    expect(await kubectl('autoscale svc kubernetes --max=3')).toBe('error: cannot autoscale a Service: could not find scale subresource for /v1, Resource=services in discovery information\n[exit 1]');
  });

  it('prints the autoscaling/v1 object it would send', async () => {
    expect(await kubectl('autoscale deployment/web --max=3 --min=2 --cpu-percent=40 --name=w2 --dry-run=client -o yaml')).toBe(
      [
        'apiVersion: autoscaling/v1',
        'kind: HorizontalPodAutoscaler',
        'metadata:',
        '  creationTimestamp: null',
        '  name: w2',
        'spec:',
        '  maxReplicas: 3',
        '  minReplicas: 2',
        '  scaleTargetRef:',
        '    apiVersion: apps/v1',
        '    kind: Deployment',
        '    name: web',
        '  targetCPUUtilizationPercentage: 40',
        'status:',
        '  currentReplicas: 0',
        '  desiredReplicas: 0',
        '[exit 0]',
      ].join('\n'),
    );
    expect(await kubectl('autoscale deployment web --max=3 --dry-run=server')).toBe('horizontalpodautoscaler.autoscaling/web autoscaled (server dry run)\n[exit 0]');
    expect(call(e, 'GET', `${V2}/web`).status).toBe(404);
    // The server validates the converted object: the paths are autoscaling/v2's.
    expect(await kubectl('autoscale deployment web --max=3 --cpu-percent=0')).toBe(
      'The HorizontalPodAutoscaler "web" is invalid: spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0\n[exit 1]',
    );
  });

  it('creates it through autoscaling/v1; autoscaling/v2 serves the same object', async () => {
    expect(await kubectl('autoscale deployment web --max=5')).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n[exit 0]');
    expect(await kubectl('autoscale deployment web --max=5')).toBe('Error from server (AlreadyExists): horizontalpodautoscalers.autoscaling "web" already exists\n[exit 1]');
    const v2 = call(e, 'GET', `${V2}/web`).body;
    // No --cpu-percent: v1's implicit 80 % made explicit; no --min: the server's 1.
    expect(v2.spec).toEqual({ scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] });
    expect(v2.metadata.managedFields).toEqual([expect.objectContaining({ manager: 'kubectl-autoscale', operation: 'Update', apiVersion: 'autoscaling/v1', fieldsV1: expect.objectContaining({ 'f:spec': expect.objectContaining({ 'f:targetCPUUtilizationPercentage': {} }) }) })]);
    const v1 = call(e, 'GET', `${V1}/web`).body;
    expect(v1).toMatchObject({ apiVersion: 'autoscaling/v1', spec: { minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 80 } });
    expect(v1.metadata.resourceVersion).toBe(v2.metadata.resourceVersion);

    // A v1 patch changes the one CPU target; a v2 read sees it, other metrics kept.
    expect(call(e, 'PATCH', `${V2}/web`, { spec: { metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '64Mi' } } }, { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] } }, { headers: { 'content-type': 'application/merge-patch+json' } }).status).toBe(200);
    const patched = call(e, 'PATCH', `${V1}/web`, { spec: { targetCPUUtilizationPercentage: 55 } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']).toBe('[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"64Mi"}}]');
    expect(call(e, 'GET', `${V2}/web`).body.spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '64Mi' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 55 } } },
    ]);
    expect(call(e, 'GET', `${V2}/web`).body.metadata.annotations).toBeUndefined();

    // Tables print the stored object whichever version is asked.
    const table = call(e, 'GET', V1, undefined, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }).body;
    expect(table.rows[0].cells.slice(0, 5)).toEqual(['web', 'Deployment/web', 'memory: <unknown>/64Mi, cpu: <unknown>/55%', '1', 5]);
    expect((await kubectl('get hpa')).replace(/ \d+s\n/, ' AGE\n')).toBe(
      'NAME   REFERENCE        TARGETS                                      MINPODS   MAXPODS   REPLICAS   AGE\nweb    Deployment/web   memory: <unknown>/64Mi, cpu: <unknown>/55%   1         5         0          AGE\n[exit 0]',
    );
  });
});
