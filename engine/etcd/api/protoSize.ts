// Protobuf wire sizes of the etcd messages, so size limits apply to the same
// number upstream checks (proto.Size / Marshal length). Field numbers are
// those of rpc.proto, kv.proto and raft_internal.proto. Binary-string fields
// count one byte per char. Exact for the fields modelled here; fields we do
// not model (auth username, auth revision) are not counted.
import type {
  Compare,
  CompareResult,
  CompareTarget,
  DeleteRangeRequest,
  Event,
  InternalRaftRequest,
  KeyValue,
  PutRequest,
  RangeRequest,
  RequestOp,
  ResponseHeader,
  SortOrder,
  SortTarget,
  TxnRequest,
  WatchResponse,
} from './rpc';

/** Bytes of a varint; negative int64 values take 10 bytes. */
export function varintSize(n: number): number {
  if (n < 0) return 10;
  // n >= 128^k exactly when k divisions by 128 (exact: a power of two) leave
  // at least 1: compare instead of dividing (a request id takes 7 bytes).
  if (n < 128) return 1;
  if (n < 16384) return 2;
  if (n < 2097152) return 3;
  if (n < 268435456) return 4;
  if (n < 34359738368) return 5;
  if (n < 4398046511104) return 6;
  if (n < 562949953421312) return 7;
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

function tagSize(field: number): number {
  return varintSize(field * 8);
}

/** A varint field; proto3 omits zero values unless `present` (oneof members). */
function intField(field: number, v: number | undefined, present = false): number {
  if (v === undefined || (v === 0 && !present)) return 0;
  return tagSize(field) + varintSize(v);
}

function boolField(field: number, v: boolean | undefined): number {
  return v ? tagSize(field) + 1 : 0;
}

function bytesField(field: number, v: string | undefined, present = false): number {
  if (v === undefined || (v.length === 0 && !present)) return 0;
  return tagSize(field) + varintSize(v.length) + v.length;
}

/** A length-delimited sub-message of the given body size (always present). */
function messageField(field: number, bodySize: number): number {
  return tagSize(field) + varintSize(bodySize) + bodySize;
}

const sortOrderNum: Record<SortOrder, number> = { NONE: 0, ASCEND: 1, DESCEND: 2 };
const sortTargetNum: Record<SortTarget, number> = { KEY: 0, VERSION: 1, CREATE: 2, MOD: 3, VALUE: 4 };
const compareResultNum: Record<CompareResult, number> = { EQUAL: 0, GREATER: 1, LESS: 2, NOT_EQUAL: 3 };
const compareTargetNum: Record<CompareTarget, number> = { VERSION: 0, CREATE: 1, MOD: 2, VALUE: 3, LEASE: 4 };

export function rangeRequestSize(r: RangeRequest): number {
  return (
    bytesField(1, r.key) +
    bytesField(2, r.rangeEnd) +
    intField(3, r.limit) +
    intField(4, r.revision) +
    intField(5, r.sortOrder === undefined ? 0 : sortOrderNum[r.sortOrder]) +
    intField(6, r.sortTarget === undefined ? 0 : sortTargetNum[r.sortTarget]) +
    boolField(7, r.serializable) +
    boolField(8, r.keysOnly) +
    boolField(9, r.countOnly) +
    intField(10, r.minModRevision) +
    intField(11, r.maxModRevision) +
    intField(12, r.minCreateRevision) +
    intField(13, r.maxCreateRevision)
  );
}

export function putRequestSize(r: PutRequest): number {
  return (
    bytesField(1, r.key) +
    bytesField(2, r.value) +
    intField(3, r.lease) +
    boolField(4, r.prevKv) +
    boolField(5, r.ignoreValue) +
    boolField(6, r.ignoreLease)
  );
}

export function deleteRangeRequestSize(r: DeleteRangeRequest): number {
  return bytesField(1, r.key) + bytesField(2, r.rangeEnd) + boolField(3, r.prevKv);
}

export function compareSize(c: Compare): number {
  return (
    intField(1, c.result === undefined ? 0 : compareResultNum[c.result]) +
    intField(2, c.target === undefined ? 0 : compareTargetNum[c.target]) +
    bytesField(3, c.key) +
    intField(4, c.version, true) +
    intField(5, c.createRevision, true) +
    intField(6, c.modRevision, true) +
    bytesField(7, c.value, true) +
    intField(8, c.lease, true) +
    bytesField(64, c.rangeEnd)
  );
}

export function requestOpSize(op: RequestOp): number {
  if (op.requestRange) return messageField(1, rangeRequestSize(op.requestRange));
  if (op.requestPut) return messageField(2, putRequestSize(op.requestPut));
  if (op.requestDeleteRange) return messageField(3, deleteRangeRequestSize(op.requestDeleteRange));
  if (op.requestTxn) return messageField(4, txnRequestSize(op.requestTxn));
  return 0;
}

export function txnRequestSize(r: TxnRequest): number {
  let n = 0;
  for (const c of r.compare ?? []) n += messageField(1, compareSize(c));
  for (const op of r.success ?? []) n += messageField(2, requestOpSize(op));
  for (const op of r.failure ?? []) n += messageField(3, requestOpSize(op));
  return n;
}

/** Size of the marshalled InternalRaftRequest, as v3_server.go compares with MaxRequestBytes. */
export function internalRaftRequestSize(r: InternalRaftRequest): number {
  let n = messageField(100, intField(1, r.header.id));
  if (r.range) n += messageField(3, rangeRequestSize(r.range));
  if (r.put) n += messageField(4, putRequestSize(r.put));
  if (r.deleteRange) n += messageField(5, deleteRangeRequestSize(r.deleteRange));
  if (r.txn) n += messageField(6, txnRequestSize(r.txn));
  if (r.compaction) n += messageField(7, intField(1, r.compaction.revision) + boolField(2, r.compaction.physical));
  if (r.leaseGrant) n += messageField(8, intField(1, r.leaseGrant.TTL) + intField(2, r.leaseGrant.ID));
  if (r.leaseRevoke) n += messageField(9, intField(1, r.leaseRevoke.ID));
  if (r.leaseCheckpoint) {
    let body = 0;
    for (const c of r.leaseCheckpoint.checkpoints) body += messageField(1, intField(1, c.ID) + intField(2, c.remainingTTL));
    n += messageField(11, body);
  }
  return n;
}

export function keyValueSize(kv: KeyValue): number {
  return (
    bytesField(1, kv.key) +
    intField(2, kv.createRevision) +
    intField(3, kv.modRevision) +
    intField(4, kv.version) +
    bytesField(5, kv.value) +
    intField(6, kv.lease)
  );
}

export function eventSize(ev: Event): number {
  return (
    intField(1, ev.type === 'DELETE' ? 1 : 0) +
    messageField(2, keyValueSize(ev.kv)) +
    (ev.prevKv ? messageField(3, keyValueSize(ev.prevKv)) : 0)
  );
}

export function responseHeaderSize(h: ResponseHeader): number {
  return intField(1, h.clusterId) + intField(2, h.memberId) + intField(3, h.revision) + intField(4, h.raftTerm);
}

/** WatchResponse size without its events (add messageField(11, eventSize) per event). */
export function watchResponseBaseSize(w: WatchResponse): number {
  return (
    messageField(1, responseHeaderSize(w.header)) +
    intField(2, w.watchId) +
    boolField(3, w.created) +
    boolField(4, w.canceled) +
    intField(5, w.compactRevision) +
    bytesField(6, w.cancelReason) +
    boolField(7, w.fragment)
  );
}

/** Size of one event inside a WatchResponse (field 11, length-delimited). */
export function watchEventFieldSize(ev: Event): number {
  return messageField(11, eventSize(ev));
}

export function watchResponseSize(w: WatchResponse): number {
  let n = watchResponseBaseSize(w);
  for (const ev of w.events) n += watchEventFieldSize(ev);
  return n;
}
