// The disruption controller on the simulated cluster: PodDisruptionBudget
// status from the pods and their controllers' scale, the eviction API taking
// disruptions from it, and the controller's events and fail-safe.
import { describe, it, expect } from 'vitest';
import { call, controlPlane, runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';
import { parseRfc3339 } from '../../apiserver/http/time';

const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const merge = { headers: { 'content-type': 'application/merge-patch+json' } };
const pdbStatus = (e: Engine, name: string) => call(e, 'GET', `${PDBS}/${name}`).body.status;
const webPods = (e: Engine) => (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'app=web' } }).body.items as any[]).filter((p) => !p.metadata.deletionTimestamp && p.metadata.ownerReferences);
const evict = (e: Engine, name: string) => call(e, 'POST', `/api/v1/namespaces/default/pods/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } });
const events = (e: Engine, reason: string) => (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((x) => x.reason === reason).map((x) => ({ object: `${x.involvedObject.kind}/${x.involvedObject.name}`, type: x.type, message: x.message, component: x.source.component }));

function createPdb(e: Engine, name: string, spec: Record<string, unknown>): void {
  expect(call(e, 'POST', PDBS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec }).status).toBe(201);
}

/** A pod no controller owns, on a node no kubelet runs, Running and Ready. */
function loosePod(e: Engine, name: string, labels: Record<string, string>, conditions: unknown[] = []): void {
  expect(call(e, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { nodeName: 'ghost', containers: [{ name: 'c', image: 'nginx' }] } }).status).toBe(201);
  const p = call(e, 'GET', `/api/v1/namespaces/default/pods/${name}`).body;
  p.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z' }, ...conditions] };
  expect(call(e, 'PUT', `/api/v1/namespaces/default/pods/${name}/status`, p).status).toBe(200);
}

describe('disruption controller', () => {
  it('keeps budget status from the pods and their controllers; evictions take from it', () => {
    const e = controlPlane(21, { nodes: 1, etcdMembers: 1 });
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } };
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', dep).status).toBe(201);
    runUntil(e, () => call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/web').body.status?.readyReplicas === 3, 'three ready pods', 60_000, 500);

    createPdb(e, 'web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
    runUntil(e, () => pdbStatus(e, 'web').observedGeneration === 1, 'the first status', 10_000, 100);
    expect(pdbStatus(e, 'web')).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
      conditions: [{ type: 'DisruptionAllowed', status: 'True', observedGeneration: 1, lastTransitionTime: expect.any(String), reason: 'SufficientPods', message: '' }],
    });

    // One eviction takes the one disruption; the controller then sees the pod going.
    const [p1, p2] = webPods(e).map((p) => p.metadata.name as string);
    expect(evict(e, p1!).status).toBe(201);
    expect(Object.keys(pdbStatus(e, 'web').disruptedPods)).toEqual([p1]);
    // The eviction's note is dropped once the pod is being deleted (and so not healthy anyway).
    runUntil(e, () => pdbStatus(e, 'web').currentHealthy === 2 && !pdbStatus(e, 'web').disruptedPods, 'the evicted pod counted out', 10_000, 100);
    expect(pdbStatus(e, 'web')).toMatchObject({ disruptionsAllowed: 0, conditions: [{ status: 'False', reason: 'InsufficientPods' }] });
    const refused = evict(e, p2!);
    expect(refused.status).toBe(429);
    expect(refused.body.details.causes).toEqual([{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' }]);
    // The Deployment replaces the pod; the budget allows one again.
    runUntil(e, () => pdbStatus(e, 'web').disruptionsAllowed === 1, 'the replacement ready', 60_000, 500);
    expect(evict(e, p2!).status).toBe(201);

    // Percentages and maxUnavailable count the controllers' scale: 34 % of 3 rounds up to 2 unavailable.
    runUntil(e, () => pdbStatus(e, 'web').currentHealthy === 3, 'three healthy again', 60_000, 500);
    expect(call(e, 'PATCH', `${PDBS}/web`, { spec: { minAvailable: null, maxUnavailable: '34%' } }, merge).status).toBe(200);
    runUntil(e, () => pdbStatus(e, 'web').observedGeneration === 2, 'the new generation', 10_000, 100);
    expect(pdbStatus(e, 'web')).toMatchObject({ expectedPods: 3, desiredHealthy: 1, currentHealthy: 3, disruptionsAllowed: 2, conditions: [{ status: 'True', reason: 'SufficientPods', observedGeneration: 2 }] });
    expect(call(e, 'PATCH', `/apis/apps/v1/namespaces/default/deployments/web/scale`, { spec: { replicas: 4 } }, merge).status).toBe(200);
    runUntil(e, () => pdbStatus(e, 'web').expectedPods === 4 && pdbStatus(e, 'web').currentHealthy === 4, 'the scale followed', 60_000, 500);
    expect(pdbStatus(e, 'web')).toMatchObject({ desiredHealthy: 2, disruptionsAllowed: 2 });

    // A pod no controller owns: counted healthy, not expected, and reported.
    loosePod(e, 'stray', { app: 'web' });
    runUntil(e, () => pdbStatus(e, 'web').currentHealthy === 5, 'the stray pod counted', 10_000, 100);
    expect(pdbStatus(e, 'web').expectedPods).toBe(4);
    expect(events(e, 'UnmanagedPods')[0]).toEqual({
      object: 'PodDisruptionBudget/web',
      type: 'Warning',
      message:
        'Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
      component: 'controllermanager',
    });

    // Two budgets over one pod: the pod hears of it at its next change, and evictions are refused.
    createPdb(e, 'web-too', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
    expect(call(e, 'PATCH', '/api/v1/namespaces/default/pods/stray', { metadata: { annotations: { touched: 'yes' } } }, merge).status).toBe(200);
    runUntil(e, () => events(e, 'MultiplePodDisruptionBudgets').length > 0, 'the warning', 10_000, 100);
    expect(events(e, 'MultiplePodDisruptionBudgets')[0]).toEqual({ object: 'Pod/stray', type: 'Warning', message: 'Pod "default"/"stray" matches multiple PodDisruptionBudgets.  Chose "web" arbitrarily.', component: 'controllermanager' });
    expect(evict(e, webPods(e)[0]!.metadata.name).status).toBe(500);

    // Nothing selected.
    createPdb(e, 'empty', { minAvailable: 1, selector: { matchLabels: { app: 'none' } } });
    runUntil(e, () => pdbStatus(e, 'empty').observedGeneration === 1, 'its status', 10_000, 100);
    expect(pdbStatus(e, 'empty')).toMatchObject({ expectedPods: 0, currentHealthy: 0, desiredHealthy: 1, disruptionsAllowed: 0 });
    expect(events(e, 'NoPods')[0]).toEqual({ object: 'PodDisruptionBudget/empty', type: 'Normal', message: 'No matching pods found', component: 'controllermanager' });

    // A Job has no scale: a percentage cannot be computed, and the budget fails safe.
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'batch' }, spec: { template: { metadata: { labels: { app: 'batch' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] } } } };
    expect(call(e, 'POST', '/apis/batch/v1/namespaces/default/jobs', job).status).toBe(201);
    createPdb(e, 'batch', { minAvailable: '50%', selector: { matchLabels: { app: 'batch' } } });
    runUntil(e, () => (pdbStatus(e, 'batch').conditions ?? []).length > 0 && call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'app=batch' } }).body.items.length > 0, 'the fail-safe', 30_000, 100);
    runUntil(e, () => pdbStatus(e, 'batch').conditions[0].reason === 'SyncFailed', 'SyncFailed', 30_000, 100);
    expect(pdbStatus(e, 'batch')).toMatchObject({ disruptionsAllowed: 0, conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: 'jobs.batch does not implement the scale subresource' }] });
    expect(events(e, 'CalculateExpectedPodCountFailed')[0]).toMatchObject({ object: 'PodDisruptionBudget/batch', type: 'Warning', message: 'Failed to calculate the number of expected pods: jobs.batch does not implement the scale subresource' });
  });

  it('resets a DisruptionTarget condition left on a pod that was not deleted, two minutes on', () => {
    const e = controlPlane(22, { etcdMembers: 1 });
    const t0 = e.sim.now;
    loosePod(e, 'kept', { app: 'kept' }, [{ type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: new Date(Date.UTC(2025, 0, 1) + t0).toISOString().replace(/\.\d+Z$/, 'Z'), reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }]);
    const cond = () => call(e, 'GET', '/api/v1/namespaces/default/pods/kept').body.status.conditions.find((c: any) => c.type === 'DisruptionTarget');
    e.advance(110_000);
    expect(cond().status).toBe('True');
    runUntil(e, () => cond().status === 'False', 'the reset', 30_000, 500);
    expect(e.sim.now - t0).toBeGreaterThanOrEqual(120_000);
    expect(e.sim.now - t0).toBeLessThan(125_000);
    expect(cond()).toMatchObject({ status: 'False', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
    expect(parseRfc3339(cond().lastTransitionTime)).toBeGreaterThanOrEqual(t0 + 119_000);
  });
});
