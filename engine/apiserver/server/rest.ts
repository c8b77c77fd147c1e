// The REST handlers of the generic registry (k8s.io/apiserver/pkg/endpoints/
// handlers and pkg/registry/generic/registry/store.go), as resumable
// operations: each waits on at most one etcd call at a time, and holds only
// plain data, so an in-flight request survives a snapshot.
import { servedShape } from '../registry/conversion';
import type { ActorId } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import type { CallRecord } from '../../etcd/client/client';
import type { KeyValue, LeaseGrantResponse, RangeRequest, RangeResponse, TxnRequest, TxnResponse } from '../../etcd/api/rpc';
import { prefixEnd } from '../../etcd/api/rpc';
import type { EtcdError } from '../../etcd/api/errors';
import type { KObject, Status } from '../../apimachinery/types';
import { apiVersionOf } from '../../apimachinery/types';
import { status } from '../../apimachinery/status';
import { type ResourceInfo, storageKey, resourceFor } from '../registry/resources';
import type { ApiRequest, ApiResponse, UserInfo } from '../types';
import type { ResourceRequestInfo } from '../http/requestInfo';
import { jsonResponse, queryValue, warningHeader } from '../http/messages';
import { rfc3339 } from '../http/time';
import { decodeObject, keyBytes, keyText } from '../storage/codec';
import { decodeContinue, encodeContinue } from '../storage/continueToken';
import type { ApiServer } from './apiserver';
import { notFoundPage, stage, statusResponse } from './apiserver';
import * as chain from './chain';
import * as fields from '../../apimachinery/selectors/fields';
import type { WatchCache } from '../cache/watchCache';
import { createTxn, deleteTxn, getRequest, updateTxn, type SideWrite } from './storageOps';
import { computeEviction, onEvictionEtcd, type EvictionState } from './eviction';
import { KubeletProxy } from './kubeletProxy';
import { EVENT_TTL_SECONDS, LeaseManager } from './leaseManager';
import { jsonRoundTrip } from '../../sim/jsonClone';
import { deepFreeze } from '../../apimachinery/readonly';

type Phase = 'start' | 'read' | 'lease' | 'write' | 'list' | 'collectionList' | 'collectionDelete' | 'evict';

/** One in-flight REST request. */
export class RestOp {
  phase: Phase = 'start';
  /** Write attempts (GuaranteedUpdate retries on a stale read). */
  attempts = 0;
  key = '';
  /** The object as stored when last read (null = absent). */
  current: KObject | null = null;
  currentRev = 0;
  /** The object we are trying to write. */
  next: KObject | null = null;
  /** The decoded body, once. */
  body: KObject | null = null;
  /**
   * An update's first attempt works on the decoded body itself (no copy); a
   * retry decodes the request again. The resourceVersion the body came with.
   */
  bodyTaken = false;
  bodyRv: string | undefined = undefined;
  warnings: string[] = [];
  /** What the write does: put the object, or delete the key. */
  writeKind: 'create' | 'put' | 'delete' = 'put';
  /** deletecollection: keys still to delete and objects deleted so far. */
  pending: string[] = [];
  deleted: KObject[] = [];
  /** A subresource write's answer differs from the stored object (Scale, Binding Status...). */
  answer: 'object' | 'scale' | 'status' | 'deleted' = 'object';
  etcdStartedAt = 0;
  /** pods/eviction: its steps (eviction.ts). */
  eviction: EvictionState | null = null;
  /** Objects validating admission charged (quotas' status.used), written in the object's transaction. */
  sideWrites: KObject[] = [];
  /** Those objects as etcd last gave them, when the transaction found them changed (admission re-reads them). */
  fresh: KObject[] = [];
  /**
   * `current` is the watch cache's copy, not read from etcd (GuaranteedUpdate's
   * cachedExistingObject: origStateIsCurrent = false). A failure or a no-op
   * computed on it is checked against etcd before it is answered.
   */
  fromCache = false;
  /** A failure computed on the cached copy, answered if etcd still holds that revision. */
  staleFailure: Status | null = null;
  staleRev = 0;
  /** The write waiting for its object's etcd lease (objects with a TTL: events). */
  leaseTxn: TxnRequest | null = null;

  constructor(
    readonly id: number,
    readonly client: ActorId,
    readonly reqId: number,
    readonly req: ApiRequest,
    readonly info: ResourceRequestInfo,
    readonly r: ResourceInfo,
    readonly user: UserInfo,
    readonly recordId: number,
    readonly seat: 'mutating' | 'readOnly' | 'none',
  ) {}

  get dryRun(): boolean {
    return queryValue(this.req.query, 'dryRun') === 'All';
  }
}

registerClass('RestOp', RestOp);

const gr = (r: ResourceInfo) => ({ group: r.group, resource: r.resource });

// ---- entry -----------------------------------------------------------------------

export function startRest(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const { info, r } = op;
  // Nothing stored: probed at each read (componentStatus.ts).
  if (r.group === '' && r.resource === 'componentstatuses') return s.componentStatuses.start(s, ctx, op);
  if (!r.storagePrefix && info.verb !== 'create') return s.complete(ctx, op, statusResponse(status.methodNotSupported(gr(r), info.verb)));
  if (r.namespaced && !info.namespace && !['list', 'watch', 'deletecollection', 'create'].includes(info.verb)) return s.complete(ctx, op, notFoundPage());
  if (info.verb === 'create' && r.namespaced && !info.namespace) return s.complete(ctx, op, notFoundPage());
  if (r.namespaced === false && info.namespace && r.resource !== 'namespaces') return s.complete(ctx, op, notFoundPage());
  if (op.dryRun === false && queryValue(op.req.query, 'dryRun') !== undefined) {
    const v = queryValue(op.req.query, 'dryRun')!;
    return s.complete(ctx, op, statusResponse(status.badRequest(`Invalid dry run value: ${JSON.stringify(v)}`)));
  }
  // pods/log, pods/exec, nodes/proxy: read the object, then connect to its kubelet, whatever the verb.
  if (KubeletProxy.handles(r.resource, info.subresource)) return startGet(s, ctx, op);
  switch (info.verb) {
    case 'get':
      return startGet(s, ctx, op);
    case 'list':
      return startList(s, ctx, op);
    case 'watch':
      return s.watch.start(s, ctx, op);
    case 'create':
      return startCreate(s, ctx, op);
    case 'update':
    case 'patch':
      return startRead(s, ctx, op);
    case 'delete':
      return startRead(s, ctx, op);
    case 'deletecollection':
      return startCollection(s, ctx, op);
    default:
      return s.complete(ctx, op, statusResponse(status.methodNotSupported(gr(r), info.verb)));
  }
}

export function onRestEtcd(s: ApiServer, ctx: ActorContext, op: RestOp, call: CallRecord): void {
  const rec = s.record(op.recordId);
  const outcome = call.outcome!;
  stage(rec, 'storage', 'etcd', outcome.status === 'ok' ? 'ok' : 'error', op.etcdStartedAt, ctx.now, outcome.status === 'ok' ? `${call.type} ${op.key}` : outcome.error.message, {});
  if (outcome.status !== 'ok') return s.complete(ctx, op, statusResponse(etcdErrorStatus(op, outcome.error)));
  switch (op.phase) {
    case 'read':
      return afterRead(s, ctx, op, outcome.body as RangeResponse);
    case 'write':
      return afterWrite(s, ctx, op, outcome.body as TxnResponse);
    case 'list':
      return afterList(s, ctx, op, outcome.body as RangeResponse);
    case 'collectionList':
      return afterCollectionList(s, ctx, op, outcome.body as RangeResponse);
    case 'collectionDelete':
      return afterCollectionDelete(s, ctx, op, outcome.body as TxnResponse);
    case 'evict':
      return onEvictionEtcd(s, ctx, op, outcome.body as TxnResponse);
    case 'start':
    case 'lease':
      return;
  }
}

function etcdCall(s: ApiServer, ctx: ActorContext, op: RestOp, type: 'RangeRequest' | 'TxnRequest', body: unknown): void {
  op.etcdStartedAt = ctx.now;
  s.etcdCall(ctx, op, type, body as never);
}

/** How the apiserver reports a storage failure (storage/errors.go, etcd3 store). */
function etcdErrorStatus(op: RestOp, e: EtcdError): Status {
  if (e.message.includes('request is too large')) return status.storage(e.message);
  if (e.message.includes('required revision has been compacted')) {
    return status.resourceExpired(
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    );
  }
  if (e.code === 'DeadlineExceeded' || e.code === 'Unavailable') return status.timeout(`The ${op.info.verb} operation against ${op.r.resource}${op.r.group ? '.' + op.r.group : ''} could not be completed at this time, please try again.`, 2);
  return status.internal(e.message);
}

// ---- reads -----------------------------------------------------------------------

function keyOf(op: RestOp, name = op.info.name): string {
  return storageKey(op.r.sharesStorageWith ? resourceFor(op.r.sharesStorageWith.group, op.r.sharesStorageWith.resource)! : op.r, op.info.namespace, name);
}

function startGet(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  op.key = keyOf(op);
  const rv = queryValue(op.req.query, 'resourceVersion');
  if (rv === '0') {
    // Any version will do: served from the watch cache.
    const obj = s.cluster.get(op.r.group, op.r.resource, op.info.namespace, op.info.name);
    stage(s.record(op.recordId), 'storage', 'watch cache', 'ok', ctx.now, ctx.now, `get ${op.key}`);
    return respondRead(s, ctx, op, obj ?? null);
  }
  op.phase = 'read';
  etcdCall(s, ctx, op, 'RangeRequest', getRequest(op.key));
}

function startRead(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  op.key = keyOf(op);
  // Updates, patches and bindings start from the watch cache's object (the cacher's
  // GuaranteedUpdate passes it down, storage/cacher/cacher.go); deletes read etcd
  // first (the generic registry's Delete does a Get).
  if (op.info.verb !== 'delete' && startFromCache(s, ctx, op)) return;
  readCurrent(s, ctx, op);
}

function readCurrent(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  op.fromCache = false;
  op.phase = 'read';
  etcdCall(s, ctx, op, 'RangeRequest', getRequest(op.key));
}

/**
 * The cached object as the current state, when the cache holds it: shared, not
 * copied (the write path builds its object apart: a patch applies to a copy, an
 * update decodes the body), and frozen so that nothing can change it in place.
 */
function startFromCache(s: ApiServer, ctx: ActorContext, op: RestOp): boolean {
  const cache = s.cacheOf(op.r);
  const cached = cache?.ready ? cache.store.get(op.key) : undefined;
  if (!cached) return false;
  op.current = deepFreeze(cached);
  op.currentRev = Number(cached.metadata.resourceVersion);
  op.fromCache = true;
  stage(s.record(op.recordId), 'storage', 'watch cache', 'ok', ctx.now, ctx.now, `get ${op.key}`);
  afterCurrent(s, ctx, op);
  return true;
}

/**
 * A failure (or a no-op, `failure` null) computed on the cached copy: read etcd,
 * then answer the same failure if the revision did not move, else try again on
 * the fresh object (etcd3 store's GuaranteedUpdate with origStateIsCurrent false).
 */
function refreshOr(s: ApiServer, ctx: ActorContext, op: RestOp, failure: Status | null): boolean {
  if (!op.fromCache) return false;
  op.staleFailure = failure;
  op.staleRev = op.currentRev;
  readCurrent(s, ctx, op);
  return true;
}

function afterRead(s: ApiServer, ctx: ActorContext, op: RestOp, res: RangeResponse): void {
  const kv = res.kvs[0];
  op.current = kv ? decodeObject(kv) : null;
  op.currentRev = kv ? kv.modRevision : 0;
  const stale = op.staleFailure;
  op.staleFailure = null;
  if (stale && op.currentRev === op.staleRev) return s.complete(ctx, op, statusResponse(stale, warningHeader(op.warnings)));
  afterCurrent(s, ctx, op);
}

function afterCurrent(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  if (KubeletProxy.handles(op.r.resource, op.info.subresource)) return respondRead(s, ctx, op, op.current);
  switch (op.info.verb) {
    case 'get':
      return respondRead(s, ctx, op, op.current);
    case 'update':
    case 'patch':
      return computeUpdate(s, ctx, op);
    case 'delete':
      return computeDelete(s, ctx, op);
    case 'create':
      return computeSubresourceWrite(s, ctx, op);
    default:
      return;
  }
}

function respondRead(s: ApiServer, ctx: ActorContext, op: RestOp, obj: KObject | null): void {
  if (!obj) return s.complete(ctx, op, statusResponse(status.notFound(gr(op.r), op.info.name)));
  const out = withTypeMeta(op.r, obj);
  if (op.info.subresource === 'scale') return s.complete(ctx, op, jsonResponse(200, scaleOf(op.r, out)));
  if (KubeletProxy.handles(op.r.resource, op.info.subresource)) return s.kubeletProxy.start(s, ctx, op, out);
  return s.complete(ctx, op, jsonResponse(200, chain.render(op.r, op.req, [out], ctx.now, null)));
}

function withTypeMeta(r: ResourceInfo, obj: KObject): KObject {
  return { ...servedShape(r, obj), apiVersion: apiVersionOf(r.group, r.version), kind: r.kind };
}

/** withTypeMeta of an object made for the answer alone: typed in place when served as stored (the same keys in the same order). */
function withTypeMetaFresh(r: ResourceInfo, obj: KObject): KObject {
  const shaped = servedShape(r, obj);
  if (shaped !== obj) return { ...shaped, apiVersion: apiVersionOf(r.group, r.version), kind: r.kind };
  obj.apiVersion = apiVersionOf(r.group, r.version);
  obj.kind = r.kind;
  return obj;
}

function startList(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const sel = chain.parseSelectors(op.req, op.r);
  if (!sel.ok) return s.complete(ctx, op, statusResponse(sel.status));
  const rv = queryValue(op.req.query, 'resourceVersion');
  const cont = queryValue(op.req.query, 'continue');
  // resourceVersion=0 is served from the watch cache (which ignores limit); until the cache is
  // initialized the cacher forwards it to etcd (cacher.go GetList).
  const cache = s.cacheOf(op.r);
  if (rv === '0' && !cont && cache?.ready) {
    const items = cacheCandidates(s, op, cache, sel).filter((o) => chain.matches(op.r, o, sel));
    stage(s.record(op.recordId), 'storage', 'watch cache', 'ok', ctx.now, ctx.now, `list ${items.length} ${op.r.resource}`);
    return respondList(s, ctx, op, items, { resourceVersion: String(cache.rv) });
  }
  const prefix = listPrefix(op);
  const limit = Number(queryValue(op.req.query, 'limit') ?? '0');
  if (!(Number.isInteger(limit) && limit >= 0)) return s.complete(ctx, op, statusResponse(status.badRequest(`limit: Invalid value: ${JSON.stringify(queryValue(op.req.query, 'limit'))}: must be a non-negative integer`)));
  const single = cont ? undefined : singleName(op, sel);
  const req: RangeRequest = single !== undefined ? { key: keyBytes(`${prefix}${single}`) } : { key: keyBytes(prefix), rangeEnd: prefixEnd(keyBytes(prefix)) };
  if (cont) {
    if (rv && rv !== '') return s.complete(ctx, op, statusResponse(status.badRequest('specifying resource version is not allowed when using continue')));
    const c = decodeContinue(cont);
    if (!c.ok) return s.complete(ctx, op, statusResponse(status.badRequest(c.message)));
    req.key = keyBytes(`${storagePrefix(op.r)}/${c.start}`);
    req.revision = c.rv;
  } else if (rv && rv !== '0') {
    const n = Number(rv);
    if (!/^\d+$/.test(rv)) return s.complete(ctx, op, statusResponse(status.badRequest(`Invalid value for resourceVersion: "${rv}"`)));
    if (queryValue(op.req.query, 'resourceVersionMatch') === 'Exact') req.revision = n;
  }
  // Without selectors etcd does the paging; with them we read everything at one
  // revision and page over the matches (upstream keeps fetching until it has `limit`).
  if (limit > 0 && !sel.label && !sel.field) req.limit = limit;
  op.key = prefix;
  op.phase = 'list';
  etcdCall(s, ctx, op, 'RangeRequest', req);
}

/** The keys a list reads below: the resource's, or one namespace's. */
function listPrefix(op: RestOp): string {
  return op.r.namespaced && op.info.namespace ? `${storagePrefix(op.r)}/${op.info.namespace}/` : `${storagePrefix(op.r)}/`;
}

/**
 * MatchesSingle (the generic registry's ListPredicate): the name a
 * metadata.name selector pins, when the list's scope gives its key (a
 * namespaced resource needs the namespace); the list then reads that one key.
 */
function singleName(op: RestOp, sel: chain.Selectors): string | undefined {
  const name = sel.field && fields.fieldRequiresExactMatch(sel.field, 'metadata.name');
  return name && (!op.r.namespaced || op.info.namespace) ? name : undefined;
}

/**
 * What a list from the watch cache looks through: the one object of
 * singleName, the pods a spec.nodeName selector names (the cache's index),
 * else the resource (in the namespace asked for).
 */
function cacheCandidates(s: ApiServer, op: RestOp, cache: WatchCache, sel: chain.Selectors): readonly KObject[] {
  const name = singleName(op, sel);
  if (name !== undefined) {
    const o = cache.store.get(`${listPrefix(op)}${name}`);
    return o ? [o] : [];
  }
  const node = sel.field && fields.fieldRequiresExactMatch(sel.field, 'spec.nodeName');
  const onNode = node !== undefined ? cache.listOnNode(node) : undefined;
  if (onNode) return op.info.namespace ? onNode.filter((o) => o.metadata.namespace === op.info.namespace) : onNode;
  return s.cluster.list(op.r.group, op.r.resource, op.info.namespace || undefined);
}

function storagePrefix(r: ResourceInfo): string {
  return (r.sharesStorageWith ? resourceFor(r.sharesStorageWith.group, r.sharesStorageWith.resource)! : r).storagePrefix!;
}

function afterList(s: ApiServer, ctx: ActorContext, op: RestOp, res: RangeResponse): void {
  const sel = chain.parseSelectors(op.req, op.r);
  if (!sel.ok) return s.complete(ctx, op, statusResponse(sel.status));
  const limit = Number(queryValue(op.req.query, 'limit') ?? '0');
  const cont = queryValue(op.req.query, 'continue');
  const listRv = cont ? decodeContinueRv(cont) ?? res.header.revision : res.header.revision;
  const prefixLen = storagePrefix(op.r).length + 1;
  const kvs: KeyValue[] = res.kvs;
  const meta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = { resourceVersion: String(listRv) };
  let items: KObject[];
  if (limit > 0 && !sel.label && !sel.field) {
    items = kvs.map(decodeObject);
    if (res.more && kvs.length > 0) {
      const lastKey = keyText(kvs[kvs.length - 1]!.key);
      meta.continue = encodeContinue(`${lastKey.slice(prefixLen)}\u0000`, listRv);
      meta.remainingItemCount = res.count - kvs.length;
    }
  } else {
    const matched: { kv: KeyValue; obj: KObject }[] = [];
    for (const kv of kvs) {
      const obj = decodeObject(kv);
      if (chain.matches(op.r, obj, sel)) matched.push({ kv, obj });
    }
    if (limit > 0 && matched.length > limit) {
      const last = matched[limit - 1]!;
      meta.continue = encodeContinue(`${keyText(last.kv.key).slice(prefixLen)}\u0000`, listRv);
      matched.length = limit;
    }
    items = matched.map((m) => m.obj);
  }
  respondList(s, ctx, op, items, meta);
}

function decodeContinueRv(token: string): number | undefined {
  const c = decodeContinue(token);
  return c.ok ? c.rv : undefined;
}

function respondList(s: ApiServer, ctx: ActorContext, op: RestOp, items: KObject[], meta: { resourceVersion: string; continue?: string; remainingItemCount?: number }): void {
  s.complete(ctx, op, jsonResponse(200, chain.render(op.r, op.req, items, ctx.now, meta)));
}

// ---- create ----------------------------------------------------------------------

function startCreate(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const { r, info } = op;
  const rec = s.record(op.recordId);
  const fail = (st: Status) => s.complete(ctx, op, statusResponse(st, warningHeader(op.warnings)));
  const t0 = ctx.now;
  // Virtual resources (reviews, bindings, evictions, tokens) answer from memory or write elsewhere.
  if (!r.storagePrefix || info.subresource) return createSubresource(s, ctx, op);
  const dec = chain.decodeBody(op.req, r, 'create');
  if (!dec.ok) {
    stage(rec, 'decode', 'decode', 'error', t0, ctx.now, dec.status.message);
    return fail(dec.status);
  }
  op.warnings.push(...dec.warnings);
  const obj = dec.obj;
  stage(rec, 'decode', 'decode', 'ok', t0, ctx.now, `${obj.kind} ${obj.metadata.name ?? obj.metadata.generateName ?? ''}`);
  if (r.namespaced) {
    if (obj.metadata.namespace && obj.metadata.namespace !== info.namespace) return fail(status.badRequest('the namespace of the provided object does not match the namespace sent on the request'));
    obj.metadata.namespace = info.namespace;
  } else delete obj.metadata.namespace;
  op.body = obj;
  // Mutating admission sees the object before the registry names it.
  const mut = chain.admit(s, ctx, op, 'CREATE', obj, null, 'mutating');
  if (mut) return fail(mut);
  // BeforeCreate: strategy.PrepareForCreate, generateName, system fields, validation.
  // The uid is drawn first: the Job strategy derives its generated selector from it.
  const uid = chain.newUid(ctx.rng);
  obj.metadata.uid = uid;
  chain.prepareForCreate(r, obj);
  if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = chain.generateName(obj.metadata.generateName, ctx.rng);
  delete obj.metadata.resourceVersion;
  obj.metadata.uid = uid;
  obj.metadata.creationTimestamp = rfc3339(ctx.now);
  delete obj.metadata.deletionTimestamp;
  delete obj.metadata.deletionGracePeriodSeconds;
  chain.setManagedFields(obj, op, 'Update', ctx.now);
  const invalid = chain.validate(s, ctx, op, 'create', obj, null);
  if (invalid) return fail(invalid);
  const alloc = chain.allocateService(s, obj, ctx.rng);
  if (alloc) return fail(alloc);
  op.next = obj;
  op.key = storageKey(r, obj.metadata.namespace, obj.metadata.name!);
  // The URL of a create names no object: record the one it makes (as audit events do).
  if (rec && !rec.name) rec.name = obj.metadata.name ?? '';
  admitAndCreate(s, ctx, op);
}

/** Validating admission and the write of a create (again when a quota it charged had changed). */
function admitAndCreate(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const { r } = op;
  const obj = op.next!;
  const fail = (st: Status) => s.complete(ctx, op, statusResponse(st, warningHeader(op.warnings)));
  const val = chain.admit(s, ctx, op, 'CREATE', obj, null, 'validating');
  if (val) return fail(val);
  const encoded = chain.encodeChecked(obj);
  if (!encoded.ok) return fail(encoded.status);
  if (op.dryRun) return s.complete(ctx, op, jsonResponse(201, chain.render(r, op.req, [withTypeMeta(r, obj)], ctx.now, null), warningHeader(op.warnings)));
  op.writeKind = 'create';
  writeObject(s, ctx, op, createTxn(r, obj, sideWrites(op), encoded.value));
}

/** The charged quotas as etcd writes. */
function sideWrites(op: RestOp): SideWrite[] {
  const quotas = resourceFor('', 'resourcequotas')!;
  return op.sideWrites.map((q) => ({ key: storageKey(quotas, q.metadata.namespace, q.metadata.name!), obj: q }));
}

/** A failed transaction with side writes: true when the object itself was as expected (a charged quota changed). */
function sideConflict(op: RestOp, res: TxnResponse): boolean {
  if (op.sideWrites.length === 0) return false;
  const kv = res.responses[0]?.responseRange?.kvs[0];
  return op.writeKind === 'create' ? !kv : !!kv && kv.modRevision === op.currentRev;
}

// ---- update / patch (GuaranteedUpdate) --------------------------------------------

/** A failed update: answered, unless it was computed on the cached copy (then etcd is read first). */
function failUpdate(s: ApiServer, ctx: ActorContext, op: RestOp, st: Status): void {
  if (!refreshOr(s, ctx, op, st)) s.complete(ctx, op, statusResponse(st, warningHeader(op.warnings)));
}

function computeUpdate(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const { r, info } = op;
  const rec = s.record(op.recordId);
  if (info.subresource === 'scale') return computeScale(s, ctx, op);
  if (!op.current) return failUpdate(s, ctx, op, status.notFound(gr(r), info.name));
  const current = op.current;
  let obj: KObject;
  const t0 = ctx.now;
  if (info.verb === 'patch') {
    const p = chain.applyPatch(op.req, r, withTypeMeta(r, current));
    if (!p.ok) {
      stage(rec, 'decode', 'patch', 'error', t0, ctx.now, p.status.message);
      return failUpdate(s, ctx, op, p.status);
    }
    stage(rec, 'decode', 'patch', 'ok', t0, ctx.now, p.patchType);
    obj = p.obj;
    op.warnings.push(...p.warnings);
  } else {
    if (!op.body) {
      const dec = chain.decodeBody(op.req, r, 'update');
      if (!dec.ok) {
        stage(rec, 'decode', 'decode', 'error', t0, ctx.now, dec.status.message);
        return failUpdate(s, ctx, op, dec.status);
      }
      op.warnings.push(...dec.warnings);
      op.body = dec.obj;
      op.bodyRv = dec.obj.metadata.resourceVersion;
      stage(rec, 'decode', 'decode', 'ok', t0, ctx.now, `${dec.obj.kind} ${dec.obj.metadata.name ?? ''}`);
    }
    if (!op.bodyTaken) {
      op.bodyTaken = true;
      obj = op.body;
    } else {
      // A retry: the first attempt changed the decoded body; the same bytes decode the same again.
      const again = chain.decodeBody(op.req, r, 'update');
      if (!again.ok) return failUpdate(s, ctx, op, again.status);
      obj = again.obj;
    }
  }
  if (obj.metadata.name !== undefined && obj.metadata.name !== info.name) return failUpdate(s, ctx, op, status.badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${info.name})`));
  if (r.namespaced) {
    if (obj.metadata.namespace && obj.metadata.namespace !== info.namespace) return failUpdate(s, ctx, op, status.badRequest('the namespace of the provided object does not match the namespace sent on the request'));
    obj.metadata.namespace = info.namespace;
  }
  obj.metadata.name = info.name;
  // Optimistic concurrency: a resourceVersion the client sent must be current.
  const sentRv = obj.metadata.resourceVersion;
  if (sentRv !== undefined && sentRv !== '' && sentRv !== String(op.currentRev)) return failUpdate(s, ctx, op, status.optimisticLock(gr(r), info.name));
  if ((sentRv === undefined || sentRv === '') && !chain.allowUnconditionalUpdate(r)) {
    return failUpdate(s, ctx, op, status.invalid({ group: r.group, kind: r.kind }, info.name, [{ type: 'FieldValueInvalid', field: 'metadata.resourceVersion', badValue: 0, detail: 'must be specified for an update' }]));
  }
  obj.metadata.resourceVersion = String(op.currentRev);
  // Strategy: the main resource cannot change status, /status cannot change spec; system fields stay.
  chain.prepareForUpdate(r, info.subresource, obj, current);
  const mut = chain.admit(s, ctx, op, 'UPDATE', obj, current, 'mutating');
  if (mut) return failUpdate(s, ctx, op, mut);
  chain.setManagedFields(obj, op, 'Update', ctx.now);
  const invalid = chain.validate(s, ctx, op, info.subresource === 'status' ? 'status' : info.subresource === 'ephemeralcontainers' && op.r.resource === 'pods' ? 'ephemeralcontainers' : 'update', obj, current);
  if (invalid) return failUpdate(s, ctx, op, invalid);
  const val = chain.admit(s, ctx, op, 'UPDATE', obj, current, 'validating');
  if (val) return failUpdate(s, ctx, op, val);
  const encoded = chain.encodeChecked(obj);
  if (!encoded.ok) return failUpdate(s, ctx, op, encoded.status);
  // Nothing changed: no write, the current object answers (GuaranteedUpdate's short cut),
  // once etcd confirms the cached copy was current.
  if (chain.sameStored(obj, current)) {
    if (refreshOr(s, ctx, op, null)) return;
    return s.complete(ctx, op, jsonResponse(200, chain.render(r, op.req, [withTypeMeta(r, current)], ctx.now, null), warningHeader(op.warnings)));
  }
  // An object whose finalizers are gone after deletion was requested is removed.
  const specFinalizers = r.resource === 'namespaces' ? ((obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []) : [];
  if (obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).length === 0 && specFinalizers.length === 0 && !(r.resource === 'pods' && (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0)) {
    op.next = obj;
    op.writeKind = 'delete';
    if (op.dryRun) return s.complete(ctx, op, jsonResponse(200, withTypeMeta(r, obj)));
    op.phase = 'write';
    return etcdCall(s, ctx, op, 'TxnRequest', deleteTxn(op.key, op.currentRev));
  }
  op.next = obj;
  if (op.dryRun) return s.complete(ctx, op, jsonResponse(200, chain.render(r, op.req, [withTypeMeta(r, obj)], ctx.now, null), warningHeader(op.warnings)));
  op.writeKind = 'put';
  writeObject(s, ctx, op, updateTxn(op.key, obj, op.currentRev, sideWrites(op), encoded.value));
}

// ---- objects with a TTL --------------------------------------------------------------

/** TTLFunc of the registries that have one: events live --event-ttl after their last write. */
function ttlSeconds(r: ResourceInfo): number | null {
  return (r.sharesStorageWith?.resource ?? r.resource) === 'events' && (r.sharesStorageWith?.group ?? r.group) === '' ? EVENT_TTL_SECONDS : null;
}

/**
 * The create or update transaction of an object; one with a TTL is put with
 * an etcd lease (store.go ttlOpts → leaseManager.GetLease), reused when the
 * last one fits, else granted first (the writes that come meanwhile wait on
 * the same grant, as upstream's GetLease holds its mutex over the Grant).
 */
function writeObject(s: ApiServer, ctx: ActorContext, op: RestOp, txn: TxnRequest): void {
  op.phase = 'write';
  const ttl = ttlSeconds(op.r);
  if (ttl === null) return etcdCall(s, ctx, op, 'TxnRequest', txn);
  const lease = s.leases.reuse(ctx.now, ttl);
  if (lease !== null) return etcdCall(s, ctx, op, 'TxnRequest', withLease(txn, lease));
  op.phase = 'lease';
  op.leaseTxn = txn;
  s.leases.waiters.push(op.id);
  if (s.leases.granting) return;
  s.leases.granting = true;
  s.leases.grantStartedAt = ctx.now;
  s.grantLease(ctx, LeaseManager.grantTtl(ttl));
}

function withLease(txn: TxnRequest, lease: number): TxnRequest {
  const put = txn.success?.[0]?.requestPut;
  if (put) put.lease = lease;
  return txn;
}

/** The lease grant answered: the writes waiting on it go on with it (or fail with it). */
export function onLeaseGranted(s: ApiServer, ctx: ActorContext, call: CallRecord): void {
  const m = s.leases;
  const waiting = m.waiters.splice(0);
  m.granting = false;
  const outcome = call.outcome!;
  const res = outcome.status === 'ok' ? (outcome.body as LeaseGrantResponse) : null;
  const error = outcome.status !== 'ok' ? outcome.error : res?.error ? { code: 'Unknown', message: res.error } : null;
  if (!error && res) m.onGranted(res.ID, res.TTL, m.grantStartedAt, waiting.length);
  for (const id of waiting) {
    const op = s.ops.get(id);
    if (!op || op.phase !== 'lease' || !op.leaseTxn) continue;
    const txn = op.leaseTxn;
    op.leaseTxn = null;
    if (error || !res) {
      stage(s.record(op.recordId), 'storage', 'etcd', 'error', op.etcdStartedAt, ctx.now, error?.message ?? 'lease grant failed', {});
      s.complete(ctx, op, statusResponse(etcdErrorStatus(op, error as EtcdError)));
      continue;
    }
    op.phase = 'write';
    etcdCall(s, ctx, op, 'TxnRequest', withLease(txn, res.ID));
  }
}

/** ResourceQuota admission's retries when the quotas it charged were written meanwhile (numEvaluatorRetries). */
const QUOTA_RETRIES = 3;

function afterWrite(s: ApiServer, ctx: ActorContext, op: RestOp, res: TxnResponse): void {
  const rec = s.record(op.recordId);
  const { r } = op;
  if (!res.succeeded) {
    if (sideConflict(op, res)) {
      // Admission checks again against the quotas as they are now.
      op.fresh = res.responses.slice(1).flatMap((x) => x.responseRange?.kvs.map(decodeObject) ?? []);
      const conflicted = op.sideWrites[0]!;
      if (++op.attempts > QUOTA_RETRIES) return s.complete(ctx, op, statusResponse(status.optimisticLock({ group: '', resource: 'resourcequotas' }, conflicted.metadata.name!)));
      return op.writeKind === 'create' ? admitAndCreate(s, ctx, op) : computeUpdate(s, ctx, op);
    }
    if (op.writeKind === 'create') return s.complete(ctx, op, statusResponse(status.alreadyExists(gr(r), op.next!.metadata.name!)));
    // Someone wrote in between: GuaranteedUpdate retries on the fresh object,
    // unless the client pinned a resourceVersion.
    const kv = res.responses[0]?.responseRange?.kvs[0];
    op.current = kv ? decodeObject(kv) : null;
    op.currentRev = kv ? kv.modRevision : 0;
    op.fromCache = false;
    op.attempts++;
    const pinned = op.info.verb === 'update' && op.bodyRv;
    if (pinned && op.current) return s.complete(ctx, op, statusResponse(status.optimisticLock(gr(r), op.info.name)));
    if (op.attempts > 20) return s.complete(ctx, op, statusResponse(status.optimisticLock(gr(r), op.info.name)));
    if (op.info.verb === 'delete') return computeDelete(s, ctx, op);
    return computeUpdate(s, ctx, op);
  }
  const rev = res.header.revision;
  if (rec) {
    rec.etcdKey = op.key;
    rec.revision = rev;
  }
  const obj = op.next!;
  if (op.writeKind !== 'delete') s.written.note(op.key, rev, obj);
  if (op.writeKind === 'delete' && op.answer === 'status') return s.complete(ctx, op, jsonResponse(201, status.success()));
  if (op.writeKind === 'delete') {
    const out = withTypeMetaFresh(r, { ...obj, metadata: { ...obj.metadata, resourceVersion: String(op.currentRev) } });
    return s.complete(ctx, op, deleteAnswer(r, out));
  }
  const stored = withTypeMetaFresh(r, { ...obj, metadata: { ...obj.metadata, resourceVersion: String(rev) } });
  if (op.answer === 'scale') return s.complete(ctx, op, jsonResponse(200, scaleOf(r, stored)));
  if (op.answer === 'status') return s.complete(ctx, op, jsonResponse(201, status.success()));
  if (op.answer === 'deleted') return s.complete(ctx, op, jsonResponse(200, chain.render(r, op.req, [stored], ctx.now, null)));
  const code = op.writeKind === 'create' ? 201 : 200;
  s.complete(ctx, op, jsonResponse(code, chain.render(r, op.req, [stored], ctx.now, null), warningHeader(op.warnings)));
}


// ---- scale ----------------------------------------------------------------------

function scaleOf(r: ResourceInfo, obj: KObject): unknown {
  const spec = (obj.spec ?? {}) as { replicas?: number; selector?: { matchLabels?: Record<string, string> } };
  const st = (obj.status ?? {}) as { replicas?: number };
  const sel = spec.selector?.matchLabels ? Object.entries(spec.selector.matchLabels).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join(',') : '';
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: obj.metadata.name,
      namespace: obj.metadata.namespace,
      uid: obj.metadata.uid,
      resourceVersion: obj.metadata.resourceVersion,
      creationTimestamp: obj.metadata.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: st.replicas ?? 0, ...(sel ? { selector: sel } : {}) },
  };
}

function computeScale(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const fail = (st: Status) => {
    if (!refreshOr(s, ctx, op, st)) s.complete(ctx, op, statusResponse(st));
  };
  if (!op.current) return fail(status.notFound(gr(op.r), op.info.name));
  const currentScale = scaleOf(op.r, withTypeMeta(op.r, op.current)) as KObject;
  let scale: KObject;
  if (op.info.verb === 'patch') {
    const p = chain.applyPatch(op.req, { ...op.r, group: 'autoscaling', version: 'v1', kind: 'Scale' }, currentScale);
    if (!p.ok) return fail(p.status);
    scale = p.obj;
  } else {
    const dec = chain.decodeBody(op.req, { ...op.r, group: 'autoscaling', version: 'v1', kind: 'Scale' }, 'update');
    if (!dec.ok) return fail(dec.status);
    scale = dec.obj;
  }
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || replicas < 0 || !Number.isInteger(replicas)) {
    return fail(status.invalid({ group: 'autoscaling', kind: 'Scale' }, op.info.name, [{ type: 'FieldValueInvalid', field: 'spec.replicas', badValue: replicas ?? null, detail: 'must be greater than or equal to 0' }]));
  }
  const rv = scale.metadata?.resourceVersion;
  if (rv && rv !== String(op.currentRev)) return fail(status.optimisticLock(gr(op.r), op.info.name));
  const obj = jsonRoundTrip(op.current);
  (obj.spec as { replicas?: number }).replicas = replicas;
  if (chain.specChanged(obj, op.current)) obj.metadata.generation = (op.current.metadata.generation ?? 1) + 1;
  op.next = obj;
  op.answer = 'scale';
  if (op.dryRun) return s.complete(ctx, op, jsonResponse(200, scaleOf(op.r, withTypeMeta(op.r, obj))));
  if (chain.sameStored(obj, op.current)) {
    if (refreshOr(s, ctx, op, null)) return;
    return s.complete(ctx, op, jsonResponse(200, currentScale));
  }
  op.writeKind = 'put';
  op.phase = 'write';
  etcdCall(s, ctx, op, 'TxnRequest', updateTxn(op.key, obj, op.currentRev));
}

// ---- delete ---------------------------------------------------------------------

/** Registries that answer a delete with the deleted object rather than a Status. */
const RETURNS_DELETED_OBJECT = new Set(['pods', 'services', 'namespaces', 'persistentvolumes', 'persistentvolumeclaims', 'nodes']);

function deleteAnswer(r: ResourceInfo, obj: KObject): ApiResponse {
  if (RETURNS_DELETED_OBJECT.has(r.resource)) return jsonResponse(200, obj);
  return jsonResponse(200, status.success({ gr: gr(r), name: obj.metadata.name, uid: obj.metadata.uid }));
}

function computeDelete(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const { r, info } = op;
  const fail = (st: Status) => s.complete(ctx, op, statusResponse(st));
  if (!op.current) return fail(status.notFound(gr(r), info.name));
  const opts = chain.deleteOptions(op.req);
  if (!opts.ok) return fail(opts.status);
  const current = op.current;
  const pre = opts.options.preconditions;
  if (pre?.uid && pre.uid !== current.metadata.uid) return fail(status.conflict(gr(r), info.name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid ?? ''}`));
  if (pre?.resourceVersion && pre.resourceVersion !== String(op.currentRev)) return fail(status.conflict(gr(r), info.name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in meta: ${op.currentRev}`));
  const val = chain.admit(s, ctx, op, 'DELETE', null, current, 'validating');
  if (val) return fail(val);
  const plan = chain.planDelete(r, current, opts.options, ctx.now);
  if (plan.type === 'immediate') {
    op.next = current;
    op.writeKind = 'delete';
    if (op.dryRun) return s.complete(ctx, op, deleteAnswer(r, withTypeMeta(r, current)));
    op.phase = 'write';
    return etcdCall(s, ctx, op, 'TxnRequest', deleteTxn(op.key, op.currentRev));
  }
  // Graceful deletion or finalizers: the object stays, marked for deletion.
  op.next = plan.obj;
  op.answer = 'deleted';
  if (op.dryRun || chain.sameStored(plan.obj, current)) return s.complete(ctx, op, jsonResponse(200, withTypeMeta(r, plan.obj)));
  op.writeKind = 'put';
  op.phase = 'write';
  etcdCall(s, ctx, op, 'TxnRequest', updateTxn(op.key, plan.obj, op.currentRev));
}

function startCollection(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const sel = chain.parseSelectors(op.req, op.r);
  if (!sel.ok) return s.complete(ctx, op, statusResponse(sel.status));
  const prefix = op.r.namespaced && op.info.namespace ? `${storagePrefix(op.r)}/${op.info.namespace}/` : `${storagePrefix(op.r)}/`;
  op.key = prefix;
  op.phase = 'collectionList';
  etcdCall(s, ctx, op, 'RangeRequest', { key: keyBytes(prefix), rangeEnd: prefixEnd(keyBytes(prefix)) });
}

function afterCollectionList(s: ApiServer, ctx: ActorContext, op: RestOp, res: RangeResponse): void {
  const sel = chain.parseSelectors(op.req, op.r);
  if (!sel.ok) return s.complete(ctx, op, statusResponse(sel.status));
  op.pending = res.kvs.filter((kv) => chain.matches(op.r, decodeObject(kv), sel)).map((kv) => keyText(kv.key));
  nextCollectionDelete(s, ctx, op, res.kvs);
}

function nextCollectionDelete(s: ApiServer, ctx: ActorContext, op: RestOp, kvs: KeyValue[] = []): void {
  for (;;) {
    const key = op.pending.shift();
    if (key === undefined) {
      const list = { kind: op.r.listKind, apiVersion: apiVersionOf(op.r.group, op.r.version), metadata: {}, items: op.deleted };
      return s.complete(ctx, op, jsonResponse(200, list));
    }
    const kv = kvs.find((x) => keyText(x.key) === key);
    const obj = kv ? decodeObject(kv) : null;
    if (!obj) continue;
    const opts = chain.deleteOptions(op.req);
    if (!opts.ok) return s.complete(ctx, op, statusResponse(opts.status));
    const val = chain.admit(s, ctx, op, 'DELETE', null, obj, 'validating');
    if (val) return s.complete(ctx, op, statusResponse(val));
    const plan = chain.planDelete(op.r, obj, opts.options, ctx.now);
    op.key = key;
    op.deleted.push(withTypeMeta(op.r, plan.type === 'immediate' ? obj : plan.obj));
    if (op.dryRun) continue;
    op.phase = 'collectionDelete';
    const rev = Number(obj.metadata.resourceVersion);
    return etcdCall(s, ctx, op, 'TxnRequest', plan.type === 'immediate' ? deleteTxn(key, rev) : updateTxn(key, plan.obj, rev));
  }
}

function afterCollectionDelete(s: ApiServer, ctx: ActorContext, op: RestOp, _res: TxnResponse): void {
  // A failed compare means someone changed the object meanwhile; like upstream's
  // deletecollection workers we move on (the next list shows what is left).
  op.phase = 'collectionList';
  nextCollectionDelete(s, ctx, op);
}

// ---- subresources that create -------------------------------------------------------

function createSubresource(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const res = chain.createVirtual(s, ctx, op);
  if (res.type === 'answer') return s.complete(ctx, op, res.response);
  // A write to the parent object: a binding updates the pod from the watch cache's
  // copy (GuaranteedUpdate through the cacher); an eviction reads it (a Get), then deletes.
  op.key = keyOf(op);
  if (op.info.subresource === 'binding' && startFromCache(s, ctx, op)) return;
  readCurrent(s, ctx, op);
}

/** pods/binding and pods/eviction: change (or delete) the pod itself. */
function computeSubresourceWrite(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const fail = (st: Status) => {
    if (!refreshOr(s, ctx, op, st)) s.complete(ctx, op, statusResponse(st));
  };
  const podName = op.info.name;
  if (!op.current) return fail(status.notFound({ group: '', resource: 'pods' }, podName));
  const pod = jsonRoundTrip(op.current);
  if (op.info.subresource === 'binding' || op.info.resource === 'bindings') {
    // pkg/registry/core/pod/storage/storage.go assignPod/setPodHostAndAnnotations.
    const target = (op.body as { target?: { name?: string } } | null)?.target?.name ?? '';
    const spec = (pod.spec ??= {}) as { nodeName?: string };
    if (pod.metadata.deletionTimestamp) return fail(status.conflict({ group: '', resource: 'pods' }, podName, `pod ${podName} is being deleted, cannot be assigned to a host`));
    if (spec.nodeName) return fail(status.conflict({ group: '', resource: 'pods' }, podName, `pod ${podName} is already assigned to node ${JSON.stringify(spec.nodeName)}`));
    spec.nodeName = target;
    const st = (pod.status ??= {}) as { conditions?: { type: string; status: string; lastProbeTime?: null; lastTransitionTime?: string }[] };
    const conds = (st.conditions ??= []);
    const i = conds.findIndex((c) => c.type === 'PodScheduled');
    const cond = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(ctx.now) };
    if (i >= 0) conds[i] = cond;
    else conds.push(cond);
    const ann = (op.body as { metadata?: { annotations?: Record<string, string> } } | null)?.metadata?.annotations;
    if (ann) pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...ann };
    op.next = pod;
    op.answer = 'status';
    op.writeKind = 'put';
    if (op.dryRun) return s.complete(ctx, op, jsonResponse(201, status.success()));
    op.phase = 'write';
    return etcdCall(s, ctx, op, 'TxnRequest', updateTxn(op.key, pod, op.currentRev));
  }
  // Eviction: the disruption budget decides (eviction.ts).
  op.phase = 'evict';
  computeEviction(s, ctx, op);
}
