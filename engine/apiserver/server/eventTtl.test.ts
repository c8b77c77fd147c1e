// kube-apiserver --event-ttl (1 h): events are written with an etcd lease,
// shared by the writes of a 60 s window (storage/etcd3 leaseManager), so an
// event lives at least an hour and at most an hour and a minute.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../testing/harness';
import type { ApiServer } from './apiserver';
import { LeaseManager } from './leaseManager';

const EV = '/api/v1/namespaces/default/events';
const event = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'p', uid: 'u' },
  reason: 'Test',
  message: name,
  type: 'Normal',
  source: { component: 'test' },
});

describe('event TTL', () => {
  it('reuses one lease for the writes of a window, each lease TTL + 60 s', () => {
    const m = new LeaseManager();
    expect(LeaseManager.grantTtl(3600)).toBe(3660);
    expect(LeaseManager.reuseSeconds(600)).toBe(30); // 5% of a short TTL
    expect(m.reuse(0, 3600)).toBeNull();
    m.onGranted(7, 3660, 0, 1);
    expect(m.reuse(30_000, 3600)).toBe(7);
    expect(m.reuse(59_999, 3600)).toBe(7);
    // Past the window the lease would die before the new object's hour is up.
    expect(m.reuse(60_000, 3600)).toBeNull();
  });

  it('events disappear an hour after their last write; a window shares one lease', { timeout: 120_000 }, () => {
    const e = controlPlane(3, { etcdMembers: 1, schedulers: 0, storageDriver: false, metricsServer: false });
    const api = e.sim.actor<ApiServer>('kube-apiserver-0')!;
    // Past the window of the events the start-up wrote (leader elections).
    e.advance(120_000);
    const grantedBefore = api.leases.granted;
    const t0 = e.sim.now;
    expect(call(e, 'POST', EV, event('a')).status).toBe(201);
    const afterA = api.leases.granted;
    expect(afterA).toBeGreaterThan(grantedBefore);
    e.advance(30_000);
    expect(call(e, 'POST', EV, event('b')).status).toBe(201);
    expect(api.leases.granted).toBe(afterA); // the same lease
    e.advance(60_000);
    expect(call(e, 'POST', EV, event('c')).status).toBe(201);
    const tc = e.sim.now;
    expect(api.leases.granted).toBeGreaterThan(afterA); // a new window
    const has = (n: string) => call(e, 'GET', `${EV}/${n}`).status === 200;
    e.advance(t0 + 3_599_000 - e.sim.now);
    expect([has('a'), has('b'), has('c')]).toEqual([true, true, true]);
    // a and b share a's lease: 3,660 s from its grant (the lessor checks every 500 ms).
    e.advance(t0 + 3_662_000 - e.sim.now);
    expect([has('a'), has('b'), has('c')]).toEqual([false, false, true]);
    // An update renews: c's count patch puts it on the current lease.
    expect(call(e, 'PATCH', `${EV}/c`, { count: 2 }, { headers: { 'content-type': 'application/merge-patch+json' } }).status).toBe(200);
    const tUpdate = e.sim.now;
    e.advance(tc + 3_662_000 - e.sim.now);
    expect(has('c')).toBe(true);
    e.advance(tUpdate + 3_662_000 - e.sim.now);
    expect(has('c')).toBe(false);
    // Gone from lists and from etcd alike.
    expect((call(e, 'GET', EV).body.items as any[]).filter((x) => ['a', 'b', 'c'].includes(x.metadata.name))).toEqual([]);
  });
});
