// An API server cut off from etcd for a few seconds while another one keeps
// writing: its etcd watch is a gRPC stream over TCP, so the events it missed
// arrive once the cut heals (held and resent, sim/kernel.ts) and its watch
// cache is whole again, as on a real network. (Lost events used to leave the
// cache stale for good.)
import { describe, expect, it } from 'vitest';
import { controlPlane } from '../testing/harness';
import { ADMIN_TOKEN } from './scenario';
import { API_CLIENT_KIND } from '../client/apiClient';
import type { ApiServer } from './apiserver';

describe('an API server briefly cut off from etcd', () => {
  it('gets the watch events it missed once the cut heals', { timeout: 60_000 }, () => {
    const e = controlPlane(5, { apiServers: 2 });
    e.sim.spawn('writer', API_CLIENT_KIND, { server: 'kube-apiserver-1', timeoutMs: 60_000 });
    const post = (i: number) =>
      e.exec({ type: 'api', client: 'writer', request: { method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: {}, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } }) } });
    const cached = (id: string) => [...(e.sim.actor<ApiServer>(id)!.caches.get('/configmaps')?.store.keys() ?? [])].filter((k) => k.includes('/cm-')).length;
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
    const e = controlPlane(6, { apiServers: 2 });
    e.sim.spawn('writer', API_CLIENT_KIND, { server: 'kube-apiserver-1', timeoutMs: 60_000 });
    const post = (i: number) =>
      e.exec({ type: 'api', client: 'writer', request: { method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: {}, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } }) } });
    const a0 = e.sim.actor<ApiServer>('kube-apiserver-0')!;
    const cached = () => [...(a0.caches.get('/configmaps')?.store.keys() ?? [])].filter((k) => k.includes('/cm-')).length;
    const watchMember = () => {
      const w = a0.cacheWatch.get('/configmaps');
      return w?.state === 'watching' ? w.member : null;
    };
    const member = watchMember()!;
    expect(member).toMatch(/^etcd-\d$/);
    expect(e.exec({ type: 'fault', fault: { action: 'cut', from: 'kube-apiserver-0', to: member } }).ok).toBe(true);
    const cutAt = e.sim.now;
    for (let i = 0; i < 5; i++) {
      post(i);
      e.advance(100);
    }
    expect(cached()).toBe(0);
    // Nothing read for 30 s, then the PING unanswered for 10 s: closed, the watches go elsewhere.
    let i = 5;
    while (watchMember() === member || watchMember() === null) {
      post(i++);
      e.advance(1000);
      expect(e.sim.now - cutAt).toBeLessThan(50_000);
    }
    expect(e.sim.now - cutAt).toBeGreaterThanOrEqual(30_000);
    expect(watchMember()).not.toBe(member);
    // Resumed from the cache's revision: nothing missed, while the cut is still in effect.
    e.advance(2_000);
    expect(cached()).toBe(i);
    expect(e.sim.trace.records().some((r) => r.kind === 'drop' && r.reason === 'connection-closed' && r.from === 'kube-apiserver-0' && r.to === member)).toBe(true);
  });
});

describe('the etcd member an API server watches on crashes', () => {
  it('the watches resume on another member from the cache revision: nothing written meanwhile is missed', { timeout: 60_000 }, () => {
    const e = controlPlane(7, { apiServers: 2 });
    e.sim.spawn('writer', API_CLIENT_KIND, { server: 'kube-apiserver-1', timeoutMs: 60_000 });
    const post = (i: number) =>
      e.exec({ type: 'api', client: 'writer', request: { method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: {}, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } }) } });
    const a0 = e.sim.actor<ApiServer>('kube-apiserver-0')!;
    const cached = () => [...(a0.caches.get('/configmaps')?.store.keys() ?? [])].filter((k) => k.includes('/cm-')).length;
    const w = a0.cacheWatch.get('/configmaps')!;
    const member = w.state === 'watching' ? w.member : '';
    for (let i = 0; i < 30; i++) {
      if (i === 10) expect(e.exec({ type: 'fault', fault: { action: 'crash', target: member } }).ok).toBe(true);
      post(i);
      e.advance(300);
    }
    e.advance(10_000);
    const created = (e.sim.actor<ApiServer>('kube-apiserver-1')!.caches.get('/configmaps')?.store.size ?? 0) > 0;
    expect(created).toBe(true);
    const a1 = [...e.sim.actor<ApiServer>('kube-apiserver-1')!.caches.get('/configmaps')!.store.keys()].filter((k) => k.includes('/cm-')).length;
    expect(a1).toBeGreaterThan(20);
    expect(cached()).toBe(a1);
  });
});
