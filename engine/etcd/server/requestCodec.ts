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
  // The decoded form of the data is a JSON round trip of req (what
  // decodeEntryData gives back): build that copy first, take the values out of
  // the copy in place, write its JSON, and put them back, so the copy is both
  // what is written and what the proposer's memo holds (rememberEncoded).
  const copy = jsonRoundTrip(req);
  const values = takenValues;
  const puts = takenPuts;
  takeValues(copy, values, puts);
  const header = JSON.stringify(copy);
  let data = header;
  if (values.length !== 0) {
    data = `${header}\n${values.join('')}`;
    for (let i = 0; i < puts.length; i++) puts[i]!.value = values[i]!;
    values.length = 0;
    puts.length = 0;
  }
  lastReq = req;
  lastData = data;
  lastDecoded = copy;
  return data;
}

// Scratch lists of encodeRequest (emptied before it returns).
const takenValues: string[] = [];
const takenPuts: PutRequest[] = [];

// The last request encoded, its data and its decoded form, for rememberEncoded.
let lastReq: InternalRaftRequest | undefined;
let lastData = '';
let lastDecoded: InternalRaftRequest | undefined;

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

/** Replaces each put's value in `req` (a copy) by its length, keeping the values and their puts in order. */
function takeValues(req: InternalRaftRequest, values: string[], puts: PutRequest[]): void {
  if (req.put && typeof req.put.value === 'string') return takeValue(req.put, values, puts);
  if (req.txn) takeTxnValues(req.txn, values, puts);
}

function takeValue(put: PutRequest, values: string[], puts: PutRequest[]): void {
  const value = put.value!;
  values.push(value);
  puts.push(put);
  put.value = value.length as unknown as string; // a number stands where the value was
}

function takeTxnValues(t: TxnRequest, values: string[], puts: PutRequest[]): void {
  if (t.success) takeOpsValues(t.success, values, puts);
  if (t.failure) takeOpsValues(t.failure, values, puts);
}

function takeOpsValues(ops: RequestOp[], values: string[], puts: PutRequest[]): void {
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.requestPut && typeof op.requestPut.value === 'string') takeValue(op.requestPut, values, puts);
    else if (op.requestTxn) takeTxnValues(op.requestTxn, values, puts);
  }
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
 * so its decoded form is a JSON round trip of req (a copy: the caller keeps
 * req), which that encodeRequest call has just made.
 */
export function rememberEncoded(e: Entry, req: InternalRaftRequest): void {
  const decoded = req === lastReq && e.data === lastData ? lastDecoded! : jsonRoundTrip(req);
  lastReq = undefined;
  lastData = '';
  lastDecoded = undefined;
  remember(e, decoded);
}

/** The request in a normal entry's data (shared between members: treat as read-only). */
export function decodeRequest(e: Entry): InternalRaftRequest {
  const slot = e.index & (SLOTS - 1);
  if (memoEntries[slot] === e && memoData[slot] === e.data) return memoReqs[slot]!;
  const req = decodeEntryData(e.data);
  remember(e, req);
  return req;
}
