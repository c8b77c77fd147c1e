// A sequential model of etcd's KV + lease API for the linearizability
// checker, after etcd's tests/robustness/model (deterministic.go for the
// semantics, non_deterministic.go for unknown outcomes) and the server's apply
// path (server/etcdserver/txn/txn.go). Revisions are global: every successful
// write bumps the store revision by one, so histories are not partitioned by
// key. The memo key is the revision plus an order-independent 2x32-bit hash of
// the key space and leases, maintained incrementally on every write.
import { assertNever } from '../assert';
import { registerClass } from '../serial';
import type { KeyValue, RevisionEvents } from './etcdTypes';
import { describeKv, kvEquals } from './etcdTypes';
import type { CheckOptions, CheckResult, Model, Operation, StepResult } from './linearizability';
import { checkOperations } from './linearizability';

// --- requests -----------------------------------------------------------------

export interface PutRequest {
  type: 'put';
  key: string;
  value: string;
  /** 0 or absent: no lease. */
  leaseId?: number;
}

export interface GetRequest {
  type: 'get';
  key: string;
  /** Read at a past revision (0/absent = latest). */
  revision?: number;
}

export interface DeleteRequest {
  type: 'delete';
  key: string;
}

export interface Compare {
  key: string;
  target: 'VALUE' | 'MOD' | 'VERSION' | 'CREATE';
  result: 'EQUAL' | 'NOT_EQUAL' | 'GREATER' | 'LESS';
  /** A string for VALUE, a number for the revision/version targets. */
  value: string | number;
}

export interface TxnRequest {
  type: 'txn';
  compare: Compare;
  onSuccess: PutRequest | DeleteRequest;
  onFailure?: PutRequest | DeleteRequest | GetRequest;
}

export interface LeaseGrantRequest {
  type: 'leaseGrant';
  id: number;
  ttl: number;
}

export interface LeaseRevokeRequest {
  type: 'leaseRevoke';
  id: number;
}

export type EtcdRequest = PutRequest | GetRequest | DeleteRequest | TxnRequest | LeaseGrantRequest | LeaseRevokeRequest;

// --- responses ----------------------------------------------------------------

export interface ResponseHeader {
  revision: number;
}

export interface PutResponse {
  type: 'put';
  header: ResponseHeader;
  /** Present only when prev_kv was requested: the old kv, or null if there was none. */
  prevKv?: KeyValue | null;
}

export interface GetResponse {
  type: 'get';
  header: ResponseHeader;
  /** Absent when the key does not exist. */
  kv?: KeyValue;
}

export interface DeleteResponse {
  type: 'delete';
  header: ResponseHeader;
  deleted: number;
  prevKv?: KeyValue | null;
}

export type TxnOpResponse =
  | { type: 'put'; prevKv?: KeyValue | null }
  | { type: 'delete'; deleted: number; prevKv?: KeyValue | null }
  | { type: 'get'; kv?: KeyValue };

export interface TxnResponse {
  type: 'txn';
  header: ResponseHeader;
  succeeded: boolean;
  /** The branch's op results, checked when given. */
  responses?: TxnOpResponse[];
}

export interface LeaseGrantResponse {
  type: 'leaseGrant';
  header: ResponseHeader;
  id: number;
  ttl?: number;
}

export interface LeaseRevokeResponse {
  type: 'leaseRevoke';
  header: ResponseHeader;
}

/** A definite failure: the request was not applied. */
export interface ErrorResponse {
  type: 'error';
  error: string;
}

export type EtcdResponse =
  | PutResponse
  | GetResponse
  | DeleteResponse
  | TxnResponse
  | LeaseGrantResponse
  | LeaseRevokeResponse
  | ErrorResponse;

export type EtcdOperation = Operation<EtcdRequest, EtcdResponse>;

/** etcd v3.5 error strings (api/v3rpc/rpctypes) the model can check against state. */
export const ErrLeaseNotFound = 'etcdserver: requested lease not found';
export const ErrLeaseExist = 'etcdserver: lease already exists';
export const ErrFutureRev = 'etcdserver: mvcc: required revision is a future revision';
export const ErrCompacted = 'etcdserver: mvcc: required revision has been compacted';

// --- state --------------------------------------------------------------------

interface KeyState {
  value: string;
  createRevision: number;
  modRevision: number;
  version: number;
  lease: number;
  h1: number;
  h2: number;
}

export interface EtcdState {
  readonly revision: number;
  readonly kvs: ReadonlyMap<string, KeyState>;
  readonly leases: ReadonlySet<number>;
  /** XOR of the entry hashes of every key and lease. */
  readonly h1: number;
  readonly h2: number;
}

function fnv1a(text: string, basis: number): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A second, differently mixed 32-bit hash, so the pair behaves like 64 bits. */
function mix32(text: string): number {
  let h = 0x9e3779b9 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function makeKeyState(key: string, value: string, createRevision: number, modRevision: number, version: number, lease: number): KeyState {
  const text = `k${key}\u0000${value}\u0000${createRevision}\u0000${modRevision}\u0000${version}\u0000${lease}`;
  return { value, createRevision, modRevision, version, lease, h1: fnv1a(text, 0x811c9dc5), h2: mix32(text) };
}

function leaseHash1(id: number): number {
  return fnv1a(`l${id}`, 0x811c9dc5);
}
function leaseHash2(id: number): number {
  return mix32(`l${id}`);
}

export interface EtcdModelOptions {
  /** Revision of the store before the history starts (a fresh etcd is at 1). */
  initialRevision?: number;
  /** Keys present before the history starts. */
  initialKvs?: KeyValue[];
  /** Leases present before the history starts. */
  initialLeases?: number[];
}

export function initialEtcdState(opts: EtcdModelOptions = {}): EtcdState {
  const kvs = new Map<string, KeyState>();
  const leases = new Set<number>(opts.initialLeases ?? []);
  let h1 = 0;
  let h2 = 0;
  for (const kv of opts.initialKvs ?? []) {
    const ks = makeKeyState(kv.key, kv.value, kv.createRevision, kv.modRevision, kv.version, kv.lease ?? 0);
    kvs.set(kv.key, ks);
    h1 ^= ks.h1;
    h2 ^= ks.h2;
  }
  for (const id of leases) {
    h1 ^= leaseHash1(id);
    h2 ^= leaseHash2(id);
  }
  return { revision: opts.initialRevision ?? 1, kvs, leases, h1, h2 };
}

/** The key as a KeyValue in `state`, or undefined if absent. */
export function kvOf(state: EtcdState, key: string): KeyValue | undefined {
  return toKv(key, state.kvs.get(key));
}

function toKv(key: string, ks: KeyState | undefined): KeyValue | undefined {
  if (!ks) return undefined;
  const kv: KeyValue = {
    key,
    value: ks.value,
    createRevision: ks.createRevision,
    modRevision: ks.modRevision,
    version: ks.version,
  };
  if (ks.lease !== 0) kv.lease = ks.lease;
  return kv;
}

/** Copy-on-write builder for one write request. */
class Writer {
  kvs: Map<string, KeyState> | null = null;
  leases: Set<number> | null = null;
  h1: number;
  h2: number;
  changed = false;

  constructor(readonly base: EtcdState) {
    this.h1 = base.h1;
    this.h2 = base.h2;
  }

  private map(): Map<string, KeyState> {
    if (!this.kvs) this.kvs = new Map(this.base.kvs);
    return this.kvs;
  }

  get(key: string): KeyState | undefined {
    return (this.kvs ?? this.base.kvs).get(key);
  }

  hasLease(id: number): boolean {
    return (this.leases ?? this.base.leases).has(id);
  }

  put(key: string, value: string, lease: number, rev: number): void {
    const old = this.get(key);
    const ks = old
      ? makeKeyState(key, value, old.createRevision, rev, old.version + 1, lease)
      : makeKeyState(key, value, rev, rev, 1, lease);
    if (old) {
      this.h1 ^= old.h1;
      this.h2 ^= old.h2;
    }
    this.h1 ^= ks.h1;
    this.h2 ^= ks.h2;
    this.map().set(key, ks);
    this.changed = true;
  }

  delete(key: string): boolean {
    const old = this.get(key);
    if (!old) return false;
    this.h1 ^= old.h1;
    this.h2 ^= old.h2;
    this.map().delete(key);
    this.changed = true;
    return true;
  }

  setLease(id: number, present: boolean): void {
    if (this.hasLease(id) === present) return;
    if (!this.leases) this.leases = new Set(this.base.leases);
    if (present) this.leases.add(id);
    else this.leases.delete(id);
    this.h1 ^= leaseHash1(id);
    this.h2 ^= leaseHash2(id);
  }

  finish(bumpRevision: boolean): EtcdState {
    if (!this.kvs && !this.leases) return this.base;
    return {
      revision: this.base.revision + (bumpRevision ? 1 : 0),
      kvs: this.kvs ?? this.base.kvs,
      leases: this.leases ?? this.base.leases,
      h1: this.h1,
      h2: this.h2,
    };
  }
}

// --- semantics ----------------------------------------------------------------

function compareHolds(state: EtcdState, c: Compare): boolean {
  const ks = state.kvs.get(c.key);
  let cmp: number;
  switch (c.target) {
    case 'VALUE': {
      // etcd: comparing the value of a missing key always fails.
      if (!ks) return false;
      const want = String(c.value);
      cmp = ks.value < want ? -1 : ks.value > want ? 1 : 0;
      break;
    }
    case 'MOD':
    case 'VERSION':
    case 'CREATE': {
      // A missing key compares as the zero KeyValue.
      const have = !ks ? 0 : c.target === 'MOD' ? ks.modRevision : c.target === 'VERSION' ? ks.version : ks.createRevision;
      const want = Number(c.value);
      cmp = have < want ? -1 : have > want ? 1 : 0;
      break;
    }
    default:
      return assertNever(c.target, 'compare target');
  }
  switch (c.result) {
    case 'EQUAL':
      return cmp === 0;
    case 'NOT_EQUAL':
      return cmp !== 0;
    case 'GREATER':
      return cmp > 0;
    case 'LESS':
      return cmp < 0;
    default:
      return assertNever(c.result, 'compare result');
  }
}

export interface Applied {
  state: EtcdState;
  response: EtcdResponse;
}

/**
 * What etcd would do with `request` in `state`: the next state and the full
 * response (prevKv always filled in). Deterministic; failures are responses.
 */
export function applyRequest(state: EtcdState, request: EtcdRequest): Applied {
  const rev = state.revision;
  switch (request.type) {
    case 'get': {
      const r = request.revision ?? 0;
      if (r > rev) return { state, response: { type: 'error', error: ErrFutureRev } };
      // A past revision is answered as if it were current; step() checks it loosely.
      const kv = toKv(request.key, state.kvs.get(request.key));
      const response: GetResponse = { type: 'get', header: { revision: rev } };
      if (kv) response.kv = kv;
      return { state, response };
    }
    case 'put': {
      const lease = request.leaseId ?? 0;
      if (lease !== 0 && !state.leases.has(lease)) return { state, response: { type: 'error', error: ErrLeaseNotFound } };
      const w = new Writer(state);
      const prevKv = toKv(request.key, w.get(request.key)) ?? null;
      w.put(request.key, request.value, lease, rev + 1);
      return { state: w.finish(true), response: { type: 'put', header: { revision: rev + 1 }, prevKv } };
    }
    case 'delete': {
      const w = new Writer(state);
      const prevKv = toKv(request.key, w.get(request.key)) ?? null;
      const deleted = w.delete(request.key) ? 1 : 0;
      const next = w.finish(deleted > 0);
      return { state: next, response: { type: 'delete', header: { revision: next.revision }, deleted, prevKv } };
    }
    case 'txn': {
      const succeeded = compareHolds(state, request.compare);
      const op = succeeded ? request.onSuccess : request.onFailure;
      const w = new Writer(state);
      const responses: TxnOpResponse[] = [];
      if (op) {
        switch (op.type) {
          case 'put': {
            const lease = op.leaseId ?? 0;
            // checkTxn rejects the whole txn before applying anything.
            if (lease !== 0 && !state.leases.has(lease)) return { state, response: { type: 'error', error: ErrLeaseNotFound } };
            const prevKv = toKv(op.key, w.get(op.key)) ?? null;
            w.put(op.key, op.value, lease, rev + 1);
            responses.push({ type: 'put', prevKv });
            break;
          }
          case 'delete': {
            const prevKv = toKv(op.key, w.get(op.key)) ?? null;
            const deleted = w.delete(op.key) ? 1 : 0;
            responses.push({ type: 'delete', deleted, prevKv });
            break;
          }
          case 'get': {
            if ((op.revision ?? 0) > rev) return { state, response: { type: 'error', error: ErrFutureRev } };
            const kv = toKv(op.key, state.kvs.get(op.key));
            responses.push(kv ? { type: 'get', kv } : { type: 'get' });
            break;
          }
          default:
            assertNever(op, 'txn op');
        }
      }
      const next = w.finish(w.changed);
      return { state: next, response: { type: 'txn', header: { revision: next.revision }, succeeded, responses } };
    }
    case 'leaseGrant': {
      if (state.leases.has(request.id)) return { state, response: { type: 'error', error: ErrLeaseExist } };
      const w = new Writer(state);
      w.setLease(request.id, true);
      return {
        state: w.finish(false),
        response: { type: 'leaseGrant', header: { revision: rev }, id: request.id, ttl: request.ttl },
      };
    }
    case 'leaseRevoke': {
      if (!state.leases.has(request.id)) return { state, response: { type: 'error', error: ErrLeaseNotFound } };
      const w = new Writer(state);
      // All attached keys go in one revision.
      for (const [key, ks] of state.kvs) if (ks.lease === request.id) w.delete(key);
      w.setLease(request.id, false);
      const next = w.finish(w.changed);
      return { state: next, response: { type: 'leaseRevoke', header: { revision: next.revision } } };
    }
    default:
      return assertNever(request, 'etcd request');
  }
}

function optKvMatches(observed: KeyValue | null | undefined, expected: KeyValue | null | undefined): boolean {
  if (observed === undefined) return true; // not requested
  const exp = expected ?? null;
  if (observed === null || exp === null) return observed === exp;
  return kvEquals(observed, exp);
}

function getKvMatches(observed: KeyValue | undefined, expected: KeyValue | undefined): boolean {
  if (!observed || !expected) return observed === expected;
  return kvEquals(observed, expected);
}

function txnOpMatches(observed: TxnOpResponse, expected: TxnOpResponse | undefined): boolean {
  if (!expected || observed.type !== expected.type) return false;
  switch (observed.type) {
    case 'put':
      return optKvMatches(observed.prevKv, (expected as typeof observed).prevKv);
    case 'delete': {
      const exp = expected as typeof observed;
      return observed.deleted === exp.deleted && optKvMatches(observed.prevKv, exp.prevKv);
    }
    case 'get':
      return getKvMatches(observed.kv, (expected as typeof observed).kv);
    default:
      return assertNever(observed, 'txn op response');
  }
}

/**
 * A read at a past revision r < current: the model keeps no history, so it
 * checks what the current state implies (etcd's model reports such reads as
 * partial responses; checkReadsAtRevision in serializableReads.ts checks them
 * exactly against the committed history).
 */
function pastReadPlausible(state: EtcdState, key: string, r: number, kv: KeyValue | undefined): boolean {
  const cur = state.kvs.get(key);
  if (cur && cur.modRevision <= r) return getKvMatches(kv, toKv(key, cur));
  if (!kv) return !(cur && cur.createRevision <= r);
  if (kv.key !== key || kv.modRevision > r || kv.createRevision > kv.modRevision || kv.version < 1) return false;
  if (cur && cur.createRevision <= r) {
    // Same incarnation of the key: same create revision, an earlier version.
    return kv.createRevision === cur.createRevision && kv.version < cur.version;
  }
  return true;
}

function responseMatches(request: EtcdRequest, state: EtcdState, expected: EtcdResponse, observed: EtcdResponse): boolean {
  if (observed.type !== expected.type) return false;
  switch (observed.type) {
    case 'error':
      return true; // handled by errorConsistent before applying
    case 'get': {
      const exp = expected as GetResponse;
      if (observed.header.revision !== exp.header.revision) return false;
      const r = request.type === 'get' ? (request.revision ?? 0) : 0;
      if (r !== 0 && r < state.revision) return pastReadPlausible(state, (request as GetRequest).key, r, observed.kv);
      return getKvMatches(observed.kv, exp.kv);
    }
    case 'put': {
      const exp = expected as PutResponse;
      return observed.header.revision === exp.header.revision && optKvMatches(observed.prevKv, exp.prevKv);
    }
    case 'delete': {
      const exp = expected as DeleteResponse;
      return (
        observed.header.revision === exp.header.revision &&
        observed.deleted === exp.deleted &&
        optKvMatches(observed.prevKv, exp.prevKv)
      );
    }
    case 'txn': {
      const exp = expected as TxnResponse;
      if (observed.header.revision !== exp.header.revision || observed.succeeded !== exp.succeeded) return false;
      if (!observed.responses) return true;
      const want = exp.responses ?? [];
      if (observed.responses.length !== want.length) return false;
      return observed.responses.every((r, i) => txnOpMatches(r, want[i]));
    }
    case 'leaseGrant': {
      const exp = expected as LeaseGrantResponse;
      return observed.header.revision === exp.header.revision && observed.id === exp.id;
    }
    case 'leaseRevoke':
      return observed.header.revision === (expected as LeaseRevokeResponse).header.revision;
    default:
      return assertNever(observed, 'etcd response');
  }
}

/** Whether an error reply fits `state`. Errors the model does not know are no-ops anywhere. */
function errorConsistent(state: EtcdState, request: EtcdRequest, error: string): boolean {
  switch (error) {
    case ErrLeaseNotFound:
    case ErrLeaseExist:
    case ErrFutureRev: {
      const applied = applyRequest(state, request);
      return applied.response.type === 'error' && applied.response.error === error;
    }
    default:
      return true;
  }
}

/** Errors whose truth depends on state; any other error is a no-op that constrains nothing. */
function isStateCheckedError(error: string): boolean {
  return error === ErrLeaseNotFound || error === ErrLeaseExist || error === ErrFutureRev;
}

export function etcdStep(state: EtcdState, request: EtcdRequest, output: EtcdResponse | undefined): StepResult<EtcdState>[] {
  if (output === undefined) {
    // Unknown outcome: if it took effect, this is its effect (the checker covers "never").
    return [{ ok: true, state: applyRequest(state, request).state }];
  }
  if (output.type === 'error') return [{ ok: errorConsistent(state, request, output.error), state }];
  const applied = applyRequest(state, request);
  return [{ ok: responseMatches(request, state, applied.response, output), state: applied.state }];
}

export function etcdStateKey(state: EtcdState): string {
  return `${state.revision.toString(36)}.${state.h1.toString(36)}.${state.h2.toString(36)}`;
}

/**
 * Drops operations that constrain nothing, so the search never branches on
 * them: reads with unknown outcome, and failures with an error the model
 * cannot check against state (a definite no-op fits anywhere). One partition:
 * global revisions make keys dependent.
 */
export function etcdPartition(ops: EtcdOperation[]): EtcdOperation[][] {
  return [
    ops.filter((op) => {
      if (op.output === undefined) return op.input.type !== 'get';
      if (op.output.type === 'error') return isStateCheckedError(op.output.error);
      return true;
    }),
  ];
}

// --- description ----------------------------------------------------------------

function describeOp(op: PutRequest | DeleteRequest | GetRequest): string {
  switch (op.type) {
    case 'put':
      return `put(${op.key}, ${JSON.stringify(op.value)}${op.leaseId ? `, lease=${op.leaseId}` : ''})`;
    case 'delete':
      return `delete(${op.key})`;
    case 'get':
      return `get(${op.key}${op.revision ? `, rev=${op.revision}` : ''})`;
    default:
      return assertNever(op, 'op');
  }
}

const compareSymbol = { EQUAL: '==', NOT_EQUAL: '!=', GREATER: '>', LESS: '<' } as const;

export function describeEtcdRequest(request: EtcdRequest): string {
  switch (request.type) {
    case 'put':
    case 'delete':
    case 'get':
      return describeOp(request);
    case 'txn': {
      const c = request.compare;
      const cond = `${c.target.toLowerCase()}(${c.key}) ${compareSymbol[c.result]} ${JSON.stringify(c.value)}`;
      return `txn(if ${cond} then ${describeOp(request.onSuccess)} else ${request.onFailure ? describeOp(request.onFailure) : 'nothing'})`;
    }
    case 'leaseGrant':
      return `leaseGrant(${request.id}, ttl=${request.ttl})`;
    case 'leaseRevoke':
      return `leaseRevoke(${request.id})`;
    default:
      return assertNever(request, 'etcd request');
  }
}

export function describeEtcdResponse(response: EtcdResponse | undefined): string {
  if (response === undefined) return 'unknown (timed out)';
  switch (response.type) {
    case 'error':
      return `error ${JSON.stringify(response.error)}`;
    case 'get':
      return `${describeKv(response.kv)}, rev ${response.header.revision}`;
    case 'put':
      return `rev ${response.header.revision}${response.prevKv !== undefined ? `, prev ${describeKv(response.prevKv)}` : ''}`;
    case 'delete':
      return `deleted ${response.deleted}, rev ${response.header.revision}`;
    case 'txn': {
      const get = response.responses?.find((r) => r.type === 'get');
      const read = get && get.type === 'get' ? `, read ${describeKv(get.kv)}` : '';
      return `${response.succeeded ? 'succeeded' : 'failed'}${read}, rev ${response.header.revision}`;
    }
    case 'leaseGrant':
      return `granted ${response.id}, rev ${response.header.revision}`;
    case 'leaseRevoke':
      return `revoked, rev ${response.header.revision}`;
    default:
      return assertNever(response, 'etcd response');
  }
}

export function describeEtcdState(state: EtcdState): string {
  const keys = [...state.kvs.keys()].sort();
  const shown = keys.slice(0, 12).map((k) => describeKv(toKv(k, state.kvs.get(k))));
  const more = keys.length > shown.length ? `, … ${keys.length - shown.length} more` : '';
  const leases = [...state.leases].sort((a, b) => a - b);
  return `rev ${state.revision} {${shown.join(', ')}${more}} leases [${leases.join(', ')}]`;
}

export function createEtcdModel(opts: EtcdModelOptions = {}): Model<EtcdState, EtcdRequest, EtcdResponse> {
  return {
    init: () => initialEtcdState(opts),
    step: etcdStep,
    key: etcdStateKey,
    partition: etcdPartition,
    describe: (input, output) => `${describeEtcdRequest(input)} -> ${describeEtcdResponse(output)}`,
    describeState: describeEtcdState,
  };
}

/** A fresh single-member etcd at revision 1 with nothing in it. */
export const etcdModel = createEtcdModel();

registerClass('EtcdModelWriter', Writer);

// --- patching unknown outcomes from the committed history -------------------------

/**
 * Resolves timed-out writes against the committed history (a replica's
 * complete applied log), as etcd's robustness suite does with its WAL
 * (tests/robustness/validate/patch_history.go). A put whose (key, value) is
 * unique among the client requests either shows up as a PUT event, and then
 * took effect exactly at that revision, by the time it was committed; or it
 * never took effect and is dropped. The same goes for txns whose writes are
 * all such puts. Every patched history is a specialisation of the original
 * (one of the outcomes the unknown allowed), so a linearizable patched
 * history proves the original linearizable; this only loses completeness if
 * the log is missing committed revisions. Without it, each unresolved write
 * multiplies the search. Other unknown operations are left as they are.
 */
export function patchEtcdHistory(ops: readonly EtcdOperation[], committed: readonly RevisionEvents[]): EtcdOperation[] {
  const pairKey = (key: string, value: string): string => `${key}\u0000${value}`;
  const requested = new Map<string, number>();
  const countPut = (op: PutRequest | DeleteRequest | GetRequest | undefined): void => {
    if (op?.type === 'put') requested.set(pairKey(op.key, op.value), (requested.get(pairKey(op.key, op.value)) ?? 0) + 1);
  };
  for (const op of ops) {
    if (op.input.type === 'put') countPut(op.input);
    else if (op.input.type === 'txn') {
      countPut(op.input.onSuccess);
      countPut(op.input.onFailure);
    }
  }
  const persisted = new Map<string, { revision: number; committedAt?: number }>();
  for (const rec of committed) {
    for (const ev of rec.events) {
      if (ev.type !== 'PUT') continue;
      const found: { revision: number; committedAt?: number } = { revision: rec.revision };
      if (rec.committedAt !== undefined) found.committedAt = rec.committedAt;
      persisted.set(pairKey(ev.kv.key, ev.kv.value), found);
    }
  }
  /** 'unique' put: where it persisted (or null); undefined when it cannot tell. */
  const lookup = (op: PutRequest | DeleteRequest | GetRequest | undefined): { revision: number; committedAt?: number } | null | undefined => {
    if (!op || op.type === 'get') return null; // no write
    if (op.type === 'delete') return undefined;
    const k = pairKey(op.key, op.value);
    if (requested.get(k) !== 1) return undefined;
    return persisted.get(k) ?? null;
  };
  const out: EtcdOperation[] = [];
  for (const op of ops) {
    if (op.output !== undefined || (op.input.type !== 'put' && op.input.type !== 'txn')) {
      out.push(op);
      continue;
    }
    let branches: { succeeded: boolean; found: ReturnType<typeof lookup> }[];
    if (op.input.type === 'put') branches = [{ succeeded: true, found: lookup(op.input) }];
    else {
      branches = [
        { succeeded: true, found: lookup(op.input.onSuccess) },
        { succeeded: false, found: lookup(op.input.onFailure) },
      ];
    }
    if (branches.some((b) => b.found === undefined)) {
      out.push(op);
      continue;
    }
    const hit = branches.find((b) => b.found);
    if (!hit || !hit.found) continue; // no write of it ever committed: it had no effect
    const { revision, committedAt } = hit.found;
    const output: EtcdResponse =
      op.input.type === 'put'
        ? { type: 'put', header: { revision } }
        : { type: 'txn', header: { revision }, succeeded: hit.succeeded };
    const ret = committedAt !== undefined && committedAt >= op.call ? committedAt : Infinity;
    out.push({ ...op, output, return: Math.min(op.return, ret) });
  }
  return out;
}

export interface EtcdCheckOptions extends EtcdModelOptions {
  /** The complete committed history; when given, timed-out writes are resolved against it first. */
  committed?: readonly RevisionEvents[];
  maxSteps?: number;
}

/** The harness entry point: patch unknown writes from the log (if given), then check linearizability. */
export function checkEtcdOperations(ops: readonly EtcdOperation[], opts: EtcdCheckOptions = {}): CheckResult {
  const history = opts.committed ? patchEtcdHistory(ops, opts.committed) : [...ops];
  const checkOpts: CheckOptions = {};
  if (opts.maxSteps !== undefined) checkOpts.maxSteps = opts.maxSteps;
  return checkOperations(createEtcdModel(opts), history, checkOpts);
}
