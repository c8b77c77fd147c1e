import { describe, expect, it } from 'vitest';
import { cloneState } from '../serial';
import type { EtcdOperation, EtcdRequest, EtcdResponse, EtcdState, PutRequest } from './etcdModel';
import {
  applyRequest,
  checkEtcdOperations,
  createEtcdModel,
  ErrFutureRev,
  ErrLeaseNotFound,
  etcdModel,
  etcdPartition,
  etcdStateKey,
  initialEtcdState,
  patchEtcdHistory,
} from './etcdModel';
import type { KeyValue } from './etcdTypes';
import { checkOperations } from './linearizability';
import { generateEtcdHistory } from './testHistories';

let clock = 0;
/** An operation [call, call + 5] by `client`, unless times are given. */
function op(client: number, input: EtcdRequest, output: EtcdResponse | undefined, call?: number, ret?: number): EtcdOperation {
  const c = call ?? (clock += 10);
  return { clientId: client, input, output, call: c, return: ret ?? (output === undefined ? Infinity : c + 5) };
}
const kv = (key: string, value: string, createRevision: number, modRevision: number, version: number, lease?: number): KeyValue =>
  lease ? { key, value, createRevision, modRevision, version, lease } : { key, value, createRevision, modRevision, version };
const put = (key: string, value: string, leaseId?: number): PutRequest => (leaseId ? { type: 'put', key, value, leaseId } : { type: 'put', key, value });
const get = (key: string, revision?: number): EtcdRequest => (revision ? { type: 'get', key, revision } : { type: 'get', key });
const del = (key: string): EtcdRequest => ({ type: 'delete', key });
const putOk = (revision: number, prevKv?: KeyValue | null): EtcdResponse =>
  prevKv === undefined ? { type: 'put', header: { revision } } : { type: 'put', header: { revision }, prevKv };
const getOk = (revision: number, found?: KeyValue): EtcdResponse => (found ? { type: 'get', header: { revision }, kv: found } : { type: 'get', header: { revision } });
const delOk = (revision: number, deleted: number): EtcdResponse => ({ type: 'delete', header: { revision }, deleted });
const cas = (key: string, mod: number, value: string): EtcdRequest => ({
  type: 'txn',
  compare: { key, target: 'MOD', result: 'EQUAL', value: mod },
  onSuccess: { type: 'put', key, value },
  onFailure: { type: 'get', key },
});
const txnOk = (revision: number, succeeded: boolean, read?: KeyValue): EtcdResponse => ({
  type: 'txn',
  header: { revision },
  succeeded,
  responses: succeeded ? [{ type: 'put', prevKv: undefined }] : [read ? { type: 'get', kv: read } : { type: 'get' }],
});

const ok = (h: EtcdOperation[]) => checkOperations(etcdModel, h).ok;

describe('etcd model semantics', () => {
  it('bumps the revision once per successful write and not for a delete of nothing', () => {
    let s: EtcdState = initialEtcdState();
    const step = (r: EtcdRequest): EtcdResponse => {
      const a = applyRequest(s, r);
      s = a.state;
      return a.response;
    };
    expect(step(put('a', '1'))).toEqual({ type: 'put', header: { revision: 2 }, prevKv: null });
    expect(step(put('a', '2'))).toEqual({ type: 'put', header: { revision: 3 }, prevKv: kv('a', '1', 2, 2, 1) });
    expect(step(get('a'))).toEqual(getOk(3, kv('a', '2', 2, 3, 2)));
    expect(step(del('b'))).toMatchObject({ header: { revision: 3 }, deleted: 0 });
    expect(step(del('a'))).toMatchObject({ header: { revision: 4 }, deleted: 1 });
    expect(step(put('a', '3'))).toMatchObject({ header: { revision: 5 } });
    // Recreated: new createRevision, version restarts.
    expect(step(get('a'))).toEqual(getOk(5, kv('a', '3', 5, 5, 1)));
    expect(step(get('a', 9))).toEqual({ type: 'error', error: ErrFutureRev });
  });

  it('evaluates txn compares like etcd, including on missing keys', () => {
    const s = applyRequest(initialEtcdState(), put('a', 'x')).state; // a@2
    const txn = (target: 'VALUE' | 'MOD' | 'VERSION' | 'CREATE', result: 'EQUAL' | 'NOT_EQUAL' | 'GREATER' | 'LESS', value: string | number, key = 'a') =>
      (applyRequest(s, { type: 'txn', compare: { key, target, result, value }, onSuccess: put(key, 'y') }).response as { succeeded: boolean }).succeeded;
    expect(txn('VALUE', 'EQUAL', 'x')).toBe(true);
    expect(txn('VALUE', 'GREATER', 'w')).toBe(true);
    expect(txn('MOD', 'EQUAL', 2)).toBe(true);
    expect(txn('MOD', 'LESS', 2)).toBe(false);
    expect(txn('VERSION', 'EQUAL', 1)).toBe(true);
    expect(txn('CREATE', 'NOT_EQUAL', 2)).toBe(false);
    // Missing key: VALUE compares always fail, others compare against zero.
    expect(txn('VALUE', 'NOT_EQUAL', 'x', 'b')).toBe(false);
    expect(txn('CREATE', 'EQUAL', 0, 'b')).toBe(true);
    expect(txn('MOD', 'EQUAL', 0, 'b')).toBe(true);
  });

  it('revokes a lease by deleting its keys in one revision', () => {
    let s = initialEtcdState();
    for (const r of [{ type: 'leaseGrant', id: 7, ttl: 10 }, put('a', '1', 7), put('b', '2', 7), put('c', '3')] as EtcdRequest[]) {
      s = applyRequest(s, r).state;
    }
    expect(s.revision).toBe(4);
    const revoked = applyRequest(s, { type: 'leaseRevoke', id: 7 });
    expect(revoked.response).toEqual({ type: 'leaseRevoke', header: { revision: 5 } });
    expect([...revoked.state.kvs.keys()]).toEqual(['c']);
    expect(applyRequest(revoked.state, put('a', '9', 7)).response).toEqual({ type: 'error', error: ErrLeaseNotFound });
    // Re-attaching a key to no lease detaches it from the old one.
    const detached = applyRequest(applyRequest(s, put('a', '5')).state, { type: 'leaseRevoke', id: 7 }).state;
    expect([...detached.kvs.keys()].sort()).toEqual(['a', 'c']);
  });

  it('keys states by content, not by history', () => {
    const a = applyRequest(applyRequest(initialEtcdState(), { type: 'leaseGrant', id: 1, ttl: 5 }).state, { type: 'leaseGrant', id: 2, ttl: 5 }).state;
    const b = applyRequest(applyRequest(initialEtcdState(), { type: 'leaseGrant', id: 2, ttl: 5 }).state, { type: 'leaseGrant', id: 1, ttl: 5 }).state;
    expect(etcdStateKey(a)).toBe(etcdStateKey(b));
    const x = applyRequest(initialEtcdState(), put('a', '1')).state;
    const y = applyRequest(initialEtcdState(), put('a', '2')).state;
    expect(etcdStateKey(x)).not.toBe(etcdStateKey(y));
    expect(x.revision).toBe(y.revision);
  });

  it('survives a snapshot round trip mid-history', () => {
    const h = generateEtcdHistory(5, { ops: 60, timeoutRate: 0 });
    let s = initialEtcdState();
    const byCall = [...h.operations].sort((p, q) => p.call - q.call);
    for (const o of byCall.slice(0, 30)) s = applyRequest(s, o.input).state;
    let clone = cloneState(s);
    expect(etcdStateKey(clone)).toBe(etcdStateKey(s));
    for (const o of byCall.slice(30)) {
      const a = applyRequest(s, o.input);
      const b = applyRequest(clone, o.input);
      expect(b.response).toEqual(a.response);
      s = a.state;
      clone = b.state;
    }
    expect(etcdStateKey(clone)).toBe(etcdStateKey(s));
  });
});

describe('etcd linearizability', () => {
  it('accepts a sequential history', () => {
    expect(ok([op(0, put('a', '1'), putOk(2)), op(1, get('a'), getOk(2, kv('a', '1', 2, 2, 1))), op(0, del('a'), delOk(3, 1)), op(1, del('a'), delOk(3, 0)), op(1, get('a'), getOk(3))])).toBe(true);
  });

  it('rejects a stale read', () => {
    const h = [op(0, put('a', '1'), putOk(2)), op(0, put('a', '2'), putOk(3)), op(1, get('a'), getOk(2, kv('a', '1', 2, 2, 1)))];
    const r = checkOperations(etcdModel, h);
    expect(r.ok).toBe(false);
    if (r.ok === false) {
      expect(r.explanation).toContain('get(a) -> a="1" (create=2 mod=2 ver=1), rev 2');
      expect(r.explanation).toContain('rev 3 {a="2"');
    }
    // Reading the old value with a current header is just as wrong.
    expect(ok([op(0, put('a', '1'), putOk(2)), op(0, put('a', '2'), putOk(3)), op(1, get('a'), getOk(3, kv('a', '1', 2, 2, 1)))])).toBe(false);
  });

  it('rejects a lost write', () => {
    expect(ok([op(0, put('a', '1'), putOk(2)), op(1, get('a'), getOk(2))])).toBe(false);
    expect(ok([op(0, put('a', '1'), putOk(2)), op(1, get('a'), getOk(1))])).toBe(false);
  });

  it('orders concurrent puts by their revisions, either way', () => {
    const first = op(0, put('a', 'x'), putOk(2), 0, 10);
    const second = op(1, put('a', 'y'), putOk(3), 0, 10);
    expect(ok([first, second, op(2, get('a'), getOk(3, kv('a', 'y', 2, 3, 2)), 20, 30)])).toBe(true);
    const swapped = [op(0, put('a', 'x'), putOk(3), 0, 10), op(1, put('a', 'y'), putOk(2), 0, 10)];
    expect(ok([...swapped, op(2, get('a'), getOk(3, kv('a', 'x', 2, 3, 2)), 20, 30)])).toBe(true);
    expect(ok([first, second, op(2, get('a'), getOk(3, kv('a', 'x', 2, 3, 2)), 20, 30)])).toBe(false);
    // Two writes cannot share a revision.
    expect(ok([op(0, put('a', 'x'), putOk(2), 0, 10), op(1, put('b', 'y'), putOk(2), 0, 10)])).toBe(false);
  });

  it('checks prevKv when the client asked for it', () => {
    const h = [op(0, put('a', '1'), putOk(2)), op(1, put('a', '2'), putOk(3, kv('a', '1', 2, 2, 1)))];
    expect(ok(h)).toBe(true);
    expect(ok([h[0] as EtcdOperation, op(1, put('a', '2'), putOk(3, null))])).toBe(false);
  });

  it('resolves a timed-out put that took effect', () => {
    const h = [op(0, put('a', '1'), undefined, 0), op(1, get('a'), getOk(2, kv('a', '1', 2, 2, 1)), 50, 60)];
    expect(ok(h)).toBe(true);
    // Its effect shows up later, after another write.
    expect(ok([op(0, put('a', '1'), undefined, 0), op(1, put('b', 'z'), putOk(2), 10, 20), op(1, get('a'), getOk(3, kv('a', '1', 3, 3, 1)), 50, 60)])).toBe(true);
  });

  it('resolves a timed-out put that did not take effect', () => {
    const h = [op(0, put('a', '1'), undefined, 0), op(1, put('b', 'z'), putOk(2), 10, 20), op(1, get('a'), getOk(2), 50, 60)];
    expect(ok(h)).toBe(true);
    // But a revision nobody accounts for is a phantom write.
    expect(ok([op(1, put('b', 'z'), putOk(2), 10, 20), op(1, get('b'), getOk(3, kv('b', 'z', 2, 2, 1)), 50, 60)])).toBe(false);
  });

  it('finds the CAS race: two transactions cannot both win the same revision', () => {
    const setup = op(0, put('lock', 'free'), putOk(2), 0, 5);
    const a = op(1, cas('lock', 2, 'A'), txnOk(3, true), 10, 20);
    const bWins = op(2, cas('lock', 2, 'B'), txnOk(4, true), 10, 20);
    const bLoses = op(2, cas('lock', 2, 'B'), txnOk(3, false, kv('lock', 'A', 2, 3, 2)), 10, 20);
    expect(ok([setup, a, bLoses])).toBe(true);
    expect(ok([setup, a, bWins])).toBe(false);
    // The loser saw the old value: it must have run before A, but then it would have won.
    expect(ok([setup, a, op(2, cas('lock', 2, 'B'), txnOk(2, false, kv('lock', 'free', 2, 2, 1)), 10, 20)])).toBe(false);
  });

  it('accepts a CAS whose client timed out and whose effect someone else saw', () => {
    const h = [
      op(0, put('lock', 'free'), putOk(2), 0, 5),
      op(1, cas('lock', 2, 'A'), undefined, 10),
      op(2, cas('lock', 2, 'B'), txnOk(3, false, kv('lock', 'A', 2, 3, 2)), 30, 40),
    ];
    expect(ok(h)).toBe(true);
  });

  it('checks lease errors against state and ignores other definite errors', () => {
    const grant = op(0, { type: 'leaseGrant', id: 5, ttl: 30 }, { type: 'leaseGrant', header: { revision: 1 }, id: 5 });
    const putLease = op(0, put('a', '1', 5), putOk(2));
    const revoke = op(0, { type: 'leaseRevoke', id: 5 }, { type: 'leaseRevoke', header: { revision: 3 } });
    const notFound = op(1, put('b', '1', 5), { type: 'error', error: ErrLeaseNotFound });
    expect(ok([grant, putLease, revoke, notFound, op(1, get('a'), getOk(3))])).toBe(true);
    // The lease existed for the whole interval of that error: wrong.
    expect(ok([grant, notFound, putLease])).toBe(false);
    // A definite failure for any other reason is a no-op wherever it falls.
    expect(ok([grant, op(1, put('z', 'q'), { type: 'error', error: 'etcdserver: too many requests' }), putLease])).toBe(true);
    expect(etcdPartition([grant, op(1, put('z', 'q'), { type: 'error', error: 'etcdserver: leader changed' }), op(1, get('z'), undefined)])).toEqual([[grant]]);
  });

  it('checks reads at past revisions as far as the current state allows', () => {
    const h = [op(0, put('a', '1'), putOk(2)), op(0, put('b', '1'), putOk(3)), op(0, put('a', '2'), putOk(4))];
    expect(ok([...h, op(1, get('b', 3), getOk(4, kv('b', '1', 3, 3, 1)))])).toBe(true);
    expect(ok([...h, op(1, get('b', 3), getOk(4, kv('b', '0', 3, 3, 1)))])).toBe(false);
    expect(ok([...h, op(1, get('a', 3), getOk(4, kv('a', '1', 2, 2, 1)))])).toBe(true);
    expect(ok([...h, op(1, get('a', 3), getOk(4, kv('a', '2', 2, 4, 2)))])).toBe(false); // from the future
    expect(ok([...h, op(1, get('a', 3), getOk(4))])).toBe(false); // a existed since 2
    expect(ok([...h, op(1, get('a', 9), { type: 'error', error: ErrFutureRev })])).toBe(true);
    expect(ok([...h, op(1, get('a', 4), { type: 'error', error: ErrFutureRev })])).toBe(false);
  });

  it('starts from a given initial store', () => {
    const model = createEtcdModel({ initialRevision: 10, initialKvs: [kv('a', 'old', 4, 9, 3)] });
    expect(checkOperations(model, [op(0, get('a'), getOk(10, kv('a', 'old', 4, 9, 3)))]).ok).toBe(true);
    expect(checkOperations(model, [op(0, put('a', 'new'), putOk(11, kv('a', 'old', 4, 9, 3)))]).ok).toBe(true);
  });
});

describe('etcd histories at harness scale', () => {
  it('checks 300-op, 5-client histories with timeouts in few steps', () => {
    let worst = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const h = generateEtcdHistory(seed, { ops: 300, clients: 5, timeoutRate: 0.03 });
      const r = checkEtcdOperations(h.operations, { committed: h.revisions });
      expect(r.ok, `seed ${seed}`).toBe(true);
      worst = Math.max(worst, r.steps);
    }
    expect(worst).toBeLessThan(100_000);
  });

  it('checks them without patching too, with a few timeouts', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const h = generateEtcdHistory(seed, { ops: 200, clients: 5, timeoutRate: 0.015 });
      expect(checkOperations(etcdModel, h.operations).ok, `seed ${seed}`).toBe(true);
    }
  });

  it('catches a single corrupted read in a large history', () => {
    let caught = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const h = generateEtcdHistory(seed, { ops: 300, timeoutRate: 0.03 });
      const ops = patchEtcdHistory(h.operations, h.revisions);
      // Make the last successful get that found a key report a stale value.
      const i = ops.findLastIndex((o) => o.output?.type === 'get' && o.output.kv !== undefined && o.output.kv.version > 1);
      const o = ops[i] as EtcdOperation;
      const out = o.output as { type: 'get'; header: { revision: number }; kv: KeyValue };
      ops[i] = { ...o, output: { ...out, kv: { ...out.kv, value: 'stale', version: out.kv.version - 1 } } };
      const r = checkOperations(etcdModel, ops, { maxSteps: 300_000 });
      if (r.ok === false) caught++;
      expect(r.ok).not.toBe(true);
    }
    expect(caught).toBe(10);
  });

  it('patching resolves unknown puts from the committed log and drops lost ones', () => {
    const h = generateEtcdHistory(3, { ops: 300, timeoutRate: 0.1 });
    const patched = patchEtcdHistory(h.operations, h.revisions);
    const unknownBefore = h.operations.filter((o) => o.output === undefined && o.input.type === 'put').length;
    const unknownAfter = patched.filter((o) => o.output === undefined && o.input.type === 'put').length;
    expect(unknownBefore).toBeGreaterThan(0);
    expect(unknownAfter).toBe(0);
    expect(patched.length).toBeLessThan(h.operations.length);
    expect(checkOperations(etcdModel, patched).ok).toBe(true);
    // A log claiming that a lost put took a revision some client saw another write get is caught.
    const lost = h.operations.find((o) => o.output === undefined && o.input.type === 'put' && !patched.some((p) => p.input === o.input));
    const input = lost?.input as { key: string; value: string };
    const taken = h.revisions.find((r) => r.committedAt !== undefined && r.committedAt > (lost?.call ?? 0)) as (typeof h.revisions)[number];
    const forged = h.revisions.map((r) =>
      r === taken ? { ...r, events: [...r.events, { type: 'PUT' as const, kv: { key: input.key, value: input.value, createRevision: r.revision, modRevision: r.revision, version: 1 } }] } : r,
    );
    expect(checkOperations(etcdModel, patchEtcdHistory(h.operations, forged)).ok).toBe(false);
  });
});
