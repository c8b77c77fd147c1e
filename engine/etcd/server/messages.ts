// What clients and members say to each other on the simulated network, besides
// Raft messages (which travel as they are: a Raft Message is a Payload whose
// `type` is MsgApp, MsgVote...). Requests and responses are etcd's v3 API
// messages (engine/etcd/api/rpc.ts); the envelope carries a request id, as a
// gRPC stream would.
import type { EtcdError } from '../api/errors';
import { registerStreamTypes } from '../../sim/kernel';
import type {
  CompactionRequest,
  DeleteRangeRequest,
  LeaseGrantRequest,
  LeaseKeepAliveRequest,
  LeaseLeasesRequest,
  LeaseRevokeRequest,
  LeaseTimeToLiveRequest,
  PutRequest,
  RangeRequest,
  TxnRequest,
  WatchCancelRequest,
  WatchCreateRequest,
  WatchProgressRequest,
  WatchResponse,
} from '../api/rpc';

/** Maintenance.Status, reduced to what clients use to find the leader. */
export interface StatusRequest {}
export interface StatusResponse {
  header: { clusterId: number; memberId: number; revision: number; raftTerm: number };
  leader: number;
  raftIndex: number;
  raftTerm: number;
  raftAppliedIndex: number;
  errors: string[];
}
/** Maintenance.MoveLeader. */
export interface MoveLeaderRequest {
  targetID: number;
}

/** Cluster API (etcdserverpb.Cluster): membership. */
export interface Member {
  ID: number;
  name: string;
  peerURLs: string[];
  clientURLs: string[];
}
export interface MemberAddRequest {
  peerURLs: string[];
}
export interface MemberRemoveRequest {
  ID: number;
}
export interface MemberListRequest {}
export interface MemberListResponse {
  header: { clusterId: number; memberId: number; revision: number; raftTerm: number };
  members: Member[];
}

export interface RequestBodies {
  RangeRequest: RangeRequest;
  PutRequest: PutRequest;
  DeleteRangeRequest: DeleteRangeRequest;
  TxnRequest: TxnRequest;
  CompactionRequest: CompactionRequest;
  LeaseGrantRequest: LeaseGrantRequest;
  LeaseRevokeRequest: LeaseRevokeRequest;
  LeaseKeepAliveRequest: LeaseKeepAliveRequest;
  LeaseTimeToLiveRequest: LeaseTimeToLiveRequest;
  LeaseLeasesRequest: LeaseLeasesRequest;
  WatchCreateRequest: WatchCreateRequest;
  WatchCancelRequest: WatchCancelRequest;
  WatchProgressRequest: WatchProgressRequest;
  StatusRequest: StatusRequest;
  MoveLeaderRequest: MoveLeaderRequest;
  MemberAddRequest: MemberAddRequest;
  MemberRemoveRequest: MemberRemoveRequest;
  MemberListRequest: MemberListRequest;
}
export type RequestType = keyof RequestBodies;

export type ClientRequest = { [K in RequestType]: { type: K; reqId: number; body: RequestBodies[K] } }[RequestType];

/** A response to a ClientRequest: `ok` with the API response, or an etcd error. */
export type ClientResponse =
  | { type: 'EtcdResponse'; reqId: number; ok: true; body: unknown; leader: number }
  | { type: 'EtcdError'; reqId: number; ok: false; error: EtcdError; leader: number };

/** Watch events pushed on a member's watch stream to the client that created it. */
export interface WatchPush {
  type: 'WatchResponse';
  body: WatchResponse;
}

/** An HTTP/2 PING on a client's gRPC connection and its ACK: the server's transport answers it, whatever the handlers are doing. */
export interface GrpcPing {
  type: 'GrpcPing';
  seq: number;
}
export interface GrpcPong {
  type: 'GrpcPong';
  seq: number;
}

/** A follower forwarding a lease keepalive to the leader (etcd forwards it over the peer HTTP API). */
export interface LeaseRenewForward {
  type: 'LeaseRenewForward';
  fwdId: number;
  id: number;
}
export interface LeaseRenewForwardResponse {
  type: 'LeaseRenewForwardResponse';
  fwdId: number;
  ttl: number;
  error?: EtcdError;
}

export const REQUEST_TYPES: readonly RequestType[] = [
  'RangeRequest',
  'PutRequest',
  'DeleteRangeRequest',
  'TxnRequest',
  'CompactionRequest',
  'LeaseGrantRequest',
  'LeaseRevokeRequest',
  'LeaseKeepAliveRequest',
  'LeaseTimeToLiveRequest',
  'LeaseLeasesRequest',
  'WatchCreateRequest',
  'WatchCancelRequest',
  'WatchProgressRequest',
  'StatusRequest',
  'MoveLeaderRequest',
  'MemberAddRequest',
  'MemberRemoveRequest',
  'MemberListRequest',
];

// The client API is gRPC over HTTP/2 over TCP (sim/kernel.ts): requests, answers and watch events
// are stream data. Raft's peer messages and lease forwarding (rafthttp) are not registered.
registerStreamTypes([...REQUEST_TYPES, 'EtcdResponse', 'EtcdError', 'WatchResponse', 'GrpcPing', 'GrpcPong']);

export function isClientRequest(p: { type: string }): p is ClientRequest {
  return (REQUEST_TYPES as readonly string[]).includes(p.type);
}
