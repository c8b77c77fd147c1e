// pods/eviction against the budgets' status, with kube-controller-manager
// stopped so that the status is what the test writes (the disruption
// controller's side is in controllers/disruption).
import { beforeAll, describe, it, expect } from 'vitest';
import { call, controlPlane } from '../testing/harness';
import type { Engine } from '../../facade/engine';

let e: Engine;
const POD = (name: string) => `/api/v1/namespaces/default/pods/${name}`;
const PDB = (name: string) => `/apis/policy/v1/namespaces/default/poddisruptionbudgets/${name}`;

/** A pod bound to a node no kubelet runs, in the phase and readiness given. */
function pod(name: string, app: string, phase = 'Running', ready = true): void {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app } }, spec: { nodeName: 'ghost', containers: [{ name: 'c', image: 'nginx' }] } };
  expect(call(e, 'POST', '/api/v1/namespaces/default/pods', body).status).toBe(201);
  const cur = call(e, 'GET', POD(name)).body;
  cur.status = { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z' }] };
  expect(call(e, 'PUT', `${POD(name)}/status`, cur).status).toBe(200);
}

/** A budget with the status a disruption controller would have written. */
function pdb(name: string, app: string, st: Record<string, unknown>, spec: Record<string, unknown> = { minAvailable: 1 }): void {
  expect(call(e, 'POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { selector: { matchLabels: { app } }, ...spec } }).status).toBe(201);
  const cur = call(e, 'GET', PDB(name)).body;
  cur.status = { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...st };
  const w = call(e, 'PUT', `${PDB(name)}/status`, cur);
  expect(w.status, JSON.stringify(w.body)).toBe(200);
}

const evict = (name: string, extra: Record<string, unknown> = {}, query: Record<string, string> = {}) =>
  call(e, 'POST', `${POD(name)}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra }, { query });
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

beforeAll(() => {
  e = controlPlane(9, { etcdMembers: 1 });
  expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'kube-controller-manager-0' } }).ok).toBe(true);
});

describe('pods/eviction', () => {
  it('deletes a pod no budget selects, after marking it DisruptionTarget', () => {
    pod('free', 'free');
    const r = evict('free');
    expect(r.status).toBe(201);
    expect(r.body).toEqual(SUCCESS);
    const p = call(e, 'GET', POD('free')).body;
    // Bound to a node: graceful, the kubelet would finish it.
    expect(p.metadata.deletionTimestamp).toBeDefined();
    expect(p.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(p.status.conditions.find((c: any) => c.type === 'DisruptionTarget')).toEqual({ type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: expect.any(String), reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
  });

  it('takes a disruption from the budget and records the pod in disruptedPods', () => {
    pod('a1', 'a');
    pod('a2', 'a');
    pdb('a', 'a', { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2, conditions: [{ type: 'DisruptionAllowed', status: 'True', observedGeneration: 1, lastTransitionTime: '2025-01-01T00:00:00Z', reason: 'SufficientPods', message: '' }] });
    expect(evict('a1').body).toEqual(SUCCESS);
    const st = call(e, 'GET', PDB('a')).body.status;
    expect(st.disruptionsAllowed).toBe(0);
    expect(Object.keys(st.disruptedPods)).toEqual(['a1']);
    // At zero the condition flips, with a new transition time.
    expect(st.conditions).toEqual([{ type: 'DisruptionAllowed', status: 'False', observedGeneration: 1, lastTransitionTime: expect.not.stringMatching(/^2025-01-01T00:00:00Z$/), reason: 'InsufficientPods', message: '' }]);
    expect(call(e, 'GET', POD('a1')).body.metadata.deletionTimestamp).toBeDefined();

    const r = evict('a2');
    expect(r.status).toBe(429);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget a needs 1 healthy pods and has 2 currently' }] },
      code: 429,
    });
    expect(call(e, 'GET', POD('a2')).body.metadata.deletionTimestamp).toBeUndefined();
  });

  it('refuses while the budget status is behind its spec', () => {
    pod('g1', 'g');
    pdb('g', 'g', { disruptionsAllowed: 1, currentHealthy: 1, expectedPods: 1 });
    expect(call(e, 'PATCH', PDB('g'), { spec: { minAvailable: 0 } }, { headers: { 'content-type': 'application/merge-patch+json' } }).body.metadata.generation).toBe(2);
    const r = evict('g1');
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('10');
    expect(r.body.details).toEqual({ retryAfterSeconds: 10, causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget g is still being processed by the server.' }] });

  });

  it('does not support a pod two budgets select', () => {
    pod('m1', 'm');
    pdb('m-one', 'm', { disruptionsAllowed: 1 });
    pdb('m-two', 'm', { disruptionsAllowed: 1 });
    const r = evict('m1');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 });
  });

  it('lets terminal, Pending and unready pods go without taking a disruption when it may', () => {
    pdb('t', 't', { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 3 });
    pod('t-done', 't', 'Succeeded', false);
    pod('t-pending', 't', 'Pending', false);
    pod('t-unready', 't', 'Running', false);
    pod('t-ready', 't');
    expect(evict('t-done').body).toEqual(SUCCESS);
    // A terminal pod is deleted at once: no kubelet needs to stop it.
    expect(call(e, 'GET', POD('t-done')).status).toBe(404);
    expect(evict('t-pending').body).toEqual(SUCCESS);
    // The budget is met (1 healthy of 1 desired): the unready pod may go.
    expect(evict('t-unready').body).toEqual(SUCCESS);
    expect(evict('t-ready').status).toBe(429);
    expect(call(e, 'GET', PDB('t')).body.status.disruptionsAllowed).toBe(0);

    // Not met: an unready pod waits too, unless the budget always allows unhealthy pods to go.
    pdb('u', 'u', { currentHealthy: 0, desiredHealthy: 1, expectedPods: 2 });
    pod('u1', 'u', 'Running', false);
    expect(evict('u1').status).toBe(429);
    pdb('w', 'w', { currentHealthy: 0, desiredHealthy: 1, expectedPods: 2 }, { minAvailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' });
    pod('w1', 'w', 'Running', false);
    expect(evict('w1').body).toEqual(SUCCESS);
  });

  it('changes nothing on a dry run, and checks the URL name and preconditions', () => {
    pod('d1', 'd');
    pdb('d', 'd', { disruptionsAllowed: 1, currentHealthy: 1, expectedPods: 1 });
    expect(evict('d1', {}, { dryRun: 'All' }).body).toEqual(SUCCESS);
    expect(call(e, 'GET', PDB('d')).body.status.disruptionsAllowed).toBe(1);
    expect(call(e, 'GET', POD('d1')).body.metadata.deletionTimestamp).toBeUndefined();

    expect(call(e, 'POST', `${POD('d1')}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } }).body).toMatchObject({ code: 400, message: 'name in URL does not match name in Eviction object' });
    const r = evict('d1', { deleteOptions: { preconditions: { uid: 'nope' } } });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(`Operation cannot be fulfilled on pods "d1": Precondition failed: UID in precondition: nope, UID in object meta: ${call(e, 'GET', POD('d1')).body.metadata.uid}`);
    expect(evict('nope').body).toMatchObject({ code: 404, message: 'pods "nope" not found' });
  });
});
