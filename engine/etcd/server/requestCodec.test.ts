// The entry codec's memo is only sound if (1) it returns exactly what parsing
// the entry's data would, and (2) nothing downstream mutates a decoded request
// (members share it). Both are checked here.
import { describe, expect, it } from 'vitest';
import type { InternalRaftRequest } from '../api/rpc';
import { EtcdStateMachine } from '../mvcc/applier';
import type { Entry } from '../raft';
import fc from 'fast-check';
import { decodeEntryData, decodeRequest, encodeRequest, rememberEncoded } from './requestCodec';
import { jsonRoundTrip } from '../../sim/jsonClone';

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
  it('writes put values raw after the JSON, which holds their lengths, as protobuf writes bytes fields', () => {
    const value = '{"kind":"Lease","spec":{"renewTime":"x\\n"}}';
    expect(encodeRequest({ header: { id: 1 }, put: { key: '/registry/a', value } })).toBe(`{"header":{"id":1},"put":{"key":"/registry/a","value":${value.length}}}\n${value}`);
    const txn: InternalRaftRequest = {
      header: { id: 2 },
      txn: {
        compare: [{ key: 'k', target: 'MOD', result: 'EQUAL', modRevision: 4 }],
        success: [{ requestPut: { key: 'k', value: 'one\ntwo' } }, { requestTxn: { success: [{ requestPut: { key: 'j', value: '' } }] } }],
        failure: [{ requestRange: { key: 'k' } }, { requestPut: { key: 'z', value: 'three' } }],
      },
    };
    const data = encodeRequest(txn);
    expect(data.slice(data.indexOf('\n') + 1)).toBe('one\ntwothree');
    expect(decodeEntryData(data)).toEqual(txn);
    // No value to take out: the JSON alone, as before.
    expect(encodeRequest({ header: { id: 3 }, range: { key: 'a' } })).toBe('{"header":{"id":3},"range":{"key":"a"}}');
    expect(() => decodeEntryData('{"header":{"id":1},"put":{"key":"a","value":5}}\nabc')).toThrow(/a value of 5 bytes/);
  });

  it('decodes any request to what a JSON round trip of it gives', () => {
    const bytes = fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '{', '}', '\u00ff', '\u0000'), maxLength: 12 });
    const put = fc.record({ key: bytes, value: fc.option(bytes, { nil: undefined }), lease: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }), prevKv: fc.option(fc.boolean(), { nil: undefined }) }, { requiredKeys: ['key'] });
    const op: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      op: fc.oneof({ depthSize: 'small' }, fc.record({ requestPut: put }), fc.record({ requestRange: fc.record({ key: bytes }) }), fc.record({ requestTxn: tie('txn') })),
      txn: fc.record({ success: fc.array(tie('op'), { maxLength: 3 }), failure: fc.array(tie('op'), { maxLength: 3 }) }, { requiredKeys: [] }),
    })).op;
    const req = fc.oneof(
      fc.record({ header: fc.record({ id: fc.nat() }), put }),
      fc.record({ header: fc.record({ id: fc.nat() }), txn: fc.record({ success: fc.array(op, { maxLength: 3 }), failure: fc.array(op, { maxLength: 3 }) }, { requiredKeys: [] }) }),
      fc.record({ header: fc.record({ id: fc.nat() }), deleteRange: fc.record({ key: bytes }) }),
    );
    fc.assert(
      fc.property(req, (r) => {
        const data = encodeRequest(r as InternalRaftRequest);
        expect(decodeEntryData(data)).toEqual(jsonRoundTrip(r));
        expect(JSON.stringify(decodeEntryData(data))).toBe(JSON.stringify(r));
      }),
    );
  });

  it('decodes what was encoded, once per entry object', () => {
    const req: InternalRaftRequest = { header: { id: 7 }, put: { key: 'k', value: 'v', lease: undefined, prevKv: true } };
    const e = entry(3, req);
    const a = decodeRequest(e);
    expect(a).toEqual({ header: { id: 7 }, put: { key: 'k', value: 'v', prevKv: true } });
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
    expect(got).toEqual(decodeEntryData(e.data));
    expect(got).toEqual({ header: { id: 9 }, put: { key: 'k', value: 'v', ignoreLease: false } });
    expect('lease' in got.put!).toBe(false); // as JSON drops it
    expect(got).not.toBe(req); // a copy: the proposer keeps its object
    req.put!.value = 'changed later';
    expect(decodeRequest(e).put!.value).toBe('v');
  });

  it("hands the memo the copy the request's encoding made, with every value back in place", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ requestPut: fc.record({ key: fc.string(), value: fc.string() }) }), fc.record({ requestRange: fc.record({ key: fc.string() }) })), { maxLength: 3 }),
        fc.string(),
        (ops, v) => {
          const req: InternalRaftRequest = { header: { id: 11 }, txn: { success: [...ops, { requestTxn: { success: [{ requestPut: { key: 'n', value: v } }] } }], failure: ops } };
          const e = { term: 1, index: 21, type: 'EntryNormal' as const, data: encodeRequest(req) };
          rememberEncoded(e, req);
          const got = decodeRequest(e);
          expect(got).toEqual(decodeEntryData(e.data));
          expect(JSON.stringify(got)).toBe(JSON.stringify(req));
          expect(got.txn).not.toBe(req.txn);
          // Not the request last encoded: remembered as a copy of its own.
          const e2 = { ...e, index: 22, data: encodeRequest({ header: { id: 12 }, put: { key: 'k', value: 'w' } }) };
          const req2: InternalRaftRequest = { header: { id: 12 }, put: { key: 'k', value: 'w' } };
          rememberEncoded(e2, req2);
          expect(decodeRequest(e2)).toEqual(req2);
          expect(decodeRequest(e2)).not.toBe(req2);
        },
      ),
      { numRuns: 200 },
    );
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
