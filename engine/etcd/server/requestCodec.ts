// How an InternalRaftRequest travels in a Raft entry (our stand-in for etcd's
// protobuf encoding of raft_internal.proto): the request as JSON with each
// put's value taken out, then, after a newline, the values themselves, raw
// and in order; the JSON holds each value's length where the value was.
// Values are stored objects (JSON text themselves): escaped inside the JSON
// they grew by a seventh and cost a scan of every byte, where protobuf writes
// them as they are (a length, then the bytes). A request with no put value is
// its JSON alone. The JSON text never holds a raw newline, so the first one
// ends it.
//
// Decoding is memoized. Inside one engine the leader's Entry objects reach every
// follower by reference (messages are not serialized), so without the memo each
// committed write would be decoded once per member, a few milliseconds apart;
// and the leader already holds the request it encoded. The memo is a small
// direct-mapped table keyed by the Entry object itself (slot = index mod size):
// bounded, nothing retained beyond the last few hundred entries. It is pure: a
// hit requires the same Entry object with the same data; what it returns is
// exactly decodeEntryData(e.data) (a decode, or a JSON round trip of the
// encoded request); requests are only ever read (apply never mutates one:
// tested); and a miss (a restored snapshot, a cloned engine, an evicted slot)
// decodes again. It is not engine state.
import { jsonRoundTrip } from '../../sim/jsonClone';
import type { InternalRaftRequest, PutRequest, RequestOp, TxnRequest } from '../api/rpc';
import type { Entry } from '../raft';

const SLOTS = 256; // a power of two
const memoEntries: (Entry | undefined)[] = new Array<Entry | undefined>(SLOTS).fill(undefined);
const memoData: string[] = new Array<string>(SLOTS).fill('');
const memoReqs: (InternalRaftRequest | undefined)[] = new Array<InternalRaftRequest | undefined>(SLOTS).fill(undefined);

function remember(e: Entry, req: InternalRaftRequest): void {
  const slot = e.index & (SLOTS - 1);
  memoEntries[slot] = e;
  memoData[slot] = e.data;
  memoReqs[slot] = req;
}

export function encodeRequest(req: InternalRaftRequest): string {
  const values: string[] = [];
  const header = JSON.stringify(withoutValues(req, values));
  return values.length === 0 ? header : `${header}\n${values.join('')}`;
}

/** The request an entry's data holds (no memo: the log views and checkers read entries apart). */
export function decodeEntryData(data: string): InternalRaftRequest {
  const nl = data.indexOf('\n');
  if (nl < 0) return JSON.parse(data) as InternalRaftRequest;
  const req = JSON.parse(data.slice(0, nl)) as InternalRaftRequest;
  const at = { pos: nl + 1 };
  restoreValues(req, data, at);
  if (at.pos !== data.length) throw new Error(`entry data: ${data.length - at.pos} bytes after the last value`);
  return req;
}

// The walk that takes values out and the one that puts them back visit puts in
// the same order: the request's put, then a txn's success ops and failure ops,
// nested txns in place.

function withoutValues(req: InternalRaftRequest, values: string[]): InternalRaftRequest {
  if (req.put && typeof req.put.value === 'string') return { ...req, put: { ...req.put, value: lengthOf(req.put.value, values) } };
  if (req.txn && hasPutValue(req.txn)) return { ...req, txn: txnWithoutValues(req.txn, values) };
  return req;
}

function lengthOf(value: string, values: string[]): string {
  values.push(value);
  return value.length as unknown as string; // a number stands where the value was
}

function hasPutValue(t: TxnRequest): boolean {
  const ops = (xs: RequestOp[] | undefined) => xs?.some((op) => typeof op.requestPut?.value === 'string' || (op.requestTxn !== undefined && hasPutValue(op.requestTxn))) ?? false;
  return ops(t.success) || ops(t.failure);
}

function txnWithoutValues(t: TxnRequest, values: string[]): TxnRequest {
  const ops = (xs: RequestOp[] | undefined) =>
    xs?.map((op) => {
      if (op.requestPut && typeof op.requestPut.value === 'string') return { ...op, requestPut: { ...op.requestPut, value: lengthOf(op.requestPut.value, values) } };
      if (op.requestTxn && hasPutValue(op.requestTxn)) return { ...op, requestTxn: txnWithoutValues(op.requestTxn, values) };
      return op;
    });
  const out: TxnRequest = { ...t };
  if (t.success) out.success = ops(t.success);
  if (t.failure) out.failure = ops(t.failure);
  return out;
}

function restoreValues(req: InternalRaftRequest, data: string, at: { pos: number }): void {
  if (req.put) restorePut(req.put, data, at);
  if (req.txn) restoreTxn(req.txn, data, at);
}

function restorePut(put: PutRequest, data: string, at: { pos: number }): void {
  const n = put.value as unknown;
  if (typeof n !== 'number') return;
  if (!Number.isInteger(n) || n < 0 || at.pos + n > data.length) throw new Error(`entry data: a value of ${String(n)} bytes at ${at.pos} of ${data.length}`);
  put.value = data.slice(at.pos, at.pos + n);
  at.pos += n;
}

function restoreTxn(t: TxnRequest, data: string, at: { pos: number }): void {
  for (const ops of [t.success, t.failure]) {
    for (const op of ops ?? []) {
      if (op.requestPut) restorePut(op.requestPut, data, at);
      if (op.requestTxn) restoreTxn(op.requestTxn, data, at);
    }
  }
}

/**
 * The proposer's shortcut: `e` was just appended with data = encodeRequest(req),
 * so its decoded form is a JSON round trip of req (a copy: the caller keeps req).
 */
export function rememberEncoded(e: Entry, req: InternalRaftRequest): void {
  remember(e, jsonRoundTrip(req));
}

/** The request in a normal entry's data (shared between members: treat as read-only). */
export function decodeRequest(e: Entry): InternalRaftRequest {
  const slot = e.index & (SLOTS - 1);
  if (memoEntries[slot] === e && memoData[slot] === e.data) return memoReqs[slot]!;
  const req = decodeEntryData(e.data);
  remember(e, req);
  return req;
}
