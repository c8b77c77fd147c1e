// The etcd v3 state machine under Raft: it executes committed requests
// against the MVCC store and the lessor (server/etcdserver/apply.go
// applierV3backend), and serves the local reads and lease queries of
// server/etcdserver/v3_server.go and v3rpc.
//
// Contract with the member actor:
// - Every committed entry carrying an InternalRaftRequest goes to
//   apply(req, raftTerm, nowMs), in log order, on every member. Validation
//   (api/validate.ts checkProposal) happens before proposing, not here.
// - After apply() and after syncWatchers(), drain takeWatchResponses() and
//   deliver each response to its stream.
// - The leader calls promote(now, electionTimeoutMs) once it has applied the
//   first (empty) entry of its term, demote() when it stops leading, and
//   expiredLeases(now) every 500 ms, proposing a LeaseRevoke for each id.
// - Reads: read()/readTxn() answer from local state (serializable reads, or
//   linearizable ones after ReadIndex).
// - snapshot() is the replicated state only (KV + leases); restore() /
//   applySnapshot() rebuild from it. cloneState() copies everything,
//   including watchers and the leader's lease timers.
import {
  ErrCompacted,
  ErrFutureRev,
  ErrKeyNotFound,
  ErrLeaseNotFound,
  isEtcdError,
  type EtcdError,
} from '../api/errors';
import {
  isTxnReadonly,
  revisionHeader,
  type Compare,
  type CompactionResponse,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type Event,
  type InternalRaftRequest,
  type KeyValue,
  type LeaseCheckpointResponse,
  type LeaseGrantResponse,
  type LeaseKeepAliveRequest,
  type LeaseKeepAliveResponse,
  type LeaseLeasesResponse,
  type LeaseRevokeResponse,
  type LeaseTimeToLiveRequest,
  type LeaseTimeToLiveResponse,
  type PutRequest,
  type PutResponse,
  type RaftResponse,
  type RangeRequest,
  type RangeResponse,
  type RequestOp,
  type ResponseHeader,
  type ResponseOp,
  type TxnRequest,
  type TxnResponse,
  type WatchCreateRequest,
} from '../api/rpc';
import { assertNever } from '../api/assert';
import { registerClass } from '../../sim/serial';
import { Lessor } from '../lease/lessor';
import type { StoreTxnWrite, TxnRead } from './kvstore';
import { packRev, revMain } from './revision';
import { decodeSnapshot, encodeSnapshot, type EtcdSnapshot } from './snapshot';
import type { SnapshotData } from '../raft/types';
import { WatchableStore, type WatchDelivery } from './watchableStore';

export interface StateMachineOptions {
  clusterId: number;
  memberId: number;
  /** Minimum lease TTL in seconds (default: from the default election timeout, 2 s). */
  minLeaseTTL?: number;
}

export interface ApplyResult {
  /** The response for the proposer, or the error upstream would return. */
  response: RaftResponse | EtcdError;
  /**
   * The changes this entry committed (one revision), as watch events; [] if
   * none. PUT events share the store's key-values: read only.
   */
  events: Event[];
}

export type KeepAliveResult = LeaseKeepAliveResponse | { type: 'NotPrimary' } | { type: 'Expired' };

/** mkGteRange: '\0' means "every key >= key"; absent or '' means the single key. */
export function mkGteRange(rangeEnd: string | undefined): string | null {
  if (rangeEnd === '\0') return '';
  return rangeEnd ? rangeEnd : null;
}

function compareInt(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareKV(c: Compare, kv: KeyValue): boolean {
  let result: number;
  const target = c.target ?? 'VERSION';
  switch (target) {
    case 'VALUE': {
      const v = c.value ?? '';
      result = kv.value < v ? -1 : kv.value > v ? 1 : 0;
      break;
    }
    case 'CREATE':
      result = compareInt(kv.createRevision, c.createRevision ?? 0);
      break;
    case 'MOD':
      result = compareInt(kv.modRevision, c.modRevision ?? 0);
      break;
    case 'VERSION':
      result = compareInt(kv.version, c.version ?? 0);
      break;
    case 'LEASE':
      result = compareInt(kv.lease, c.lease ?? 0);
      break;
    default:
      return assertNever(target, 'compare target');
  }
  const cmp = c.result ?? 'EQUAL';
  switch (cmp) {
    case 'EQUAL':
      return result === 0;
    case 'NOT_EQUAL':
      return result !== 0;
    case 'GREATER':
      return result > 0;
    case 'LESS':
      return result < 0;
    default:
      return assertNever(cmp, 'compare result');
  }
}

const emptyKv: KeyValue = { key: '', createRevision: 0, modRevision: 0, version: 0, value: '', lease: 0 };

/** applyCompare: every key in the compare's range must satisfy it; none = compare a zero key-value (never for VALUE). */
function applyCompare(rv: TxnRead, c: Compare): boolean {
  const end = mkGteRange(c.rangeEnd);
  if (end === null) {
    // One key (an update's compare on its mod revision): the same answer
    // without the range's lists and copies.
    const kv = rv.get(c.key);
    if (kv === null) return (c.target ?? 'VERSION') === 'VALUE' ? false : compareKV(c, emptyKv);
    if (isEtcdError(kv)) return false;
    return compareKV(c, kv);
  }
  const rr = rv.range(c.key, end, {});
  if (isEtcdError(rr)) return false;
  if (rr.kvs.length === 0) {
    // A missing key has no value to compare ("" is not "missing").
    if ((c.target ?? 'VERSION') === 'VALUE') return false;
    return compareKV(c, emptyKv);
  }
  for (const kv of rr.kvs) if (!compareKV(c, kv)) return false;
  return true;
}

/** compareToPath: the branch taken by the txn and, in pre-order, by each nested txn on the taken branches. */
function compareToPath(rv: TxnRead, rt: TxnRequest, path: boolean[] = []): boolean[] {
  let ok = true;
  const compare = rt.compare;
  if (compare != null) {
    for (let i = 0; i < compare.length; i++) {
      if (!applyCompare(rv, compare[i]!)) {
        ok = false;
        break;
      }
    }
  }
  path.push(ok);
  const ops = ok ? rt.success : rt.failure;
  if (ops != null) {
    for (let i = 0; i < ops.length; i++) {
      const t = ops[i]!.requestTxn;
      if (t) compareToPath(rv, t, path);
    }
  }
  return path;
}

interface Cursor {
  i: number;
}

const sortValue: Record<Exclude<NonNullable<RangeRequest['sortTarget']>, 'KEY' | 'VALUE'>, keyof KeyValue> = {
  VERSION: 'version',
  CREATE: 'createRevision',
  MOD: 'modRevision',
};

export class EtcdStateMachine {
  readonly kv: WatchableStore;
  readonly lessor: Lessor;
  readonly clusterId: number;
  readonly memberId: number;
  /** The member's current term, as v3rpc puts in headers. */
  raftTerm = 0;

  constructor(opts: StateMachineOptions) {
    this.clusterId = opts.clusterId;
    this.memberId = opts.memberId;
    this.lessor = new Lessor({ minLeaseTTL: opts.minLeaseTTL });
    this.kv = new WatchableStore(this.lessor);
    this.syncHeaderInfo();
  }

  private syncHeaderInfo(): void {
    const h = this.kv.headerInfo;
    h.clusterId = this.clusterId;
    h.memberId = this.memberId;
    h.raftTerm = this.raftTerm;
  }

  /** header.fill: cluster, member and term; the revision if the request did not set one. */
  private fill(h: ResponseHeader): ResponseHeader {
    h.clusterId = this.clusterId;
    h.memberId = this.memberId;
    h.raftTerm = this.raftTerm;
    if (h.revision === 0) h.revision = this.kv.rev();
    return h;
  }

  private newHeader(): ResponseHeader {
    return this.fill(revisionHeader(0));
  }

  currentRevision(): number {
    return this.kv.rev();
  }

  /** -1 if never compacted. */
  compactRevision(): number {
    return this.kv.firstRev();
  }

  /** Apply one committed request. */
  apply(req: InternalRaftRequest, raftTerm: number, nowMs: number): ApplyResult {
    const before = this.kv.rev();
    const response = this.applyRequest(req, raftTerm, nowMs);
    return { response, events: this.eventsSince(before) };
  }

  /**
   * apply() without building the entry's events: what a member runs for every
   * committed entry (watchers get their events from the store itself, so the
   * list would be thrown away).
   */
  applyRequest(req: InternalRaftRequest, raftTerm: number, nowMs: number): RaftResponse | EtcdError {
    this.raftTerm = raftTerm;
    this.syncHeaderInfo();
    const response = this.dispatch(req, nowMs);
    if (!isEtcdError(response)) this.fill(response.header);
    return response;
  }

  private dispatch(req: InternalRaftRequest, nowMs: number): RaftResponse | EtcdError {
    if (req.range) return this.range(null, req.range);
    if (req.put) return this.put(null, req.put);
    if (req.deleteRange) return this.deleteRange(null, req.deleteRange);
    if (req.txn) return this.txn(req.txn);
    if (req.compaction) {
      const e = this.kv.compact(req.compaction.revision);
      if (e) return e;
      const resp: CompactionResponse = { header: revisionHeader(this.kv.rev()) };
      return resp;
    }
    if (req.leaseGrant) {
      const l = this.lessor.grant(req.leaseGrant.ID ?? 0, req.leaseGrant.TTL, nowMs);
      if (isEtcdError(l)) return l;
      const resp: LeaseGrantResponse = { header: this.newHeader(), ID: l.ID, TTL: l.ttl, error: '' };
      return resp;
    }
    if (req.leaseRevoke) {
      const e = this.lessor.revoke(req.leaseRevoke.ID, this.kv);
      if (e) return e;
      const resp: LeaseRevokeResponse = { header: this.newHeader() };
      return resp;
    }
    if (req.leaseCheckpoint) {
      for (const c of req.leaseCheckpoint.checkpoints) this.lessor.checkpoint(c.ID, c.remainingTTL);
      const resp: LeaseCheckpointResponse = { header: this.newHeader() };
      return resp;
    }
    throw new Error('etcd apply: not implemented (empty InternalRaftRequest)');
  }

  /** The events of the revision committed since `before`, if any. */
  private eventsSince(before: number): Event[] {
    const rev = this.kv.rev();
    if (rev === before) return [];
    const records = this.kv.records();
    const out: Event[] = [];
    for (let i = this.kv.lowerBoundRecord(packRev(rev)); i < records.length; i++) {
      const r = records[i]!;
      out.push(
        r.tombstone
          ? { type: 'DELETE', kv: { ...r.kv, modRevision: revMain(r.rev) } }
          : { type: 'PUT', kv: r.kv },
      );
    }
    return out;
  }

  // ---- KV operations (applierV3backend) ----

  private range(txn: TxnRead | null, r: RangeRequest): RangeResponse | EtcdError {
    const rv = txn ?? this.kv.read();
    const sortOrder0 = r.sortOrder ?? 'NONE';
    const sortTarget = r.sortTarget ?? 'KEY';
    let limit = r.limit ?? 0;
    if (
      sortOrder0 !== 'NONE' ||
      (r.minModRevision ?? 0) !== 0 ||
      (r.maxModRevision ?? 0) !== 0 ||
      (r.minCreateRevision ?? 0) !== 0 ||
      (r.maxCreateRevision ?? 0) !== 0
    ) {
      limit = 0; // fetch everything; sort and truncate afterwards
    }
    if (limit > 0) limit++; // one extra for `more`
    const rr = rv.range(r.key, mkGteRange(r.rangeEnd), { limit, rev: r.revision ?? 0, count: !!r.countOnly });
    if (isEtcdError(rr)) return rr;
    let kvs = rr.kvs;
    const maxMod = r.maxModRevision ?? 0;
    const minMod = r.minModRevision ?? 0;
    const maxCreate = r.maxCreateRevision ?? 0;
    const minCreate = r.minCreateRevision ?? 0;
    if (maxMod !== 0) kvs = kvs.filter((kv) => kv.modRevision <= maxMod);
    if (minMod !== 0) kvs = kvs.filter((kv) => kv.modRevision >= minMod);
    if (maxCreate !== 0) kvs = kvs.filter((kv) => kv.createRevision <= maxCreate);
    if (minCreate !== 0) kvs = kvs.filter((kv) => kv.createRevision >= minCreate);

    let sortOrder = sortOrder0;
    // Results come sorted by key already; another target defaults to ascending.
    if (sortTarget !== 'KEY' && sortOrder === 'NONE') sortOrder = 'ASCEND';
    if (sortOrder !== 'NONE') {
      let less: (a: KeyValue, b: KeyValue) => number;
      if (sortTarget === 'KEY') less = (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
      else if (sortTarget === 'VALUE') less = (a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
      else {
        const field = sortValue[sortTarget];
        less = (a, b) => (a[field] as number) - (b[field] as number);
      }
      // Stable sort: ties keep key order (Go's sort.Sort is not stable; ties may differ from etcd).
      kvs = sortOrder === 'ASCEND' ? [...kvs].sort(less) : [...kvs].sort((a, b) => less(b, a));
    }
    let more = false;
    const reqLimit = r.limit ?? 0;
    if (reqLimit > 0 && kvs.length > reqLimit) {
      kvs = kvs.slice(0, reqLimit);
      more = true;
    }
    if (r.keysOnly) kvs = kvs.map((kv) => ({ ...kv, value: '' }));
    return { header: revisionHeader(rr.rev), kvs, more, count: rr.count };
  }

  private put(txn: StoreTxnWrite | null, p: PutRequest): PutResponse | EtcdError {
    if (txn) return this.putIn(txn, p);
    const leaseId = p.lease ?? 0;
    if (leaseId !== 0 && !this.lessor.lookup(leaseId)) return ErrLeaseNotFound;
    const own = this.kv.write();
    const r = this.putIn(own, p);
    own.end();
    return r;
  }

  private putIn(txn: StoreTxnWrite, p: PutRequest): PutResponse | EtcdError {
    let val = p.value ?? '';
    let leaseId = p.lease ?? 0;
    let prev: KeyValue | undefined;
    if (p.ignoreValue || p.ignoreLease || p.prevKv) {
      const rr = txn.range(p.key, null, {});
      if (isEtcdError(rr)) return rr;
      prev = rr.kvs[0];
    }
    if (p.ignoreValue || p.ignoreLease) {
      if (!prev) return ErrKeyNotFound; // they need a previous key
      if (p.ignoreValue) val = prev.value;
      if (p.ignoreLease) leaseId = prev.lease;
    }
    const rev = txn.put(p.key, val, leaseId);
    const resp: PutResponse = { header: revisionHeader(rev) };
    if (p.prevKv && prev) resp.prevKv = prev;
    return resp;
  }

  private deleteRange(txn: StoreTxnWrite | null, dr: DeleteRangeRequest): DeleteRangeResponse | EtcdError {
    if (txn) return this.deleteIn(txn, dr);
    const own = this.kv.write();
    const r = this.deleteIn(own, dr);
    own.end();
    return r;
  }

  private deleteIn(txn: StoreTxnWrite, dr: DeleteRangeRequest): DeleteRangeResponse | EtcdError {
    const end = mkGteRange(dr.rangeEnd);
    let prevKvs: KeyValue[] = [];
    if (dr.prevKv) {
      const rr = txn.range(dr.key, end, {});
      if (isEtcdError(rr)) return rr;
      prevKvs = rr.kvs;
    }
    const [deleted, rev] = txn.deleteRange(dr.key, end);
    return { header: revisionHeader(rev), deleted, prevKvs };
  }

  private txn(rt: TxnRequest): TxnResponse | EtcdError {
    const isWrite = !isTxnReadonly(rt);
    const rv = this.kv.read();
    const path = compareToPath(rv, rt);
    if (isWrite) {
      const e = this.checkRequests(rv, rt, path, { i: 0 }, true);
      if (e) return e;
    }
    const e = this.checkRequests(rv, rt, path, { i: 0 }, false);
    if (e) return e;
    // Writes run in one write txn, so every change shares one revision.
    const tw = isWrite ? this.kv.write() : null;
    const resp = this.applyTxn(tw ?? rv, tw, rt, path, { i: 0 });
    let rev = (tw ?? rv).rev();
    if (tw && tw.changes.length !== 0) rev++;
    tw?.end();
    resp.header.revision = rev;
    return resp;
  }

  private checkRequests(
    rv: TxnRead,
    rt: TxnRequest,
    path: readonly boolean[],
    cur: Cursor,
    /** checkRequestPut on each op when true, else checkRequestRange. */
    puts: boolean,
  ): EtcdError | null {
    const ok = path[cur.i++]!;
    for (const op of (ok ? rt.success : rt.failure) ?? []) {
      if (op.requestTxn) {
        const e = this.checkRequests(rv, op.requestTxn, path, cur, puts);
        if (e) return e;
        continue;
      }
      const e = puts ? this.checkRequestPut(rv, op) : this.checkRequestRange(rv, op);
      if (e) return e;
    }
    return null;
  }

  private checkRequestPut(rv: TxnRead, op: RequestOp): EtcdError | null {
    const req = op.requestPut;
    if (!req) return null;
    if (req.ignoreValue || req.ignoreLease) {
      const rr = rv.range(req.key, null, {});
      if (isEtcdError(rr)) return rr;
      if (rr.kvs.length === 0) return ErrKeyNotFound;
    }
    if ((req.lease ?? 0) !== 0 && !this.lessor.lookup(req.lease!)) return ErrLeaseNotFound;
    return null;
  }

  private checkRequestRange(rv: TxnRead, op: RequestOp): EtcdError | null {
    const req = op.requestRange;
    if (!req) return null;
    const rev = req.revision ?? 0;
    if (rev === 0) return null;
    if (rev > rv.rev()) return ErrFutureRev;
    if (rev < rv.firstRev()) return ErrCompacted;
    return null;
  }

  /** applyTxn: runs the taken branch; nested txns take their precomputed branch. */
  private applyTxn(
    txn: TxnRead,
    tw: StoreTxnWrite | null,
    rt: TxnRequest,
    path: readonly boolean[],
    cur: Cursor,
  ): TxnResponse {
    const succeeded = path[cur.i++]!;
    const responses: ResponseOp[] = [];
    for (const op of (succeeded ? rt.success : rt.failure) ?? []) {
      if (op.requestRange) {
        const r = this.range(txn, op.requestRange);
        if (isEtcdError(r)) throw new Error(`unexpected error during txn: ${r.message}`);
        responses.push({ responseRange: r });
      } else if (op.requestPut) {
        if (!tw) throw new Error('put in a read-only txn');
        const r = this.put(tw, op.requestPut);
        if (isEtcdError(r)) throw new Error(`unexpected error during txn: ${r.message}`);
        responses.push({ responsePut: r });
      } else if (op.requestDeleteRange) {
        if (!tw) throw new Error('delete in a read-only txn');
        const r = this.deleteRange(tw, op.requestDeleteRange);
        if (isEtcdError(r)) throw new Error(`unexpected error during txn: ${r.message}`);
        responses.push({ responseDeleteRange: r });
      } else if (op.requestTxn) {
        // Nested responses keep an empty header, as upstream.
        responses.push({ responseTxn: this.applyTxn(txn, tw, op.requestTxn, path, cur) });
      } else {
        responses.push({}); // empty union
      }
    }
    return { header: revisionHeader(0), succeeded, responses };
  }

  // ---- Local reads (v3_server.go Range / read-only Txn) ----

  /** A Range on local state; the caller has done ReadIndex for linearizable reads. */
  read(req: RangeRequest, raftTerm = this.raftTerm): RangeResponse | EtcdError {
    this.raftTerm = raftTerm;
    const r = this.range(null, req);
    if (!isEtcdError(r)) this.fill(r.header);
    return r;
  }

  /** A read-only Txn (isTxnReadonly) on local state. */
  readTxn(req: TxnRequest, raftTerm = this.raftTerm): TxnResponse | EtcdError {
    if (!isTxnReadonly(req)) throw new Error('readTxn: txn has writes; propose it');
    this.raftTerm = raftTerm;
    const r = this.txn(req);
    if (!isEtcdError(r)) this.fill(r.header);
    return r;
  }

  /** HashKV of the store at rev (0 = current). */
  hash(rev = 0): { hash: number; currentRev: number; compactRev: number } | EtcdError {
    return this.kv.hashByRev(rev);
  }

  // ---- Snapshots ----

  /** The replicated state (KV records + leases), for Raft snapshots. */
  snapshot(): EtcdSnapshot {
    return encodeSnapshot(this.kv, this.lessor);
  }

  /** A fresh state machine from a snapshot. */
  static restore(data: SnapshotData, opts: StateMachineOptions): EtcdStateMachine {
    const sm = new EtcdStateMachine(opts);
    sm.applySnapshot(data);
    return sm;
  }

  /**
   * Installs a snapshot in place (a follower receiving the leader's
   * snapshot): leases first, then KV (which re-attaches leased keys); live
   * watchers stay and catch up through syncWatchers().
   */
  applySnapshot(data: SnapshotData): void {
    const snap = decodeSnapshot(data);
    this.lessor.recover(snap.leases);
    this.kv.restore(snap.records, snap.currentRev, snap.compactRev);
  }

  // ---- Watches (per member; streams are client connections) ----

  watch(streamId: string, req: WatchCreateRequest): number {
    this.syncHeaderInfo();
    return this.kv.watch(streamId, req);
  }

  cancelWatch(streamId: string, watchId: number): boolean {
    this.syncHeaderInfo();
    return this.kv.cancelWatch(streamId, watchId);
  }

  closeWatchStream(streamId: string): void {
    this.kv.closeStream(streamId);
  }

  requestWatchProgress(streamId: string): boolean {
    this.syncHeaderInfo();
    return this.kv.requestProgress(streamId);
  }

  progressNotifyTick(streamId: string): void {
    this.syncHeaderInfo();
    this.kv.progressNotifyTick(streamId);
  }

  /** Call every SyncWatchersIntervalMs; returns the number of watchers still catching up. */
  syncWatchers(): number {
    this.syncHeaderInfo();
    return this.kv.syncWatchers();
  }

  takeWatchResponses(): WatchDelivery[] {
    return this.kv.takeWatchResponses();
  }

  // ---- Leases (leader side) ----

  promote(nowMs: number, extendMs: number): void {
    this.lessor.promote(nowMs, extendMs);
  }

  demote(): void {
    this.lessor.demote();
  }

  /** Expired leases the leader should propose LeaseRevoke for. */
  expiredLeases(nowMs: number): number[] {
    return this.lessor.expiredLeases(nowMs);
  }

  /**
   * LeaseKeepAlive on this member: TTL 0 when the lease does not exist
   * (v3rpc/lease.go). NotPrimary: forward to the leader. Expired: upstream
   * waits for the pending revoke (then TTL 0) or a leader change.
   */
  leaseKeepAlive(req: LeaseKeepAliveRequest, nowMs: number): KeepAliveResult {
    const header = this.newHeader(); // taken before renewing, as upstream
    const r = this.lessor.renew(req.ID, nowMs);
    switch (r.type) {
      case 'Renewed':
        return { header, ID: req.ID, TTL: r.TTL };
      case 'NotFound':
        return { header, ID: req.ID, TTL: 0 };
      case 'NotPrimary':
      case 'Expired':
        return r;
      default:
        return assertNever(r, 'renew result');
    }
  }

  /**
   * LeaseTimeToLive: answered by the leader only (followers forward).
   * TTL is the remaining time truncated to seconds; -1 if no such lease.
   */
  leaseTimeToLive(req: LeaseTimeToLiveRequest, nowMs: number, isLeader: boolean): LeaseTimeToLiveResponse | { type: 'NotLeader' } {
    if (!isLeader) return { type: 'NotLeader' };
    const l = this.lessor.lookup(req.ID);
    if (!l) return { header: this.newHeader(), ID: req.ID, TTL: -1, grantedTTL: 0, keys: [] };
    const remaining = this.lessor.remainingMs(req.ID, nowMs);
    // A lease that is "forever" (not promoted yet) reports MaxInt64 ns in seconds.
    const TTL = remaining === Infinity ? 9223372036 : Math.trunc(remaining / 1000);
    return { header: this.newHeader(), ID: req.ID, TTL, grantedTTL: l.ttl, keys: req.keys ? l.keys() : [] };
  }

  /** LeaseLeases: every lease this member knows (local state). */
  leaseLeases(): LeaseLeasesResponse {
    return { header: this.newHeader(), leases: this.lessor.leases().map((l) => ({ ID: l.ID })) };
  }
}

registerClass('etcd.EtcdStateMachine', EtcdStateMachine);
