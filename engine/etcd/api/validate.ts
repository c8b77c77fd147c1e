// Request checks done before a request is proposed, as the gRPC layer
// (server/etcdserver/api/v3rpc/key.go) and EtcdServer.processInternalRaftRequestOnce
// (server/etcdserver/v3_server.go: the size limit) do. Nothing here reads
// store state; the applier does the state-dependent checks.
import {
  ErrDuplicateKey,
  ErrEmptyKey,
  ErrKeyNotFound,
  ErrLeaseProvided,
  ErrRequestTooLarge,
  ErrTooManyOps,
  ErrValueProvided,
  type EtcdError,
} from './errors';
import { MaxRequestBytes, MaxTxnOps, requestSize } from './limits';
import type { DeleteRangeRequest, InternalRaftRequest, PutRequest, RangeRequest, RequestOp, TxnRequest } from './rpc';

export function checkRangeRequest(r: RangeRequest): EtcdError | null {
  if (!r.key) return ErrEmptyKey;
  return null;
}

export function checkPutRequest(r: PutRequest): EtcdError | null {
  if (!r.key) return ErrEmptyKey;
  if (r.ignoreValue && (r.value ?? '').length !== 0) return ErrValueProvided;
  if (r.ignoreLease && (r.lease ?? 0) !== 0) return ErrLeaseProvided;
  return null;
}

export function checkDeleteRequest(r: DeleteRangeRequest): EtcdError | null {
  if (!r.key) return ErrEmptyKey;
  return null;
}

function checkRequestOp(op: RequestOp, maxTxnOps: number): EtcdError | null {
  if (op.requestRange) return checkRangeRequest(op.requestRange);
  if (op.requestPut) return checkPutRequest(op.requestPut);
  if (op.requestDeleteRange) return checkDeleteRequest(op.requestDeleteRange);
  if (op.requestTxn) return checkTxnRequest(op.requestTxn, maxTxnOps);
  // An empty oneof: upstream answers "key not found".
  return ErrKeyNotFound;
}

/** checkTxnRequest: op counts (each list counted separately) and every op. */
export function checkTxnRequest(r: TxnRequest, maxTxnOps = MaxTxnOps): EtcdError | null {
  const compare = r.compare ?? [];
  const success = r.success ?? [];
  const failure = r.failure ?? [];
  const opc = Math.max(compare.length, success.length, failure.length);
  if (opc > maxTxnOps) return ErrTooManyOps;
  for (const c of compare) if (!c.key) return ErrEmptyKey;
  // Nested txns share what is left of the budget.
  for (const op of success) {
    const e = checkRequestOp(op, maxTxnOps - opc);
    if (e) return e;
  }
  for (const op of failure) {
    const e = checkRequestOp(op, maxTxnOps - opc);
    if (e) return e;
  }
  return null;
}

/**
 * An interval in adt's "string affine" order: '' as an end means +infinity.
 * A delete with rangeEnd '\0' is the literal interval [key, "\0"), which
 * contains no non-empty key — so, as upstream, it never conflicts.
 */
interface Interval {
  begin: string;
  end: string;
}

function intersectsPoint(ivs: readonly Interval[], k: string): boolean {
  for (const iv of ivs) if (iv.begin <= k && (iv.end === '' || k < iv.end)) return true;
  return false;
}

/**
 * checkIntervals: a txn branch may not put a key twice, nor put a key that a
 * delete in the same branch (or in a nested txn) covers. A put in a nested
 * txn's success and the same put in its failure is fine (only one runs).
 */
export function checkIntervals(reqs: readonly RequestOp[]): { puts: Set<string>; dels: Interval[] } | EtcdError {
  const dels: Interval[] = [];
  for (const req of reqs) {
    const d = req.requestDeleteRange;
    if (!d) continue;
    dels.push(d.rangeEnd ? { begin: d.key, end: d.rangeEnd } : { begin: d.key, end: d.key + '\0' });
  }
  const puts = new Set<string>();
  for (const req of reqs) {
    const t = req.requestTxn;
    if (!t) continue;
    const then = checkIntervals(t.success ?? []);
    if ('type' in then) return then;
    const els = checkIntervals(t.failure ?? []);
    if ('type' in els) return els;
    for (const k of then.puts) {
      if (puts.has(k) || intersectsPoint(dels, k)) return ErrDuplicateKey;
      puts.add(k);
    }
    for (const k of els.puts) {
      if (puts.has(k) && !then.puts.has(k)) return ErrDuplicateKey;
      if (intersectsPoint(dels, k)) return ErrDuplicateKey;
      puts.add(k);
    }
    dels.push(...then.dels, ...els.dels);
  }
  for (const req of reqs) {
    const p = req.requestPut;
    if (!p) continue;
    if (puts.has(p.key) || intersectsPoint(dels, p.key)) return ErrDuplicateKey;
    puts.add(p.key);
  }
  return { puts, dels };
}

/** The kvServer.Txn checks, in upstream order. */
export function checkTxn(r: TxnRequest, maxTxnOps = MaxTxnOps): EtcdError | null {
  const e = checkTxnRequest(r, maxTxnOps);
  if (e) return e;
  if (!cannotOverlap(r.success)) {
    const s = checkIntervals(r.success ?? []);
    if ('type' in s) return s;
  }
  if (!cannotOverlap(r.failure)) {
    const f = checkIntervals(r.failure ?? []);
    if ('type' in f) return f;
  }
  return null;
}

/**
 * True when checkIntervals has nothing to find in the branch: no nested txn and
 * at most one put or delete (an update's txn: one put, or one range). Saves
 * its sets and lists on every write.
 */
function cannotOverlap(ops: readonly RequestOp[] | undefined): boolean {
  if (ops == null) return true;
  let writes = 0;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.requestTxn) return false;
    if (op.requestPut || op.requestDeleteRange) writes++;
  }
  return writes <= 1;
}

export interface ProposalLimits {
  maxTxnOps?: number;
  maxRequestBytes?: number;
}

/**
 * Everything upstream checks between receiving a request and proposing it:
 * the v3rpc per-request checks, then the marshalled size against
 * --max-request-bytes ("etcdserver: request is too large").
 */
export function checkProposal(req: InternalRaftRequest, limits: ProposalLimits = {}): EtcdError | null {
  const maxTxnOps = limits.maxTxnOps ?? MaxTxnOps;
  const maxBytes = limits.maxRequestBytes ?? MaxRequestBytes;
  let e: EtcdError | null = null;
  if (req.range) e = checkRangeRequest(req.range);
  else if (req.put) e = checkPutRequest(req.put);
  else if (req.deleteRange) e = checkDeleteRequest(req.deleteRange);
  else if (req.txn) e = checkTxn(req.txn, maxTxnOps);
  if (e) return e;
  if (requestSize(req) > maxBytes) return ErrRequestTooLarge;
  return null;
}
