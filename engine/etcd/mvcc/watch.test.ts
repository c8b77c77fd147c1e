// Watches (server/mvcc/watchable_store_test.go, v3rpc watch.go behaviour):
// ordering, atomic txns, prev_kv, resuming from history, compaction, filters,
// progress notifications, fragments.
import { describe, expect, it } from 'vitest';
import type { Event, WatchResponse } from '../api/rpc';
import { prefixEnd } from '../api/rpc';
import { must, TestMember } from './testkit';

function take(m: TestMember, stream = 's'): WatchResponse[] {
  return m.sm
    .takeWatchResponses()
    .filter((d) => d.streamId === stream)
    .map((d) => d.response);
}

const brief = (evs: Event[]) => evs.map((e) => `${e.type} ${e.kv.key}@${e.kv.modRevision}${e.type === 'PUT' ? '=' + e.kv.value : ''}`);

describe('synced watchers', () => {
  it('get a created response, then one response per revision in order', () => {
    const m = new TestMember();
    m.put('x', '0'); // 2
    const id = m.sm.watch('s', { key: 'a' });
    expect(id).toBe(0);
    const [created] = take(m);
    expect(created).toMatchObject({ watchId: 0, created: true, canceled: false, events: [] });
    expect(created!.header).toEqual({ clusterId: 100, memberId: 7, revision: 2, raftTerm: 1 });
    m.put('a', '1'); // 3
    m.put('b', '1'); // 4: not watched
    m.ok({ deleteRange: { key: 'a' } }); // 5
    const rs = take(m);
    expect(rs.map((r) => r.header.revision)).toEqual([3, 5]);
    expect(rs.flatMap((r) => brief(r.events))).toEqual(['PUT a@3=1', 'DELETE a@5']);
    expect(rs[1]!.events[0]!.kv).toEqual({ key: 'a', createRevision: 0, modRevision: 5, version: 0, value: '', lease: 0 });
  });

  it('deliver a txn atomically: all its events in one response', () => {
    const m = new TestMember();
    m.sm.watch('s', { key: 'p/', rangeEnd: prefixEnd('p/') });
    take(m);
    m.ok({
      txn: {
        success: [
          { requestPut: { key: 'p/1', value: 'a' } },
          { requestPut: { key: 'q', value: 'x' } },
          { requestPut: { key: 'p/2', value: 'b' } },
        ],
      },
    });
    const rs = take(m);
    expect(rs).toHaveLength(1);
    expect(brief(rs[0]!.events)).toEqual(['PUT p/1@2=a', 'PUT p/2@2=b']);
  });

  it('prev_kv is the value before each event; none for creations', () => {
    const m = new TestMember();
    m.sm.watch('s', { key: 'k', prevKv: true });
    take(m);
    m.put('k', '1');
    m.put('k', '2');
    m.ok({ deleteRange: { key: 'k' } });
    const evs = take(m).flatMap((r) => r.events);
    expect(evs[0]!.prevKv).toBeUndefined();
    expect(evs[1]!.prevKv).toMatchObject({ value: '1', modRevision: 2 });
    expect(evs[2]!.prevKv).toMatchObject({ value: '2', modRevision: 3, version: 2 });
  });

  it("filters, '\\0' range ends, cancel", () => {
    const m = new TestMember();
    const noPut = m.sm.watch('s', { key: 'a', rangeEnd: '\0', filters: ['NOPUT'] });
    expect(noPut).toBe(0);
    take(m);
    m.put('b', '1');
    m.put('z', '1');
    expect(take(m)).toEqual([]); // everything filtered: nothing sent
    m.ok({ deleteRange: { key: 'b' } });
    expect(take(m).flatMap((r) => brief(r.events))).toEqual(['DELETE b@4']);
    expect(m.sm.cancelWatch('s', noPut)).toBe(true);
    expect(take(m)).toEqual([expect.objectContaining({ watchId: 0, canceled: true, created: false })]);
    expect(m.sm.cancelWatch('s', noPut)).toBe(false);
    m.ok({ deleteRange: { key: 'z' } });
    expect(take(m)).toEqual([]);
  });

  it('bad create requests come back created and canceled with watch id -1', () => {
    const m = new TestMember();
    m.sm.watch('s', { key: 'b', rangeEnd: 'a' });
    m.sm.watch('s', { key: 'a', watchId: 7 });
    m.sm.watch('s', { key: 'a', watchId: 7 });
    const rs = take(m);
    expect(rs.map((r) => [r.watchId, r.created, r.canceled, r.cancelReason])).toEqual([
      [-1, true, true, 'mvcc: watcher range is empty'],
      [7, true, false, ''],
      [-1, true, true, 'mvcc: duplicate watch ID provided on the WatchStream'],
    ]);
  });

  it('a negative start revision is created, then canceled by the sync loop once compacted (as upstream)', () => {
    const m = new TestMember();
    m.put('a', '1');
    m.put('a', '2');
    m.sm.apply({ header: { id: 0 }, compaction: { revision: 3 } }, 1, 0);
    take(m);
    expect(m.sm.watch('s', { key: 'a', startRevision: -1 })).toBe(0);
    m.sm.syncWatchers();
    const rs = take(m);
    expect(rs.map((r) => [r.watchId, r.created, r.canceled, r.compactRevision])).toEqual([
      [0, true, false, 0],
      [0, false, true, 3],
    ]);
  });

  it('watch ids are per stream and skip taken ids', () => {
    const m = new TestMember();
    expect(m.sm.watch('s1', { key: 'a', watchId: 1 })).toBe(1);
    expect(m.sm.watch('s1', { key: 'a' })).toBe(0);
    expect(m.sm.watch('s1', { key: 'a' })).toBe(2);
    expect(m.sm.watch('s2', { key: 'a' })).toBe(0);
    m.sm.takeWatchResponses();
    m.put('a', '1');
    const ds = m.sm.takeWatchResponses();
    expect(ds.map((d) => `${d.streamId}/${d.response.watchId}`)).toEqual(['s1/1', 's1/0', 's1/2', 's2/0']);
  });

  it('a start revision in the future waits for it', () => {
    const m = new TestMember();
    m.sm.watch('s', { key: 'a', startRevision: 4 });
    take(m);
    m.put('a', '1'); // 2
    m.put('a', '2'); // 3
    m.put('a', '3'); // 4
    expect(take(m).flatMap((r) => brief(r.events))).toEqual(['PUT a@4=3']);
  });
});

describe('unsynced watchers', () => {
  it('resume from an old revision: each event once, in order, then live', () => {
    const m = new TestMember();
    for (let i = 1; i <= 5; i++) m.put('k', String(i)); // 2..6
    m.put('other', 'x'); // 7
    m.sm.watch('s', { key: 'k', startRevision: 4, prevKv: true });
    expect(take(m).map((r) => r.created)).toEqual([true]);
    m.put('k', '6'); // 8: the watcher is unsynced, nothing yet
    expect(take(m)).toEqual([]);
    expect(m.sm.kv.unsyncedCount()).toBe(1);
    expect(m.sm.syncWatchers()).toBe(0);
    const [catchUp] = take(m);
    expect(brief(catchUp!.events)).toEqual(['PUT k@4=3', 'PUT k@5=4', 'PUT k@6=5', 'PUT k@8=6']);
    expect(catchUp!.header.revision).toBe(8);
    expect(catchUp!.events[0]!.prevKv!.value).toBe('2');
    m.put('k', '7'); // 9
    expect(take(m).flatMap((r) => brief(r.events))).toEqual(['PUT k@9=7']);
    expect(m.sm.syncWatchers()).toBe(0);
    expect(take(m)).toEqual([]);
  });

  it('catch up in batches of at most 1000 revisions', () => {
    const m = new TestMember();
    for (let i = 0; i < 2500; i++) m.put('k', String(i)); // 2..2501
    m.sm.watch('s', { key: 'k', startRevision: 2 });
    take(m);
    expect(m.sm.syncWatchers()).toBe(1);
    expect(m.sm.syncWatchers()).toBe(1);
    expect(m.sm.syncWatchers()).toBe(0);
    const rs = take(m);
    expect(rs.map((r) => r.events.length)).toEqual([1000, 1000, 500]);
    const revs = rs.flatMap((r) => r.events.map((e) => e.kv.modRevision));
    expect(revs).toEqual(Array.from({ length: 2500 }, (_, i) => i + 2));
  });

  it('a compacted start revision cancels the watch with compactRevision', () => {
    const m = new TestMember();
    for (let i = 0; i < 6; i++) m.put('k', String(i)); // 2..7
    m.ok({ compaction: { revision: 5 } });
    m.sm.watch('s', { key: 'k', startRevision: 3 });
    m.sm.watch('s', { key: 'k', startRevision: 5 }); // == compact revision: still served
    take(m);
    m.sm.syncWatchers();
    const rs = take(m);
    expect(rs[0]).toMatchObject({ watchId: 0, canceled: true, compactRevision: 5, events: [] });
    expect(rs[0]!.header.revision).toBe(0); // upstream leaves the header revision unset
    expect(brief(rs[1]!.events)).toEqual(['PUT k@5=3', 'PUT k@6=4', 'PUT k@7=5']);
    m.put('k', 'live');
    expect(take(m).map((r) => r.watchId)).toEqual([1]);
  });

  it('a lease revoke is one DELETE response at one revision', () => {
    const m = new TestMember();
    m.ok({ leaseGrant: { ID: 9, TTL: 10 } });
    m.put('l/b', '1', { lease: 9 });
    m.put('l/a', '1', { lease: 9 });
    m.put('l/c', '1');
    m.sm.watch('s', { key: 'l/', rangeEnd: prefixEnd('l/'), prevKv: true });
    take(m);
    m.ok({ leaseRevoke: { ID: 9 } });
    const rs = take(m);
    expect(rs).toHaveLength(1);
    expect(brief(rs[0]!.events)).toEqual(['DELETE l/a@5', 'DELETE l/b@5']);
    expect(rs[0]!.events.map((e) => e.prevKv?.lease)).toEqual([9, 9]);
  });
});

describe('progress', () => {
  it('RequestProgress answers with watch id -1 only when the stream is synced', () => {
    const m = new TestMember();
    m.put('a', '1');
    m.sm.watch('s', { key: 'a', startRevision: 1 });
    take(m);
    expect(m.sm.requestWatchProgress('s')).toBe(false);
    expect(take(m)).toEqual([]);
    m.sm.syncWatchers();
    take(m);
    expect(m.sm.requestWatchProgress('s')).toBe(true);
    expect(take(m)).toEqual([expect.objectContaining({ watchId: -1, events: [], header: expect.objectContaining({ revision: 2 }) })]);
  });

  it('progress_notify ticks skip watchers that just got events', () => {
    const m = new TestMember();
    m.sm.watch('s', { key: 'a', progressNotify: true });
    m.sm.watch('s', { key: 'b', progressNotify: true });
    m.sm.watch('s', { key: 'c' });
    take(m);
    m.put('a', '1');
    take(m);
    m.sm.progressNotifyTick('s');
    expect(take(m).map((r) => [r.watchId, r.events.length, r.header.revision])).toEqual([[1, 0, 2]]);
    m.sm.progressNotifyTick('s');
    expect(take(m).map((r) => r.watchId)).toEqual([0, 1]);
  });
});

describe('fragments', () => {
  it('split a response over the size limit when the watcher asked for it', () => {
    const m = new TestMember();
    m.sm.watch('s', { key: 'f/', rangeEnd: 'f0', fragment: true });
    m.sm.watch('t', { key: 'f/', rangeEnd: 'f0' });
    m.sm.takeWatchResponses();
    const big = 'x'.repeat(900 * 1024);
    m.ok({ txn: { success: [0, 1, 2].map((i) => ({ requestPut: { key: `f/${i}`, value: big } })) } });
    const ds = m.sm.takeWatchResponses();
    const s = ds.filter((d) => d.streamId === 's').map((d) => d.response);
    const t = ds.filter((d) => d.streamId === 't').map((d) => d.response);
    expect(t).toHaveLength(1);
    expect(s.map((r) => [r.events.length, r.fragment])).toEqual([
      [2, true],
      [1, false],
    ]);
  });
});

describe('snapshot restore with live watchers', () => {
  it('moves synced watchers to unsynced; they catch up from the new state', () => {
    const leader = new TestMember();
    const follower = new TestMember({ memberId: 8 });
    follower.sm.watch('s', { key: 'k' });
    take(follower);
    for (let i = 0; i < 4; i++) leader.put('k', String(i)); // 2..5
    follower.sm.applySnapshot(leader.sm.snapshot());
    expect(follower.sm.kv.unsyncedCount()).toBe(1);
    follower.sm.syncWatchers();
    expect(take(follower).flatMap((r) => brief(r.events))).toEqual(['PUT k@2=0', 'PUT k@3=1', 'PUT k@4=2', 'PUT k@5=3']);
    expect(must(follower.sm.read({ key: 'k' })).kvs[0]!.value).toBe('3');
  });
});
