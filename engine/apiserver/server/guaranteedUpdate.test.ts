// Updates start from the watch cache's copy of the object, as the cacher's
// GuaranteedUpdate passes it down to the etcd3 store; a failure or no-op computed
// on a stale copy is checked against etcd before it is answered.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../testing/harness';
import type { ApiServer } from './apiserver';
import type { Engine } from '../../facade/engine';

const CM = '/api/v1/namespaces/default/configmaps';

function storageStages(e: Engine, sinceId: number, path: string): string[] {
  const rec = e.requests(sinceId).find((r) => r.path === path && r.method !== 'GET');
  return (rec?.stages ?? []).filter((s) => s.kind === 'storage').map((s) => `${s.name}: ${(s.message ?? '').replace(/ \/registry.*/, '')}`);
}

/** Makes kube-apiserver-0's cache hold an older copy of a key, as a cache behind etcd's watch would. */
function makeStale(e: Engine, key: string, obj: unknown): void {
  e.sim.actor<ApiServer>('kube-apiserver-0')!.caches.get('/configmaps')!.store.set(key, obj as never);
}

describe('GuaranteedUpdate from the watch cache', () => {
  it('writes an update with one etcd transaction and no read', () => {
    const e = controlPlane(41);
    expect(call(e, 'POST', CM, { metadata: { name: 'a' }, data: { k: '1' } }).status).toBe(201);
    e.advance(100);
    const since = e.requests(0, 1)[0]!.id;
    const r = call(e, 'PATCH', `${CM}/a`, { data: { k: '2' } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ k: '2' });
    expect(storageStages(e, since, `${CM}/a`)).toEqual(['watch cache: get', 'etcd: TxnRequest']);
  });

  it('retries on the fresh object when the cached copy is stale, and answers a conflict only if etcd agrees', () => {
    const e = controlPlane(42);
    const created = call(e, 'POST', CM, { metadata: { name: 'b' }, data: { k: '1' } }).body;
    e.advance(100);
    const fresh = call(e, 'PUT', `${CM}/b`, { ...created, data: { k: '2' } }).body;
    e.advance(100);
    // The cache still holds the first version: a PUT with the current resourceVersion looks like a conflict there.
    makeStale(e, '/registry/configmaps/default/b', created);
    let since = e.requests(0, 1)[0]!.id;
    const ok = call(e, 'PUT', `${CM}/b`, { ...fresh, data: { k: '3' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ k: '3' });
    expect(storageStages(e, since, `${CM}/b`)).toEqual(['watch cache: get', 'etcd: RangeRequest', 'etcd: TxnRequest']);
    e.advance(100);
    // A resourceVersion that is old in etcd too: 409 after the check.
    since = e.requests(0, 1)[0]!.id;
    const conflict = call(e, 'PUT', `${CM}/b`, { ...fresh, data: { k: '4' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.reason).toBe('Conflict');
    expect(storageStages(e, since, `${CM}/b`)).toEqual(['watch cache: get', 'etcd: RangeRequest']);
    expect(call(e, 'GET', `${CM}/b`).body.data).toEqual({ k: '3' });
  });

  it('checks a no-op against etcd: a stale copy equal to the update does not hide a newer object', () => {
    const e = controlPlane(43);
    const created = call(e, 'POST', CM, { metadata: { name: 'c' }, data: { k: '1' } }).body;
    e.advance(100);
    call(e, 'PUT', `${CM}/c`, { ...created, data: { k: '2' } });
    e.advance(100);
    makeStale(e, '/registry/configmaps/default/c', created);
    // Patching k back to 1 is a no-op on the stale copy but a change in etcd.
    const r = call(e, 'PATCH', `${CM}/c`, { data: { k: '1' } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ k: '1' });
    expect(Number(r.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion) + 1);
  });

  it('an unconditional update that meets a newer object in etcd is retried from its body, with its warnings once', () => {
    const e = controlPlane(44);
    const created = call(e, 'POST', CM, { metadata: { name: 'd' }, data: { k: '1' } }).body;
    e.advance(100);
    call(e, 'PUT', `${CM}/d`, { ...created, data: { k: '2' } });
    e.advance(100);
    makeStale(e, '/registry/configmaps/default/d', created);
    const since = e.requests(0, 1)[0]!.id;
    // No resourceVersion: the write on the stale copy fails its compare in etcd, and the update is computed again.
    const r = call(e, 'PUT', `${CM}/d`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd', labels: { l: 'x' } }, data: { k: '3' }, bogus: 1 });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ k: '3' });
    expect(r.body.metadata.labels).toEqual({ l: 'x' });
    expect(storageStages(e, since, `${CM}/d`)).toEqual(['watch cache: get', 'etcd: TxnRequest', 'etcd: TxnRequest']);
    expect(r.headers['warning']?.split('\n')).toEqual(['299 - "unknown field \\"bogus\\""']);
    expect(call(e, 'GET', `${CM}/d`).body.data).toEqual({ k: '3' });
  });
});
