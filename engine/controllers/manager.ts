// kube-controller-manager (`kube-controller-manager-0`), first controllers:
// serviceaccount (every namespace gets its "default" ServiceAccount),
// root-ca-cert-publisher (every namespace gets the kube-root-ca.crt ConfigMap)
// and namespace (a terminating namespace is emptied, then finalized). It sees
// the cluster only through list+watch and writes only through REST calls to
// kube-apiserver, authenticated by its client certificate.
import type { Actor, ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerActorKind } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import type { KObject } from '../apimachinery/types';
import type { ApiRequest } from '../apiserver/types';
import { serveComponentHealth } from '../apiserver/http/healthz';
import { httpMsg, type HttpChunkMsg, type HttpEndMsg, type HttpResponseMsg } from '../apiserver/http/messages';
import { CLIENT_CERT_HEADER } from '../apiserver/auth/authn';
import { RESOURCES } from '../apiserver/registry/resources';
import { apiVersionOf } from '../apimachinery/types';
import { Reflector, type ReflectorEvent } from '../client/reflector';
import { CONTROLLER_FACTORIES } from './registry';
import { INFORMER_PATHS, type ApiCall, type Controller, type ControllerContext, type EventSpec } from './framework/types';
import { ManagerContext } from './framework/context';
import { CoreEventRecorder, coreEventWrite } from './framework/events';
import { afterEventAnswer, eventRequest, type EventWrite } from '../client/eventSink';
import { LeaderElector, type LeaderElectionPlan } from '../client/leaderElection';
import { Transport, TRANSPORT_TIMERS, type RateLimit } from '../client/transport';
import { newUid } from '../apiserver/server/ids';
import { ROOT_CA_CRT } from './framework/rootCA';
import { PodOwnerIndex } from './framework/podOwnerIndex';
import { NamespaceIndex } from './framework/namespaceIndex';

const EMPTY: ReadonlyMap<string, KObject> = new Map();

/**
 * --kube-api-qps 20 and --kube-api-burst 30: the limits of every client the
 * manager builds (the shared informers', leader election's, each controller's
 * own through its ClientBuilder), each client with its own token bucket.
 */
export const CONTROLLER_MANAGER_RATE_LIMIT: RateLimit = { qps: 20, burst: 30 };

export const CONTROLLER_MANAGER_KIND = 'kube-controller-manager';

export interface ControllerManagerConfig {
  server: ActorId;
  /** --kube-api-qps / --kube-api-burst; CONTROLLER_MANAGER_RATE_LIMIT when absent. */
  kubeApi?: RateLimit;
}

export { ROOT_CA_CRT };

const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

type Purpose =
  | { kind: 'list' | 'watch'; reflector: string }
  | { kind: 'write'; key: string }
  /** An Event write; a bump whose Event is gone creates it (recordEvent's fallback). */
  | { kind: 'event'; write: EventWrite; as?: string }
  | { kind: 'nsDelete'; ns: string; step: number }
  | { kind: 'nsFinalize'; ns: string }
  | { kind: 'credentialsSA' | 'credentialsToken'; controller: string }
  | { kind: 'controller'; controller: string; tag: unknown }
  | { kind: 'lease'; seq: number }
  | { kind: 'ready' };

/**
 * Each controller acts as its own ServiceAccount in kube-system
 * (--use-service-account-credentials, as kubeadm runs it): the manager makes
 * sure the account exists and asks for a token for it (SAControllerClientBuilder).
 */
const BUILT_IN = ['service-account-controller', 'root-ca-cert-publisher', 'namespace-controller'] as const;
/** What those three read (reconcile below). */
const BUILT_IN_INFORMERS: ReadonlySet<string> = new Set(['namespaces', 'serviceaccounts', 'configmaps']);
type ControllerName = string;

/** Which of the manager's clients (and so which rate limiter) a request goes through. */
function clientOf(purpose: Purpose, as: ControllerName | undefined): string | undefined {
  // client-go never rate-limits a watch (rest/request.go Watch).
  if (purpose.kind === 'watch') return undefined;
  if (purpose.kind === 'list') return 'shared-informers';
  if (purpose.kind === 'lease') return 'leader-election';
  if (purpose.kind === 'controller') return purpose.controller;
  return as ?? 'kube-controller-manager';
}

export class ControllerManager implements Actor {
  readonly reflectors = new Map<string, Reflector>([
    ['namespaces', new Reflector('/api/v1/namespaces')],
    ['serviceaccounts', new Reflector('/api/v1/serviceaccounts')],
    ['configmaps', new Reflector('/api/v1/configmaps')],
  ]);
  private readonly requests = new Map<number, Purpose>();
  /** The connection to kube-apiserver and the clients' rate limiters. */
  readonly transport: Transport;
  /** Writes in flight, by a key naming what they create (avoids duplicates). */
  private readonly inFlight = new Set<string>();
  /** Namespaces being emptied, and the resources (index into NAMESPACED) reached. */
  private readonly terminating = new Map<string, number>();
  /** Bearer tokens of the controllers' service accounts. */
  private readonly tokens = new Map<string, string>();
  private nextReq = 1;
  /** The modular controllers (registry.ts), each with its work queue. */
  readonly controllers: Controller[];
  /** The controllers reading each informer, in their order: who hears of its events. */
  private readonly readers = new Map<string, Controller[]>();
  private queueTimer = -1;
  private queueTimerAt = -1;
  private readonly eventRecorder = new CoreEventRecorder('kube-controller-manager');
  /** The pods informer's owner index (kept in step with its store). */
  private readonly podOwners = new PodOwnerIndex();
  /** Every informer's namespace index. */
  private readonly namespaces = new NamespaceIndex();
  /** --leader-elect (on by default): only the holder of kube-system/kube-controller-manager runs controllers. */
  readonly elector: LeaderElector;
  private electorTimer = -1;
  private electorWakeAt = -1;
  /** /readyz answered ok: controllers on the manager's own credentials may start. */
  private apiReady = false;

  constructor(
    readonly id: ActorId,
    readonly config: ControllerManagerConfig,
  ) {
    // The identity is hostname_uuid, a new uuid each start (set in start): a restarted leader is a new candidate.
    this.elector = new LeaderElector({ name: 'kube-controller-manager', namespace: 'kube-system', identity: id, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 });
    this.controllers = CONTROLLER_FACTORIES.map((f) => f());
    this.transport = new Transport(config.server, {}, 0, config.kubeApi ?? CONTROLLER_MANAGER_RATE_LIMIT);
    for (const c of this.controllers) {
      for (const name of c.informers) {
        if (!this.reflectors.has(name)) this.reflectors.set(name, new Reflector(INFORMER_PATHS[name]!));
        let readers = this.readers.get(name);
        if (!readers) this.readers.set(name, (readers = []));
        if (!readers.includes(c)) readers.push(c);
      }
    }
  }

  private get controllerNames(): string[] {
    return [...BUILT_IN, ...this.controllers.filter((c) => !c.rootCredentials).map((c) => c.name)];
  }

  start(ctx: ActorContext): void {
    for (const name of this.reflectors.keys()) this.list(ctx, name);
    // Like the real manager, wait for the API server to be healthy before acting (controllermanager.go WaitForAPIServer).
    this.send(ctx, { method: 'GET', path: '/readyz', query: {} }, { kind: 'ready' });
    ctx.setTimer(5000, 'resync');
    this.elector.config.identity = `${this.id}_${newUid(ctx.rng)}`;
    this.applyElection(ctx, this.elector.run(ctx.now));
  }

  get isLeader(): boolean {
    return this.elector.isLeader;
  }

  private applyElection(ctx: ActorContext, plan: LeaderElectionPlan): void {
    if (plan.request) {
      const r = plan.request;
      this.send(ctx, { method: r.method, path: r.path, query: {}, ...(r.body !== undefined ? { body: r.body } : {}) }, { kind: 'lease', seq: r.seq });
    }
    for (const e of plan.events) {
      if (e.type === 'OnStartedLeading') {
        this.reconcile(ctx);
        this.runQueues(ctx);
      } else if (e.type === 'OnStoppedLeading') {
        // kube-controller-manager exits when it loses the lease and comes back as a candidate.
        this.applyElection(ctx, this.elector.run(ctx.now));
      } else if (e.type === 'RecordEvent') {
        const lease = { apiVersion: e.involvedObject.apiVersion, kind: 'Lease', metadata: { name: e.involvedObject.name, namespace: e.involvedObject.namespace, uid: e.involvedObject.uid, resourceVersion: e.involvedObject.resourceVersion } };
        const call = this.eventRecorder.record({ regarding: lease, type: 'Normal', reason: 'LeaderElection', message: e.message }, 'kube-controller-manager', ctx.now);
        if (call) this.sendEvent(ctx, coreEventWrite(call), undefined);
      }
    }
    const wake = this.elector.nextWakeAt();
    if (wake !== null && wake !== this.electorWakeAt) {
      if (this.electorTimer >= 0) ctx.cancelTimer(this.electorTimer);
      this.electorWakeAt = wake;
      this.electorTimer = ctx.setTimer(Math.max(0, wake - ctx.now), 'elector');
    }
  }

  private ensureCredentials(ctx: ActorContext, controller: ControllerName): void {
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: controller, namespace: 'kube-system' } };
    this.send(ctx, { method: 'POST', path: '/api/v1/namespaces/kube-system/serviceaccounts', query: {}, body: JSON.stringify(sa) }, { kind: 'credentialsSA', controller });
  }

  private requestToken(ctx: ActorContext, controller: string): void {
    const tr = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [], expirationSeconds: 3600 } };
    this.send(ctx, { method: 'POST', path: `/api/v1/namespaces/kube-system/serviceaccounts/${controller}/token`, query: {}, body: JSON.stringify(tr) }, { kind: 'credentialsToken', controller });
  }

  private send(ctx: ActorContext, req: Omit<ApiRequest, 'headers'> & { headers?: Record<string, string> }, purpose: Purpose, as?: ControllerName): number {
    const reqId = this.nextReq++;
    this.requests.set(reqId, purpose);
    const token = as ? this.tokens.get(as) : undefined;
    const identity: Record<string, string> = token ? { authorization: `Bearer ${token}` } : { [CLIENT_CERT_HEADER]: 'CN=system:kube-controller-manager' };
    const full: ApiRequest = {
      ...req,
      headers: { ...identity, accept: 'application/json', 'user-agent': `kube-controller-manager/v1.32.0${as ? ` ${as}` : ''}`, ...(req.body ? { 'content-type': 'application/json' } : {}), ...(req.headers ?? {}) },
    };
    this.transport.send(ctx, httpMsg.request(reqId, full), clientOf(purpose, as));
    // The leader-election client's Timeout is the renew deadline (options.go).
    if (purpose.kind === 'lease') ctx.setTimer(this.elector.config.renewDeadlineMs, 'requestTimeout', reqId);
    return reqId;
  }

  private list(ctx: ActorContext, name: string): void {
    const r = this.reflectors.get(name)!;
    const q = r.listRequest();
    r.reqId = this.send(ctx, { method: 'GET', path: q.path, query: q.query }, { kind: 'list', reflector: name });
  }

  private watch(ctx: ActorContext, name: string): void {
    const r = this.reflectors.get(name)!;
    const q = r.watchRequest();
    r.reqId = this.send(ctx, { method: 'GET', path: q.path, query: q.query }, { kind: 'watch', reflector: name });
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (serveComponentHealth(ctx, from, p)) return;
    if (this.transport.receive(ctx, from, p)) return;
    const reqId = (p as { reqId?: number }).reqId ?? 0;
    const purpose = this.requests.get(reqId);
    if (!purpose) return;
    if (p.type === 'HttpResponse') {
      const res = (p as unknown as HttpResponseMsg).response;
      if (!(p as unknown as HttpResponseMsg).streaming) this.requests.delete(reqId);
      switch (purpose.kind) {
        case 'list': {
          const r = this.reflectors.get(purpose.reflector)!;
          const out = r.onList(res.status, res.body);
          if (out === 'retry') {
            ctx.setTimer(1000, 'relist', purpose.reflector);
            return;
          }
          // A list of more than one page: ask for the next one before watching.
          const next = r.nextRequest();
          if (next) {
            r.reqId = this.send(ctx, { method: 'GET', path: next.path, query: next.query }, { kind: 'list', reflector: purpose.reflector });
            return;
          }
          this.watch(ctx, purpose.reflector);
          this.dispatch(ctx, purpose.reflector, out);
          this.reconcile(ctx);
          return;
        }
        case 'lease':
          this.applyElection(ctx, this.elector.onResponse(ctx.now, purpose.seq, res.status, res.body));
          return;
        case 'controller': {
          const c = this.controllers.find((x) => x.name === purpose.controller);
          if (c) {
            c.onResponse(purpose.tag, res.status, res.body, this.context(ctx, c));
            this.runQueues(ctx);
          }
          return;
        }
        case 'watch':
          if (res.status !== 200) ctx.setTimer(1000, 'relist', purpose.reflector);
          return;
        case 'write':
          // Keep the key until the watch shows the object, so a resync does not create it twice.
          if (res.status >= 300) this.inFlight.delete(purpose.key);
          return;
        case 'event':
          return this.onEventAnswer(ctx, purpose, res.status);
        case 'ready':
          if (res.status === 200) {
            this.apiReady = true;
            for (const c of this.controllerNames) this.ensureCredentials(ctx, c);
            this.runQueues(ctx);
          } else ctx.setTimer(1000, 'ready');
          return;
        case 'credentialsSA':
          if (res.status === 201 || res.status === 409) this.requestToken(ctx, purpose.controller);
          else ctx.setTimer(1000, 'credentials', purpose.controller);
          return;
        case 'credentialsToken':
          if (res.status === 201) {
            this.tokens.set(purpose.controller, (JSON.parse(res.body) as { status: { token: string } }).status.token);
            this.reconcile(ctx);
            this.runQueues(ctx);
          } else ctx.setTimer(1000, 'credentials', purpose.controller);
          return;
        case 'nsDelete':
          return this.continueNamespaceDeletion(ctx, purpose.ns, purpose.step + 1);
        case 'nsFinalize':
          this.terminating.delete(purpose.ns);
          return;
      }
    }
    if (p.type === 'HttpChunk' && purpose.kind === 'watch') {
      const r = this.reflectors.get(purpose.reflector)!;
      const out = r.onChunk((p as unknown as HttpChunkMsg).chunk);
      if (out === 'relist') {
        this.requests.delete(reqId);
        this.list(ctx, purpose.reflector);
      } else if (out.length) {
        this.dispatch(ctx, purpose.reflector, out);
        // The built-in controllers read only these informers: other events cannot change what they do.
        if (BUILT_IN_INFORMERS.has(purpose.reflector)) this.reconcile(ctx);
      }
      return;
    }
    if (p.type === 'HttpEnd' && purpose.kind === 'watch') {
      void (p as unknown as HttpEndMsg);
      this.requests.delete(reqId);
      this.watch(ctx, purpose.reflector);
    }
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (TRANSPORT_TIMERS.has(tag)) {
      if (this.transport.timer(ctx, tag, data, this.requests.size > 0)) this.failInFlight(ctx);
      return;
    }
    if (tag === 'requestTimeout') {
      const purpose = this.requests.get(data as number);
      if (!purpose) return;
      this.requests.delete(data as number);
      this.transport.cancel(ctx, data as number);
      return this.failRequest(ctx, purpose);
    }
    if (tag === 'relist') return this.list(ctx, data as string);
    if (tag === 'eventRetry') {
      const d = data as { write: EventWrite; as?: string };
      return this.sendEvent(ctx, d.write, d.as);
    }
    if (tag === 'credentials') return this.ensureCredentials(ctx, data as ControllerName);
    if (tag === 'ready') {
      this.send(ctx, { method: 'GET', path: '/readyz', query: {} }, { kind: 'ready' });
      return;
    }
    if (tag === 'resync') {
      ctx.setTimer(5000, 'resync');
      this.reconcile(ctx);
    }
    if (tag === 'elector') {
      this.electorTimer = -1;
      this.electorWakeAt = -1;
      this.applyElection(ctx, this.elector.tick(ctx.now));
      return;
    }
    if (tag === 'queues') {
      this.queueTimer = -1;
      this.queueTimerAt = -1;
      this.runQueues(ctx);
    }
  }

  persisted(): void {}

  refused(ctx: ActorContext, _to: ActorId, p: Payload): void {
    if (this.transport.refused(ctx, p)) return this.failInFlight(ctx);
    const reqId = (p as { reqId?: number }).reqId ?? 0;
    const purpose = this.requests.get(reqId);
    this.requests.delete(reqId);
    if (purpose) this.failRequest(ctx, purpose);
  }

  /** A request failed without an answer (refused, timed out, its connection closed). */
  private failRequest(ctx: ActorContext, purpose: Purpose): void {
    if (purpose.kind === 'list' || purpose.kind === 'watch') ctx.setTimer(1000, 'relist', purpose.reflector);
    if (purpose.kind === 'write') this.inFlight.delete(purpose.key);
    if (purpose.kind === 'controller') this.controllerFailed(ctx, purpose.controller, purpose.tag);
    if (purpose.kind === 'lease') this.applyElection(ctx, this.elector.onResponse(ctx.now, purpose.seq, 0, ''));
    if (purpose.kind === 'event') this.onEventAnswer(ctx, purpose, 0);
  }

  /** The connection closed: what was on it fails (requests waiting for a token go on the next one). */
  private failInFlight(ctx: ActorContext): void {
    for (const [reqId, purpose] of [...this.requests]) {
      if (this.transport.isThrottled(reqId) || !this.requests.has(reqId)) continue;
      this.requests.delete(reqId);
      this.failRequest(ctx, purpose);
    }
  }

  private controllerFailed(ctx: ActorContext, name: string, tag: unknown): void {
    const c = this.controllers.find((x) => x.name === name);
    if (c) c.onResponse(tag, 0, '', this.context(ctx, c));
  }

  peerReset(ctx: ActorContext, peer: ActorId): void {
    if (peer !== this.config.server) return;
    this.transport.close(ctx);
    this.failInFlight(ctx);
  }

  // ---- modular controllers ------------------------------------------------------------

  private context(ctx: ActorContext, c: Controller): ControllerContext {
    return new ManagerContext(this, ctx, c.name);
  }

  /** @internal (ManagerContext) */
  storeOf(resource: string): ReadonlyMap<string, KObject> {
    return this.reflectors.get(resource)?.store ?? EMPTY;
  }

  /** @internal */
  listNamespace(resource: string, namespace: string): KObject[] {
    return this.namespaces.list(resource, namespace);
  }

  /** @internal */
  podsOwnedBy(namespace: string, ownerUid: string): KObject[] {
    return this.podOwners.owned(namespace, ownerUid);
  }

  /** @internal */
  isSynced(resource: string): boolean {
    return this.reflectors.get(resource)?.synced ?? false;
  }

  /** @internal */
  controllerRequest(ctx: ActorContext, controller: string, call: ApiCall, tag: unknown): void {
    const body = call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
    const contentType = call.method === 'PATCH' ? (call.contentType ?? 'application/merge-patch+json') : call.contentType;
    this.send(ctx, { method: call.method, path: call.path, query: call.query ?? {}, ...(body !== undefined ? { body } : {}), ...(contentType ? { headers: { 'content-type': contentType } } : {}) }, { kind: 'controller', controller, tag }, this.tokens.has(controller) ? controller : undefined);
  }

  /** @internal */
  controllerEvent(ctx: ActorContext, controller: string, e: EventSpec): void {
    const call = this.eventRecorder.record(e, e.component ?? controller, ctx.now);
    if (call) this.sendEvent(ctx, coreEventWrite(call), this.tokens.has(controller) ? controller : undefined);
  }

  private sendEvent(ctx: ActorContext, write: EventWrite, as: string | undefined): void {
    const r = eventRequest(write);
    this.send(ctx, { method: r.method, path: r.path, query: {}, body: r.body, ...(r.contentType ? { headers: { 'content-type': r.contentType } } : {}) }, { kind: 'event', write, ...(as ? { as } : {}) }, as);
  }

  /** An Event write's answer (0: none came): recordToSink's fallback and retries. */
  private onEventAnswer(ctx: ActorContext, purpose: Extract<Purpose, { kind: 'event' }>, status: number): void {
    const next = afterEventAnswer(purpose.write, status, () => ctx.rng.float());
    if (next.type === 'send') this.sendEvent(ctx, next.write, purpose.as);
    else if (next.type === 'retry') ctx.setTimer(next.afterMs, 'eventRetry', { write: next.write, ...(purpose.as ? { as: purpose.as } : {}) });
  }

  private dispatch(ctx: ActorContext, resource: string, events: ReflectorEvent[]): void {
    if (events.length === 0) return;
    for (const ev of events) this.namespaces.apply(resource, ev);
    if (resource === 'pods') for (const ev of events) this.podOwners.apply(ev);
    for (const c of this.readers.get(resource) ?? []) {
      const cc = this.context(ctx, c);
      for (const ev of events) c.onEvent(resource, ev, cc);
    }
    this.runQueues(ctx);
  }

  /** The controller's periodic passes due now (once it can work); returns when the next is due. */
  private runPasses(ctx: ActorContext, c: Controller, nextAt: number): number {
    if (nextAt > ctx.now) return this.canWork(c) ? nextAt : Infinity;
    if (!this.canWork(c)) return ctx.now + 200;
    const cc = this.context(ctx, c);
    c.loops!.runDue(ctx.now, (pass) => c.runPass!(pass, cc));
    return c.loops!.nextAt() ?? Infinity;
  }

  /** A controller's workers run once it has its credentials and its informers are synced. */
  private canWork(c: Controller): boolean {
    const credentials = c.rootCredentials ? this.apiReady : this.tokens.has(c.name);
    return credentials && c.informers.every((r) => this.isSynced(r));
  }

  /**
   * The controllers' workers: each ready key of each queue is synced once
   * (a key is never synced twice at once; errors requeue rate-limited), once
   * the controller has its credentials and its informers are synced.
   */
  private runQueues(ctx: ActorContext): void {
    if (!this.isLeader) return;
    let next = Infinity;
    for (const c of this.controllers) {
      const pass = c.loops?.nextAt() ?? null;
      if (pass !== null) next = Math.min(next, this.runPasses(ctx, c, pass));
      // This runs after every informer event, over every controller: one with
      // nothing queued and nothing due has no work, whatever its state (the
      // same outcome as the full pass below, without its checks).
      if (c.queue.len() === 0) {
        const at = c.queue.nextReadyAt();
        if (at === null) continue;
        if (at > ctx.now) {
          if (this.canWork(c)) next = Math.min(next, at);
          continue;
        }
      }
      c.queue.tick(ctx.now);
      if (!this.canWork(c)) {
        if (c.queue.len() > 0) next = Math.min(next, ctx.now + 200);
        continue;
      }
      const cc = this.context(ctx, c);
      for (let guard = 0; guard < 10_000; guard++) {
        const key = c.queue.get(ctx.now);
        if (key === null) break;
        const r = c.sync(key, cc);
        c.queue.done(key, ctx.now);
        if (r.type === 'done') c.queue.forget(key);
        else if (r.type === 'error') c.queue.addRateLimited(key, ctx.now);
        else c.queue.addAfter(key, r.delayMs, ctx.now);
      }
      const at = c.queue.nextReadyAt();
      if (at !== null) next = Math.min(next, at);
    }
    if (next !== Infinity && next !== this.queueTimerAt) {
      if (this.queueTimer >= 0) ctx.cancelTimer(this.queueTimer);
      this.queueTimerAt = next;
      this.queueTimer = ctx.setTimer(Math.max(0, next - ctx.now), 'queues');
    }
  }

  // ---- controllers -----------------------------------------------------------------

  private reconcile(ctx: ActorContext): void {
    if (!this.isLeader) return;
    const ns = this.reflectors.get('namespaces')!;
    const sas = this.reflectors.get('serviceaccounts')!;
    const cms = this.reflectors.get('configmaps')!;
    if (!ns.synced || !sas.synced || !cms.synced) return;
    for (const n of ns.list()) {
      const name = n.metadata.name!;
      const phase = (n.status as { phase?: string } | undefined)?.phase;
      if (n.metadata.deletionTimestamp || phase === 'Terminating') {
        if (!this.terminating.has(name) && this.tokens.has('namespace-controller')) {
          this.terminating.set(name, 0);
          this.continueNamespaceDeletion(ctx, name, 0);
        }
        continue;
      }
      if (sas.store.has(`${name}/default`)) this.inFlight.delete(`sa/${name}`);
      if (cms.store.has(`${name}/kube-root-ca.crt`)) this.inFlight.delete(`cm/${name}`);
      // serviceaccounts-controller (pkg/controller/serviceaccount/serviceaccounts_controller.go)
      if (!sas.store.has(`${name}/default`)) this.create(ctx, 'service-account-controller', `sa/${name}`, `/api/v1/namespaces/${name}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: name } });
      // root-ca-cert-publisher (pkg/controller/certificates/rootcacertpublisher/publisher.go)
      if (!cms.store.has(`${name}/kube-root-ca.crt`)) {
        this.create(ctx, 'root-ca-cert-publisher', `cm/${name}`, `/api/v1/namespaces/${name}/configmaps`, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'kube-root-ca.crt', namespace: name, annotations: { 'kubernetes.io/description': ROOT_CA_DESCRIPTION } },
          data: { 'ca.crt': ROOT_CA_CRT },
        });
      }
    }
  }

  private create(ctx: ActorContext, as: ControllerName, key: string, path: string, obj: KObject): void {
    if (this.inFlight.has(key) || !this.tokens.has(as)) return;
    this.inFlight.add(key);
    this.send(ctx, { method: 'POST', path, query: {}, body: JSON.stringify(obj) }, { kind: 'write', key }, as);
  }

  /**
   * The namespace controller's deletion (pkg/controller/namespace/deletion):
   * delete every namespaced collection, then remove the `kubernetes` finalizer
   * through /finalize, after which the registry removes the namespace.
   */
  private continueNamespaceDeletion(ctx: ActorContext, ns: string, step: number): void {
    const targets = NAMESPACED.filter((r) => r.verbs.includes('deletecollection'));
    if (step < targets.length) {
      const r = targets[step]!;
      const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
      this.terminating.set(ns, step);
      this.send(ctx, { method: 'DELETE', path: `${base}/namespaces/${ns}/${r.resource}`, query: {} }, { kind: 'nsDelete', ns, step }, 'namespace-controller');
      return;
    }
    const nsObj = this.reflectors.get('namespaces')!.store.get(ns);
    if (!nsObj) {
      this.terminating.delete(ns);
      return;
    }
    const spec = (nsObj.spec ?? {}) as { finalizers?: string[] };
    const finalized: KObject = { ...nsObj, apiVersion: apiVersionOf('', 'v1'), kind: 'Namespace', spec: { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== 'kubernetes') } };
    this.send(ctx, { method: 'PUT', path: `/api/v1/namespaces/${ns}/finalize`, query: {}, body: JSON.stringify(finalized) }, { kind: 'nsFinalize', ns }, 'namespace-controller');
  }
}

const NAMESPACED = RESOURCES.filter((r) => r.namespaced && r.storagePrefix && !r.sharesStorageWith);

registerClass('ControllerManager', ControllerManager);
registerActorKind<ControllerManagerConfig, null>({
  kind: CONTROLLER_MANAGER_KIND,
  initDurable: () => null,
  create: (id, config) => new ControllerManager(id, config),
});
