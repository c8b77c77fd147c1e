// An API server's etcd connections under faults while another API server
// keeps writing. Its etcd watch is a gRPC stream over TCP: a short cut delays
// the events (held and resent, sim/kernel.ts), a longer one is found by the
// keepalive and the watches resume on another member, a member crash resets
// them. In every case the watch cache ends up whole. (Lost events used to
// leave it stale for good.)
import { describe, expect, it } from 'vitest';
import { controlPlane } from '../testing/harness';
import { ADMIN_TOKEN } from './scenario';
import { API_CLIENT_KIND } from '../client/apiClient';
import type { ApiServer } from './apiserver';
import type { EtcdMember } from '../../etcd/server/member';

/** Two API servers; `post` writes a ConfigMap through kube-apiserver-1; `cached` counts those in a server's watch cache. */
function twoApiServers(seed: number) {
  const e = controlPlane(seed, { apiServers: 2 });
  e.sim.spawn('writer', API_CLIENT_KIND, { server: 'kube-apiserver-1', timeoutMs: 60_000 });
  const post = (i: number) =>
    e.exec({ type: 'api', client: 'writer', request: { method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: {}, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } }) } });
  const server = (id: string) => e.sim.actor<ApiServer>(id)!;
  const cached = (id: string) => [...(server(id).caches.get('/configmaps')?.store.keys() ?? [])].filter((k) => k.includes('/cm-')).length;
  /** The member kube-apiserver-0's ConfigMap watch is on, if it is watching. */
  const watchMember = () => {
    const w = server('kube-apiserver-0').cacheWatch.get('/configmaps');
    return w?.state === 'watching' ? w.member : null;
  };
  return { e, post, cached, watchMember };
}

describe('an API server briefly cut off from etcd', () => {
  it('gets the watch events it missed once the cut heals', { timeout: 60_000 }, () => {
    const { e, post, cached } = twoApiServers(5);
    let i = 0;
    for (; i < 10; i++) {
      post(i);
      e.advance(100);
    }
    expect(e.exec({ type: 'fault', fault: { action: 'cut', from: 'kube-apiserver-0', to: 'etcd' } }).ok).toBe(true);
    for (; i < 40; i++) {
      post(i);
      e.advance(100);
    }
    expect(cached('kube-apiserver-1')).toBe(40);
    expect(cached('kube-apiserver-0')).toBe(10);
    expect(e.exec({ type: 'fault', fault: { action: 'heal-all' } }).ok).toBe(true);
    // At the next retransmission (the backoff had reached 1.6 s by then).
    e.advance(2_000);
    expect(cached('kube-apiserver-0')).toBe(40);
    expect(e.sim.trace.records().some((r) => r.kind === 'held' && r.type === 'WatchResponse' && r.to === 'kube-apiserver-0')).toBe(true);
  });
});

describe('an API server cut off from the etcd member its watches are on', () => {
  it('finds the connection dead by its keepalive (30 s idle + 10 s) and resumes the watches on another member', { timeout: 60_000 }, () => {
    const { e, post, cached, watchMember } = twoApiServers(6);
    const member = watchMember()!;
    expect(member).toMatch(/^etcd-\d$/);
    expect(e.exec({ type: 'fault', fault: { action: 'cut', from: 'kube-apiserver-0', to: member } }).ok).toBe(true);
    const cutAt = e.sim.now;
    for (let i = 0; i < 5; i++) {
      post(i);
      e.advance(100);
    }
    expect(cached('kube-apiserver-0')).toBe(0);
    // Nothing read for 30 s, then the PING unanswered for 10 s: closed, the watches go elsewhere.
    let i = 5;
    while (watchMember() === member || watchMember() === null) {
      post(i++);
      e.advance(1000);
      expect(e.sim.now - cutAt).toBeLessThan(50_000);
    }
    expect(e.sim.now - cutAt).toBeGreaterThanOrEqual(30_000);
    // Resumed from the cache's revision: nothing missed, while the cut is still in effect.
    e.advance(2_000);
    expect(cached('kube-apiserver-0')).toBe(i);
    expect(e.sim.trace.records().some((r) => r.kind === 'drop' && r.reason === 'connection-closed' && r.from === 'kube-apiserver-0' && r.to === member)).toBe(true);
  });
});

describe('the etcd member an API server watches on crashes', () => {
  it('the watches resume on another member from the cache revision: nothing written meanwhile is missed', { timeout: 60_000 }, () => {
    const { e, post, cached, watchMember } = twoApiServers(7);
    const member = watchMember()!;
    for (let i = 0; i < 30; i++) {
      if (i === 10) expect(e.exec({ type: 'fault', fault: { action: 'crash', target: member } }).ok).toBe(true);
      post(i);
      e.advance(300);
    }
    e.advance(10_000);
    expect(cached('kube-apiserver-1')).toBeGreaterThan(20);
    expect(cached('kube-apiserver-0')).toBe(cached('kube-apiserver-1'));
  });
});

describe('an etcd watch of the API server that no cache reads', () => {
  it('is cancelled at its first response (clientv3 cancels a watch id it has no substream for)', { timeout: 60_000 }, () => {
    const { e, post, cached } = twoApiServers(8);
    const s = e.sim.actor<ApiServer>('kube-apiserver-0')!;
    const w = s.cacheWatch.get('/configmaps')!;
    const member = w.state === 'watching' ? w.member : 'etcd-0';
    const kv = e.sim.actor<EtcdMember>(member)!.sm.inner.kv;
    const watchers = () => kv.syncedCount() + kv.unsyncedCount();
    const cancels = () => e.sim.trace.records(-1).filter((r) => r.kind === 'deliver' && r.type === 'WatchCancelRequest' && r.from === 'kube-apiserver-0').length;
    const before = watchers();
    // A watch on the ConfigMap prefix that no cache knows of, as a replaced watch or an abandoned create leaves.
    s.etcd.call(e.sim.context('kube-apiserver-0'), 'WatchCreateRequest', { key: '/registry/configmaps/', rangeEnd: '/registry/configmaps0' }, { endpoint: member });
    e.advance(500);
    expect(watchers()).toBe(before + 1);
    expect(cancels()).toBe(0);
    post(0);
    e.advance(1000);
    // Its first event drew the one cancel; the cache's own watch still gets each event.
    expect(cancels()).toBe(1);
    expect(watchers()).toBe(before);
    post(1);
    e.advance(1000);
    expect(cancels()).toBe(1);
    expect(cached('kube-apiserver-0')).toBe(2);
  });
});
