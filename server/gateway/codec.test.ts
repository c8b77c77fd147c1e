import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { binaryToBase64 } from '../../engine/etcd/api/bytes';
import { decodeBody, decodeGoBase64, encodeMessage, fromGatewayJson } from './codec';
import * as S from './schema';

const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64');

describe('decodeGoBase64', () => {
  it('decodes padded standard base64', () => {
    expect(decodeGoBase64('Zm9v')).toEqual({ ok: true, bin: 'foo' });
    expect(decodeGoBase64('Zm8=')).toEqual({ ok: true, bin: 'fo' });
    expect(decodeGoBase64('Zg==')).toEqual({ ok: true, bin: 'f' });
    expect(decodeGoBase64('')).toEqual({ ok: true, bin: '' });
    expect(decodeGoBase64('AP8=')).toEqual({ ok: true, bin: '\x00\xff' });
  });
  it('refuses what Go refuses, at the offset Go reports (checked against etcd 3.4)', () => {
    expect(decodeGoBase64('Zm8')).toEqual({ ok: false, at: 0 });
    expect(decodeGoBase64('-_8=')).toEqual({ ok: false, at: 0 });
    expect(decodeGoBase64('Zm9v!')).toEqual({ ok: false, at: 4 });
    expect(decodeGoBase64('Zg==Zg==')).toEqual({ ok: false, at: 4 });
    expect(decodeGoBase64('Z===')).toEqual({ ok: false, at: 1 });
  });
  it('agrees with Node on random byte strings', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const text = Buffer.from(bytes).toString('base64');
        const r = decodeGoBase64(text);
        expect(r.ok && Buffer.from(r.bin, 'latin1').equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });
});

describe('decoding requests (jsonpb semantics)', () => {
  it('accepts proto names and JSON names, int64 as numbers or strings, enums by name or number', () => {
    const r = decodeBody(
      JSON.stringify({ key: b64('a'), range_end: b64('z'), limit: '10', revision: 3, sort_order: 'DESCEND', sortTarget: 2, keysOnly: true, count_only: false }),
      S.RangeRequestSpec,
    );
    expect(r).toEqual({ ok: true, value: { key: 'a', rangeEnd: 'z', limit: 10, revision: 3, sortOrder: 'DESCEND', sortTarget: 'CREATE', keysOnly: true, countOnly: false } });
  });

  it('treats null, an empty body and unknown fields as unset', () => {
    expect(decodeBody('', S.PutRequestSpec)).toEqual({ ok: true, value: {} });
    expect(decodeBody('null', S.PutRequestSpec)).toEqual({ ok: true, value: {} });
    expect(decodeBody('{"key":"Zm9v","lease":null,"bogus":[1]}', S.PutRequestSpec)).toEqual({ ok: true, value: { key: 'foo' } });
  });

  it('decodes nested txn requests', () => {
    const body = {
      compare: [{ key: b64('k'), result: 'NOT_EQUAL', target: 'VALUE', value: b64('v') }],
      success: [{ request_put: { key: b64('k'), value: b64('1'), prev_kv: true } }, { request_txn: { success: [{ requestRange: { key: b64('k') } }] } }],
      failure: [{ request_delete_range: { key: b64('k'), range_end: 'AA==' } }],
    };
    const r = decodeBody(JSON.stringify(body), S.TxnRequestSpec);
    expect(r).toEqual({
      ok: true,
      value: {
        compare: [{ key: 'k', result: 'NOT_EQUAL', target: 'VALUE', value: 'v' }],
        success: [{ requestPut: { key: 'k', value: '1', prevKv: true } }, { requestTxn: { success: [{ requestRange: { key: 'k' } }] } }],
        failure: [{ requestDeleteRange: { key: 'k', rangeEnd: '\0' } }],
      },
    });
  });

  it('words decode errors as etcd’s gateway does (checked against etcd 3.4)', () => {
    const err = (text: string, spec = S.RangeRequestSpec) => {
      const r = decodeBody(text, spec);
      return r.ok ? null : r.error;
    };
    expect(err('{"key":"Zm9v",')).toBe('unexpected EOF');
    expect(err('{"key":"!!!"}')).toBe('illegal base64 data at input byte 0');
    expect(err('{"key":5}')).toBe('json: cannot unmarshal number into Go value of type []uint8');
    expect(err('{"key":"Zm9v","limit":1.5}')).toBe('json: cannot unmarshal number 1.5 into Go value of type int64');
    expect(err('{"key":"Zm9v","limit":"1e2"}')).toBe('json: cannot unmarshal number 1e2 into Go value of type int64');
    expect(err('{"key":"Zm9v","limit":""}')).toBe('unexpected end of JSON input');
    expect(err('{"key":"Zm9v","limit":"abc"}')).toBe("invalid character 'a' looking for beginning of value");
    expect(err('{"key":"Zm9v","limit":true}')).toBe('json: cannot unmarshal bool into Go value of type int64');
    expect(err('{"key":"Zm9v","limit":99999999999999999999}')).toBe('json: cannot unmarshal number 99999999999999999999 into Go value of type int64');
    expect(err('{"key":"Zm9v","sort_order":"BOGUS"}')).toBe('unknown value "BOGUS" for enum etcdserverpb.RangeRequest_SortOrder');
    expect(err('{"key":"Zm9v","sort_order":true}')).toBe('json: cannot unmarshal bool into Go value of type etcdserverpb.RangeRequest_SortOrder');
    expect(err('{"key":"Zm9v","serializable":1}')).toBe('json: cannot unmarshal number into Go value of type bool');
    expect(err('{"key":"Zm9v","keys_only":"true"}')).toBe('json: cannot unmarshal string into Go value of type bool');
    expect(err('[1]')).toBe('json: cannot unmarshal array into Go value of type map[string]json.RawMessage');
    expect(err('"x"')).toBe('json: cannot unmarshal string into Go value of type map[string]json.RawMessage');
    expect(err('{"compare":{}}', S.TxnRequestSpec)).toBe('json: cannot unmarshal object into Go value of type []json.RawMessage');
    expect(err('{"success":[{"request_put":"x"}]}', S.TxnRequestSpec)).toBe('json: cannot unmarshal string into Go value of type map[string]json.RawMessage');
    expect(err('{"ID":-1}', S.LeaseStatusSpec)).toBeNull();
  });

  it('refuses integers a JS number cannot hold exactly (a simulator limit)', () => {
    const r = decodeBody('{"ID":"9007199254740993"}', S.LeaseRevokeRequestSpec);
    expect(r.ok).toBe(false);
    expect(decodeBody('{"ID":"9007199254740991"}', S.LeaseRevokeRequestSpec)).toEqual({ ok: true, value: { ID: 9007199254740991 } });
  });
});

describe('encoding responses (OrigName, no defaults)', () => {
  const header = { clusterId: 324952591200643719n, memberId: 0, revision: 2, raftTerm: 2 };

  it('writes a put response exactly as etcd does', () => {
    const out = encodeMessage({ header: { clusterId: 17, memberId: 33, revision: 2, raftTerm: 2 } }, S.PutResponseSpec);
    expect(JSON.stringify(out)).toBe('{"header":{"cluster_id":"17","member_id":"33","revision":"2","raft_term":"2"}}');
  });

  it('writes 64-bit integers as strings and omits zero fields', () => {
    const out = encodeMessage(
      {
        header,
        kvs: [{ key: 'foo', createRevision: 2, modRevision: 3, version: 2, value: '', lease: 0 }],
        more: false,
        count: 1,
      },
      S.RangeResponseSpec,
    );
    expect(JSON.stringify(out)).toBe(
      '{"header":{"cluster_id":"324952591200643719","revision":"2","raft_term":"2"},"kvs":[{"key":"Zm9v","create_revision":"2","mod_revision":"3","version":"2"}],"count":"1"}',
    );
  });

  it('omits an empty range entirely but keeps a present empty message', () => {
    expect(encodeMessage({ header: { clusterId: 1, memberId: 1, revision: 3, raftTerm: 2 }, kvs: [], more: false, count: 0 }, S.RangeResponseSpec)).toEqual({
      header: { cluster_id: '1', member_id: '1', revision: '3', raft_term: '2' },
    });
    const txn = encodeMessage(
      {
        header: { clusterId: 1, memberId: 1, revision: 5, raftTerm: 2 },
        succeeded: false,
        responses: [
          { responseDeleteRange: { header: { clusterId: 0, memberId: 0, revision: 5, raftTerm: 0 }, deleted: 1, prevKvs: [] } },
          { responseTxn: { header: { clusterId: 0, memberId: 0, revision: 0, raftTerm: 0 }, succeeded: true, responses: [] } },
        ],
      },
      S.TxnResponseSpec,
    );
    expect(JSON.stringify(txn)).toBe(
      '{"header":{"cluster_id":"1","member_id":"1","revision":"5","raft_term":"2"},"responses":[{"response_delete_range":{"header":{"revision":"5"},"deleted":"1"}},{"response_txn":{"header":{},"succeeded":true}}]}',
    );
  });

  it('writes watch events with enum names, PUT (the zero value) omitted', () => {
    const out = encodeMessage(
      {
        header: { clusterId: 1, memberId: 2, revision: 8, raftTerm: 2 },
        watchId: 0,
        created: false,
        canceled: false,
        compactRevision: 0,
        cancelReason: '',
        fragment: false,
        events: [
          { type: 'PUT', kv: { key: 'w', createRevision: 6, modRevision: 6, version: 1, value: '1', lease: 0 } },
          { type: 'DELETE', kv: { key: 'w', createRevision: 0, modRevision: 8, version: 0, value: '', lease: 0 }, prevKv: { key: 'w', createRevision: 6, modRevision: 7, version: 2, value: '2', lease: 0 } },
        ],
      },
      S.WatchResponseSpec,
    );
    expect(JSON.stringify(out)).toBe(
      '{"header":{"cluster_id":"1","member_id":"2","revision":"8","raft_term":"2"},"events":[{"kv":{"key":"dw==","create_revision":"6","mod_revision":"6","version":"1","value":"MQ=="}},{"type":"DELETE","kv":{"key":"dw==","mod_revision":"8"},"prev_kv":{"key":"dw==","create_revision":"6","mod_revision":"7","version":"2","value":"Mg=="}}]}',
    );
  });

  it('writes lease responses with their proto spellings', () => {
    expect(encodeMessage({ header: { clusterId: 1, memberId: 1, revision: 5, raftTerm: 2 }, ID: 1001, TTL: -1, grantedTTL: 0, keys: [] }, S.LeaseTimeToLiveResponseSpec)).toEqual({
      header: { cluster_id: '1', member_id: '1', revision: '5', raft_term: '2' },
      ID: '1001',
      TTL: '-1',
    });
    expect(encodeMessage({ header: { clusterId: 1, memberId: 1, revision: 5, raftTerm: 2 }, ID: 7, TTL: 30, grantedTTL: 30, keys: ['a'] }, S.LeaseTimeToLiveResponseSpec)).toMatchObject({
      grantedTTL: '30',
      keys: ['YQ=='],
    });
    expect(encodeMessage({ header: { clusterId: 1, memberId: 1, revision: 5, raftTerm: 2 }, ID: 1000, TTL: 30, error: '' }, S.LeaseGrantResponseSpec)).toEqual({
      header: { cluster_id: '1', member_id: '1', revision: '5', raft_term: '2' },
      ID: '1000',
      TTL: '30',
    });
  });

  it('round-trips key-values through JSON (property)', () => {
    const bin = fc.uint8Array({ maxLength: 20 }).map((a) => String.fromCharCode(...a));
    const int = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
    const kv = fc.record({ key: bin, createRevision: int, modRevision: int, version: int, value: bin, lease: int });
    fc.assert(
      fc.property(fc.array(kv, { maxLength: 4 }), int, fc.boolean(), (kvs, count, more) => {
        const msg = { header: { clusterId: 1, memberId: 2, revision: 3, raftTerm: 4 }, kvs, more, count };
        const json = JSON.parse(JSON.stringify(encodeMessage(msg, S.RangeResponseSpec)));
        const back = fromGatewayJson(json, S.RangeResponseSpec);
        expect(back.ok).toBe(true);
        if (!back.ok) return;
        // Zero fields come back absent: compare with zeros filled in.
        const v = back.value as { kvs?: Record<string, unknown>[]; more?: boolean; count?: number };
        expect(v.count ?? 0).toBe(count);
        expect(v.more ?? false).toBe(more);
        const got = (v.kvs ?? []).map((k) => ({ key: '', createRevision: 0, modRevision: 0, version: 0, value: '', lease: 0, ...k }));
        expect(got).toEqual(kvs);
      }),
      { numRuns: 200 },
    );
  });

  it('encodes bytes with the engine’s base64', () => {
    expect(encodeMessage({ key: '\x00\xff', createRevision: 1, modRevision: 1, version: 1, value: '', lease: 0 }, S.KeyValueSpec).key).toBe(binaryToBase64('\x00\xff'));
  });
});

describe('schema', () => {
  it('derives protoc JSON names', () => {
    expect(S.jsonNameOf('range_end')).toBe('rangeEnd');
    expect(S.jsonNameOf('TTL')).toBe('TTL');
    expect(S.jsonNameOf('grantedTTL')).toBe('grantedTTL');
    expect(S.jsonNameOf('min_mod_revision')).toBe('minModRevision');
  });
});

describe('oneofs', () => {
  it('refuses two members of one oneof', () => {
    const r = decodeBody('{"success":[{"request_put":{"key":"YQ=="},"request_range":{"key":"YQ=="}}]}', S.TxnRequestSpec);
    expect(r).toEqual({ ok: false, error: 'oneof RequestOp.request is already set' });
    const w = decodeBody('{"create_request":{},"cancel_request":{}}', S.WatchRequestSpec);
    expect(w.ok).toBe(false);
  });
  it('allows one member of a oneof, even when zero', () => {
    expect(decodeBody('{"compare":[{"key":"YQ==","version":0}]}', S.TxnRequestSpec)).toEqual({ ok: true, value: { compare: [{ key: 'a', version: 0 }] } });
  });
});
