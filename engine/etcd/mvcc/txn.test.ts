// Txn through the applier (server/etcdserver/apply.go Txn, applyCompare,
// checkRequestPut / checkRequestRange) and the v3rpc txn checks.
import { describe, expect, it } from 'vitest';
import { ErrDuplicateKey, ErrEmptyKey, ErrFutureRev, ErrKeyNotFound, ErrLeaseNotFound, ErrTooManyOps } from '../api/errors';
import type { RequestOp, TxnRequest, TxnResponse } from '../api/rpc';
import { checkTxn } from '../api/validate';
import { must, TestMember } from './testkit';

const put = (key: string, value: string): RequestOp => ({ requestPut: { key, value } });
const get = (key: string, rangeEnd?: string): RequestOp => ({ requestRange: { key, rangeEnd } });

describe('txn', () => {
  it('creates only if absent (compare CREATE == 0), as the apiserver does', () => {
    const m = new TestMember();
    const create: TxnRequest = {
      compare: [{ key: '/registry/pods/a', target: 'MOD', result: 'EQUAL', modRevision: 0 }],
      success: [put('/registry/pods/a', 'v1')],
      failure: [get('/registry/pods/a')],
    };
    const r1 = m.ok<TxnResponse>({ txn: create });
    expect(r1.succeeded).toBe(true);
    expect(r1.header.revision).toBe(2);
    expect(r1.responses[0]!.responsePut!.header.revision).toBe(2);
    const r2 = m.ok<TxnResponse>({ txn: create });
    expect(r2.succeeded).toBe(false);
    expect(r2.header.revision).toBe(2); // read-only branch: no new revision
    expect(r2.responses[0]!.responseRange!.kvs[0]).toMatchObject({ value: 'v1', modRevision: 2 });
  });

  it('all writes of a txn share one revision; reads inside see earlier writes', () => {
    const m = new TestMember();
    m.put('a', 'old'); // 2
    const r = m.ok<TxnResponse>({
      txn: {
        success: [get('a'), put('a', 'new'), get('a'), put('b', 'x'), { requestDeleteRange: { key: 'zz' } }, get('a', 'c')],
      },
    });
    expect(r.header.revision).toBe(3);
    expect(m.sm.currentRevision()).toBe(3);
    const [r0, p1, r2, p3, d4, r5] = r.responses;
    expect(r0!.responseRange!.kvs[0]!.value).toBe('old');
    expect(r0!.responseRange!.header.revision).toBe(2);
    expect(p1!.responsePut!.header.revision).toBe(3);
    expect(r2!.responseRange!.kvs[0]).toMatchObject({ value: 'new', modRevision: 3, version: 2 });
    expect(r2!.responseRange!.header.revision).toBe(3);
    expect(p3!.responsePut!.header.revision).toBe(3);
    expect(d4!.responseDeleteRange).toMatchObject({ deleted: 0, header: { revision: 3 } });
    expect(r5!.responseRange!.kvs.map((kv) => kv.key)).toEqual(['a', 'b']);
    // nested headers carry only a revision
    expect(p1!.responsePut!.header).toEqual({ clusterId: 0, memberId: 0, revision: 3, raftTerm: 0 });
    expect(r.header).toEqual({ clusterId: 100, memberId: 7, revision: 3, raftTerm: 1 });
  });

  it('compares use the state before the txn and cover ranges', () => {
    const m = new TestMember();
    m.put('p/1', 'a');
    m.put('p/2', 'b');
    const allVersion1 = (ok: boolean): TxnRequest => ({
      compare: [{ key: 'p/', rangeEnd: 'p0', target: 'VERSION', result: ok ? 'EQUAL' : 'GREATER', version: 1 }],
      success: [put('yes', '1')],
      failure: [put('no', '1')],
    });
    expect(m.ok<TxnResponse>({ txn: allVersion1(true) }).succeeded).toBe(true);
    m.put('p/2', 'c'); // p/2 now version 2
    expect(m.ok<TxnResponse>({ txn: allVersion1(true) }).succeeded).toBe(false);
    expect(m.ok<TxnResponse>({ txn: allVersion1(false) }).succeeded).toBe(false); // p/1 is not > 1
  });

  it('VALUE compares fail on a missing key; other targets compare zero', () => {
    const m = new TestMember();
    const t = (c: TxnRequest['compare']) => m.ok<TxnResponse>({ txn: { compare: c } }).succeeded;
    expect(t([{ key: 'nope', target: 'VALUE', result: 'EQUAL', value: '' }])).toBe(false);
    expect(t([{ key: 'nope', target: 'VALUE', result: 'NOT_EQUAL', value: 'x' }])).toBe(false);
    expect(t([{ key: 'nope', target: 'VERSION', result: 'EQUAL', version: 0 }])).toBe(true);
    expect(t([{ key: 'nope', target: 'LEASE', result: 'LESS', lease: 1 }])).toBe(true);
    m.put('k', 'm');
    expect(t([{ key: 'k', target: 'VALUE', result: 'GREATER', value: 'a' }])).toBe(true);
    expect(t([{ key: 'k', target: 'VALUE', result: 'LESS', value: 'a' }])).toBe(false);
    expect(t([{ key: 'k', target: 'CREATE', result: 'EQUAL', createRevision: 2 }])).toBe(true);
  });

  it('nested txns take their own branch; nested headers are empty', () => {
    const m = new TestMember();
    m.put('x', '1');
    const r = m.ok<TxnResponse>({
      txn: {
        compare: [{ key: 'x', target: 'VALUE', result: 'EQUAL', value: '1' }],
        success: [
          {
            requestTxn: {
              compare: [{ key: 'x', target: 'VALUE', result: 'EQUAL', value: '2' }],
              success: [put('inner-yes', '1')],
              failure: [put('inner-no', '1'), get('x')],
            },
          },
          put('outer', '1'),
        ],
      },
    });
    expect(r.succeeded).toBe(true);
    const inner = r.responses[0]!.responseTxn!;
    expect(inner.succeeded).toBe(false);
    expect(inner.header.revision).toBe(0);
    expect(inner.responses[1]!.responseRange!.kvs[0]!.value).toBe('1');
    expect(must(m.sm.read({ key: 'inner-no' })).kvs[0]!.modRevision).toBe(3);
    expect(must(m.sm.read({ key: 'outer' })).kvs[0]!.modRevision).toBe(3);
    expect(must(m.sm.read({ key: 'inner-yes' })).count).toBe(0);
  });

  it('checks the taken branch before applying anything', () => {
    const m = new TestMember();
    m.put('a', '1');
    expect(m.apply({ txn: { success: [put('b', '1'), { requestPut: { key: 'c', lease: 42 } }] } })).toBe(ErrLeaseNotFound);
    expect(m.apply({ txn: { success: [put('b', '1'), { requestPut: { key: 'zz', ignoreValue: true } }] } })).toBe(ErrKeyNotFound);
    expect(m.apply({ txn: { success: [put('b', '1'), { requestRange: { key: 'a', revision: 10 } }] } })).toBe(ErrFutureRev);
    expect(m.sm.currentRevision()).toBe(2);
    expect(must(m.sm.read({ key: 'b' })).count).toBe(0);
    // the branch not taken is not checked
    const r = m.ok<TxnResponse>({
      txn: {
        compare: [{ key: 'a', target: 'VALUE', result: 'EQUAL', value: '1' }],
        success: [put('b', '1')],
        failure: [{ requestPut: { key: 'c', lease: 42 } }],
      },
    });
    expect(r.succeeded).toBe(true);
  });

  it('a read-only txn is answered locally by readTxn', () => {
    const m = new TestMember();
    m.put('a', '1');
    const r = must(m.sm.readTxn({ success: [get('a')] }, 4));
    expect(r.header).toEqual({ clusterId: 100, memberId: 7, revision: 2, raftTerm: 4 });
    expect(r.responses[0]!.responseRange!.kvs[0]!.value).toBe('1');
  });
});

describe('txn request checks (v3rpc key.go)', () => {
  it('limits ops per list to MaxTxnOps', () => {
    const ops = Array.from({ length: 129 }, (_, i) => put(`k${i}`, 'v'));
    expect(checkTxn({ success: ops })).toBe(ErrTooManyOps);
    expect(checkTxn({ success: ops.slice(0, 128), failure: ops.slice(0, 128) })).toBeNull();
    expect(ErrTooManyOps.message).toBe('etcdserver: too many operations in txn request');
  });

  it('rejects duplicate puts and puts under a delete in one branch', () => {
    expect(checkTxn({ success: [put('a', '1'), put('a', '2')] })).toBe(ErrDuplicateKey);
    expect(checkTxn({ success: [put('b', '1'), { requestDeleteRange: { key: 'a', rangeEnd: 'c' } }] })).toBe(ErrDuplicateKey);
    expect(checkTxn({ success: [put('a', '1')], failure: [put('a', '2')] })).toBeNull();
    const nested = (k: string): RequestOp => ({ requestTxn: { success: [put(k, '1')], failure: [put(k, '2')] } });
    expect(checkTxn({ success: [nested('x'), put('y', '1')] })).toBeNull();
    expect(checkTxn({ success: [nested('x'), put('x', '1')] })).toBe(ErrDuplicateKey);
    // upstream quirk: a from-key delete ('\0' end) is the empty interval [key, "\0")
    expect(checkTxn({ success: [put('b', '1'), { requestDeleteRange: { key: 'a', rangeEnd: '\0' } }] })).toBeNull();
  });

  it('rejects empty keys and empty ops', () => {
    expect(checkTxn({ compare: [{ key: '' }] })).toBe(ErrEmptyKey);
    expect(checkTxn({ success: [{}] })).toBe(ErrKeyNotFound);
  });
});
