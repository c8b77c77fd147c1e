import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from '../framework/testing';
import { cloneState } from '../../sim/serial';
import { ReplicaSetController } from './controller';
import { pod, replicaSet } from './testPods';

function setup(rs: KObject, pods: KObject[] = []) {
  const ctx = new FakeContext();
  const c = new ReplicaSetController();
  for (const p of pods) (ctx.store('pods') as Map<string, KObject>).set(`default/${p.metadata.name}`, p);
  ctx.upsert(c, 'replicasets', rs);
  return { ctx, c };
}

let seq = 0;
/**
 * Answers the calls pending now, in order: creates with 201 (the pod then
 * reaches the informer, as the API server's watch would bring it), the rest
 * with 200. Returns how many creates it answered; `fail` answers the n-th
 * create with that status instead.
 */
function answerCreates(ctx: FakeContext, c: ReplicaSetController, fail?: { nth: number; status: number; body: unknown }): number {
  let n = 0;
  const pending = ctx.calls.length;
  for (let i = 0; i < pending; i++) {
    const { call } = ctx.calls[0]!;
    if (call.method !== 'POST') {
      ctx.respond(c, 200, {});
      continue;
    }
    if (fail && fail.nth === n) {
      n++;
      ctx.respond(c, fail.status, fail.body);
      continue;
    }
    n++;
    const body = structuredClone(call.body) as KObject;
    body.metadata.name = `${body.metadata.generateName}${String(seq++).padStart(5, 'x')}`;
    body.metadata.uid = `uid-${body.metadata.name}`;
    body.metadata.resourceVersion = '1';
    ctx.respond(c, 201, body);
    ctx.upsert(c, 'pods', body);
  }
  return n;
}

const methods = (ctx: FakeContext) => ctx.calls.map((x) => `${x.call.method} ${x.call.path.split('/').slice(-2).join('/')}`);

describe('ReplicaSetController', () => {
  it('creates pods in slow-start batches 1, 2, 4… and names them <rs>-', () => {
    const rs = replicaSet('web', 10);
    const { ctx, c } = setup(rs);
    ctx.drain(c);
    const creates = () => ctx.calls.filter((x) => x.call.method === 'POST');
    expect(creates()).toHaveLength(1);
    const body = creates()[0]!.call.body as KObject;
    expect(body.metadata.generateName).toBe('web-');
    expect(body.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true }]);
    expect(body.metadata.labels).toEqual({ app: 'web' });
    const batches: number[] = [];
    for (;;) {
      const n = answerCreates(ctx, c);
      if (!n) break;
      batches.push(n);
    }
    expect(batches).toEqual([1, 2, 4, 3]);
    expect(ctx.events.filter((e) => e.reason === 'SuccessfulCreate')).toHaveLength(10);
    expect(ctx.events[0]!.message).toMatch(/^Created pod: web-/);
    expect(c.expectations.satisfied('default/web', ctx.now)).toBe(true);
    // Status: 10 replicas, none ready.
    ctx.calls.length = 0;
    ctx.drain(c);
    const put = ctx.calls.find((x) => x.call.method === 'PUT');
    expect((put!.call.body as KObject).status).toEqual({ replicas: 10, fullyLabeledReplicas: 10, observedGeneration: 1 });
  });

  it('does not create again while expectations are unmet (dormancy)', () => {
    const { ctx, c } = setup(replicaSet('web', 2));
    ctx.drain(c);
    expect(ctx.calls.filter((x) => x.call.method === 'POST')).toHaveLength(1);
    c.queue.add('default/web', ctx.now);
    ctx.drain(c);
    expect(ctx.calls.filter((x) => x.call.method === 'POST')).toHaveLength(1);
    // After ExpectationsTimeout the controller acts again.
    ctx.calls.length = 0;
    c.batches.clear();
    ctx.now += 5 * 60_000 + 1;
    c.queue.add('default/web', ctx.now);
    ctx.drain(c);
    expect(ctx.calls.filter((x) => x.call.method === 'POST')).toHaveLength(1);
  });

  it('deletes the lowest-ranked extra pods and waits to observe the deletions', () => {
    const rs = replicaSet('web', 1);
    const pods = [
      pod('running', { owner: rs, node: 'n1', phase: 'Running', ready: true }),
      pod('pending', { owner: rs, node: 'n1', phase: 'Pending' }),
      pod('unscheduled', { owner: rs }),
    ];
    const { ctx, c } = setup(rs, pods);
    ctx.drain(c);
    const deletes = ctx.calls.filter((x) => x.call.method === 'DELETE').map((x) => x.call.path.split('/').pop());
    expect(deletes).toEqual(['unscheduled', 'pending']);
    expect(c.expectations.get('default/web')).toEqual({ add: 0, del: 2 });
    while (ctx.calls.length) {
      const { call } = ctx.respond(c, 200, {});
      const name = call.path.split('/').pop();
      if (call.method === 'DELETE') ctx.remove(c, 'pods', pods.find((p) => p.metadata.name === name)!);
    }
    expect(c.expectations.satisfied('default/web', ctx.now)).toBe(true);
    expect(ctx.events.map((e) => e.message)).toEqual(['Deleted pod: unscheduled', 'Deleted pod: pending']);
  });

  it('observes a deletion when the pod gets a deletionTimestamp', () => {
    const rs = replicaSet('web', 0);
    const p = pod('a', { owner: rs });
    const { ctx, c } = setup(rs, [p]);
    ctx.drain(c);
    expect(c.expectations.satisfied('default/web', ctx.now)).toBe(false);
    ctx.upsert(c, 'pods', { ...p, metadata: { ...p.metadata, resourceVersion: '2', deletionTimestamp: '2025-01-01T00:00:00Z' } });
    expect(c.expectations.satisfied('default/web', ctx.now)).toBe(true);
  });

  it('adopts matching orphans and releases owned pods that stop matching', () => {
    const rs = replicaSet('web', 2);
    const orphan = pod('orphan', { labels: { app: 'web' } });
    const stray = pod('stray', { owner: rs, labels: { app: 'other' } });
    const owned = pod('owned', { owner: rs });
    const { ctx, c } = setup(rs, [orphan, stray, owned]);
    ctx.drain(c);
    const patches = ctx.calls.filter((x) => x.call.method === 'PATCH');
    expect(patches.map((x) => x.call.path.split('/').pop())).toEqual(['orphan', 'stray']);
    expect(patches[0]!.call.body).toEqual({ metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true }], uid: 'uid-orphan' } });
    expect(patches[1]!.call.body).toEqual({ metadata: { ownerReferences: [{ $patch: 'delete', uid: 'uid-web' }], uid: 'uid-stray' } });
    expect(patches[0]!.call.contentType).toBe('application/strategic-merge-patch+json');
    // The adopted orphan counts: 2 pods, no creates.
    expect(ctx.calls.filter((x) => x.call.method === 'POST')).toHaveLength(0);
  });

  it('ignores pods another controller owns', () => {
    const rs = replicaSet('web', 1);
    const other = replicaSet('other', 1, { uid: 'uid-other', labels: { app: 'web' } });
    const { ctx, c } = setup(rs, [pod('theirs', { owner: other, labels: { app: 'web' } })]);
    ctx.drain(c);
    expect(ctx.calls.filter((x) => x.call.method === 'POST')).toHaveLength(1);
    expect(ctx.calls.filter((x) => x.call.method === 'PATCH')).toHaveLength(0);
  });

  it('counts ready and available pods with minReadySeconds and requeues until available', () => {
    const rs = replicaSet('web', 2, { minReadySeconds: 10 });
    const pods = [pod('a', { owner: rs, node: 'n', phase: 'Running', ready: true, readySince: 0 }), pod('b', { owner: rs, node: 'n', phase: 'Running', ready: true, readySince: 0 })];
    const { ctx, c } = setup(rs, pods);
    ctx.now = 5000;
    const r = ctx.drain(c);
    expect(r[0]).toEqual({ type: 'after', delayMs: 10_000 });
    const put = ctx.calls.find((x) => x.call.method === 'PUT')!;
    expect((put.call.body as KObject).status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, observedGeneration: 1 });
    ctx.respond(c, 200, {});
    ctx.calls.length = 0;
    ctx.now = 15_000; // the requeue after minReadySeconds
    ctx.drain(c);
    const put2 = ctx.calls.find((x) => x.call.method === 'PUT')!;
    expect((put2.call.body as KObject).status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
  });

  it('on a failed create stops the batch, lowers expectations, sets ReplicaFailure', () => {
    const { ctx, c } = setup(replicaSet('web', 5));
    ctx.drain(c);
    answerCreates(ctx, c); // batch of 1 ok → batch of 2
    expect(ctx.calls.filter((x) => x.call.method === 'POST')).toHaveLength(2);
    answerCreates(ctx, c, { nth: 0, status: 403, body: { kind: 'Status', message: 'pods "web-" is forbidden: exceeded quota: q' } });
    expect(c.batches.size).toBe(0);
    expect(c.expectations.satisfied('default/web', ctx.now)).toBe(true);
    expect(ctx.events.find((e) => e.reason === 'FailedCreate')!.message).toBe('Error creating: pods "web-" is forbidden: exceeded quota: q');
    ctx.calls.length = 0;
    ctx.now += 10;
    ctx.drain(c);
    const put = ctx.calls.find((x) => x.call.method === 'PUT')!;
    const cond = ((put.call.body as KObject).status as { conditions: { type: string; reason: string }[] }).conditions;
    expect(cond).toMatchObject([{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate' }]);
    // The retry creates the 3 missing pods again.
    expect(ctx.calls.filter((x) => x.call.method === 'POST')).toHaveLength(1);
  });

  it('ReplicaFailure carries the batch\'s first error (slowStartBatch returns the first one received)', () => {
    const { ctx, c } = setup(replicaSet('web', 5));
    ctx.drain(c);
    answerCreates(ctx, c); // batch of 1 ok → batch of 2
    const q = (n: string) => ({ kind: 'Status', message: `pods "web-" is forbidden: exceeded quota: ${n}` });
    ctx.respond(c, 403, q('first'));
    ctx.respond(c, 403, q('second'));
    ctx.calls.length = 0;
    ctx.now += 10;
    ctx.drain(c);
    const put = ctx.calls.find((x) => x.call.method === 'PUT')!;
    expect(((put.call.body as KObject).status as any).conditions[0].message).toBe('pods "web-" is forbidden: exceeded quota: first');
  });

  it('a create refused because the namespace is terminating counts as done: no event, no ReplicaFailure (replica_set.go manageReplicas)', () => {
    const { ctx, c } = setup(replicaSet('web', 3));
    ctx.drain(c);
    const refused = { kind: 'Status', message: 'pods "web-" is forbidden: unable to create new content in namespace default because it is being terminated', reason: 'Forbidden', details: { causes: [{ reason: 'NamespaceTerminating', message: 'namespace default is being terminated', field: 'metadata.namespace' }] } };
    answerCreates(ctx, c, { nth: 0, status: 403, body: refused });
    // The slow start goes on with the next batch of 2.
    expect(ctx.calls.filter((x) => x.call.method === 'POST')).toHaveLength(2);
    answerCreates(ctx, c, { nth: 0, status: 403, body: refused });
    answerCreates(ctx, c, { nth: 0, status: 403, body: refused });
    expect(ctx.events.filter((e) => e.reason === 'FailedCreate')).toEqual([]);
    expect(c.manageErrors.has('default/web')).toBe(false);
    // The creations are still expected (they will never be observed): no new ones before the expectations expire.
    expect(c.expectations.satisfied('default/web', ctx.now)).toBe(false);
  });

  it('forgets expectations of a deleted ReplicaSet', () => {
    const rs = replicaSet('web', 3);
    const { ctx, c } = setup(rs);
    ctx.drain(c);
    expect(c.expectations.get('default/web')).toBeDefined();
    ctx.remove(c, 'replicasets', rs);
    expect(c.expectations.get('default/web')).toBeUndefined();
    ctx.drain(c);
  });

  it('a clone taken mid-run continues identically', () => {
    const { ctx, c } = setup(replicaSet('web', 6));
    ctx.drain(c);
    answerCreates(ctx, c);
    const copy = cloneState(c);
    const ctx2 = new FakeContext();
    for (const [r, m] of ctx.stores) for (const [k, v] of m) (ctx2.store(r) as Map<string, KObject>).set(k, v);
    ctx2.calls.push(...ctx.calls.map((x) => structuredClone(x)));
    const saved = seq;
    answerCreates(ctx, c);
    answerCreates(ctx, c);
    seq = saved;
    answerCreates(ctx2, copy);
    answerCreates(ctx2, copy);
    expect(ctx2.events.map((e) => e.message)).toEqual(ctx.events.slice(-ctx2.events.length).map((e) => e.message));
    expect(copy.expectations.get('default/web')).toEqual(c.expectations.get('default/web'));
    expect(methods(ctx2)).toEqual(methods(ctx));
  });
});
