// etcd v3.5 API messages (api/etcdserverpb/rpc.proto, api/mvccpb/kv.proto,
// server/etcdserver/etcdserverpb/raft_internal.proto) as TypeScript types.
//
// Conventions:
// - bytes fields are binary strings (one char per byte, codes 0..255);
// - int64/uint64 fields (revisions, versions, lease ids, TTLs, member ids) are
//   JS numbers; ids are kept below 2^53 by whoever generates them;
// - field names are the proto names in camelCase (the grpc-gateway JSON names:
//   `TTL`, `ID`, `grantedTTL` keep their proto spelling);
// - request fields are optional (proto3 zero value when absent); responses are
//   built with every field present.
// Enums are their proto names as strings.

export interface KeyValue {
  key: string;
  /** Revision of the last creation of this key (0 in tombstones). */
  createRevision: number;
  /** Revision of the last modification. */
  modRevision: number;
  /** Number of modifications since creation; a delete resets it to 0. */
  version: number;
  value: string;
  /** Lease attached to the key, 0 for none. */
  lease: number;
}

export interface ResponseHeader {
  clusterId: number;
  memberId: number;
  /** The key-value store revision when the request was applied (or read). */
  revision: number;
  raftTerm: number;
}

export type SortOrder = 'NONE' | 'ASCEND' | 'DESCEND';
export type SortTarget = 'KEY' | 'VERSION' | 'CREATE' | 'MOD' | 'VALUE';

export interface RangeRequest {
  key: string;
  /**
   * Absent or '' = the single key; '\0' = every key >= key; otherwise the
   * half-open range [key, rangeEnd). Use prefixEnd(key) for a prefix.
   */
  rangeEnd?: string;
  limit?: number;
  /** Point-in-time read; <= 0 means the current revision. */
  revision?: number;
  sortOrder?: SortOrder;
  sortTarget?: SortTarget;
  serializable?: boolean;
  keysOnly?: boolean;
  countOnly?: boolean;
  minModRevision?: number;
  maxModRevision?: number;
  minCreateRevision?: number;
  maxCreateRevision?: number;
}

export interface RangeResponse {
  header: ResponseHeader;
  kvs: KeyValue[];
  /** More keys are available past `limit`. */
  more: boolean;
  /** Number of keys in the range at the read revision (not capped by limit). */
  count: number;
}

export interface PutRequest {
  key: string;
  value?: string;
  lease?: number;
  prevKv?: boolean;
  ignoreValue?: boolean;
  ignoreLease?: boolean;
}

export interface PutResponse {
  header: ResponseHeader;
  prevKv?: KeyValue;
}

export interface DeleteRangeRequest {
  key: string;
  rangeEnd?: string;
  prevKv?: boolean;
}

export interface DeleteRangeResponse {
  header: ResponseHeader;
  deleted: number;
  prevKvs: KeyValue[];
}

/** A oneof: exactly one field should be set (validation rejects none). */
export interface RequestOp {
  requestRange?: RangeRequest;
  requestPut?: PutRequest;
  requestDeleteRange?: DeleteRangeRequest;
  requestTxn?: TxnRequest;
}

/** A oneof mirroring the RequestOp that produced it. */
export interface ResponseOp {
  responseRange?: RangeResponse;
  responsePut?: PutResponse;
  responseDeleteRange?: DeleteRangeResponse;
  responseTxn?: TxnResponse;
}

export type CompareResult = 'EQUAL' | 'GREATER' | 'LESS' | 'NOT_EQUAL';
export type CompareTarget = 'VERSION' | 'CREATE' | 'MOD' | 'VALUE' | 'LEASE';

export interface Compare {
  result?: CompareResult;
  target?: CompareTarget;
  key: string;
  /** Compare over [key, rangeEnd) (same encoding as RangeRequest.rangeEnd). */
  rangeEnd?: string;
  // target_union (oneof): the one matching `target` is used, absent = zero.
  version?: number;
  createRevision?: number;
  modRevision?: number;
  value?: string;
  lease?: number;
}

export interface TxnRequest {
  compare?: Compare[];
  success?: RequestOp[];
  failure?: RequestOp[];
}

export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: ResponseOp[];
}

export interface CompactionRequest {
  revision: number;
  physical?: boolean;
}

export interface CompactionResponse {
  header: ResponseHeader;
}

export interface LeaseGrantRequest {
  TTL: number;
  /** 0 = the server picks (the member actor replaces it before proposing). */
  ID?: number;
}

export interface LeaseGrantResponse {
  header: ResponseHeader;
  ID: number;
  TTL: number;
  error: string;
}

export interface LeaseRevokeRequest {
  ID: number;
}

export interface LeaseRevokeResponse {
  header: ResponseHeader;
}

export interface LeaseCheckpoint {
  ID: number;
  remainingTTL: number;
}

export interface LeaseCheckpointRequest {
  checkpoints: LeaseCheckpoint[];
}

export interface LeaseCheckpointResponse {
  header: ResponseHeader;
}

export interface LeaseKeepAliveRequest {
  ID: number;
}

export interface LeaseKeepAliveResponse {
  header: ResponseHeader;
  ID: number;
  /** New TTL in seconds; 0 when the lease does not exist (v3rpc/lease.go). */
  TTL: number;
}

export interface LeaseTimeToLiveRequest {
  ID: number;
  keys?: boolean;
}

export interface LeaseTimeToLiveResponse {
  header: ResponseHeader;
  ID: number;
  /** Remaining seconds (truncated); -1 when the lease does not exist. */
  TTL: number;
  grantedTTL: number;
  keys: string[];
}

export interface LeaseLeasesRequest {}

export interface LeaseStatus {
  ID: number;
}

export interface LeaseLeasesResponse {
  header: ResponseHeader;
  leases: LeaseStatus[];
}

export type WatchFilterType = 'NOPUT' | 'NODELETE';

export interface WatchCreateRequest {
  key: string;
  rangeEnd?: string;
  /** 0 (or absent) = from the next revision. */
  startRevision?: number;
  progressNotify?: boolean;
  filters?: WatchFilterType[];
  prevKv?: boolean;
  /** 0 (or absent) = the server assigns one; ids are per watch stream. */
  watchId?: number;
  fragment?: boolean;
}

export interface WatchCancelRequest {
  watchId: number;
}

export interface WatchProgressRequest {}

export type EventType = 'PUT' | 'DELETE';

export interface Event {
  type: EventType;
  /**
   * PUT: the key-value after the change. DELETE: only key and modRevision
   * (the revision of the delete) are set.
   */
  kv: KeyValue;
  prevKv?: KeyValue;
}

export interface WatchResponse {
  header: ResponseHeader;
  watchId: number;
  created: boolean;
  canceled: boolean;
  compactRevision: number;
  cancelReason: string;
  fragment: boolean;
  events: Event[];
}

export interface RequestHeader {
  /** The proposal id the member actor uses to match the applied entry to its waiter. */
  id: number;
}

/**
 * What a member proposes through Raft (etcdserverpb.InternalRaftRequest).
 * Exactly one request field is set.
 */
export interface InternalRaftRequest {
  header: RequestHeader;
  range?: RangeRequest;
  put?: PutRequest;
  deleteRange?: DeleteRangeRequest;
  txn?: TxnRequest;
  compaction?: CompactionRequest;
  leaseGrant?: LeaseGrantRequest;
  leaseRevoke?: LeaseRevokeRequest;
  leaseCheckpoint?: LeaseCheckpointRequest;
}

/** What applying one InternalRaftRequest returns on success. */
export type RaftResponse =
  | RangeResponse
  | PutResponse
  | DeleteRangeResponse
  | TxnResponse
  | CompactionResponse
  | LeaseGrantResponse
  | LeaseRevokeResponse
  | LeaseCheckpointResponse;

/** InvalidWatchID (clientv3): the watch id of failed creates and stream-wide progress. */
export const InvalidWatchId = -1;

/**
 * The range end that selects every key with the given prefix
 * (clientv3.GetPrefixRangeEnd): the prefix with its last byte below 0xff
 * incremented and the rest dropped; '\0' (all keys >= key) when every byte is
 * 0xff, or when the prefix is empty (clientv3 then also uses key '\0').
 */
export function prefixEnd(key: string): string {
  for (let i = key.length - 1; i >= 0; i--) {
    const c = key.charCodeAt(i);
    if (c < 0xff) return key.slice(0, i) + String.fromCharCode(c + 1);
  }
  return '\0';
}

/** A header with only the revision set, as nested txn responses carry. */
export function revisionHeader(revision: number): ResponseHeader {
  return { clusterId: 0, memberId: 0, revision, raftTerm: 0 };
}

/** IsCreateEvent (server/etcdserver/api/v3rpc/watch.go helpers). */
export function isCreateEvent(ev: Event): boolean {
  return ev.type === 'PUT' && ev.kv.createRevision === ev.kv.modRevision;
}

/**
 * True when every op is a range (server/etcdserver/util.go isTxnReadonly);
 * a nested txn counts as a write, as upstream.
 */
export function isTxnReadonly(r: TxnRequest): boolean {
  return opsReadonly(r.success) && opsReadonly(r.failure);
}

function opsReadonly(ops: readonly RequestOp[] | undefined): boolean {
  if (ops == null) return true; // absent (or null from JSON), as `?? []`
  for (let i = 0; i < ops.length; i++) if (!ops[i]!.requestRange) return false;
  return true;
}

/** True when every op is a serializable range (isTxnSerializable). */
export function isTxnSerializable(r: TxnRequest): boolean {
  return opsSerializable(r.success) && opsSerializable(r.failure);
}

function opsSerializable(ops: readonly RequestOp[] | undefined): boolean {
  if (ops == null) return true; // absent (or null from JSON), as `?? []`
  for (let i = 0; i < ops.length; i++) {
    const range = ops[i]!.requestRange;
    if (!range || !range.serializable) return false;
  }
  return true;
}
