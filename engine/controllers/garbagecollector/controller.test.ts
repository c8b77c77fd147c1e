import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { cloneState } from '../../sim/serial';
import { FakeContext } from '../framework/testing';
import { GarbageCollector } from './controller';

function rs(name: string, uid: string, extra: Partial<KObject['metadata']> = {}): KObject {
  return { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: 'default', uid, resourceVersion: '5', ...extra } };
}

function pod(name: string, owners: { uid: string; name?: string; block?: boolean; kind?: string; apiVersion?: string }[], extra: Partial<KObject['metadata']> = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '7',
      ownerReferences: owners.map((o) => ({ apiVersion: o.apiVersion ?? 'apps/v1', kind: o.kind ?? 'ReplicaSet', name: o.name ?? 'web', uid: o.uid, controller: true, ...(o.block === false ? {} : { blockOwnerDeletion: true }) })),
      ...extra,
    },
  };
}

const calls = (ctx: FakeContext) => ctx.calls.map((c) => `${c.call.method} ${c.call.path}`);

describe('GarbageCollector', () => {
  it('deletes a dependent whose owner is gone, after a live GET confirms it (background)', () => {
    const ctx = new FakeContext();
    const gc = new GarbageCollector();
    const owner = rs('web', 'u-rs');
    ctx.upsert(gc, 'replicasets', owner);
    ctx.upsert(gc, 'pods', pod('p1', [{ uid: 'u-rs' }]));
    ctx.drain(gc);
    expect(ctx.calls).toEqual([]);
    ctx.remove(gc, 'replicasets', owner);
    ctx.drain(gc);
    expect(calls(ctx)).toEqual(['GET /apis/apps/v1/namespaces/default/replicasets/web']);
    ctx.respond(gc, 404, { kind: 'Status', code: 404 });
    ctx.drain(gc);
    expect(calls(ctx)).toEqual(['DELETE /api/v1/namespaces/default/pods/p1']);
    expect(ctx.calls[0]!.call.body).toMatchObject({ propagationPolicy: 'Background', preconditions: { uid: 'uid-p1' } });
  });

  it('does not delete when the live GET finds the owner (the informer lagged), nor for an owner recreated with another uid… which is dangling', () => {
    const ctx = new FakeContext();
    const gc = new GarbageCollector();
    ctx.upsert(gc, 'pods', pod('p1', [{ uid: 'u-rs' }]));
    ctx.drain(gc);
    ctx.respond(gc, 200, rs('web', 'u-rs'));
    ctx.drain(gc);
    expect(ctx.calls).toEqual([]);
    ctx.upsert(gc, 'pods', pod('p2', [{ uid: 'u-old' }]));
    ctx.drain(gc);
    ctx.respond(gc, 200, rs('web', 'u-new'));
    ctx.drain(gc);
    expect(calls(ctx)).toEqual(['DELETE /api/v1/namespaces/default/pods/p2']);
  });

  it('removes only the dangling reference when another owner is alive', () => {
    const ctx = new FakeContext();
    const gc = new GarbageCollector();
    ctx.upsert(gc, 'replicasets', rs('alive', 'u-alive'));
    ctx.upsert(gc, 'pods', pod('p', [{ uid: 'u-alive', name: 'alive' }, { uid: 'u-gone', name: 'gone' }]));
    ctx.drain(gc);
    ctx.respond(gc, 404);
    ctx.drain(gc);
    expect(calls(ctx)).toEqual(['PATCH /api/v1/namespaces/default/pods/p']);
    expect((ctx.calls[0]!.call.body as { metadata: { ownerReferences: { uid: string }[] } }).metadata.ownerReferences.map((r) => r.uid)).toEqual(['u-alive']);
  });

  it('foreground: deletes blocking dependents first, then removes the finalizer', () => {
    const ctx = new FakeContext();
    const gc = new GarbageCollector();
    const owner = rs('web', 'u-rs');
    ctx.upsert(gc, 'replicasets', owner);
    ctx.upsert(gc, 'pods', pod('p1', [{ uid: 'u-rs' }]));
    ctx.upsert(gc, 'pods', pod('p2', [{ uid: 'u-rs', block: false }]));
    ctx.drain(gc);
    ctx.upsert(gc, 'replicasets', rs('web', 'u-rs', { deletionTimestamp: '2025-01-01T00:00:01Z', finalizers: ['foregroundDeletion'] }));
    ctx.drain(gc);
    expect(calls(ctx).sort()).toEqual(['DELETE /api/v1/namespaces/default/pods/p1', 'DELETE /api/v1/namespaces/default/pods/p2']);
    ctx.respond(gc, 200);
    ctx.respond(gc, 200);
    // p2 does not block: once p1 is gone the finalizer goes, though p2 still exists.
    ctx.remove(gc, 'pods', pod('p1', [{ uid: 'u-rs' }]));
    ctx.drain(gc);
    expect(calls(ctx)).toEqual(['PATCH /apis/apps/v1/namespaces/default/replicasets/web']);
    expect((ctx.calls[0]!.call.body as { metadata: { finalizers: string[] } }).metadata.finalizers).toEqual([]);
  });

  it('orphan: removes the owner reference from dependents, then the orphan finalizer', () => {
    const ctx = new FakeContext();
    const gc = new GarbageCollector();
    ctx.upsert(gc, 'replicasets', rs('web', 'u-rs'));
    ctx.upsert(gc, 'pods', pod('p1', [{ uid: 'u-rs' }]));
    ctx.upsert(gc, 'pods', pod('p2', [{ uid: 'u-rs' }, { uid: 'u-other', name: 'other' }]));
    ctx.upsert(gc, 'replicasets', rs('other', 'u-other'));
    ctx.drain(gc);
    ctx.upsert(gc, 'replicasets', rs('web', 'u-rs', { deletionTimestamp: '2025-01-01T00:00:01Z', finalizers: ['orphan'] }));
    ctx.drain(gc);
    expect(calls(ctx)).toEqual(['PATCH /api/v1/namespaces/default/pods/p1', 'PATCH /api/v1/namespaces/default/pods/p2']);
    expect((ctx.calls[1]!.call.body as { metadata: { ownerReferences: { uid: string }[] } }).metadata.ownerReferences.map((r) => r.uid)).toEqual(['u-other']);
    ctx.respond(gc, 200);
    ctx.respond(gc, 200);
    ctx.drain(gc);
    expect(calls(ctx)).toEqual(['PATCH /apis/apps/v1/namespaces/default/replicasets/web']);
    expect((ctx.calls[0]!.call.body as { metadata: { finalizers: string[] } }).metadata.finalizers).toEqual([]);
    // The orphans are never deleted.
    ctx.respond(gc, 200);
    ctx.remove(gc, 'replicasets', rs('web', 'u-rs'));
    ctx.upsert(gc, 'pods', pod('p1', []));
    ctx.upsert(gc, 'pods', pod('p2', [{ uid: 'u-other', name: 'other' }]));
    ctx.drain(gc);
    expect(ctx.calls).toEqual([]);
  });

  it('an update that moves the owners moves the dependent in the graph; one that moves nothing queues nothing', () => {
    const ctx = new FakeContext();
    const gc = new GarbageCollector();
    const a = rs('a', 'u-a');
    ctx.upsert(gc, 'replicasets', a);
    ctx.upsert(gc, 'replicasets', rs('b', 'u-b'));
    ctx.upsert(gc, 'pods', pod('p', [{ uid: 'u-a', name: 'a' }]));
    ctx.drain(gc);
    // A status write: same owners, both live.
    ctx.upsert(gc, 'pods', pod('p', [{ uid: 'u-a', name: 'a' }], { resourceVersion: '8', labels: { x: 'y' } }));
    expect(gc.queue.len()).toBe(0);
    // Adopted by b: a's deletion no longer concerns it.
    ctx.upsert(gc, 'pods', pod('p', [{ uid: 'u-b', name: 'b' }], { resourceVersion: '9' }));
    ctx.drain(gc);
    ctx.remove(gc, 'replicasets', a);
    ctx.drain(gc);
    expect(ctx.calls).toEqual([]);
    // Pointed at an owner the graph does not know: looked up live.
    ctx.upsert(gc, 'pods', pod('p', [{ uid: 'u-c', name: 'c' }], { resourceVersion: '10' }));
    ctx.drain(gc);
    expect(calls(ctx)).toEqual(['GET /apis/apps/v1/namespaces/default/replicasets/c']);
  });

  it('an owner of an unknown kind is never treated as gone', () => {
    const ctx = new FakeContext();
    const gc = new GarbageCollector();
    ctx.upsert(gc, 'pods', pod('p', [{ uid: 'u-x', kind: 'Widget', apiVersion: 'example.com/v1' }]));
    ctx.drain(gc);
    expect(ctx.calls).toEqual([]);
  });

  it('a clone mid-run continues identically', () => {
    const ctx = new FakeContext();
    const gc = new GarbageCollector();
    const owner = rs('web', 'u-rs');
    ctx.upsert(gc, 'replicasets', owner);
    ctx.upsert(gc, 'pods', pod('p1', [{ uid: 'u-rs' }]));
    ctx.remove(gc, 'replicasets', owner);
    ctx.drain(gc);
    const gc2 = cloneState(gc);
    const ctx2 = new FakeContext();
    for (const [r, m] of ctx.stores) for (const [k, v] of m) (ctx2.store(r) as Map<string, KObject>).set(k, v);
    ctx2.calls.push(...ctx.calls);
    for (const [g, x] of [[gc, ctx], [gc2, ctx2]] as const) {
      x.respond(g, 404);
      x.drain(g);
    }
    expect(calls(ctx2)).toEqual(calls(ctx));
    expect(calls(ctx)).toEqual(['DELETE /api/v1/namespaces/default/pods/p1']);
  });
});
