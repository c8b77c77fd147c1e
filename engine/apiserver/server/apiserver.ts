// kube-apiserver as an actor (`kube-apiserver-0`): HTTP requests arrive as
// messages from API clients on the simulated network; each crosses the filter
// chain (authentication → impersonation → max-in-flight → authorization), then
// the REST handler (decode → mutating admission → validation → validating
// admission → etcd), and every stage is recorded. Objects live in etcd, which
// the server reaches only through its embedded etcd client; a watch cache per
// resource is fed by one etcd watch on the resource's prefix.
import type { Actor, ActorId, Payload } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerActorKind } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import type { CallRecord } from '../../etcd/client/client';
import type { RangeResponse, TxnResponse, WatchResponse } from '../../etcd/api/rpc';
import type { KObject, Status } from '../../apimachinery/types';
import { status } from '../../apimachinery/status';
import { RESOURCES, resourceFor, resourceForVersion, type ResourceInfo } from '../registry/resources';
import type { ApiRequest, ApiResponse, ClusterReader, UserInfo } from '../types';
import { httpMsg, jsonResponse, queryValue, type HttpCancelMsg, type HttpDataMsg, type HttpPingMsg, type HttpRequestMsg, type HttpResponseMsg } from '../http/messages';
import { requestInfo, type ResourceRequestInfo } from '../http/requestInfo';
import { WatchCache } from '../cache/watchCache';
import { decodeObject, keyText, prefixRange } from '../storage/codec';
import { WrittenObjects } from './writtenObjects';
import type { RequestRecord, StageRecord } from '../records/types';
import { ApiEtcdClient, ETCD_CLIENT_TIMER_TAGS } from './etcdLink';
import { EtcdKeepalive, ETCD_KEEPALIVE_TIMER } from './etcdKeepalive';
import type { GrpcPong } from '../../etcd/server/messages';
import { handleNonResource } from './nonResource';
import * as chain from './chain';
import { RestOp, startRest, onRestEtcd, onLeaseGranted } from './rest';
import { LeaseManager } from './leaseManager';
import { WatchHub } from './watchHub';
import { KubeletProxy } from './kubeletProxy';
import { ComponentStatuses } from './componentStatus';
import { bootstrapObjects } from './bootstrap';
import { ENDPOINT_RECONCILE_INTERVAL_MS, EndpointReconciler } from './endpointReconciler';
import type { LoopbackOwner } from './loopback';
import { IdentityLease } from './identityLease';
import { createTxn } from './storageOps';
import { DEFAULT_CLIENT } from '../../etcd/client/client';
import type { AuthnConfig } from './chain';
import { Aggregator, type AggregatorHost } from '../aggregator/aggregator';
import { updateTxn } from './storageOps';
import { TokenCache } from '../auth';

export const APISERVER_KIND = 'kube-apiserver';

export interface ApiServerConfig {
  etcdEndpoints: ActorId[];
  authn: AuthnConfig;
  /** --max-requests-inflight (400) and --max-mutating-requests-inflight (200). */
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  /** The apiserver compacts etcd every 5 minutes (--etcd-compaction-interval). */
  compactionIntervalMs: number;
  /** host:port clients reach this server at (discovery's serverAddressByClientCIDRs). */
  serverAddress: string;
  /** Services the aggregation layer proxies to ("namespace/name" → the actor behind it). */
  aggregatedServices?: Record<string, ActorId>;
}

export const DEFAULT_APISERVER: Omit<ApiServerConfig, 'etcdEndpoints' | 'authn'> = {
  maxRequestsInflight: 400,
  maxMutatingRequestsInflight: 200,
  compactionIntervalMs: 5 * 60_000,
  serverAddress: '10.0.0.10:6443',
};

/** The aggregation layer's pass over APIServices (each is checked at most every 30 s unless it changed). */
const AGGREGATOR_TICK_MS = 5_000;

/** How many request records the server keeps (oldest dropped first). */
export const RECORD_LIMIT = 2000;

const LONG_RUNNING_SUBRESOURCES = new Set(['log', 'exec', 'attach', 'portforward', 'proxy']);

function hasSubresource(r: ResourceInfo, name: string): boolean {
  for (const s of r.subresources) if (s.name === name) return true;
  return false;
}

const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

type CacheWatchState = { state: 'listing'; callId: number } | { state: 'starting'; callId: number; member?: ActorId } | { state: 'watching'; member: ActorId; watchId: number } | { state: 'idle' };

export class ApiServer implements Actor, AggregatorHost {
  readonly etcd: ApiEtcdClient;
  readonly caches = new Map<string, WatchCache>();
  /** What this apiserver just wrote, for its watch cache to take instead of decoding the events. */
  readonly written = new WrittenObjects();
  readonly cacheWatch = new Map<string, CacheWatchState>();
  /** gRPC keepalive on the etcd connections (etcdKeepalive.ts). */
  readonly etcdKeepalive = new EtcdKeepalive();
  /** `member/watchId` → the cache its etcd watch feeds (an index over cacheWatch's watching states). */
  private readonly feeds = new Map<string, string>();
  /** `member/watchId` of etcd watches no cache reads, their cancel sent (clientv3's cancelSet). */
  private readonly strayCancels = new Set<string>();
  readonly ops = new Map<number, RestOp>();
  /** etcd call id → the op (or internal purpose) waiting on it. */
  readonly etcdWaiters = new Map<number, { op?: number; purpose: 'rest' | 'cacheList' | 'cacheWatch' | 'bootstrap' | 'compact' | 'compactTxn' | 'aggregator' | 'lease' | 'endpointReconciler' | 'componentStatus'; key?: string }>();
  /** The `kubernetes` Service's endpoints: this server's master lease, and the Endpoints and EndpointSlice over all leases. */
  readonly endpointReconciler = new EndpointReconciler();
  /** Its identity Lease in kube-system (APIServerIdentity), renewed every 10 s, and the GC of expired ones. */
  readonly identityLease: IdentityLease;
  /** Loopback requests in flight, by id: who asked. */
  private readonly loopbackOwners = new Map<number, LoopbackOwner>();
  private nextLoopback = 1;
  /** The lease shared by the writes of objects with a TTL (events). */
  readonly leases = new LeaseManager();
  /** The aggregation layer: proxies to extension API servers, their availability, their discovery. */
  readonly aggregator: Aggregator;
  readonly watch: WatchHub;
  /** Connections to kubelets (pods/log, pods/exec, nodes/proxy). */
  readonly kubeletProxy = new KubeletProxy();
  readonly componentStatuses = new ComponentStatuses();
  readonly records: RequestRecord[] = [];
  private nextOp = 1;
  private nextRecord = 1;
  inflight = { readOnly: 0, mutating: 0 };
  /** Bearer tokens that authenticated lately (the token cache's 10 s success TTL). */
  readonly tokens = new TokenCache();
  /** Post-start hooks done (bootstrap objects written): /readyz answers ok. */
  bootstrapped = false;
  private bootstrapPending = 0;
  /** When etcd last answered a call, and when one last failed for want of etcd (-1: never). */
  etcdLastOk = -1;
  etcdLastFail = -1;
  /** Compaction bookkeeping (storage/etcd3/compact.go). */
  private compactRev = 0;
  private compactKeyVersion = 0;

  constructor(
    readonly id: ActorId,
    readonly config: ApiServerConfig,
  ) {
    this.etcd = new ApiEtcdClient(`${id}/etcd`, { ...DEFAULT_CLIENT, endpoints: config.etcdEndpoints });
    this.watch = new WatchHub();
    this.aggregator = new Aggregator(config.aggregatedServices ?? {});
    this.identityLease = new IdentityLease(id);
    for (const r of RESOURCES) if (r.storagePrefix && !r.sharesStorageWith) this.caches.set(cacheKey(r), new WatchCache(cacheKey(r)));
  }

  // ---- lifecycle ---------------------------------------------------------------

  start(ctx: ActorContext): void {
    for (const key of this.caches.keys()) this.listForCache(ctx, key);
    ctx.setTimer(this.config.compactionIntervalMs, 'compact');
    ctx.setTimer(1000, 'bookmarks');
    ctx.setTimer(AGGREGATOR_TICK_MS, 'aggregator');
    ctx.setTimer(ENDPOINT_RECONCILE_INTERVAL_MS, 'endpointReconcile');
  }

  get ready(): boolean {
    for (const c of this.caches.values()) if (!c.ready) return false;
    return true;
  }

  /** Stored objects as the watch cache holds them (what admission and authorizers read). */
  get cluster(): ClusterReader {
    return new CacheReader(this);
  }

  cacheOf(r: ResourceInfo): WatchCache | undefined {
    // Looked up several times per request: by the resource's identity, once its key was built.
    let byResource = cachesByResource.get(this.caches);
    if (!byResource) cachesByResource.set(this.caches, (byResource = new Map()));
    let c = byResource.get(r);
    if (c === undefined && !byResource.has(r)) {
      const owner = r.sharesStorageWith ? resourceFor(r.sharesStorageWith.group, r.sharesStorageWith.resource) : r;
      c = owner ? this.caches.get(cacheKey(owner)) : undefined;
      // Only the registry's own resources are remembered (a caller's ad hoc copy would be a new key each time).
      if (STATIC_RESOURCES.has(r)) byResource.set(r, c);
    }
    return c;
  }

  // ---- messages ----------------------------------------------------------------

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (p.type === 'HttpRequest') {
      // WithPanicRecovery: a handler bug answers 500 and the server keeps serving.
      try {
        return this.onRequest(ctx, from, p as HttpRequestMsg);
      } catch (e) {
        const msg = p as HttpRequestMsg;
        const rec = this.records[this.records.length - 1];
        this.finish(ctx, from, msg.reqId, rec?.client === from ? rec : undefined, statusResponse(status.internal(e instanceof Error ? e.message : String(e))));
        return;
      }
    }
    // The HTTP/2 server answers PINGs in its transport, before any handler.
    if (p.type === 'HttpPing') return ctx.send(from, httpMsg.pong(p as HttpPingMsg));
    if (p.type === 'HttpData') {
      const m = p as HttpDataMsg;
      return this.kubeletProxy.data(ctx, from, m.reqId, m.chunk);
    }
    if (p.type === 'HttpCancel') {
      this.kubeletProxy.cancel(ctx, from, (p as HttpCancelMsg).reqId);
      return this.watch.cancel(ctx, from, (p as HttpCancelMsg).reqId);
    }
    const reqId = (p as unknown as { reqId?: number }).reqId;
    if ((p.type === 'HttpResponse' || p.type === 'HttpChunk' || p.type === 'HttpEnd') && reqId !== undefined && this.kubeletProxy.owns(from, reqId)) {
      return this.kubeletProxy.receive(this, ctx, p.type, reqId, p);
    }
    if (p.type === 'HttpResponse' && reqId !== undefined && this.componentStatuses.owns(from, reqId)) {
      return this.componentStatuses.response(this, ctx, reqId, (p as unknown as HttpResponseMsg).response);
    }
    if (p.type === 'HttpResponse' && this.aggregator.owns(from)) return this.aggregator.receive(this, ctx, from, p);
    this.etcdKeepalive.read(from, ctx.now, p.type === 'GrpcPong' ? (p as unknown as GrpcPong).seq : undefined);
    if (p.type === 'GrpcPong') return;
    this.etcd.receive(ctx, from, p);
    this.drainEtcd(ctx);
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (ETCD_CLIENT_TIMER_TAGS.has(tag)) {
      this.etcd.timer(ctx, tag, data);
      return this.drainEtcd(ctx);
    }
    switch (tag) {
      case ETCD_KEEPALIVE_TIMER: {
        const member = data as ActorId;
        const streams = [...this.cacheWatch.values()].some((w) => w.state === 'watching' && w.member === member);
        if (this.etcdKeepalive.timer(ctx, member, streams) === 'dead') this.etcdConnectionLost(ctx, member);
        return;
      }
      case 'compact':
        ctx.setTimer(this.config.compactionIntervalMs, 'compact');
        return this.compact(ctx);
      case 'bookmarks':
        ctx.setTimer(1000, 'bookmarks');
        return this.watch.tick(ctx, this);
      case 'watchTimeout':
        return this.watch.timeout(ctx, data as number);
      case 'relist':
        return this.listForCache(ctx, data as string);
      case 'restRetry':
        return this.retryOp(ctx, data as number);
      case 'componentStatusTimeout':
        return this.componentStatuses.failed(this, ctx, data as number, 'timeout');
      case 'kubeletProxyTimeout':
        return this.kubeletProxy.failed(this, ctx, data as number, 'timeout');
      case 'aggregator':
        ctx.setTimer(AGGREGATOR_TICK_MS, 'aggregator');
        if (this.ready && this.bootstrapped) this.aggregator.tick(this, ctx);
        return;
      case 'aggregator:timeout':
        return this.aggregator.timeout(this, ctx, data as number);
      case 'endpointReconcile':
        ctx.setTimer(ENDPOINT_RECONCILE_INTERVAL_MS, 'endpointReconcile');
        if (this.ready && this.bootstrapped) this.endpointReconciler.run(this, ctx);
        return;
      case 'loopbackRequest': {
        const { reqId, request } = data as { reqId: number; request: ApiRequest };
        return this.receive(ctx, this.id, httpMsg.request(reqId, request));
      }
      case 'loopbackResponse': {
        const { reqId, response } = data as { reqId: number; response: ApiResponse };
        const owner = this.loopbackOwners.get(reqId);
        this.loopbackOwners.delete(reqId);
        if (owner === 'endpoints') return this.endpointReconciler.onResponse(this, ctx, reqId, response);
        if (owner === 'identity') return this.identityLease.onResponse(this, ctx, reqId, response);
        return;
      }
      case 'identityLease':
        return this.identityLease.timer(this, ctx);
      case 'identityLeaseGC':
        return this.identityLease.gcTimer(this, ctx);
    }
  }

  persisted(): void {}

  peerReset(ctx: ActorContext, peer: ActorId): void {
    this.watch.dropClient(peer);
    this.kubeletProxy.peerReset(this, ctx, peer);
    if (!this.config.etcdEndpoints.includes(peer)) return;
    this.etcd.peerReset(ctx, peer);
    this.forgetStrayCancels(peer);
    // The etcd watches on that member died with its process: resume them elsewhere.
    for (const [key, w] of this.cacheWatch) if (w.state === 'watching' && w.member === peer) this.startCacheWatch(ctx, key);
    this.drainEtcd(ctx);
  }

  /** The keepalive found the connection to a member dead: closed, its calls failed, its watches resumed elsewhere from the cache's revision. */
  private etcdConnectionLost(ctx: ActorContext, member: ActorId): void {
    this.etcd.connectionLost(ctx, member);
    this.forgetStrayCancels(member);
    for (const [key, w] of this.cacheWatch) if (w.state === 'watching' && w.member === member) this.startCacheWatch(ctx, key);
    this.drainEtcd(ctx);
  }

  refused(ctx: ActorContext, to: ActorId, p: Payload): void {
    const reqId = (p as { reqId?: number }).reqId;
    if (p.type === 'HttpRequest' && reqId !== undefined && this.kubeletProxy.owns(to, reqId)) return this.kubeletProxy.failed(this, ctx, reqId, 'refused');
    if (p.type === 'HttpRequest' && reqId !== undefined && this.componentStatuses.owns(to, reqId)) return this.componentStatuses.failed(this, ctx, reqId, 'refused');
    if (this.aggregator.owns(to)) return this.aggregator.refused(this, ctx, to, p);
    if (this.config.etcdEndpoints.includes(to)) {
      this.etcd.refused(ctx, to, p);
      this.drainEtcd(ctx);
    } else this.watch.dropClient(to);
  }

  // ---- requests ----------------------------------------------------------------

  private onRequest(ctx: ActorContext, from: ActorId, msg: HttpRequestMsg): void {
    const req = msg.request;
    const info = requestInfo(req);
    const rec: RequestRecord = {
      id: this.nextRecord++,
      at: ctx.now,
      client: from,
      user: '',
      groups: [],
      verb: info.verb,
      method: req.method,
      path: req.path,
      group: info.isResourceRequest ? info.apiGroup : '',
      version: info.isResourceRequest ? info.apiVersion : '',
      resource: info.isResourceRequest ? info.resource : '',
      subresource: info.isResourceRequest ? info.subresource : '',
      namespace: info.isResourceRequest ? info.namespace : '',
      name: info.isResourceRequest ? info.name : '',
      stages: [],
      code: 0,
    };
    this.records.push(rec);
    // shift, not splice: V8 drops an array's head in place, where splice moves all 2,000 records per request.
    while (this.records.length > RECORD_LIMIT) this.records.shift();
    // reply(res) is this.finish(ctx, from, msg.reqId, rec, res), written out: no closures per request.

    // Authentication.
    const t0 = ctx.now;
    const authn = chain.authenticate(req, this.config.authn, this.cluster, ctx.now, this.tokens);
    if (!authn.ok) {
      stage(rec, 'authentication', authn.authenticator, 'denied', t0, ctx.now, authn.reason || authn.status.message);
      return this.finish(ctx, from, msg.reqId, rec, statusResponse(authn.status));
    }
    stage(rec, 'authentication', authn.authenticator, 'allowed', t0, ctx.now, `as ${authn.user.username}`);
    // Impersonation (kubectl --as / --as-group).
    const imp = chain.impersonate(req, authn.user, this.cluster);
    if (imp.type === 'forbidden') {
      stage(rec, 'impersonation', 'Impersonation', 'denied', ctx.now, ctx.now, imp.status.message);
      rec.user = authn.user.username;
      rec.groups = authn.user.groups;
      return this.finish(ctx, from, msg.reqId, rec, statusResponse(imp.status));
    }
    const user: UserInfo = imp.type === 'impersonated' ? imp.user : authn.user;
    if (imp.type === 'impersonated') stage(rec, 'impersonation', 'Impersonation', 'allowed', ctx.now, ctx.now, `${authn.user.username} as ${user.username}`);
    rec.user = user.username;
    rec.groups = user.groups;

    // Max in-flight (watches and other long-running requests are exempt).
    const longRunning = info.verb === 'watch' || (info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource));
    const mutating = MUTATING.has(info.verb);
    if (!longRunning) {
      const full = mutating ? this.inflight.mutating >= this.config.maxMutatingRequestsInflight : this.inflight.readOnly >= this.config.maxRequestsInflight;
      if (full) {
        stage(rec, 'limit', mutating ? 'max-mutating-requests-inflight' : 'max-requests-inflight', 'denied', ctx.now, ctx.now, 'Too many requests, please try again later.');
        return this.finish(ctx, from, msg.reqId, rec, { ...statusResponse(status.tooManyRequests('Too many requests, please try again later.', 1)), headers: { 'content-type': 'application/json', 'retry-after': '1' } });
      }
    }

    // Authorization.
    const attrs = chain.attributesOf(info, user, req);
    const authz = chain.authorize(attrs, this.cluster);
    if (authz.decision !== 'Allow') {
      stage(rec, 'authorization', 'Node,RBAC', 'denied', ctx.now, ctx.now, authz.reason || 'no RBAC policy matched');
      return this.finish(ctx, from, msg.reqId, rec, statusResponse(chain.forbiddenStatus(attrs, authz)));
    }
    stage(rec, 'authorization', 'Node,RBAC', 'allowed', ctx.now, ctx.now, authz.reason);

    // The aggregation layer: a group/version an APIService registers goes to its service.
    const apiService = this.aggregator.route(this, info);
    if (apiService) {
      stage(rec, 'proxy', apiService.metadata.name ?? '', 'ok', ctx.now, ctx.now, `to service ${JSON.stringify((apiService.spec as { service?: { namespace?: string; name?: string } }).service ?? {})}`);
      return this.aggregator.proxy(this, ctx, apiService, from, msg, rec.id, user);
    }

    if (!info.isResourceRequest) {
      return this.finish(ctx, from, msg.reqId, rec, handleNonResource(req, this));
    }
    const r = resourceForVersion(info.apiGroup, info.apiVersion, info.resource);
    if (!r) return this.finish(ctx, from, msg.reqId, rec, notFoundPage());
    if (info.subresource && !hasSubresource(r, info.subresource)) return this.finish(ctx, from, msg.reqId, rec, notFoundPage());
    if (!info.subresource && !r.verbs.includes(info.verb as never) && !(info.verb === 'watch' && r.verbs.includes('watch'))) {
      return this.finish(ctx, from, msg.reqId, rec, statusResponse(status.methodNotSupported({ group: r.group, resource: r.resource }, info.verb)));
    }
    if (!longRunning) {
      if (mutating) this.inflight.mutating++;
      else this.inflight.readOnly++;
    }
    const op = new RestOp(this.nextOp++, from, msg.reqId, req, info as ResourceRequestInfo, r, user, rec.id, mutating && !longRunning ? 'mutating' : longRunning ? 'none' : 'readOnly');
    this.ops.set(op.id, op);
    startRest(this, ctx, op);
  }

  /** AggregatorHost: writes an APIService's status over its stored version (skipped by a conflict: the next check retries). */
  writeAPIServiceStatus(ctx: ActorContext, obj: KObject): void {
    const r = resourceFor('apiregistration.k8s.io', 'apiservices')!;
    const rv = Number(obj.metadata.resourceVersion);
    if (!Number.isFinite(rv)) return;
    const id = this.etcd.call(ctx, 'TxnRequest', updateTxn(`${r.storagePrefix}/${obj.metadata.name}`, obj, rv) as never);
    this.etcdWaiters.set(id, { purpose: 'aggregator' });
  }

  /** Record of a request by id (while it is still in the buffer). */
  record(id: number): RequestRecord | undefined {
    // Records are appended in id order: binary search.
    let lo = 0;
    let hi = this.records.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = this.records[mid]!;
      if (r.id === id) return r;
      if (r.id < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Sends the answer to a request and closes its record (by record or record id). */
  finish(ctx: ActorContext, client: ActorId, reqId: number, recOrId: RequestRecord | number | undefined, res: ApiResponse): void {
    const rec = typeof recOrId === 'number' ? this.record(recOrId) : recOrId;
    if (rec) {
      rec.code = res.status;
      rec.doneAt = ctx.now;
      if (res.status >= 400) {
        try {
          const st = JSON.parse(res.body) as Status;
          rec.reason = st.reason;
          rec.message = st.message;
        } catch {
          rec.message = res.body.slice(0, 200);
        }
      }
      const warnings = res.headers['warning'];
      if (warnings) rec.warnings = warnings.split('\n');
    }
    // The loopback client is in the process: its answers take no network.
    if (client === this.id) ctx.setTimer(0, 'loopbackResponse', { reqId, response: res });
    else ctx.send(client, httpMsg.response(reqId, res));
  }

  /** A request from this server's loopback client (as system:apiserver), through the whole handler chain. */
  loopback(ctx: ActorContext, owner: LoopbackOwner, request: ApiRequest): number {
    const reqId = this.nextLoopback++;
    this.loopbackOwners.set(reqId, owner);
    ctx.setTimer(0, 'loopbackRequest', { reqId, request });
    return reqId;
  }


  /** An op finished: free its in-flight seat and answer. */
  complete(ctx: ActorContext, op: RestOp, res: ApiResponse): void {
    if (!this.ops.has(op.id)) return;
    this.ops.delete(op.id);
    if (op.seat === 'mutating') this.inflight.mutating--;
    else if (op.seat === 'readOnly') this.inflight.readOnly--;
    this.finish(ctx, op.client, op.reqId, this.record(op.recordId), res);
  }

  /** Starts an etcd call on behalf of an op. */
  etcdCall<K extends Parameters<ApiEtcdClient['call']>[1]>(ctx: ActorContext, op: RestOp | null, type: K, body: Parameters<ApiEtcdClient['call']>[2], purpose: 'rest' | 'bootstrap' | 'compact' | 'compactTxn' | 'endpointReconciler' | 'componentStatus' = 'rest'): number {
    const id = this.etcd.call(ctx, type, body as never);
    this.etcdWaiters.set(id, { op: op?.id, purpose });
    return id;
  }

  /** A lease for objects with a TTL; the writes waiting on it are in `leases.waiters`. */
  grantLease(ctx: ActorContext, ttlSeconds: number): void {
    const id = this.etcd.call(ctx, 'LeaseGrantRequest', { TTL: ttlSeconds });
    this.etcdWaiters.set(id, { purpose: 'lease' });
  }

  private retryOp(ctx: ActorContext, opId: number): void {
    const op = this.ops.get(opId);
    if (op) startRest(this, ctx, op);
  }

  // ---- etcd plumbing -----------------------------------------------------------

  private drainEtcd(ctx: ActorContext): void {
    for (;;) {
      const { done, pushes } = this.etcd.drain();
      if (done.length === 0 && pushes.length === 0) return;
      for (const call of done) this.onEtcdDone(ctx, call);
      for (const p of pushes) this.onWatchPush(ctx, p.from, p.body);
    }
  }

  private onEtcdDone(ctx: ActorContext, call: CallRecord): void {
    // The etcd health check's view: did etcd answer the last call? (An answer with an application error is an answer.)
    const o = call.outcome;
    if (o) {
      const down = o.status === 'unknown' || (o.status === 'error' && (o.error.code === 'Unavailable' || o.error.code === 'DeadlineExceeded'));
      if (down) this.etcdLastFail = ctx.now;
      else this.etcdLastOk = ctx.now;
    }
    const w = this.etcdWaiters.get(call.id);
    if (!w) return;
    this.etcdWaiters.delete(call.id);
    switch (w.purpose) {
      case 'rest': {
        const op = w.op === undefined ? undefined : this.ops.get(w.op);
        if (!op) return;
        try {
          onRestEtcd(this, ctx, op, call);
        } catch (e) {
          this.complete(ctx, op, statusResponse(status.internal(e instanceof Error ? e.message : String(e))));
        }
        return;
      }
      case 'cacheList':
        return this.onCacheList(ctx, w.key!, call);
      case 'cacheWatch':
        return this.onCacheWatchCreated(ctx, w.key!, call);
      case 'bootstrap':
        this.bootstrapPending--;
        if (call.outcome?.status !== 'ok') ctx.setTimer(1000, 'relist', '__bootstrap__');
        if (this.bootstrapPending === 0) this.postStartDone(ctx);
        return;
      case 'compactTxn':
        return this.onCompactTxn(ctx, call);
      case 'lease':
        return onLeaseGranted(this, ctx, call);
      case 'endpointReconciler':
        return this.endpointReconciler.onEtcd(this, ctx, call);
      case 'componentStatus':
        return this.componentStatuses.etcdDone(this, ctx, call);
      case 'compact':
      case 'aggregator':
        return;
    }
  }

  private listForCache(ctx: ActorContext, key: string): void {
    if (key === '__bootstrap__') return this.bootstrap(ctx);
    const cache = this.caches.get(key);
    const r = resourceOfKey(key);
    if (!cache || !r?.storagePrefix) return;
    const { key: k, rangeEnd } = prefixRange(r.storagePrefix);
    const id = this.etcd.call(ctx, 'RangeRequest', { key: k, rangeEnd });
    this.etcdWaiters.set(id, { purpose: 'cacheList', key });
    this.cacheWatch.set(key, { state: 'listing', callId: id });
  }

  private onCacheList(ctx: ActorContext, key: string, call: CallRecord): void {
    const cache = this.caches.get(key)!;
    if (call.outcome?.status !== 'ok') {
      ctx.setTimer(1000, 'relist', key);
      return;
    }
    const res = call.outcome.body as RangeResponse;
    const wasReady = this.ready;
    cache.replace(
      res.kvs.map((kv) => ({ key: keyText(kv.key), obj: decodeObject(kv) })),
      res.header.revision,
    );
    this.watch.resync(ctx, key);
    this.startCacheWatch(ctx, key);
    if (!wasReady && this.ready) this.bootstrap(ctx);
  }

  private startCacheWatch(ctx: ActorContext, key: string): void {
    const cache = this.caches.get(key)!;
    const r = resourceOfKey(key)!;
    const { key: k, rangeEnd } = prefixRange(r.storagePrefix!);
    const id = this.etcd.call(ctx, 'WatchCreateRequest', { key: k, rangeEnd, startRevision: cache.rv + 1, prevKv: true, progressNotify: true });
    this.etcdWaiters.set(id, { purpose: 'cacheWatch', key });
    this.cacheWatch.set(key, { state: 'starting', callId: id });
  }

  private onCacheWatchCreated(ctx: ActorContext, key: string, call: CallRecord): void {
    if (call.outcome?.status !== 'ok') {
      ctx.setTimer(500, 'relist', key);
      return;
    }
    const body = call.outcome.body as WatchResponse;
    if (body.canceled || body.compactRevision > 0) {
      // Compacted past our revision: list again (the reflector's relist).
      return this.listForCache(ctx, key);
    }
    this.cacheWatch.set(key, { state: 'watching', member: call.servedBy!, watchId: body.watchId });
    this.feeds.set(`${call.servedBy!}/${body.watchId}`, key);
    this.etcdKeepalive.streaming(ctx, call.servedBy!);
  }

  private onWatchPush(ctx: ActorContext, from: ActorId, body: WatchResponse): void {
    const feed = `${from}/${body.watchId}`;
    const key = this.feeds.get(feed);
    if (key === undefined) return this.strayWatch(ctx, from, body);
    const w = this.cacheWatch.get(key);
    if (!w || w.state !== 'watching' || w.member !== from || w.watchId !== body.watchId) {
      this.feeds.delete(feed); // that watch was replaced
      return this.strayWatch(ctx, from, body);
    }
    if (body.canceled) {
      this.listForCache(ctx, key);
      return;
    }
    // clientv3 keeps the created notification to itself (watch.go serveSubstream): its header revision is
    // the store's at creation, not progress, for a watch resuming from an earlier revision.
    if (body.created) return;
    const cache = this.caches.get(key)!;
    for (const ev of body.events) {
      const k = keyText(ev.kv.key);
      const obj = ev.type === 'PUT' ? this.written.objectOf(k, ev.kv) : null;
      const ce = cache.apply(k, ev.type, obj, ev.kv.modRevision);
      if (ce) this.watch.dispatch(ctx, key, ce);
    }
    if (body.events.length === 0) cache.progress(body.header.revision);
  }

  /**
   * A watch response for a watch no cache reads (a replaced one): clientv3
   * cancels such a watch id once (watch.go run). Not at its created
   * notification: the answer to the create came first, and an attempt given
   * up on is cancelled by the etcd client then.
   */
  private strayWatch(ctx: ActorContext, from: ActorId, body: WatchResponse): void {
    const feed = `${from}/${body.watchId}`;
    if (body.canceled) {
      this.strayCancels.delete(feed);
      return;
    }
    if (body.created || body.watchId < 0 || this.strayCancels.has(feed)) return;
    this.strayCancels.add(feed);
    this.etcd.cancelStrayWatch(ctx, from, body.watchId);
  }

  /** The member's watch streams to us are gone: so are the cancels awaited from it. */
  private forgetStrayCancels(member: ActorId): void {
    for (const f of this.strayCancels) if (f.startsWith(`${member}/`)) this.strayCancels.delete(f);
  }

  // ---- post-start hooks ----------------------------------------------------------

  private bootstrap(ctx: ActorContext): void {
    // Default namespaces, RBAC bootstrap policy, system priority classes and the
    // `kubernetes` Service, each created only if absent (as the post-start hooks do).
    const objs = bootstrapObjects(ctx.now, ctx.rng);
    this.bootstrapPending = objs.length;
    for (const { r, obj } of objs) {
      const existing = this.cluster.get(r.group, r.resource, obj.metadata.namespace, obj.metadata.name!);
      if (existing) {
        this.bootstrapPending--;
        continue;
      }
      this.etcdCall(ctx, null, 'TxnRequest', createTxn(r, obj), 'bootstrap');
    }
    if (this.bootstrapPending === 0) this.postStartDone(ctx);
  }

  /** The post-start hooks are done: /readyz says ok, and the kubernetes Service's endpoints are reconciled at once, then every 10 s. */
  private postStartDone(ctx: ActorContext): void {
    if (this.bootstrapped) return;
    this.bootstrapped = true;
    this.endpointReconciler.run(this, ctx);
    this.identityLease.start(this, ctx);
  }

  // ---- compaction (k8s.io/apiserver/pkg/storage/etcd3/compact.go) -------------

  private compact(ctx: ActorContext): void {
    // Compact to the revision seen one interval ago, guarded by a CAS on
    // compact_rev_key so several apiservers compact once.
    const key = 'compact_rev_key';
    this.etcdCall(
      ctx,
      null,
      'TxnRequest',
      {
        compare: [{ key, target: 'VERSION', result: 'EQUAL', version: this.compactKeyVersion }],
        success: [{ requestPut: { key, value: '' } }],
        failure: [{ requestRange: { key } }],
      },
      'compactTxn',
    );
  }

  private onCompactTxn(ctx: ActorContext, call: CallRecord): void {
    if (call.outcome?.status !== 'ok') return;
    const res = call.outcome.body as TxnResponse;
    const prevRev = this.compactRev;
    this.compactRev = res.header.revision;
    if (res.succeeded) {
      this.compactKeyVersion++;
      if (prevRev > 0) this.etcdCall(ctx, null, 'CompactionRequest', { revision: prevRev }, 'compact');
    } else {
      const kv = res.responses[0]?.responseRange?.kvs[0];
      this.compactKeyVersion = kv ? kv.version : 0;
    }
  }
}

/** ClusterReader over the watch caches (made on demand: never part of the state). */
class CacheReader implements ClusterReader {
  constructor(private readonly server: ApiServer) {}
  get(group: string, resource: string, namespace: string | undefined, name: string): KObject | undefined {
    const r = resourceFor(group, resource);
    const c = r && this.server.cacheOf(r);
    if (!r || !c) return undefined;
    return c.store.get(r.namespaced ? `${r.storagePrefix}/${namespace}/${name}` : `${r.storagePrefix}/${name}`);
  }
  list(group: string, resource: string, namespace?: string): readonly KObject[] {
    const r = resourceFor(group, resource);
    const c = r && this.server.cacheOf(r);
    if (!r || !c) return [];
    const all = c.list();
    return namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace);
  }
}

/**
 * cacheOf's answers by resource, per server (keyed by its caches map, which the
 * server makes once and never refills: a restored server has a new one).
 */
const cachesByResource = new WeakMap<Map<string, WatchCache>, Map<ResourceInfo, WatchCache | undefined>>();
const STATIC_RESOURCES: ReadonlySet<ResourceInfo> = new Set(RESOURCES);

export function cacheKey(r: ResourceInfo): string {
  return `${r.group}/${r.resource}`;
}

function resourceOfKey(key: string): ResourceInfo | undefined {
  const i = key.lastIndexOf('/');
  return resourceFor(key.slice(0, i), key.slice(i + 1));
}

export function stage(rec: RequestRecord | undefined, kind: StageRecord['kind'], name: string, decision: StageRecord['decision'], startedAt: number, endedAt: number, message?: string, extra?: Partial<StageRecord>): void {
  if (!rec) return;
  const s: StageRecord = extra === undefined ? { kind, name, decision, startedAt, endedAt } : { kind, name, decision, startedAt, endedAt, ...extra };
  if (message) s.message = message;
  rec.stages.push(s);
}

export function statusResponse(st: Status, headers: Record<string, string> = {}): ApiResponse {
  return jsonResponse(st.code, st, headers);
}

/** The mux's 404 for an unknown path: plain text (clients turn it into "the server could not find the requested resource"). */
export function notFoundPage(): ApiResponse {
  return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '404 page not found\n' };
}

registerClass('ApiServer', ApiServer);
registerActorKind<ApiServerConfig, null>({
  kind: APISERVER_KIND,
  initDurable: () => null,
  create: (id, config) => new ApiServer(id, config),
});
