// Leases (server/lease/lessor_test.go semantics) through the state machine.
import { describe, expect, it } from 'vitest';
import { ErrLeaseExist, ErrLeaseNotFound, ErrLeaseTTLTooLarge, httpStatusOf } from '../api/errors';
import { minLeaseTTLSeconds } from '../api/limits';
import type { LeaseGrantResponse, LeaseTimeToLiveResponse } from '../api/rpc';
import { must, TestMember } from '../mvcc/testkit';
import { Lessor } from './lessor';

describe('grant', () => {
  it('raises TTLs to the minimum (2 s with 100 ms ticks and 10-tick elections)', () => {
    expect(minLeaseTTLSeconds()).toBe(2);
    expect(minLeaseTTLSeconds(50, 100)).toBe(8);
    const m = new TestMember();
    const r = m.ok<LeaseGrantResponse>({ leaseGrant: { ID: 1, TTL: 1 } });
    expect(r).toMatchObject({ ID: 1, TTL: 2, error: '' });
    expect(r.header.revision).toBe(1); // a grant is not a KV write
    expect(m.ok<LeaseGrantResponse>({ leaseGrant: { ID: 2, TTL: 60 } }).TTL).toBe(60);
  });

  it('rejects existing ids, id 0 and huge TTLs', () => {
    const m = new TestMember();
    m.ok({ leaseGrant: { ID: 1, TTL: 10 } });
    expect(m.apply({ leaseGrant: { ID: 1, TTL: 10 } })).toBe(ErrLeaseExist);
    expect(httpStatusOf(ErrLeaseExist)).toBe(400);
    expect(m.apply({ leaseGrant: { ID: 0, TTL: 10 } })).toBe(ErrLeaseNotFound);
    expect(m.apply({ leaseGrant: { ID: 3, TTL: 9000000001 } })).toBe(ErrLeaseTTLTooLarge);
    expect(ErrLeaseTTLTooLarge.message).toBe('etcdserver: too large lease TTL');
  });
});

describe('attach and detach', () => {
  it('follows puts and deletes', () => {
    const m = new TestMember();
    m.ok({ leaseGrant: { ID: 1, TTL: 10 } });
    m.ok({ leaseGrant: { ID: 2, TTL: 10 } });
    m.put('a', '1', { lease: 1 });
    m.put('b', '1', { lease: 1 });
    m.put('c', '1', { lease: 1 });
    m.put('b', '2', { lease: 2 }); // moves to lease 2
    m.put('c', '2'); // detached
    expect(m.sm.lessor.lookup(1)!.keys()).toEqual(['a']);
    expect(m.sm.lessor.lookup(2)!.keys()).toEqual(['b']);
    m.ok({ deleteRange: { key: 'b' } });
    expect(m.sm.lessor.lookup(2)!.keys()).toEqual([]);
    const ttl = m.sm.leaseTimeToLive({ ID: 1, keys: true }, 0, true) as LeaseTimeToLiveResponse;
    expect(ttl.keys).toEqual(['a']);
    expect(ttl.grantedTTL).toBe(10);
  });
});

describe('revoke', () => {
  it('deletes every attached key in one revision', () => {
    const m = new TestMember();
    m.ok({ leaseGrant: { ID: 7, TTL: 10 } });
    m.put('x', '1', { lease: 7 }); // 2
    m.put('y', '1', { lease: 7 }); // 3
    m.put('z', '1'); // 4
    const res = m.applyFull({ leaseRevoke: { ID: 7 } });
    expect(res.response).toMatchObject({ header: { revision: 5 } });
    expect(res.events.map((e) => `${e.type} ${e.kv.key}@${e.kv.modRevision}`)).toEqual(['DELETE x@5', 'DELETE y@5']);
    expect(must(m.sm.read({ key: 'a', rangeEnd: '\0' })).kvs.map((kv) => kv.key)).toEqual(['z']);
    expect(m.sm.lessor.lookup(7)).toBeUndefined();
    expect(m.apply({ leaseRevoke: { ID: 7 } })).toBe(ErrLeaseNotFound);
  });

  it('a lease without keys revokes without a new revision', () => {
    const m = new TestMember();
    m.ok({ leaseGrant: { ID: 7, TTL: 10 } });
    expect(m.applyFull({ leaseRevoke: { ID: 7 } })).toEqual({
      response: { header: { clusterId: 100, memberId: 7, revision: 1, raftTerm: 1 } },
      events: [],
    });
  });
});

describe('expiry (leader only)', () => {
  it('followers never expire leases; the promoted leader does, after extend + TTL', () => {
    const m = new TestMember();
    m.now = 1000;
    m.ok({ leaseGrant: { ID: 1, TTL: 5 } });
    expect(m.sm.expiredLeases(1_000_000)).toEqual([]); // not primary: forever
    m.sm.promote(2000, 1000); // expiry = 2000 + 1000 + 5000
    expect(m.sm.expiredLeases(7999)).toEqual([]);
    expect(m.sm.expiredLeases(8000)).toEqual([1]);
    expect(m.sm.expiredLeases(8500)).toEqual([]); // reported; retried after 3 s
    expect(m.sm.expiredLeases(11000)).toEqual([1]);
    m.sm.demote();
    expect(m.sm.expiredLeases(50_000)).toEqual([]);
  });

  it('a grant on the leader starts its clock at once', () => {
    const m = new TestMember();
    m.sm.promote(0, 1000);
    m.now = 500;
    m.ok({ leaseGrant: { ID: 3, TTL: 2 } });
    expect(m.sm.expiredLeases(2499)).toEqual([]);
    expect(m.sm.expiredLeases(2500)).toEqual([3]);
  });

  it('keepalive renews on the leader, is forwarded by followers', () => {
    const m = new TestMember();
    m.ok({ leaseGrant: { ID: 1, TTL: 10 } });
    expect(m.sm.leaseKeepAlive({ ID: 1 }, 0)).toEqual({ type: 'NotPrimary' });
    m.sm.promote(0, 0);
    expect(m.sm.leaseKeepAlive({ ID: 1 }, 9000)).toMatchObject({ ID: 1, TTL: 10 });
    expect(m.sm.expiredLeases(18_999)).toEqual([]);
    expect(m.sm.expiredLeases(19_000)).toEqual([1]);
    expect(m.sm.leaseKeepAlive({ ID: 1 }, 19_000)).toEqual({ type: 'Expired' });
    expect(m.sm.leaseKeepAlive({ ID: 99 }, 19_000)).toMatchObject({ ID: 99, TTL: 0 });
  });

  it('time-to-live truncates to seconds; -1 for unknown leases; followers forward', () => {
    const m = new TestMember();
    m.ok({ leaseGrant: { ID: 1, TTL: 10 } });
    expect(m.sm.leaseTimeToLive({ ID: 1 }, 0, false)).toEqual({ type: 'NotLeader' });
    expect(m.sm.leaseTimeToLive({ ID: 1 }, 0, true)).toMatchObject({ TTL: 9223372036 }); // leader, not yet promoted
    m.sm.promote(0, 1000);
    expect(m.sm.leaseTimeToLive({ ID: 1 }, 1500, true)).toMatchObject({ ID: 1, TTL: 9, grantedTTL: 10, keys: [] });
    expect(m.sm.leaseTimeToLive({ ID: 5 }, 1500, true)).toMatchObject({ ID: 5, TTL: -1, grantedTTL: 0 });
  });

  it('promote spreads the expiries of many leases (at most 750 per second)', () => {
    const l = new Lessor();
    for (let id = 1; id <= 3000; id++) l.grant(id, 10, 0);
    l.promote(0, 1000);
    const perSecond = new Map<number, number>();
    for (const lease of l.leases()) {
      const s = Math.floor(l.remainingMs(lease.ID, 0) / 1000);
      perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
    }
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(751);
    expect(Math.min(...l.leases().map((x) => l.remainingMs(x.ID, 0)))).toBe(11_000);
    expect(l.expiredLeases(11_000).length).toBeGreaterThan(0);
    expect(l.expiredLeases(60_000).length).toBeLessThanOrEqual(500); // leaseRevokeRate / 2 per look
  });

  it('leases() lists every lease, by expiry', () => {
    const m = new TestMember();
    m.ok({ leaseGrant: { ID: 5, TTL: 30 } });
    m.ok({ leaseGrant: { ID: 3, TTL: 60 } });
    m.ok({ leaseGrant: { ID: 4, TTL: 10 } });
    expect(m.sm.leaseLeases().leases).toEqual([{ ID: 3 }, { ID: 4 }, { ID: 5 }]);
    m.sm.promote(0, 0);
    expect(m.sm.leaseLeases().leases).toEqual([{ ID: 4 }, { ID: 5 }, { ID: 3 }]);
  });

  it('checkpoints shorten the TTL a new leader starts from', () => {
    const m = new TestMember();
    m.ok({ leaseGrant: { ID: 1, TTL: 100 } });
    m.ok({ leaseCheckpoint: { checkpoints: [{ ID: 1, remainingTTL: 30 }] } });
    m.sm.promote(0, 1000);
    expect(m.sm.lessor.remainingMs(1, 0)).toBe(31_000);
  });
});
