// The member's view of its applied state: the etcd state machine (MVCC, leases,
// watches) plus the applied index, and the request checks v3rpc does before
// proposing. A thin layer so member.ts reads like etcdserver.
import * as errors from '../api/errors';
import type { EtcdError } from '../api/errors';
import { isEtcdError } from '../api/errors';
import { isTxnReadonly, isTxnSerializable, type InternalRaftRequest, type RaftResponse, type KeyValue, type RangeRequest, type RequestOp, type ResponseHeader, type TxnRequest, type WatchCreateRequest, type WatchResponse } from '../api/rpc';
import { checkProposal, checkRangeRequest } from '../api/validate';
import { EtcdStateMachine } from '../mvcc/applier';
import { registerClass } from '../../sim/serial';
import type { Entry, SnapshotData } from '../raft';
import type { EtcdSnapshot } from '../mvcc/snapshot';
import type { ClientRequest } from './messages';

export interface KvConfig {
  clusterId: number;
  raftId: number;
  tickMs: number;
  electionTicks: number;
}

/**
 * A RequestOp is a protobuf oneof: at most one request. The wire format cannot
 * carry two, but the engine's own API could; refuse that instead of applying
 * something different from what was validated.
 */
function checkOneofs(t: TxnRequest): EtcdError | null {
  return checkOpsOneofs(t.success) ?? checkOpsOneofs(t.failure);
}

function checkOpsOneofs(ops: readonly RequestOp[] | undefined): EtcdError | null {
  if (ops == null) return null;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const set = (op.requestRange !== undefined ? 1 : 0) + (op.requestPut !== undefined ? 1 : 0) + (op.requestDeleteRange !== undefined ? 1 : 0) + (op.requestTxn !== undefined ? 1 : 0);
    if (set > 1) return { type: 'EtcdError', code: 'InvalidArgument', codeNumber: 3, message: 'oneof RequestOp.request has more than one field set' };
    if (op.requestTxn) {
      const inner = checkOneofs(op.requestTxn);
      if (inner) return inner;
    }
  }
  return null;
}

export class KvStateMachine {
  readonly inner: EtcdStateMachine;
  appliedIndex = 0;
  appliedTerm = 0;

  constructor(readonly config: KvConfig, memberId: number) {
    this.inner = new EtcdStateMachine({ clusterId: config.clusterId, memberId });
  }

  static restore(data: SnapshotData, config: KvConfig, memberId: number, index: number, term: number): KvStateMachine {
    const sm = new KvStateMachine(config, memberId);
    sm.inner.applySnapshot(data);
    sm.appliedIndex = index;
    sm.appliedTerm = term;
    return sm;
  }

  /** A snapshot from the leader replaces everything applied so far. */
  restoreFrom(data: SnapshotData, index: number, term: number): void {
    this.inner.applySnapshot(data);
    this.appliedIndex = index;
    this.appliedTerm = term;
  }

  snapshot(): EtcdSnapshot {
    return this.inner.snapshot();
  }

  noteApplied(index: number, term: number): void {
    this.appliedIndex = index;
    this.appliedTerm = term;
  }

  /** The response, or the EtcdError the request failed with (tell them apart with isEtcdError). */
  apply(req: InternalRaftRequest, e: Entry, nowMs: number): RaftResponse | EtcdError {
    const r = this.inner.applyRequest(req, e.term, nowMs);
    this.noteApplied(e.index, e.term);
    return r;
  }

  /** v3rpc's checks on a request before it is proposed or served. */
  validate(p: ClientRequest): EtcdError | null {
    switch (p.type) {
      case 'RangeRequest':
        return checkRangeRequest(p.body) ?? checkProposal({ header: { id: 0 }, range: p.body });
      case 'PutRequest':
        return checkProposal({ header: { id: 0 }, put: p.body });
      case 'DeleteRangeRequest':
        return checkProposal({ header: { id: 0 }, deleteRange: p.body });
      case 'TxnRequest':
        return checkOneofs(p.body) ?? checkProposal({ header: { id: 0 }, txn: p.body });
      case 'WatchCreateRequest':
        return p.body.key === undefined ? errors.ErrEmptyKey : null;
      default:
        return null;
    }
  }

  header(raftTerm: number): ResponseHeader {
    return { clusterId: this.inner.clusterId, memberId: this.inner.memberId, revision: this.inner.currentRevision(), raftTerm };
  }

  range(req: RangeRequest, raftTerm: number) {
    return this.inner.read(req, raftTerm);
  }

  readTxn(req: TxnRequest, raftTerm: number) {
    return this.inner.readTxn(req, raftTerm);
  }

  isReadOnlyTxn(req: TxnRequest): boolean {
    return isTxnReadonly(req);
  }

  isSerializableTxn(req: TxnRequest): boolean {
    return isTxnSerializable(req);
  }

  currentRevision(): number {
    return this.inner.currentRevision();
  }

  compactRevision(): number {
    return Math.max(0, this.inner.compactRevision());
  }

  /** Every live key (checkers). */
  allKeys(): KeyValue[] {
    return this.keysForView(0).kvs;
  }

  /** The first `limit` live keys in key order (0 = all), and how many there are, for views. */
  keysForView(limit: number): { kvs: KeyValue[]; count: number } {
    const r = this.inner.read({ key: '\0', rangeEnd: '\0', serializable: true, limit });
    return isEtcdError(r) ? { kvs: [], count: 0 } : { kvs: r.kvs, count: r.count };
  }

  // ---- leases ----

  promote(nowMs: number): void {
    this.inner.promote(nowMs, this.config.electionTicks * this.config.tickMs);
  }

  demote(): void {
    this.inner.demote();
  }

  expiredLeases(nowMs: number): number[] {
    return this.inner.expiredLeases(nowMs);
  }

  /** Keepalive on the leader; `forward` when this member is not the lessor's primary. */
  renewLease(id: number, nowMs: number): { ttl: number } | { error: EtcdError } | { forward: true } {
    const r = this.inner.leaseKeepAlive({ ID: id }, nowMs);
    if ('type' in r) {
      if (r.type === 'NotPrimary') return { forward: true };
      return { error: errors.ErrLeaseNotFound }; // expired, revoke pending
    }
    return { ttl: r.TTL };
  }

  leaseTimeToLive(body: { ID: number; keys?: boolean }, nowMs: number, isLeader: boolean) {
    const r = this.inner.leaseTimeToLive(body, nowMs, isLeader);
    return 'type' in r ? errors.ErrNotLeader : r;
  }

  leaseLeases() {
    return this.inner.leaseLeases();
  }

  // ---- watches: one stream per client actor ----

  /** Creates a watch; -1 when refused (the stream then gets a created+canceled response with the reason). */
  createWatch(streamId: string, body: WatchCreateRequest): { watchId: number } {
    return { watchId: this.inner.watch(streamId, body) };
  }

  cancelWatch(streamId: string, watchId: number): boolean {
    return this.inner.cancelWatch(streamId, watchId);
  }

  /** The client's connection is gone: its watch stream and watchers with it. */
  closeWatchStream(streamId: string): void {
    this.inner.closeWatchStream(streamId);
  }

  syncWatchers(): void {
    this.inner.syncWatchers();
  }

  takeWatchResponses(): { streamId: string; response: WatchResponse }[] {
    return this.inner.takeWatchResponses();
  }
}

registerClass('KvStateMachine', KvStateMachine);
