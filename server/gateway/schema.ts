// The etcd v3 messages the JSON gateway reads and writes, as field tables in
// proto declaration order (api/etcdserverpb/rpc.proto, api/mvccpb/kv.proto,
// v3.5). The codec walks these tables: jsonpb writes fields in declaration
// order under their proto names (the gateway runs with OrigName) and reads
// either the proto name or the lowerCamelCase JSON name.

export type ScalarKind = 'bytes' | 'string' | 'bool' | 'int64' | 'uint64' | 'int32';

export interface EnumSpec {
  /** Go type name, as in jsonpb's "unknown value ... for enum X". */
  goName: string;
  /** Value names by number. */
  values: readonly string[];
}

export type FieldType = { kind: ScalarKind } | { kind: 'enum'; enum: EnumSpec } | { kind: 'message'; message: () => MessageSpec };

export interface FieldSpec {
  /** The proto field name (what the gateway writes). */
  proto: string;
  /** The JSON name protoc derives (lowerCamelCase); also our internal name. */
  json: string;
  type: FieldType;
  repeated: boolean;
  /** Set for members of a oneof: they are written even when zero. */
  oneof?: string;
}

export interface MessageSpec {
  /** Go type name, e.g. etcdserverpb.RangeRequest. */
  goName: string;
  fields: readonly FieldSpec[];
}

/** protoc's json_name: drop underscores, upper-case the letter after each. */
export function jsonNameOf(proto: string): string {
  return proto.replace(/_([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());
}

type FieldDecl = [proto: string, type: FieldType, opts?: { repeated?: boolean; oneof?: string }];

function message(goName: string, decls: FieldDecl[]): MessageSpec {
  return {
    goName,
    fields: decls.map(([proto, type, opts]) => ({ proto, json: jsonNameOf(proto), type, repeated: opts?.repeated ?? false, oneof: opts?.oneof })),
  };
}

const bytes: FieldType = { kind: 'bytes' };
const str: FieldType = { kind: 'string' };
const bool: FieldType = { kind: 'bool' };
const int64: FieldType = { kind: 'int64' };
const uint64: FieldType = { kind: 'uint64' };
const msg = (m: () => MessageSpec): FieldType => ({ kind: 'message', message: m });
const enm = (e: EnumSpec): FieldType => ({ kind: 'enum', enum: e });

export const SortOrderEnum: EnumSpec = { goName: 'etcdserverpb.RangeRequest_SortOrder', values: ['NONE', 'ASCEND', 'DESCEND'] };
export const SortTargetEnum: EnumSpec = { goName: 'etcdserverpb.RangeRequest_SortTarget', values: ['KEY', 'VERSION', 'CREATE', 'MOD', 'VALUE'] };
export const CompareResultEnum: EnumSpec = { goName: 'etcdserverpb.Compare_CompareResult', values: ['EQUAL', 'GREATER', 'LESS', 'NOT_EQUAL'] };
export const CompareTargetEnum: EnumSpec = { goName: 'etcdserverpb.Compare_CompareTarget', values: ['VERSION', 'CREATE', 'MOD', 'VALUE', 'LEASE'] };
export const FilterTypeEnum: EnumSpec = { goName: 'etcdserverpb.WatchCreateRequest_FilterType', values: ['NOPUT', 'NODELETE'] };
export const EventTypeEnum: EnumSpec = { goName: 'mvccpb.Event_EventType', values: ['PUT', 'DELETE'] };

// ---- requests ----

export const RangeRequestSpec: MessageSpec = message('etcdserverpb.RangeRequest', [
  ['key', bytes],
  ['range_end', bytes],
  ['limit', int64],
  ['revision', int64],
  ['sort_order', enm(SortOrderEnum)],
  ['sort_target', enm(SortTargetEnum)],
  ['serializable', bool],
  ['keys_only', bool],
  ['count_only', bool],
  ['min_mod_revision', int64],
  ['max_mod_revision', int64],
  ['min_create_revision', int64],
  ['max_create_revision', int64],
]);

export const PutRequestSpec: MessageSpec = message('etcdserverpb.PutRequest', [
  ['key', bytes],
  ['value', bytes],
  ['lease', int64],
  ['prev_kv', bool],
  ['ignore_value', bool],
  ['ignore_lease', bool],
]);

export const DeleteRangeRequestSpec: MessageSpec = message('etcdserverpb.DeleteRangeRequest', [
  ['key', bytes],
  ['range_end', bytes],
  ['prev_kv', bool],
]);

export const RequestOpSpec: MessageSpec = message('etcdserverpb.RequestOp', [
  ['request_range', msg(() => RangeRequestSpec), { oneof: 'request' }],
  ['request_put', msg(() => PutRequestSpec), { oneof: 'request' }],
  ['request_delete_range', msg(() => DeleteRangeRequestSpec), { oneof: 'request' }],
  ['request_txn', msg(() => TxnRequestSpec), { oneof: 'request' }],
]);

export const CompareSpec: MessageSpec = message('etcdserverpb.Compare', [
  ['result', enm(CompareResultEnum)],
  ['target', enm(CompareTargetEnum)],
  ['key', bytes],
  ['version', int64, { oneof: 'target_union' }],
  ['create_revision', int64, { oneof: 'target_union' }],
  ['mod_revision', int64, { oneof: 'target_union' }],
  ['value', bytes, { oneof: 'target_union' }],
  ['lease', int64, { oneof: 'target_union' }],
  ['range_end', bytes],
]);

export const TxnRequestSpec: MessageSpec = message('etcdserverpb.TxnRequest', [
  ['compare', msg(() => CompareSpec), { repeated: true }],
  ['success', msg(() => RequestOpSpec), { repeated: true }],
  ['failure', msg(() => RequestOpSpec), { repeated: true }],
]);

export const CompactionRequestSpec: MessageSpec = message('etcdserverpb.CompactionRequest', [
  ['revision', int64],
  ['physical', bool],
]);

export const LeaseGrantRequestSpec: MessageSpec = message('etcdserverpb.LeaseGrantRequest', [
  ['TTL', int64],
  ['ID', int64],
]);
export const LeaseRevokeRequestSpec: MessageSpec = message('etcdserverpb.LeaseRevokeRequest', [['ID', int64]]);
export const LeaseKeepAliveRequestSpec: MessageSpec = message('etcdserverpb.LeaseKeepAliveRequest', [['ID', int64]]);
export const LeaseTimeToLiveRequestSpec: MessageSpec = message('etcdserverpb.LeaseTimeToLiveRequest', [
  ['ID', int64],
  ['keys', bool],
]);
export const LeaseLeasesRequestSpec: MessageSpec = message('etcdserverpb.LeaseLeasesRequest', []);
export const StatusRequestSpec: MessageSpec = message('etcdserverpb.StatusRequest', []);

export const WatchCreateRequestSpec: MessageSpec = message('etcdserverpb.WatchCreateRequest', [
  ['key', bytes],
  ['range_end', bytes],
  ['start_revision', int64],
  ['progress_notify', bool],
  ['filters', enm(FilterTypeEnum), { repeated: true }],
  ['prev_kv', bool],
  ['watch_id', int64],
  ['fragment', bool],
]);
export const WatchCancelRequestSpec: MessageSpec = message('etcdserverpb.WatchCancelRequest', [['watch_id', int64]]);
export const WatchProgressRequestSpec: MessageSpec = message('etcdserverpb.WatchProgressRequest', []);
export const WatchRequestSpec: MessageSpec = message('etcdserverpb.WatchRequest', [
  ['create_request', msg(() => WatchCreateRequestSpec), { oneof: 'request_union' }],
  ['cancel_request', msg(() => WatchCancelRequestSpec), { oneof: 'request_union' }],
  ['progress_request', msg(() => WatchProgressRequestSpec), { oneof: 'request_union' }],
]);

// ---- responses ----

export const ResponseHeaderSpec: MessageSpec = message('etcdserverpb.ResponseHeader', [
  ['cluster_id', uint64],
  ['member_id', uint64],
  ['revision', int64],
  ['raft_term', uint64],
]);

export const KeyValueSpec: MessageSpec = message('mvccpb.KeyValue', [
  ['key', bytes],
  ['create_revision', int64],
  ['mod_revision', int64],
  ['version', int64],
  ['value', bytes],
  ['lease', int64],
]);

const header: FieldDecl = ['header', msg(() => ResponseHeaderSpec)];

export const RangeResponseSpec: MessageSpec = message('etcdserverpb.RangeResponse', [
  header,
  ['kvs', msg(() => KeyValueSpec), { repeated: true }],
  ['more', bool],
  ['count', int64],
]);
export const PutResponseSpec: MessageSpec = message('etcdserverpb.PutResponse', [header, ['prev_kv', msg(() => KeyValueSpec)]]);
export const DeleteRangeResponseSpec: MessageSpec = message('etcdserverpb.DeleteRangeResponse', [
  header,
  ['deleted', int64],
  ['prev_kvs', msg(() => KeyValueSpec), { repeated: true }],
]);
export const ResponseOpSpec: MessageSpec = message('etcdserverpb.ResponseOp', [
  ['response_range', msg(() => RangeResponseSpec), { oneof: 'response' }],
  ['response_put', msg(() => PutResponseSpec), { oneof: 'response' }],
  ['response_delete_range', msg(() => DeleteRangeResponseSpec), { oneof: 'response' }],
  ['response_txn', msg(() => TxnResponseSpec), { oneof: 'response' }],
]);
export const TxnResponseSpec: MessageSpec = message('etcdserverpb.TxnResponse', [
  header,
  ['succeeded', bool],
  ['responses', msg(() => ResponseOpSpec), { repeated: true }],
]);
export const CompactionResponseSpec: MessageSpec = message('etcdserverpb.CompactionResponse', [header]);

export const LeaseGrantResponseSpec: MessageSpec = message('etcdserverpb.LeaseGrantResponse', [header, ['ID', int64], ['TTL', int64], ['error', str]]);
export const LeaseRevokeResponseSpec: MessageSpec = message('etcdserverpb.LeaseRevokeResponse', [header]);
export const LeaseKeepAliveResponseSpec: MessageSpec = message('etcdserverpb.LeaseKeepAliveResponse', [header, ['ID', int64], ['TTL', int64]]);
export const LeaseTimeToLiveResponseSpec: MessageSpec = message('etcdserverpb.LeaseTimeToLiveResponse', [
  header,
  ['ID', int64],
  ['TTL', int64],
  ['grantedTTL', int64],
  ['keys', bytes, { repeated: true }],
]);
export const LeaseStatusSpec: MessageSpec = message('etcdserverpb.LeaseStatus', [['ID', int64]]);
export const LeaseLeasesResponseSpec: MessageSpec = message('etcdserverpb.LeaseLeasesResponse', [
  header,
  ['leases', msg(() => LeaseStatusSpec), { repeated: true }],
]);

export const EventSpec: MessageSpec = message('mvccpb.Event', [
  ['type', enm(EventTypeEnum)],
  ['kv', msg(() => KeyValueSpec)],
  ['prev_kv', msg(() => KeyValueSpec)],
]);
export const WatchResponseSpec: MessageSpec = message('etcdserverpb.WatchResponse', [
  header,
  ['watch_id', int64],
  ['created', bool],
  ['canceled', bool],
  ['compact_revision', int64],
  ['cancel_reason', str],
  ['fragment', bool],
  ['events', msg(() => EventSpec), { repeated: true }],
]);

export const StatusResponseSpec: MessageSpec = message('etcdserverpb.StatusResponse', [
  header,
  ['version', str],
  ['dbSize', int64],
  ['leader', uint64],
  ['raftIndex', uint64],
  ['raftTerm', uint64],
  ['raftAppliedIndex', uint64],
  ['errors', str, { repeated: true }],
  ['dbSizeInUse', int64],
  ['isLearner', bool],
]);
