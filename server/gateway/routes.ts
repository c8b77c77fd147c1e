// The unary routes of etcd v3.5's grpc-gateway (api/etcdserverpb/gw/rpc.pb.gw.go):
// path -> RPC request type, request and response messages. Streaming routes
// (/v3/watch, /v3/lease/keepalive) are handled by streams.ts.
import type { RequestType } from '../../engine/etcd/server/messages';
import * as S from './schema';

export interface UnaryRoute {
  type: RequestType;
  request: S.MessageSpec;
  response: S.MessageSpec;
}

const kv = {
  range: { type: 'RangeRequest', request: S.RangeRequestSpec, response: S.RangeResponseSpec },
  put: { type: 'PutRequest', request: S.PutRequestSpec, response: S.PutResponseSpec },
  deleterange: { type: 'DeleteRangeRequest', request: S.DeleteRangeRequestSpec, response: S.DeleteRangeResponseSpec },
  txn: { type: 'TxnRequest', request: S.TxnRequestSpec, response: S.TxnResponseSpec },
  compaction: { type: 'CompactionRequest', request: S.CompactionRequestSpec, response: S.CompactionResponseSpec },
} satisfies Record<string, UnaryRoute>;

const lease = {
  grant: { type: 'LeaseGrantRequest', request: S.LeaseGrantRequestSpec, response: S.LeaseGrantResponseSpec },
  revoke: { type: 'LeaseRevokeRequest', request: S.LeaseRevokeRequestSpec, response: S.LeaseRevokeResponseSpec },
  timetolive: { type: 'LeaseTimeToLiveRequest', request: S.LeaseTimeToLiveRequestSpec, response: S.LeaseTimeToLiveResponseSpec },
  leases: { type: 'LeaseLeasesRequest', request: S.LeaseLeasesRequestSpec, response: S.LeaseLeasesResponseSpec },
} satisfies Record<string, UnaryRoute>;

export const UNARY_ROUTES: ReadonlyMap<string, UnaryRoute> = new Map<string, UnaryRoute>([
  ['/v3/kv/range', kv.range],
  ['/v3/kv/put', kv.put],
  ['/v3/kv/deleterange', kv.deleterange],
  ['/v3/kv/txn', kv.txn],
  ['/v3/kv/compaction', kv.compaction],
  ['/v3/lease/grant', lease.grant],
  ['/v3/lease/revoke', lease.revoke],
  ['/v3/lease/timetolive', lease.timetolive],
  ['/v3/lease/leases', lease.leases],
  // Older spellings the v3.5 gateway still serves.
  ['/v3/kv/lease/revoke', lease.revoke],
  ['/v3/kv/lease/timetolive', lease.timetolive],
  ['/v3/kv/lease/leases', lease.leases],
  ['/v3/maintenance/status', { type: 'StatusRequest', request: S.StatusRequestSpec, response: S.StatusResponseSpec }],
]);

export const STREAM_ROUTES: ReadonlySet<string> = new Set(['/v3/watch', '/v3/lease/keepalive']);

/** The version the simulated members report in Maintenance.Status (the behaviour we model). */
export const SIMULATED_ETCD_VERSION = '3.5.0';
