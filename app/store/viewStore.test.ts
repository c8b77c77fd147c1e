import { describe, expect, it } from 'vitest';
import type { EtcdMemberView, TraceRecordView } from '../../engine/facade/types';
import type { ViewUpdate } from '../../engine/host/protocol';
import { TRACE_KEEP, applyUpdate, estimateVirtualTime, initialViewState, type ViewState } from './viewStore';

const clock = (virtualTime: number, playing = true) => ({ virtualTime, events: 0, speed: 2, playing, lagging: false, traceDigest: '0:0' });

function member(name: string, patch: Partial<EtcdMemberView> = {}): EtcdMemberView {
  return {
    name, raftId: 1, memberId: '1', up: true, role: 'follower', term: 1, vote: null, leader: null, commitIndex: 0, appliedIndex: 0,
    lastLogIndex: 0, firstLogIndex: 1, snapshotIndex: 0, electionElapsed: 0, electionTimeout: 10, fsyncMs: 1, log: [], revision: 1, ...patch,
  };
}

function apply(s: ViewState, u: Omit<ViewUpdate, 'seq'>): ViewState {
  return { ...s, ...applyUpdate(s, { seq: 1, ...u }, 1000) };
}

describe('applyUpdate', () => {
  it('merges changed members and keeps unchanged ones by reference', () => {
    let s = apply(initialViewState, { full: true, clock: clock(0), memberOrder: ['etcd-0', 'etcd-1'], members: [member('etcd-0'), member('etcd-1')] });
    const m1 = s.members['etcd-1'];
    s = apply(s, { full: false, clock: clock(10), members: [member('etcd-0', { role: 'leader', term: 2 })] });
    expect(s.members['etcd-0']?.role).toBe('leader');
    expect(s.members['etcd-1']).toBe(m1);
    expect(s.markers.map((m) => m.label)).toEqual(['etcd-0 leader, term 2']);
  });

  it('applies KV changes and removals', () => {
    const e = (key: string, modRevision: number) => ({ key, value: 'v', createRevision: 2, modRevision, version: 1, lease: 0 });
    let s = apply(initialViewState, { full: true, clock: clock(0), kv: { from: 'etcd-0', revision: 3, compactRevision: 0, total: 2, changed: [e('/a', 2), e('/b', 3)], removed: [] } });
    s = apply(s, { full: false, clock: clock(1), kv: { from: 'etcd-0', revision: 4, compactRevision: 0, total: 1, changed: [e('/a', 4)], removed: ['/b'] } });
    expect(Object.keys(s.kv.keys)).toEqual(['/a']);
    expect(s.kv.total).toBe(1);
    expect(s.kv.keys['/a']?.modRevision).toBe(4);
    expect(s.kv.revision).toBe(4);
  });

  it('keeps a bounded trace and collects fault markers', () => {
    const recs = (from: number, n: number): TraceRecordView[] =>
      Array.from({ length: n }, (_, i) => ({ n: from + i, t: from + i, kind: i === 0 ? 'crash' : 'deliver', to: 'etcd-0' }));
    let s = apply(initialViewState, { full: true, clock: clock(0), trace: recs(0, TRACE_KEEP) });
    s = apply(s, { full: false, clock: clock(1), trace: recs(TRACE_KEEP, 10), traceSkipped: 5 });
    expect(s.trace).toHaveLength(TRACE_KEEP);
    expect(s.trace[s.trace.length - 1]!.n).toBe(TRACE_KEEP + 9);
    expect(s.traceSkipped).toBe(5);
    expect(s.markers.filter((m) => m.kind === 'crash')).toHaveLength(2);
  });

  it('replaces pending op results by id and appends watch events', () => {
    const op = { op: 'put' as const, key: 'k', value: 'v' };
    let s = apply(initialViewState, { full: true, clock: clock(0), opResults: [{ id: 1, op, issuedAt: 0 }], watches: [{ watchId: 7, key: '/', newEvents: [] }] });
    s = apply(s, {
      full: false,
      clock: clock(1),
      opResults: [{ id: 1, op, issuedAt: 0, doneAt: 3, ok: true, text: 'OK' }],
      watches: [{ watchId: 7, key: '/', newEvents: [{ revision: 2, type: 'PUT', key: '/k', value: 'v', at: 3 }] }],
    });
    expect(s.opResults).toHaveLength(1);
    expect(s.opResults[0]!.text).toBe('OK');
    expect(s.watches[7]!.events).toHaveLength(1);
  });

  it('a full update starts from scratch', () => {
    let s = apply(initialViewState, { full: true, clock: clock(0), memberOrder: ['etcd-0'], members: [member('etcd-0')] });
    s = apply(s, { full: true, clock: clock(0), memberOrder: ['etcd-1'], members: [member('etcd-1')] });
    expect(Object.keys(s.members)).toEqual(['etcd-1']);
  });
});

describe('markers', () => {
  it('mark etcd client commands but not API calls', () => {
    const recs: TraceRecordView[] = [
      { n: 0, t: 1, kind: 'command', type: 'etcdOp', detail: 'put /a' },
      { n: 1, t: 2, kind: 'command', type: 'api', detail: 'GET /api' },
      { n: 2, t: 3, kind: 'command', type: 'apiCancel' },
    ];
    const s = apply(initialViewState, { full: true, clock: clock(0), trace: recs });
    expect(s.markers.map((m) => m.n)).toEqual([0]);
  });
});

describe('estimateVirtualTime', () => {
  it('extrapolates while playing, at most a few frames ahead', () => {
    expect(estimateVirtualTime({ clock: clock(100), clockAt: 1000 }, 1010)).toBe(120);
    expect(estimateVirtualTime({ clock: clock(100), clockAt: 1000 }, 5000)).toBe(180);
    expect(estimateVirtualTime({ clock: clock(100, false), clockAt: 1000 }, 1010)).toBe(100);
  });
});

describe('notable records', () => {
  it('keep what is not a heartbeat, timer or fsync', () => {
    const recs: TraceRecordView[] = [
      { n: 0, t: 0, kind: 'timer', to: 'etcd-0', type: 'tick' },
      { n: 1, t: 0, kind: 'deliver', from: 'etcd-0', to: 'etcd-1', type: 'MsgHeartbeat', msgId: 1 },
      { n: 2, t: 0, kind: 'deliver', from: 'etcd-0', to: 'etcd-1', type: 'MsgApp', msgId: 2 },
      { n: 3, t: 0, kind: 'persist', to: 'etcd-1', type: 'wal' },
      { n: 4, t: 0, kind: 'drop', from: 'etcd-0', to: 'etcd-1', type: 'MsgVote', msgId: 3, reason: 'partitioned' },
    ];
    const s = apply(initialViewState, { full: true, clock: clock(0), trace: recs });
    expect(s.notable.map((r) => r.n)).toEqual([2, 4]);
    expect(s.trace).toHaveLength(5);
  });
});
