import { describe, expect, it } from 'vitest';
import type { KeyValue, RevisionEvents } from './etcdTypes';
import type { SerializableRead } from './serializableReads';
import { checkReadsAtRevision, checkSerializableReads } from './serializableReads';

const kv = (key: string, value: string, createRevision: number, modRevision: number, version: number): KeyValue => ({
  key,
  value,
  createRevision,
  modRevision,
  version,
});

// a=1 @2 (t=10), b=1 @3 (t=20), a=2 @4 (t=30), a deleted @5 (t=40), a=3 @6 (t=50)
const history: RevisionEvents[] = [
  { revision: 2, committedAt: 10, events: [{ type: 'PUT', kv: kv('a', '1', 2, 2, 1) }] },
  { revision: 3, committedAt: 20, events: [{ type: 'PUT', kv: kv('b', '1', 3, 3, 1) }] },
  { revision: 4, committedAt: 30, events: [{ type: 'PUT', kv: kv('a', '2', 2, 4, 2) }] },
  { revision: 5, committedAt: 40, events: [{ type: 'DELETE', kv: kv('a', '', 0, 5, 0) }] },
  { revision: 6, committedAt: 50, events: [{ type: 'PUT', kv: kv('a', '3', 6, 6, 1) }] },
];
const A1 = kv('a', '1', 2, 2, 1);
const A2 = kv('a', '2', 2, 4, 2);
const A3 = kv('a', '3', 6, 6, 1);

let t = 0;
const read = (clientId: number, member: string, key: string, found: KeyValue | undefined, at?: number, header?: number): SerializableRead => {
  const call = at ?? (t += 5);
  const r: SerializableRead = { clientId, member, key, call, return: call + 1 };
  if (found) r.kv = found;
  if (header !== undefined) r.header = { revision: header };
  return r;
};
const kinds = (reads: SerializableRead[]) => checkSerializableReads(history, reads).violations.map((v) => `${v.type}#${v.read}`);

describe('checkSerializableReads', () => {
  it('accepts stale but committed states', () => {
    // At t=45 the latest is "a deleted", but a member may still show a=2, a=1 or even nothing yet.
    expect(kinds([read(0, 'm1', 'a', A2, 45)])).toEqual([]);
    expect(kinds([read(0, 'm2', 'a', A1, 45)])).toEqual([]);
    expect(kinds([read(0, 'm3', 'a', undefined, 45)])).toEqual([]);
    expect(kinds([read(0, 'm1', 'b', undefined, 45)])).toEqual([]);
  });

  it('rejects values never committed, or not committed yet when the read returned', () => {
    expect(kinds([read(0, 'm1', 'a', kv('a', '9', 2, 4, 2), 45)])).toEqual(['neverCommitted#0']);
    expect(kinds([read(0, 'm1', 'a', kv('a', '2', 2, 4, 3), 45)])).toEqual(['neverCommitted#0']); // wrong version
    expect(kinds([read(0, 'm1', 'a', A3, 45)])).toEqual(['neverCommitted#0']); // a=3 commits at t=50
    expect(kinds([read(0, 'm1', 'a', A3, 55)])).toEqual([]);
    // The harness can give the commit revision directly.
    expect(kinds([{ ...read(0, 'm1', 'a', A3, 55), committedRevision: 5 }])).toEqual(['neverCommitted#0']);
  });

  it('checks the header revision exactly when there is one', () => {
    expect(kinds([read(0, 'm1', 'a', A2, 45, 4)])).toEqual([]);
    expect(kinds([read(0, 'm1', 'a', A2, 45, 3)])).toEqual(['headerMismatch#0']);
    expect(kinds([read(0, 'm1', 'a', undefined, 45, 5)])).toEqual([]);
    expect(kinds([read(0, 'm1', 'a', A3, 45, 6)])).toEqual(['aheadOfCommit#0']);
  });

  it('rejects one client going back in time on one member', () => {
    expect(kinds([read(0, 'm1', 'a', A2, 31), read(0, 'm1', 'a', A1, 32)])).toEqual(['wentBackwards#1']);
    // Across keys: b=1 means revision >= 3, and a=1 is only visible up to revision 3.
    expect(kinds([read(0, 'm1', 'b', kv('b', '1', 3, 3, 1), 31), read(0, 'm1', 'a', A1, 32)])).toEqual([]);
    expect(kinds([read(0, 'm1', 'a', A2, 31), read(0, 'm1', 'b', undefined, 32)])).toEqual(['wentBackwards#1']);
    // Absent after a delete is not absent before the create.
    expect(kinds([read(0, 'm1', 'a', undefined, 45), read(0, 'm1', 'a', A2, 46)])).toEqual([]);
    expect(kinds([read(0, 'm1', 'a', A1, 41), read(0, 'm1', 'a', undefined, 45), read(0, 'm1', 'a', A2, 46)])).toEqual(['wentBackwards#2']);
    // Another member, or another client, may be further behind.
    expect(kinds([read(0, 'm1', 'a', A2, 31), read(0, 'm2', 'a', A1, 32)])).toEqual([]);
    expect(kinds([read(0, 'm1', 'a', A2, 31), read(1, 'm1', 'a', A1, 32)])).toEqual([]);
    // Headers count too.
    expect(kinds([read(0, 'm1', 'a', A1, 31, 3), read(0, 'm1', 'a', A1, 32, 2)])).toEqual(['wentBackwards#1']);
  });

  it('orders a client’s reads by call time, not by array position', () => {
    expect(kinds([read(0, 'm1', 'a', A1, 32), read(0, 'm1', 'a', A2, 31)])).toEqual(['wentBackwards#0']);
  });
});

describe('checkReadsAtRevision', () => {
  it('wants exactly the state at the revision', () => {
    const res = checkReadsAtRevision(history, [
      { key: 'a', revision: 3, kv: A1 },
      { key: 'a', revision: 5 },
      { key: 'a', revision: 1 },
      { key: 'a', revision: 4, kv: A1 },
      { key: 'b', revision: 2, kv: kv('b', '1', 3, 3, 1) },
      { key: 'a', revision: 7 },
    ]);
    expect(res.violations.map((v) => v.read)).toEqual([3, 4, 5]);
    expect(res.violations[0]?.message).toContain('expected a="2"');
  });
});
