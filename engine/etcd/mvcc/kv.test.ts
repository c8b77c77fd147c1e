// Range / Put / DeleteRange / Compaction through the applier, checked against
// etcd v3.5 semantics (server/mvcc/kvstore_test.go, server/etcdserver/apply.go).
import { describe, expect, it } from 'vitest';
import {
  ErrCompacted,
  ErrFutureRev,
  ErrKeyNotFound,
  ErrLeaseNotFound,
  httpStatusOf,
} from '../api/errors';
import type { DeleteRangeResponse, PutResponse, RangeResponse } from '../api/rpc';
import { prefixEnd } from '../api/rpc';
import { kiCompact, kiGet, kiIsEmpty, kiKeep, kiPut, kiTombstone, newKeyIndex } from './keyIndex';
import { packRev } from './revision';
import { must, TestMember } from './testkit';

describe('revisions and versions', () => {
  it('starts at revision 1; the first write is revision 2', () => {
    const m = new TestMember();
    expect(m.sm.currentRevision()).toBe(1);
    const r = m.ok<PutResponse>({ put: { key: 'foo', value: 'bar' } });
    expect(r.header).toEqual({ clusterId: 100, memberId: 7, revision: 2, raftTerm: 1 });
    const g = must(m.sm.read({ key: 'foo' }));
    expect(g.kvs).toEqual([{ key: 'foo', value: 'bar', createRevision: 2, modRevision: 2, version: 1, lease: 0 }]);
  });

  it('counts versions per generation and resets createRevision after a delete', () => {
    const m = new TestMember();
    m.put('k', 'v1'); // 2
    m.put('k', 'v2'); // 3
    expect(must(m.sm.read({ key: 'k' })).kvs[0]).toMatchObject({ createRevision: 2, modRevision: 3, version: 2 });
    const d = m.ok<DeleteRangeResponse>({ deleteRange: { key: 'k' } });
    expect(d.deleted).toBe(1);
    expect(d.header.revision).toBe(4);
    expect(must(m.sm.read({ key: 'k' }))).toMatchObject({ kvs: [], count: 0 });
    m.put('k', 'v3'); // 5
    expect(must(m.sm.read({ key: 'k' })).kvs[0]).toMatchObject({ createRevision: 5, modRevision: 5, version: 1 });
  });

  it('does not bump the revision when a delete removes nothing', () => {
    const m = new TestMember();
    m.put('a', '1');
    const d = m.ok<DeleteRangeResponse>({ deleteRange: { key: 'zzz' } });
    expect(d).toMatchObject({ deleted: 0, prevKvs: [] });
    expect(d.header.revision).toBe(2);
    expect(m.sm.currentRevision()).toBe(2);
  });

  it('returns prev_kv on put and delete', () => {
    const m = new TestMember();
    const first = m.ok<PutResponse>({ put: { key: 'a', value: '1', prevKv: true } });
    expect(first.prevKv).toBeUndefined();
    const second = m.ok<PutResponse>({ put: { key: 'a', value: '2', prevKv: true } });
    expect(second.prevKv).toMatchObject({ key: 'a', value: '1', modRevision: 2 });
    m.put('b', 'x');
    const d = m.ok<DeleteRangeResponse>({ deleteRange: { key: 'a', rangeEnd: 'c', prevKv: true } });
    expect(d.deleted).toBe(2);
    expect(d.prevKvs.map((kv) => [kv.key, kv.value])).toEqual([
      ['a', '2'],
      ['b', 'x'],
    ]);
  });

  it('ignore_value and ignore_lease keep the previous ones, and need an existing key', () => {
    const m = new TestMember();
    m.ok({ leaseGrant: { ID: 5, TTL: 60 } });
    m.put('a', 'keep', { lease: 5 });
    m.put('a', '', { ignoreValue: true, ignoreLease: true });
    expect(must(m.sm.read({ key: 'a' })).kvs[0]).toMatchObject({ value: 'keep', lease: 5, version: 2 });
    m.put('a', 'new', { ignoreLease: true });
    expect(must(m.sm.read({ key: 'a' })).kvs[0]).toMatchObject({ value: 'new', lease: 5 });
    expect(m.apply({ put: { key: 'missing', ignoreValue: true } })).toBe(ErrKeyNotFound);
    expect(m.sm.currentRevision()).toBe(4);
  });

  it('rejects a put with an unknown lease (404 through the gateway)', () => {
    const m = new TestMember();
    const r = m.apply({ put: { key: 'a', value: 'x', lease: 999 } });
    expect(r).toBe(ErrLeaseNotFound);
    expect(ErrLeaseNotFound.message).toBe('etcdserver: requested lease not found');
    expect(httpStatusOf(ErrLeaseNotFound)).toBe(404);
    expect(m.sm.currentRevision()).toBe(1);
  });
});

describe('range', () => {
  function seeded(): TestMember {
    const m = new TestMember();
    for (const [k, v] of [
      ['a', '4'],
      ['b', '3'],
      ['c', '2'],
      ['d', '1'],
    ]) m.put(k!, v!); // revisions 2..5
    m.put('b', '9'); // 6: b version 2
    return m;
  }

  it('limit sets more; count is the whole range', () => {
    const m = seeded();
    const r = must(m.sm.read({ key: 'a', rangeEnd: 'e', limit: 2 }));
    expect(r.kvs.map((kv) => kv.key)).toEqual(['a', 'b']);
    expect(r.more).toBe(true);
    expect(r.count).toBe(4);
    expect(r.header.revision).toBe(6);
    const all = must(m.sm.read({ key: 'a', rangeEnd: 'e', limit: 4 }));
    expect(all.more).toBe(false);
  });

  it("range end '\\0' means every key >= key; prefixEnd selects a prefix", () => {
    const m = seeded();
    m.put('c/1', 'x');
    m.put('c/2', 'y');
    expect(must(m.sm.read({ key: 'c', rangeEnd: '\0' })).kvs.map((kv) => kv.key)).toEqual(['c', 'c/1', 'c/2', 'd']);
    expect(must(m.sm.read({ key: 'c/', rangeEnd: prefixEnd('c/') })).kvs.map((kv) => kv.key)).toEqual(['c/1', 'c/2']);
    expect(prefixEnd('c/')).toBe('c0');
    expect(prefixEnd('a\xff\xff')).toBe('b');
    expect(prefixEnd('\xff')).toBe('\0');
  });

  it('count_only and keys_only', () => {
    const m = seeded();
    expect(must(m.sm.read({ key: 'a', rangeEnd: 'e', countOnly: true }))).toMatchObject({ kvs: [], count: 4, more: false });
    const ko = must(m.sm.read({ key: 'a', rangeEnd: 'c', keysOnly: true }));
    expect(ko.kvs.map((kv) => [kv.key, kv.value])).toEqual([
      ['a', ''],
      ['b', ''],
    ]);
    // keys_only does not clear the stored value
    expect(must(m.sm.read({ key: 'a' })).kvs[0]!.value).toBe('4');
  });

  it('sorts by target; a non-key target defaults to ascending', () => {
    const m = seeded();
    const byValue = must(m.sm.read({ key: 'a', rangeEnd: 'e', sortTarget: 'VALUE' }));
    expect(byValue.kvs.map((kv) => kv.key)).toEqual(['d', 'c', 'a', 'b']);
    const byModDesc = must(m.sm.read({ key: 'a', rangeEnd: 'e', sortTarget: 'MOD', sortOrder: 'DESCEND', limit: 2 }));
    expect(byModDesc.kvs.map((kv) => kv.key)).toEqual(['b', 'd']);
    expect(byModDesc.more).toBe(true);
    const byKeyDesc = must(m.sm.read({ key: 'a', rangeEnd: 'e', sortOrder: 'DESCEND' }));
    expect(byKeyDesc.kvs.map((kv) => kv.key)).toEqual(['d', 'c', 'b', 'a']);
  });

  it('filters by mod and create revision without changing count', () => {
    const m = seeded();
    const r = must(m.sm.read({ key: 'a', rangeEnd: 'e', minModRevision: 4 }));
    expect(r.kvs.map((kv) => kv.key)).toEqual(['b', 'c', 'd']);
    expect(r.count).toBe(4);
    const c = must(m.sm.read({ key: 'a', rangeEnd: 'e', maxCreateRevision: 3 }));
    expect(c.kvs.map((kv) => kv.key)).toEqual(['a', 'b']);
  });

  it('reads an old revision; the header keeps the current one', () => {
    const m = seeded();
    const r = must(m.sm.read({ key: 'b', revision: 3 }));
    expect(r.kvs[0]).toMatchObject({ value: '3', version: 1, modRevision: 3 });
    expect(r.header.revision).toBe(6);
    expect(must(m.sm.read({ key: 'd', revision: 4 })).kvs).toEqual([]);
  });

  it('rejects future and compacted revisions', () => {
    const m = seeded();
    expect(m.sm.read({ key: 'a', revision: 7 })).toBe(ErrFutureRev);
    expect(ErrFutureRev.message).toBe('etcdserver: mvcc: required revision is a future revision');
    m.ok({ compaction: { revision: 4 } });
    expect(m.sm.read({ key: 'a', revision: 3 })).toBe(ErrCompacted);
    expect(httpStatusOf(ErrCompacted)).toBe(400);
    // the compacted revision itself stays readable (rev < compactMainRev fails)
    expect(must(m.sm.read({ key: 'b', revision: 4 })).kvs[0]!.value).toBe('3');
    expect(must(m.sm.read({ key: 'b' })).kvs[0]!.value).toBe('9');
  });
});

describe('compaction', () => {
  it('errors on a compacted or future revision; answers with the current revision', () => {
    const m = new TestMember();
    for (let i = 0; i < 5; i++) m.put('k', String(i)); // 2..6
    const r = m.ok({ compaction: { revision: 4 } });
    expect(r.header.revision).toBe(6);
    expect(m.apply({ compaction: { revision: 4 } })).toBe(ErrCompacted);
    expect(m.apply({ compaction: { revision: 3 } })).toBe(ErrCompacted);
    expect(m.apply({ compaction: { revision: 7 } })).toBe(ErrFutureRev);
    expect(m.sm.compactRevision()).toBe(4);
    expect(m.sm.currentRevision()).toBe(6); // compaction is not a write
  });

  it('keeps the latest value at the compaction revision and drops deleted keys', () => {
    const m = new TestMember();
    m.put('a', '1'); // 2
    m.put('b', '1'); // 3
    m.ok({ deleteRange: { key: 'b' } }); // 4
    m.put('a', '2'); // 5
    m.put('c', '1'); // 6
    m.ok({ compaction: { revision: 5 } });
    expect(must(m.sm.read({ key: 'a', revision: 5 })).kvs[0]!.value).toBe('2');
    expect(must(m.sm.read({ key: '\0', rangeEnd: '\0', revision: 5 })).kvs.map((kv) => kv.key)).toEqual(['a']);
    expect(m.sm.kv.indexSize()).toBe(2); // b's history is gone
    expect(m.sm.kv.records().length).toBe(2); // a@5, c@6
    // versions continue across the compaction
    m.put('a', '3');
    expect(must(m.sm.read({ key: 'a' })).kvs[0]).toMatchObject({ version: 3, createRevision: 2 });
  });
});

describe('keyIndex (key_index.go examples)', () => {
  it('put(1) put(2) tombstone(3) put(4) tombstone(5), then compactions', () => {
    const ki = newKeyIndex('foo');
    kiPut(ki, packRev(1));
    kiPut(ki, packRev(2));
    kiTombstone(ki, packRev(3));
    kiPut(ki, packRev(4));
    kiTombstone(ki, packRev(5));
    expect(kiGet(ki, 2)).toEqual({ modified: packRev(2), created: packRev(1), ver: 2 });
    expect(kiGet(ki, 3)).toBeNull();
    expect(kiGet(ki, 4)).toEqual({ modified: packRev(4), created: packRev(4), ver: 1 });
    const gens = () => ki.generations.map((g) => g.revs.map((r) => r / packRev(1)));

    const av = new Set<number>();
    kiCompact(ki, 2, av);
    expect(gens()).toEqual([[2, 3], [4, 5], []]);
    expect([...av]).toEqual([packRev(2)]);
    kiCompact(ki, 4, new Set());
    expect(gens()).toEqual([[4, 5], []]);
    // A tombstone at the compaction revision stays (etcd-io/etcd#18274), and HashKV's keep leaves it out.
    const at5 = new Set<number>();
    kiCompact(ki, 5, at5);
    expect(gens()).toEqual([[5], []]);
    expect([...at5]).toEqual([packRev(5)]);
    const keep = new Set<number>();
    kiKeep(ki, 5, keep);
    expect([...keep]).toEqual([]);
    kiCompact(ki, 6, new Set());
    expect(gens()).toEqual([[]]);
    expect(kiIsEmpty(ki)).toBe(true);
  });

  it('tombstoning a deleted key fails', () => {
    const ki = newKeyIndex('k');
    kiPut(ki, packRev(2));
    expect(kiTombstone(ki, packRev(3))).toBe(true);
    expect(kiTombstone(ki, packRev(4))).toBe(false);
  });
});

describe('hash', () => {
  it('is equal for equal histories and differs otherwise', () => {
    const a = new TestMember();
    const b = new TestMember({ memberId: 8 });
    for (const m of [a, b]) {
      m.put('x', '1');
      m.put('y', '2');
    }
    expect(a.sm.hash()).toEqual(b.sm.hash());
    b.put('y', '3');
    a.put('y', '4');
    expect(must(a.sm.hash())).not.toEqual(must(b.sm.hash()));
    expect(must(a.sm.hash(3)).hash).toBe(must(b.sm.hash(3)).hash);
  });
});

describe('range response shape', () => {
  it('is a full RangeResponse', () => {
    const m = new TestMember();
    const r: RangeResponse = must(m.sm.read({ key: 'none' }, 1));
    expect(r).toEqual({ header: { clusterId: 100, memberId: 7, revision: 1, raftTerm: 1 }, kvs: [], more: false, count: 0 });
  });
});
