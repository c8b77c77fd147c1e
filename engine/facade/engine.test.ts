import { describe, expect, it } from 'vitest';
import { Engine, KV_VIEW_LIMIT } from './engine';
import type { EngineOptions, EtcdOp, EtcdOpResult } from './types';
import type { CallRecord } from '../etcd/client/client';

function boot(opts: Partial<EngineOptions> = {}): Engine {
  const e = Engine.create({ seed: 1, etcdMembers: 3, ...opts });
  e.advance(3000);
  return e;
}

/** Runs an etcdOp to completion (or the deadline) and returns its result. */
function op(e: Engine, o: EtcdOp, maxMs = 15_000): EtcdOpResult {
  const r = e.exec({ type: 'etcdOp', op: o });
  if (!r.ok) throw new Error(r.error);
  const id = r.result as number;
  for (let t = 0; t < maxMs && !e.opResult(id)?.doneAt; t += 10) e.advance(10);
  return e.opResult(id)!;
}

/** A raw request pinned to one member; runs until answered. */
function raw(e: Engine, type: string, body: unknown, endpoint?: string, maxMs = 15_000): CallRecord {
  const r = e.exec({ type: 'etcd', request: { type, body, endpoint } });
  if (!r.ok) throw new Error(r.error);
  const id = r.result as number;
  for (let t = 0; t < maxMs && !e.call(id)?.outcome; t += 10) e.advance(10);
  return e.call(id)!;
}

const leaders = (e: Engine) => e.etcdView().members.filter((m) => m.role === 'leader');

describe('etcd cluster through the engine facade', () => {
  it.each([1, 3, 5])('elects exactly one leader with %i member(s)', (n) => {
    const e = boot({ etcdMembers: n });
    expect(leaders(e)).toHaveLength(1);
    const l = leaders(e)[0]!;
    for (const m of e.etcdView().members) {
      expect(m.term).toBe(l.term);
      expect(m.leader).toBe(l.name);
    }
  });

  it('writes a key, reads it linearizably and serializably, with etcd revisions', () => {
    const e = boot();
    const put = op(e, { op: 'put', key: 'foo', value: 'bar' });
    expect(put.text).toBe('OK');
    expect((put.response as { header: { revision: number } }).header.revision).toBe(2);
    const get = op(e, { op: 'get', key: 'foo' });
    expect(get.text).toBe('foo\nbar');
    const kv = (get.response as { kvs: { createRevision: number; modRevision: number; version: number }[] }).kvs[0]!;
    expect(kv).toMatchObject({ createRevision: 2, modRevision: 2, version: 1 });
    const put2 = op(e, { op: 'put', key: 'foo', value: 'baz', prevKv: true });
    expect(put2.text).toBe('OK\nfoo\nbar');
    const ser = op(e, { op: 'get', key: 'foo', serializable: true });
    expect(ser.text).toBe('foo\nbaz');
    // every member applies the same revision
    e.advance(500);
    expect(new Set(e.etcdView().members.map((m) => m.revision))).toEqual(new Set([3]));
  });

  it('elects a new leader with a higher term when the leader crashes, and the old one rejoins', () => {
    const e = boot();
    const old = leaders(e)[0]!;
    op(e, { op: 'put', key: 'a', value: '1' });
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: old.name } }).ok).toBe(true);
    e.advance(5000);
    const now = leaders(e);
    expect(now).toHaveLength(1);
    expect(now[0]!.name).not.toBe(old.name);
    expect(now[0]!.term).toBeGreaterThan(old.term);
    expect(op(e, { op: 'put', key: 'a', value: '2' }).ok).toBe(true);
    e.exec({ type: 'fault', fault: { action: 'restart', target: old.name } });
    e.advance(3000);
    const back = e.etcdView().members.find((m) => m.name === old.name)!;
    expect(back.role).toBe('follower');
    expect(back.term).toBe(now[0]!.term);
    expect(back.appliedIndex).toBe(leaders(e)[0]!.commitIndex);
    expect(op(e, { op: 'get', key: 'a', serializable: true }).text).toBe('a\n2');
  });

  it('a partitioned minority cannot commit while the majority does; after heal it catches up', () => {
    const e = boot({ etcdMembers: 5 });
    const lead = leaders(e)[0]!.name;
    const names = e.memberNames();
    const minority = names.filter((n) => n !== lead).slice(0, 2);
    const majority = names.filter((n) => !minority.includes(n));
    e.exec({ type: 'fault', fault: { action: 'partition', groups: [minority, majority] } });
    e.advance(3000);
    const stuck = raw(e, 'PutRequest', { key: 'x', value: 'minority' }, minority[0], 9000);
    expect(stuck.outcome?.status).not.toBe('ok');
    const ok = raw(e, 'PutRequest', { key: 'x', value: 'majority' }, majority[0]);
    expect(ok.outcome?.status).toBe('ok');
    const v = e.etcdView();
    const majorityCommit = v.members.find((m) => m.name === lead)!.commitIndex;
    for (const m of v.members.filter((x) => minority.includes(x.name))) expect(m.commitIndex).toBeLessThan(majorityCommit);
    e.exec({ type: 'fault', fault: { action: 'heal' } });
    e.advance(5000);
    const after = e.etcdView().members;
    const last = new Set(after.map((m) => `${m.lastLogIndex}/${m.commitIndex}/${m.revision}`));
    expect(last.size).toBe(1);
    // Pre-vote kept the minority from disrupting the term while partitioned.
    expect(after.find((m) => m.name === lead)!.role).toBe('leader');
  });

  it('a follower far behind catches up by snapshot', () => {
    const e = boot({ snapshotCount: 20, snapshotCatchUpEntries: 5 });
    const lead = leaders(e)[0]!.name;
    const lagging = e.memberNames().find((n) => n !== lead)!;
    e.exec({ type: 'fault', fault: { action: 'crash', target: lagging } });
    for (let i = 0; i < 60; i++) op(e, { op: 'put', key: `k${i}`, value: `v${i}` });
    const since = e.state().events;
    e.exec({ type: 'fault', fault: { action: 'restart', target: lagging } });
    e.advance(3000);
    expect(e.trace(-1, 100_000).some((r) => r.type === 'MsgSnap' && r.to === lagging && r.kind === 'deliver')).toBe(true);
    const m = e.etcdView().members.find((x) => x.name === lagging)!;
    expect(m.snapshotIndex).toBeGreaterThan(0);
    expect(m.revision).toBe(e.etcdView().kv.revision);
    expect(since).toBeGreaterThan(0);
  });

  it('a snapshot whose answers are lost is reported failed after 5 s and sent again: the follower still catches up', () => {
    const e = boot({ snapshotCount: 20, snapshotCatchUpEntries: 5 });
    const lead = leaders(e)[0]!.name;
    const lagging = e.memberNames().find((n) => n !== lead)!;
    e.exec({ type: 'fault', fault: { action: 'crash', target: lagging } });
    for (let i = 0; i < 60; i++) op(e, { op: 'put', key: `k${i}`, value: `v${i}` });
    e.exec({ type: 'fault', fault: { action: 'restart', target: lagging } });
    const delivered = () => e.trace(-1, 100_000).some((r) => r.type === 'MsgSnap' && r.to === lagging && r.kind === 'deliver');
    for (let t = 0; t < 10_000 && !delivered(); t++) e.advance(1);
    expect(delivered()).toBe(true);
    // Everything the follower says back (the POST's answer, its MsgAppResp) is lost while the
    // cluster writes on and compacts past that snapshot: the follower needs another one.
    e.exec({ type: 'fault', fault: { action: 'block', from: lagging, to: lead } });
    for (let i = 0; i < 60; i++) op(e, { op: 'put', key: `m${i}`, value: `v${i}` });
    e.exec({ type: 'fault', fault: { action: 'heal-all' } });
    e.advance(10_000);
    const view = e.etcdView();
    expect(view.members.find((x) => x.name === lagging)!.revision).toBe(view.kv.revision);
    expect(e.trace(-1, 100_000).some((r) => r.type === 'RaftSnapshotResponse' && r.from === lagging && r.kind === 'drop')).toBe(true);
  });

  it('keeps committing with a slow disk on one follower, which lags behind', () => {
    const e = boot();
    const slow = e.memberNames().find((n) => n !== e.leader())!;
    e.exec({ type: 'fault', fault: { action: 'slow-disk', target: slow, fsyncMs: 400 } });
    const started = e.state().virtualTime;
    for (let i = 0; i < 5; i++) expect(op(e, { op: 'put', key: 'k', value: String(i) }).ok).toBe(true);
    expect(e.state().virtualTime - started).toBeLessThan(1000);
    expect(e.memberView(slow).fsyncMs).toBe(400);
  });

  it('expires a lease without keepalives and deletes its keys; keepalive keeps it', () => {
    const e = boot();
    const g = op(e, { op: 'leaseGrant', ttl: 5, id: 0x1234 });
    expect(g.text).toBe('lease 1234 granted with TTL(5s)');
    op(e, { op: 'put', key: 'owned', value: 'x', lease: 0x1234 });
    for (let i = 0; i < 4; i++) {
      e.advance(2000);
      expect(op(e, { op: 'leaseKeepAlive', id: 0x1234 }).text).toBe('lease 1234 keepalived with TTL(5)');
    }
    expect(op(e, { op: 'get', key: 'owned' }).text).toBe('owned\nx');
    e.advance(8000);
    expect(op(e, { op: 'get', key: 'owned' }).text).toBe('');
    expect(op(e, { op: 'leaseKeepAlive', id: 0x1234 }).text).toBe('lease 1234 expired or revoked.');
  });

  it('delivers watch events with prev_kv', () => {
    const e = boot();
    expect(e.exec({ type: 'watch', key: '/app/', prefix: true, prevKv: true }).ok).toBe(true);
    e.advance(100);
    op(e, { op: 'put', key: '/app/a', value: '1' });
    op(e, { op: 'put', key: '/app/a', value: '2' });
    op(e, { op: 'delete', key: '/app/a' });
    op(e, { op: 'put', key: '/other', value: 'x' });
    e.advance(200);
    const [w] = e.watches();
    expect(w!.events.map((ev) => `${ev.type} ${ev.key}=${ev.value} prev=${ev.prevValue ?? '-'} @${ev.revision}`)).toEqual([
      'PUT /app/a=1 prev=- @2',
      'PUT /app/a=2 prev=1 @3',
      'DELETE /app/a= prev=2 @4',
    ]);
  });

  it('a crashed member resets its connections: the client fails over and its watch stream ends', () => {
    const e = boot();
    const lead = e.leader()!;
    e.exec({ type: 'watch', key: 'w', prevKv: true });
    e.advance(100);
    // A read in flight to the crashing leader is retried on another member at once.
    const r = e.exec({ type: 'etcd', request: { type: 'RangeRequest', body: { key: 'w' } } });
    e.exec({ type: 'fault', fault: { action: 'crash', target: lead } });
    const id = (r as { result: number }).result;
    for (let i = 0; i < 400 && !e.call(id)?.outcome; i++) e.advance(10);
    expect(e.call(id)?.outcome?.status).toBe('ok');
    expect(e.call(id)!.doneAt! - e.call(id)!.issuedAt).toBeLessThan(5000);
    expect(e.watches()[0]!.canceled).toBe('transport is closing');
    expect(e.trace(-1, 100_000).some((t) => t.reason === 'connection-reset' && t.from === lead)).toBe(true);
  });

  it('generates client load inside the simulation and counts its outcomes', () => {
    const e = boot({ etcdMembers: 5 });
    expect(e.exec({ type: 'load', rate: -5 }).ok).toBe(false);
    expect(e.exec({ type: 'load', rate: 200, keySpace: 10, valueSize: 16 }).ok).toBe(true);
    e.advance(2000);
    const s = e.loadStats()!;
    expect(s.issued).toBeGreaterThanOrEqual(399);
    expect(s.succeeded).toBeGreaterThanOrEqual(390);
    expect(s.failed).toBe(0);
    expect(e.etcdView().kv.keys.filter((k) => k.key.startsWith('/benchmark/'))).toHaveLength(10);
    expect(e.exec({ type: 'load', rate: 0 }).ok).toBe(true);
    expect(e.etcdView().kv.total).toBe(10);
    const stopped = e.loadStats()!.issued;
    e.advance(1000);
    expect(e.loadStats()!.issued).toBe(stopped);
    expect(e.client('etcd-benchmark-0').calls.size).toBe(0); // counted, not kept
  });

  it('transfers leadership on request', () => {
    const e = boot();
    const target = e.memberNames().find((n) => n !== e.leader())!;
    const r = op(e, { op: 'transferLeader', to: target });
    expect(r.ok).toBe(true);
    e.advance(1000);
    expect(e.leader()).toBe(target);
  });

  it('answers errors as etcd does', () => {
    const e = boot();
    const big = raw(e, 'PutRequest', { key: 'big', value: 'x'.repeat(2 * 1024 * 1024) });
    expect(big.outcome).toMatchObject({ status: 'error', error: { message: 'etcdserver: request is too large' } });
    op(e, { op: 'put', key: 'a', value: '1' });
    op(e, { op: 'put', key: 'a', value: '2' });
    expect(op(e, { op: 'compact', revision: 3 }).text).toBe('compacted revision 3');
    expect(op(e, { op: 'get', key: 'a', revision: 2 }).text).toBe('Error: etcdserver: mvcc: required revision has been compacted');
    expect(op(e, { op: 'get', key: 'a', revision: 99 }).text).toBe('Error: etcdserver: mvcc: required revision is a future revision');
    expect(op(e, { op: 'leaseRevoke', id: 0x999 }).text).toBe('Error: etcdserver: requested lease not found');
    const twoOps = raw(e, 'TxnRequest', { success: [{ requestPut: { key: 'a', value: 'x' }, requestRange: { key: 'a' } }] });
    expect(twoOps.outcome).toMatchObject({ status: 'error', error: { code: 'InvalidArgument' } });
  });

  it('rejects bad commands with a clear error and records nothing', () => {
    const e = boot();
    const before = e.commands().length;
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'etcd-9' } })).toEqual({ ok: false, error: 'no component named "etcd-9"' });
    expect(e.exec({ type: 'fault', fault: { action: 'partition', groups: [['etcd-0']] } }).ok).toBe(false);
    expect(e.exec({ type: 'fault', fault: { action: 'link', loss: 2 } }).ok).toBe(false);
    expect(e.exec({ type: 'speed', speed: -1 }).ok).toBe(false);
    expect(e.commands().length).toBe(before);
  });
});

describe('determinism, replay and snapshots', () => {
  function scripted(seed: number): Engine {
    const e = Engine.create({ seed, etcdMembers: 3 });
    e.exec({ type: 'fault', fault: { action: 'link', loss: 0.05, duplicate: 0.02, reorder: true } });
    e.advance(2000);
    for (let i = 0; i < 5; i++) {
      e.exec({ type: 'etcdOp', op: { op: 'put', key: `k${i % 2}`, value: `v${i}` } });
      e.advance(150);
    }
    e.exec({ type: 'fault', fault: { action: 'crash', target: 'etcd-1' } });
    e.advance(2500);
    e.exec({ type: 'fault', fault: { action: 'partition', groups: [['etcd-0'], ['etcd-1', 'etcd-2']] } });
    e.exec({ type: 'fault', fault: { action: 'restart', target: 'etcd-1' } });
    e.advance(2500);
    e.exec({ type: 'fault', fault: { action: 'heal' } });
    e.exec({ type: 'etcdOp', op: { op: 'get', key: 'k1' } });
    e.advance(3000);
    return e;
  }

  it('same seed and commands give the same trace digest (12 seeds), different seeds differ', () => {
    const digests = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const a = scripted(seed).state().traceDigest;
      expect(scripted(seed).state().traceDigest).toBe(a);
      digests.add(a);
    }
    expect(digests.size).toBe(12);
  });

  it('replays a session from seed + command log', () => {
    const e = scripted(5);
    const replayed = Engine.replay({ seed: 5, etcdMembers: 3 }, e.commands(), e.state().virtualTime);
    expect(replayed.state().traceDigest).toBe(e.state().traceDigest);
    expect(replayed.etcdView()).toEqual(e.etcdView());
  });

  it('snapshot at t, run to t+Δ, restore, run again: the same trace', () => {
    const e = scripted(7);
    const snap = JSON.parse(JSON.stringify(e.snapshot()));
    e.exec({ type: 'etcdOp', op: { op: 'put', key: 'after', value: 'snapshot' } });
    e.advance(4000);
    const restored = Engine.restore(snap);
    restored.exec({ type: 'etcdOp', op: { op: 'put', key: 'after', value: 'snapshot' } });
    restored.advance(4000);
    expect(restored.state().traceDigest).toBe(e.state().traceDigest);
    expect(restored.etcdView()).toEqual(e.etcdView());
  });
});

describe('views stay small', () => {
  it('carries at most KV_VIEW_LIMIT keys, with the total', () => {
    const e = boot({ etcdMembers: 1 });
    e.exec({ type: 'load', rate: 5000, keySpace: 800 });
    e.advance(400);
    e.exec({ type: 'load', rate: 0 });
    e.advance(100);
    const kv = e.etcdView().kv;
    expect(kv.total).toBe(800);
    expect(kv.keys).toHaveLength(KV_VIEW_LIMIT);
    expect(kv.keys[0]!.key).toBe('/benchmark/00000000');
  });
});

describe('stepping', () => {
  it('steps one event, or runs to the next message', () => {
    const e = boot();
    const before = e.state().events;
    e.stepEvent();
    expect(e.state().events).toBe(before + 1);
    for (let i = 0; i < 20; i++) {
      const rec = e.stepMessage();
      expect(rec?.kind).toBe('deliver');
      expect(rec?.type).toBeDefined();
      // it stopped at that delivery: later records are only what handling it sent
      const after = e.trace(rec!.n, 1000);
      expect(after.every((r) => (r.kind === 'send' || r.kind === 'drop' || r.kind === 'duplicate') && r.from === rec!.to)).toBe(true);
    }
  });
});

describe('membership changes', () => {
  it('adds a member that joins the existing cluster and catches up, then removes one', () => {
    const e = boot();
    op(e, { op: 'put', key: 'before', value: 'join' });
    const add = op(e, { op: 'memberAdd' });
    expect(add.ok).toBe(true);
    expect(add.text).toMatch(/^Member [0-9a-f]+ added to cluster [0-9a-f]+\n\nETCD_NAME="etcd-3"/);
    e.advance(2000);
    const v = e.etcdView();
    expect(v.members.map((m) => m.name)).toEqual(['etcd-0', 'etcd-1', 'etcd-2', 'etcd-3']);
    const joined = v.members.find((m) => m.name === 'etcd-3')!;
    expect(joined.role).toBe('follower');
    expect(joined.revision).toBe(v.kv.revision);
    expect(joined.commitIndex).toBe(v.members.find((m) => m.role === 'leader')!.commitIndex);
    // Four voters: a quorum is three, so one more crash still leaves a majority.
    e.exec({ type: 'fault', fault: { action: 'crash', target: 'etcd-0' } });
    e.advance(3000);
    expect(op(e, { op: 'put', key: 'after', value: 'add' }).ok).toBe(true);
    e.exec({ type: 'fault', fault: { action: 'restart', target: 'etcd-0' } });
    e.advance(2000);

    const victim = e.memberNames().find((n) => n !== e.leader())!;
    const rm = op(e, { op: 'memberRemove', name: victim });
    expect(rm.text).toMatch(/^Member [0-9a-f]+ removed from cluster/);
    e.advance(1000);
    expect(e.memberNames()).not.toContain(victim);
    expect(e.sim.isUp(victim)).toBe(false); // it exited after applying its own removal
    e.exec({ type: 'fault', fault: { action: 'restart', target: victim } });
    e.advance(500);
    expect(e.sim.isUp(victim)).toBe(false); // and stays gone
    expect(op(e, { op: 'put', key: 'after', value: 'remove' }).ok).toBe(true);
    expect(e.exec({ type: 'etcdOp', op: { op: 'memberRemove', name: victim } }).ok).toBe(false);
  });
});
