// etcd v3.5 default limits (server/embed/config.go, server/etcdserver/*, lease/lessor.go).
import type { InternalRaftRequest } from './rpc';
import { internalRaftRequestSize } from './protoSize';

/** --max-request-bytes default: 1.5 MiB (embed.DefaultMaxRequestBytes). */
export const MaxRequestBytes = 1572864;
/** gRPC message overhead allowed on top of MaxRequestBytes (embed grpcOverheadBytes). */
export const GrpcOverheadBytes = 512 * 1024;
/** Max gRPC receive size and watch fragment limit (MaxRequestBytesWithOverhead). */
export const MaxRequestBytesWithOverhead = MaxRequestBytes + GrpcOverheadBytes;
/** --max-txn-ops default (embed.DefaultMaxTxnOps). */
export const MaxTxnOps = 128;
/** --quota-backend-bytes default: 2 GiB (storage/quota.go DefaultQuotaBytes). */
export const DefaultQuotaBytes = 2 * 1024 * 1024 * 1024;
/** lease.MaxLeaseTTL in seconds. */
export const MaxLeaseTTL = 9000000000;
/** Default heartbeat (TickMs) and election timeout in ticks (embed config). */
export const DefaultTickMs = 100;
export const DefaultElectionTicks = 10;
/** Unsynced watchers are synced every 100 ms (watchable_store.go syncWatchersLoop). */
export const SyncWatchersIntervalMs = 100;
/** At most this many unsynced watchers are synced per pass (maxWatchersPerSync). */
export const MaxWatchersPerSync = 512;
/** At most this many distinct revisions go to an unsynced watcher per response (watchBatchMaxRevs). */
export const WatchBatchMaxRevs = 1000;
/** Progress notifications for progress_notify watchers (v3rpc progressReportInterval; upstream adds up to +10% jitter). */
export const ProgressReportIntervalMs = 10 * 60 * 1000;
/** The leader looks for expired leases every 500 ms (lessor.go runLoop) ... */
export const LeaseRevokeCheckIntervalMs = 500;
/** ... and reports at most leaseRevokeRate/2 per look. */
export const LeaseRevokeRate = 1000;
/** An expired lease is reported again if still not revoked after this long (defaultExpiredleaseRetryInterval). */
export const ExpiredLeaseRetryIntervalMs = 3000;

/**
 * The minimum lease TTL in seconds: ceil(((3 * electionTicks) / 2) * tick),
 * with integer division (etcdserver/server.go NewServer). 2 s by default.
 */
export function minLeaseTTLSeconds(electionTicks = DefaultElectionTicks, tickMs = DefaultTickMs): number {
  return Math.ceil((Math.floor((3 * electionTicks) / 2) * tickMs) / 1000);
}

/**
 * The size upstream compares with MaxRequestBytes before proposing: the
 * protobuf encoding of the InternalRaftRequest (keys, values, range ends and
 * compare values byte for byte, plus tags, length prefixes and varints; see
 * protoSize.ts). A 1.5 MiB value in a Put is therefore just over the limit.
 */
export function requestSize(req: InternalRaftRequest): number {
  return internalRaftRequestSize(req);
}
