// Snapshots (replicated state only) and cloneState (everything, mid-run).
import { describe, expect, it } from 'vitest';
import { isEtcdError } from '../api/errors';
import type { InternalRaftRequest } from '../api/rpc';
import { cloneState } from '../../sim/serial';
import { EtcdStateMachine } from './applier';
import { must, TestMember } from './testkit';

describe('snapshot / restore', () => {
  it('carries KV history, compaction and leases; leases come back forever and re-attached', () => {
    const m = new TestMember();
    m.sm.promote(0, 1000);
    m.ok({ leaseGrant: { ID: 11, TTL: 1 } }); // raised to 2
    m.put('a', '1', { lease: 11 });
    m.put('b', '\x00\xff\n"');
    m.put('a', '2', { lease: 11 });
    m.ok({ compaction: { revision: 3 } });
    const data = m.sm.snapshot();
    expect(data).toMatchObject({ currentRev: 4, compactRev: 3, leases: [[11, 2]] });
    const r = EtcdStateMachine.restore(data, { clusterId: 100, memberId: 9 });
    expect(r.currentRevision()).toBe(4);
    expect(r.compactRevision()).toBe(3);
    expect(r.hash()).toEqual(m.sm.hash());
    expect(must(r.read({ key: 'b' })).kvs[0]!.value).toBe('\x00\xff\n"');
    expect(must(r.read({ key: 'a', revision: 3 })).kvs[0]!.value).toBe('1');
    expect(r.lessor.lookup(11)!.keys()).toEqual(['a']);
    expect(r.lessor.isPrimary()).toBe(false);
    expect(r.expiredLeases(1e12)).toEqual([]);
    // revoking on the restored member deletes the re-attached key
    r.apply({ header: { id: 1 }, leaseRevoke: { ID: 11 } }, 1, 0);
    expect(must(r.read({ key: 'a' })).count).toBe(0);
    // The snapshot is the key bucket as it was: later writes on either member do not reach it.
    const held = data.records.length;
    m.put('c', 'later');
    expect(data.records.length).toBe(held);
    expect(EtcdStateMachine.restore(data, { clusterId: 100, memberId: 8 }).currentRevision()).toBe(4);
  });
});

describe('cloneState', () => {
  it('a clone taken mid-run continues exactly like the original', () => {
    const m = new TestMember();
    m.sm.promote(0, 1000);
    m.ok({ leaseGrant: { ID: 1, TTL: 5 } });
    m.put('/registry/pods/a', 'x', { lease: 1 });
    m.sm.watch('apiserver', { key: '/registry/', rangeEnd: '/registry0', prevKv: true, progressNotify: true });
    m.sm.watch('apiserver', { key: '/registry/pods/a', startRevision: 1 }); // unsynced
    m.sm.takeWatchResponses();

    const twin = cloneState(m.sm);
    expect(twin).not.toBe(m.sm);
    expect(twin).toBeInstanceOf(EtcdStateMachine);

    const script: Array<(sm: EtcdStateMachine, i: number) => unknown> = [
      (sm, i) => sm.apply(req(i, { put: { key: '/registry/pods/b', value: 'y' } }), 2, 1000),
      (sm) => sm.syncWatchers(),
      (sm) => sm.leaseKeepAlive({ ID: 1 }, 4000), // expiry 4000 + 5000
      (sm) => sm.expiredLeases(8999),
      (sm) => sm.expiredLeases(9000),
      (sm, i) => sm.apply(req(i, { leaseRevoke: { ID: 1 } }), 2, 9000),
      (sm, i) => sm.apply(req(i, { txn: { success: [{ requestDeleteRange: { key: '/registry/', rangeEnd: '/registry0', prevKv: true } }] } }), 2, 9100),
      (sm) => sm.progressNotifyTick('apiserver'),
      (sm) => sm.read({ key: '/registry/', rangeEnd: '/registry0', revision: 2 }),
      (sm) => sm.hash(),
      (sm) => sm.snapshot(),
    ];
    const run = (sm: EtcdStateMachine) =>
      script.map((f, i) => JSON.stringify({ out: f(sm, i), watch: sm.takeWatchResponses() }));
    const a = run(m.sm);
    const b = run(twin);
    expect(b).toEqual(a);
    expect(a[4]).toContain('"out":[1]'); // the lease expired at 9000 on both
    expect(a.some((line) => line.includes('"type":"DELETE"'))).toBe(true);
  });

  it('keeps the store usable after a round trip through plain data', () => {
    const m = new TestMember();
    for (let i = 0; i < 300; i++) m.put(`k${i % 37}`, String(i));
    m.ok({ compaction: { revision: 150 } });
    const twin = cloneState(m.sm);
    for (const sm of [m.sm, twin]) {
      const r = sm.apply(req(1, { put: { key: 'k5', value: 'z' } }), 1, 0).response;
      expect(isEtcdError(r)).toBe(false);
    }
    expect(twin.read({ key: 'k', rangeEnd: 'l' }, 1)).toEqual(m.sm.read({ key: 'k', rangeEnd: 'l' }, 1));
    expect(twin.hash()).toEqual(m.sm.hash());
  });
});

function req(id: number, body: Omit<InternalRaftRequest, 'header'>): InternalRaftRequest {
  return { header: { id }, ...body };
}
