import { describe, it, expect } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';

const RS = '/apis/apps/v1/namespaces/default/replicasets';

function ownedPods(e: Engine, uid: string): any[] {
  const items = call(e, 'GET', '/api/v1/namespaces/default/pods').body.items as any[];
  return items.filter((p) => !p.metadata.deletionTimestamp && p.metadata.ownerReferences?.some((r: any) => r.uid === uid && r.controller));
}

describe('replicaset-controller in the control plane', () => {
  it('creates, scales down and replaces pods', () => {
    const e = controlPlane(7);
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
    };
    const created = call(e, 'POST', RS, rs);
    expect(created.status).toBe(201);
    const uid = created.body.metadata.uid as string;
    runUntil(e, () => ownedPods(e, uid).length === 3, '3 pods');
    const pods = ownedPods(e, uid);
    for (const p of pods) expect(p.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    runUntil(e, () => call(e, 'GET', `${RS}/web`).body.status?.replicas === 3, 'status.replicas 3');
    // Events are written apart from the status: each arrives on its own.
    const createdEvents = () => (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((ev) => ev.reason === 'SuccessfulCreate' && ev.involvedObject.name === 'web');
    runUntil(e, () => createdEvents().length === 3, '3 SuccessfulCreate events');
    const created3 = createdEvents();
    expect(created3.map((ev) => ev.message).sort()).toEqual(pods.map((p) => `Created pod: ${p.metadata.name}`).sort());
    expect(created3[0].source.component).toBe('replicaset-controller');

    // Scale to 1.
    expect(call(e, 'PATCH', `${RS}/web`, { spec: { replicas: 1 } }, { headers: { 'content-type': 'application/merge-patch+json' } }).status).toBe(200);
    runUntil(e, () => ownedPods(e, uid).length === 1, '1 pod');
    runUntil(e, () => (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((ev) => ev.reason === 'SuccessfulDelete').length === 2, '2 SuccessfulDelete events');

    // Delete the survivor: a replacement comes.
    const survivor = ownedPods(e, uid)[0].metadata.name as string;
    expect(call(e, 'DELETE', `/api/v1/namespaces/default/pods/${survivor}`).status).toBe(200);
    runUntil(e, () => {
      const now = ownedPods(e, uid);
      return now.length === 1 && now[0].metadata.name !== survivor;
    }, 'a replacement pod');
    runUntil(e, () => {
      const st = call(e, 'GET', `${RS}/web`).body.status;
      return st.replicas === 1 && st.observedGeneration === 2;
    }, 'status replicas 1 at generation 2');
  }, 30_000);

  it('adopts a matching orphan pod instead of creating one', () => {
    const e = controlPlane(8);
    const orphan = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orphan', labels: { app: 'api' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', orphan).status).toBe(201);
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'api' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
    };
    const uid = call(e, 'POST', RS, rs).body.metadata.uid as string;
    runUntil(e, () => ownedPods(e, uid).length === 2, '2 owned pods');
    expect(ownedPods(e, uid).map((p) => p.metadata.name)).toContain('orphan');
  }, 30_000);
});

describe("kube-controller-manager's client limits (--kube-api-qps / --kube-api-burst)", () => {
  /** Virtual ms from creating a ReplicaSet of `replicas` to all its pods existing. */
  function fill(e: Engine, replicas: number): number {
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'many' },
      spec: { replicas, selector: { matchLabels: { app: 'many' } }, template: { metadata: { labels: { app: 'many' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
    };
    const created = call(e, 'POST', RS, rs);
    expect(created.status).toBe(201);
    const t0 = e.sim.now;
    runUntil(e, () => ownedPods(e, created.body.metadata.uid).length === replicas, `${replicas} pods`, 60_000);
    return e.sim.now - t0;
  }

  it('pace pod creation at 20 qps after a burst of 30 by default, and as raised for big clusters', () => {
    // 150 creates through a 20/30 bucket need at least (150 - 30) / 20 = 6 s.
    expect(fill(controlPlane(9), 150)).toBeGreaterThanOrEqual(6000);
    // Upstream's 5,000-node scale tests run the manager with 100 / 100: (150 - 100) / 100 = 0.5 s.
    const fast = fill(controlPlane(9, { controllerManagerKubeApi: { qps: 100, burst: 100 } }), 150);
    expect(fast).toBeGreaterThanOrEqual(500);
    expect(fast).toBeLessThan(3000);
  }, 60_000);

  it('are checked when the engine is made', () => {
    expect(() => controlPlane(9, { controllerManagerKubeApi: { qps: 0, burst: 10 } })).toThrow(/controllerManagerKubeApi needs qps > 0/);
  });
});

describe('replication-controller (the replication manager) in the control plane', () => {
  it('runs a ReplicationController as the ReplicaSet controller runs a ReplicaSet: adoption, pods, status, scale down, its events', () => {
    const e = controlPlane(9);
    const RC = '/api/v1/namespaces/default/replicationcontrollers';
    // A pod its selector matches, there first: adopted, not duplicated.
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray', labels: { app: 'old' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } }).status).toBe(201);
    // No selector: the API server defaults it to the template's labels.
    const rc = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'old' }, spec: { replicas: 2, template: { metadata: { labels: { app: 'old' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } } };
    const created = call(e, 'POST', RC, rc);
    expect(created.status).toBe(201);
    expect(created.body.spec.selector).toEqual({ app: 'old' });
    const uid = created.body.metadata.uid as string;
    runUntil(e, () => ownedPods(e, uid).length === 2, '2 pods');
    const pods = ownedPods(e, uid);
    expect(pods.map((p) => p.metadata.name)).toContain('stray');
    const made = pods.find((p) => p.metadata.name !== 'stray');
    expect(made.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'ReplicationController', name: 'old', uid, controller: true, blockOwnerDeletion: true }]);
    expect(made.metadata.name).toMatch(/^old-[a-z0-9]{5}$/);
    runUntil(e, () => call(e, 'GET', `${RC}/old`).body.status?.replicas === 2, 'status.replicas 2');
    expect(call(e, 'GET', `${RC}/old`).body.status).toMatchObject({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 });
    const events = () => (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((ev) => ev.involvedObject.kind === 'ReplicationController');
    runUntil(e, () => events().length === 1, 'one event');
    expect(events().map((ev) => [ev.reason, ev.message, ev.source.component])).toEqual([['SuccessfulCreate', `Created pod: ${made.metadata.name}`, 'replication-controller']]);
    expect(call(e, 'PATCH', `${RC}/old`, { spec: { replicas: 1 } }, { headers: { 'content-type': 'application/merge-patch+json' } }).status).toBe(200);
    runUntil(e, () => ownedPods(e, uid).length === 1, '1 pod');
    runUntil(e, () => events().some((ev) => ev.reason === 'SuccessfulDelete'), 'a SuccessfulDelete event');
  });
});
