// The entry codec's memo is only sound if (1) it returns exactly what parsing
// the entry's data would, and (2) nothing downstream mutates a decoded request
// (members share it). Both are checked here.
import { describe, expect, it } from 'vitest';
import type { InternalRaftRequest } from '../api/rpc';
import { EtcdStateMachine } from '../mvcc/applier';
import type { Entry } from '../raft';
import { decodeRequest, encodeRequest, rememberEncoded } from './requestCodec';

function entry(index: number, req: InternalRaftRequest): Entry {
  return { term: 1, index, type: 'EntryNormal', data: encodeRequest(req) };
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

describe('requestCodec', () => {
  it('decodes what was encoded, once per entry object', () => {
    const req: InternalRaftRequest = { header: { id: 7 }, put: { key: 'k', value: 'v', lease: undefined, prevKv: true } };
    const e = entry(3, req);
    const a = decodeRequest(e);
    expect(a).toEqual(JSON.parse(e.data));
    expect(decodeRequest(e)).toBe(a); // the memo
    // Another entry at the same index (a different term's, or a clone's) is parsed on its own.
    const other = { ...e, data: encodeRequest({ header: { id: 8 }, put: { key: 'k', value: 'w' } }) };
    expect(decodeRequest(other).put!.value).toBe('w');
    expect(decodeRequest(e).put!.value).toBe('v');
  });

  it("seeds the memo from the proposer's request with exactly the parsed form", () => {
    const req: InternalRaftRequest = { header: { id: 9 }, put: { key: 'k', value: 'v', lease: undefined, ignoreLease: false } };
    const e = entry(12, req);
    rememberEncoded(e, req);
    const got = decodeRequest(e);
    expect(got).toEqual(JSON.parse(e.data));
    expect('lease' in got.put!).toBe(false); // as JSON drops it
    expect(got).not.toBe(req); // a copy: the proposer keeps its object
    req.put!.value = 'changed later';
    expect(decodeRequest(e).put!.value).toBe('v');
  });

  it('apply never mutates a request (decoded requests are shared by members)', () => {
    const sm = new EtcdStateMachine({ clusterId: 1, memberId: 2 });
    const reqs: Omit<InternalRaftRequest, 'header'>[] = [
      { leaseGrant: { ID: 5, TTL: 60 } },
      { put: { key: 'a', value: '1', lease: 5 } },
      { put: { key: 'b', value: '2', prevKv: true } },
      { put: { key: 'b', value: '', ignoreValue: true, prevKv: true } },
      { range: { key: 'a', rangeEnd: 'z', sortOrder: 'DESCEND', sortTarget: 'VALUE', limit: 1 } },
      {
        txn: {
          compare: [{ key: 'a', target: 'VALUE', result: 'EQUAL', value: '1' }],
          success: [
            { requestPut: { key: 'c', value: '3' } },
            { requestRange: { key: 'a', rangeEnd: '\0', keysOnly: true } },
            { requestTxn: { compare: [{ key: 'c', target: 'VERSION', result: 'GREATER', version: 0 }], success: [{ requestDeleteRange: { key: 'b', prevKv: true } }] } },
          ],
          failure: [{ requestPut: { key: 'never', value: 'x' } }],
        },
      },
      { deleteRange: { key: 'a', rangeEnd: 'c', prevKv: true } },
      { leaseCheckpoint: { checkpoints: [{ ID: 5, remainingTTL: 30 }] } },
      { compaction: { revision: 3 } },
      { leaseRevoke: { ID: 5 } },
    ];
    let id = 1;
    for (const body of reqs) {
      const req = deepFreeze(JSON.parse(JSON.stringify({ header: { id: id++ }, ...body })) as InternalRaftRequest);
      expect(() => sm.applyRequest(req, 1, 1000)).not.toThrow();
    }
    expect(sm.currentRevision()).toBeGreaterThan(4);
  });
});
