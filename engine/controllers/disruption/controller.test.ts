// The disruption controller's arithmetic and bookkeeping on a fake context.
import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import { FakeContext } from '../framework/testing';
import { DELETION_TIMEOUT_MS, DisruptionController, countHealthyPods } from './controller';

const ready = { type: 'Ready', status: 'True' };
function pod(name: string, opts: { owner?: { kind: string; name: string; uid: string; apiVersion?: string }; ready?: boolean; deleting?: boolean } = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: { app: 'x' },
      ...(opts.owner ? { ownerReferences: [{ apiVersion: opts.owner.apiVersion ?? 'apps/v1', kind: opts.owner.kind, name: opts.owner.name, uid: opts.owner.uid, controller: true }] } : {}),
      ...(opts.deleting ? { deletionTimestamp: rfc3339(0) } : {}),
    },
    status: { phase: 'Running', conditions: opts.ready === false ? [] : [ready] },
  } as KObject;
}
function pdb(spec: Record<string, unknown>, status: Record<string, unknown> = {}): KObject {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b', namespace: 'default', generation: 1, resourceVersion: '5' }, spec: { selector: { matchLabels: { app: 'x' } }, ...spec }, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...status } } as KObject;
}
const obj = (kind: string, name: string, replicas: number, owner?: { kind: string; name: string; uid: string }): KObject =>
  ({ apiVersion: 'apps/v1', kind, metadata: { name, namespace: 'default', uid: `uid-${name}`, ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', ...owner, controller: true }] } : {}) }, spec: { replicas } }) as KObject;

/** Syncs and returns the status the controller writes (null if it writes none). */
function written(c: DisruptionController, ctx: FakeContext): any {
  ctx.drain(c);
  const w = ctx.calls.find((x) => x.call.method === 'PUT');
  ctx.calls.length = 0;
  for (const k of [...c.inFlight]) c.inFlight.delete(k);
  return w ? (w.call.body as any).status : null;
}

describe('disruption controller', () => {
  it('counts a Deployment through its ReplicaSet, each controller once', () => {
    const c = new DisruptionController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'deployments', obj('Deployment', 'd', 5));
    ctx.upsert(c, 'replicasets', obj('ReplicaSet', 'd-1', 5, { kind: 'Deployment', name: 'd', uid: 'uid-d' }));
    ctx.upsert(c, 'replicasets', obj('ReplicaSet', 'lone', 2));
    for (const n of ['p1', 'p2', 'p3']) ctx.upsert(c, 'pods', pod(n, { owner: { kind: 'ReplicaSet', name: 'd-1', uid: 'uid-d-1' } }));
    ctx.upsert(c, 'pods', pod('q1', { owner: { kind: 'ReplicaSet', name: 'lone', uid: 'uid-lone' }, ready: false }));
    ctx.upsert(c, 'poddisruptionbudgets', pdb({ maxUnavailable: '25%' }));
    // 5 + 2 expected; 25 % of 7 rounds up to 2 unavailable.
    expect(written(c, ctx)).toMatchObject({ observedGeneration: 1, expectedPods: 7, desiredHealthy: 5, currentHealthy: 3, disruptionsAllowed: 0, conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: 1 }] });
    // An integer minAvailable counts the pods themselves.
    ctx.upsert(c, 'poddisruptionbudgets', pdb({ minAvailable: 1 }));
    expect(written(c, ctx)).toMatchObject({ expectedPods: 4, desiredHealthy: 1, currentHealthy: 3, disruptionsAllowed: 2 });
  });

  it('writes nothing when the status is current', () => {
    const c = new DisruptionController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'pods', pod('p1'));
    const current = { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 0, expectedPods: 1, conditions: [{ type: 'DisruptionAllowed', status: 'True', observedGeneration: 1, lastTransitionTime: rfc3339(0), reason: 'SufficientPods', message: '' }] };
    ctx.upsert(c, 'poddisruptionbudgets', pdb({ minAvailable: 0 }, current));
    expect(written(c, ctx)).toBeNull();
  });

  it('keeps an eviction out of currentHealthy for two minutes, then reports the pod was not deleted', () => {
    const c = new DisruptionController();
    const ctx = new FakeContext();
    ctx.now = 60_000;
    for (const n of ['p1', 'p2']) ctx.upsert(c, 'pods', pod(n));
    ctx.upsert(c, 'poddisruptionbudgets', pdb({ minAvailable: 1 }, { disruptedPods: { p1: rfc3339(50_000), gone: rfc3339(50_000) } }));
    expect(written(c, ctx)).toMatchObject({ currentHealthy: 1, disruptionsAllowed: 0, disruptedPods: { p1: rfc3339(50_000) } });
    // The controller comes back when the note expires.
    const waiting = c.queue.waitingItems().find((w) => w.item === 'default/b');
    expect(waiting?.readyAt).toBe(50_000 + DELETION_TIMEOUT_MS);
    ctx.now = 50_000 + DELETION_TIMEOUT_MS + 1;
    ctx.upsert(c, 'poddisruptionbudgets', pdb({ minAvailable: 1 }, { disruptedPods: { p1: rfc3339(50_000) } }));
    expect(written(c, ctx)).toMatchObject({ currentHealthy: 2, disruptionsAllowed: 1 });
    expect(ctx.events.map((x) => [x.reason, x.message, x.regarding.metadata.name, x.component])).toContainEqual(['NotDeleted', "Pod was expected by PDB default/default to be deleted but it wasn't", 'p1', 'controllermanager']);
    expect(countHealthyPods([pod('a'), pod('b', { deleting: true }), pod('c', { ready: false })], {}, 0)).toBe(1);
  });

  it('fails safe when a controller has no scale, or a pod none at all', () => {
    const c = new DisruptionController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'pods', pod('p1', { owner: { kind: 'DaemonSet', name: 'ds', uid: 'uid-ds' } }));
    ctx.upsert(c, 'poddisruptionbudgets', pdb({ minAvailable: '50%' }, { disruptionsAllowed: 3 }));
    expect(written(c, ctx)).toMatchObject({ disruptionsAllowed: 0, conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: 'daemonsets.apps does not implement the scale subresource' }] });
    ctx.upsert(c, 'pods', pod('p1', { owner: { kind: 'ReplicaSet', name: 'missing', uid: 'uid-missing' } }));
    expect(written(c, ctx).conditions[0].message).toBe('found no controllers for pod "p1"');
    ctx.upsert(c, 'pods', pod('p1', { owner: { kind: 'Widget', name: 'w', uid: 'uid-w', apiVersion: 'example.com/v1' } }));
    expect(written(c, ctx).conditions[0].message).toBe('no matches for kind "Widget" in version "example.com/v1"');
  });

  it('retries a conflicting status write', () => {
    const c = new DisruptionController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'pods', pod('p1'));
    ctx.upsert(c, 'poddisruptionbudgets', pdb({ minAvailable: 0 }));
    ctx.drain(c);
    expect(ctx.calls).toHaveLength(1);
    ctx.respond(c, 409, {});
    const r = ctx.drain(c);
    expect(r[0]).toMatchObject({ type: 'error' });
  });
});
