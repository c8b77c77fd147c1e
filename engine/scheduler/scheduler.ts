// kube-scheduler (`kube-scheduler-0`, …): informers on pods, nodes and the
// objects plugins read; a scheduling queue; one scheduling cycle at a time
// (schedule_one.go), then an asynchronous binding cycle through REST
// (PreBind calls, the pods/binding POST); events through events.k8s.io/v1;
// the PodScheduled condition and nominatedNodeName through pods/status.
// Only the replica holding the kube-system/kube-scheduler Lease schedules.
import type { Actor, ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerActorKind } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import type { KObject } from '../apimachinery/types';
import type { ApiRequest } from '../apiserver/types';
import { serveComponentHealth } from '../apiserver/http/healthz';
import { httpMsg, type HttpChunkMsg, type HttpResponseMsg } from '../apiserver/http/messages';
import { CLIENT_CERT_HEADER } from '../apiserver/auth/authn';
import { rfc3339 } from '../apiserver/http/time';
import { Reflector, type ReflectorEvent } from '../client/reflector';
import { CoreEventRecorder, coreEventWrite } from '../controllers/framework/events';
import { LeaderElector, type LeaderElectionEvent, type LeaderElectionPlan } from '../client/leaderElection';
import { Transport, TRANSPORT_TIMERS } from '../client/transport';
import { podKey, type Node, type Pod, DEFAULT_SCHEDULER_NAME } from './framework/api';
import { CycleState } from './framework/cycleState';
import type { ApiAction, ClusterEvent, ListedResource } from './framework/interface';
import { PodInfo } from './framework/podInfo';
import type { Framework } from './framework/runtime';
import { message, type Status } from './framework/status';
import { SchedulerCache } from './cache/cache';
import { SchedulerHandle } from './handle';
import { emptyRecord, fitErrorMessage, NO_NODES_AVAILABLE, schedulePod, type Diagnosis } from './algorithm';
import { DecisionLog } from './records/decisionLog';
import type { DecisionRecord } from './records/types';
import { EventRecorder, SERIES_FINISH_MS, SERIES_REFRESH_MS, type EventSpec } from './eventRecorder';
import { afterEventAnswer, eventRequest, type EventWrite } from '../client/eventSink';
import { buildProfiles, type SchedulerSetup } from './profiles';
import { PriorityQueue, nodeUpdateEvents, podUpdateEvents, type QueuedPodInfo } from './queue';

export const SCHEDULER_KIND = 'kube-scheduler';

export interface SchedulerActorConfig {
  server: ActorId;
  /** KubeSchedulerConfiguration (YAML/JSON) to start with; the default when absent. */
  configText?: string;
}

/** Virtual cost of a scheduling cycle: a fixed part and a part per node evaluated (real schedulers take ~1–5 ms at 5,000 nodes). */
const CYCLE_BASE_MS = 0.2;
const CYCLE_PER_NODE_MS = 0.002;
/** flushBackoffQCompleted runs every second, flushUnschedulablePodsLeftover every 30 s. */
const BACKOFF_FLUSH_MS = 1000;
const UNSCHEDULABLE_FLUSH_MS = 30_000;

/** Informers beyond pods and nodes, and the event resource each one's changes are. */
const LISTED: { name: ListedResource; path: string; resource: ClusterEvent['resource'] | null }[] = [
  { name: 'namespaces', path: '/api/v1/namespaces', resource: 'Namespace' },
  { name: 'services', path: '/api/v1/services', resource: null },
  { name: 'replicationcontrollers', path: '/api/v1/replicationcontrollers', resource: null },
  { name: 'replicasets', path: '/apis/apps/v1/replicasets', resource: null },
  { name: 'statefulsets', path: '/apis/apps/v1/statefulsets', resource: null },
  { name: 'persistentvolumes', path: '/api/v1/persistentvolumes', resource: 'PersistentVolume' },
  { name: 'persistentvolumeclaims', path: '/api/v1/persistentvolumeclaims', resource: 'PersistentVolumeClaim' },
  { name: 'storageclasses', path: '/apis/storage.k8s.io/v1/storageclasses', resource: 'StorageClass' },
  { name: 'csinodes', path: '/apis/storage.k8s.io/v1/csinodes', resource: 'CSINode' },
  { name: 'csidrivers', path: '/apis/storage.k8s.io/v1/csidrivers', resource: 'CSIDriver' },
  { name: 'csistoragecapacities', path: '/apis/storage.k8s.io/v1/csistoragecapacities', resource: 'CSIStorageCapacity' },
  { name: 'poddisruptionbudgets', path: '/apis/policy/v1/poddisruptionbudgets', resource: null },
];

type Purpose =
  | { kind: 'list' | 'watch'; informer: string }
  | { kind: 'lease'; seq: number }
  | { kind: 'write'; what: string }
  /** An Event write (both recorders), with client-go's fallback and retries (client/eventSink). */
  | { kind: 'event'; write: EventWrite }
  | { kind: 'binding'; uid: string; step: 'preBind' | 'bind' };

/** A pod between its scheduling cycle and the end of its binding. */
interface BindingJob {
  uid: string;
  qpi: QueuedPodInfo;
  assumed: Pod;
  nodeName: string;
  profile: string;
  state: CycleState;
  cycle: number;
  /** PreBind calls still to make, then the Bind calls. */
  preBind: ApiAction[];
  waitingPlugins: string[];
  bind: ApiAction[];
  bindPlugin: string;
  phase: 'preBind' | 'waitPreBind' | 'bind';
  startedAt: number;
}

export interface SchedulerStats {
  cycles: number;
  scheduled: number;
  unschedulable: number;
  errors: number;
  bindings: number;
  bindFailures: number;
}

export class KubeScheduler implements Actor {
  informers!: Map<string, Reflector>;
  cache!: SchedulerCache;
  handle!: SchedulerHandle;
  setup!: SchedulerSetup;
  queue!: PriorityQueue;
  elector!: LeaderElector;
  readonly decisions = new DecisionLog();
  readonly stats: SchedulerStats = { cycles: 0, scheduled: 0, unschedulable: 0, errors: 0, bindings: 0, bindFailures: 0 };
  private readonly recorders = new Map<string, EventRecorder>();
  /** The legacy core/v1 recorder leader election writes through. */
  private readonly leaderEvents = new CoreEventRecorder('kube-scheduler');
  private readonly requests = new Map<number, Purpose>();
  /** The connection to kube-apiserver and the clients' rate limiters. */
  transport!: Transport;
  private readonly binding = new Map<string, BindingJob>();
  private nextReq = 1;
  private cycle = 0;
  private nextStartNodeIndex = { nextStartNodeIndex: 0 };
  /** A scheduling step is queued (timer set). */
  private loopArmed = false;
  private electorTimer = -1;
  private electorWakeAt = -1;
  private periodicArmed = false;
  private loopTimer = -1;
  /** Process starts (a lost lease makes kube-scheduler exit and come back). */
  incarnation = 0;
  /** The configuration text in force (for GET). */
  configText: string;

  constructor(
    readonly id: ActorId,
    readonly config: SchedulerActorConfig,
    private readonly seed: number,
  ) {
    this.configText = config.configText ?? '';
    this.init();
  }

  /** Everything a kube-scheduler process builds at start-up from its configuration. */
  private init(): void {
    this.informers = new Map();
    const stores = new Map<string, Map<string, KObject>>();
    this.informers.set('pods', new Reflector('/api/v1/pods'));
    this.informers.set('nodes', new Reflector('/api/v1/nodes'));
    for (const l of LISTED) {
      const r = new Reflector(l.path);
      this.informers.set(l.name, r);
      stores.set(l.name, r.store);
    }
    this.cache = new SchedulerCache();
    // The handle asks this actor for nominated pods (the queue's nominator).
    this.handle = new SchedulerHandle(this.cache, stores, this, (this.seed + this.incarnation * 0x9e3779b9) >>> 0);
    const built = buildProfiles(this.configText || undefined, this.handle);
    if (!built.ok) throw new Error(`kube-scheduler: invalid configuration: ${built.error}`);
    this.setup = built.setup;
    this.configText = built.setup.text;
    this.queue = this.newQueue();
    this.elector = this.newElector();
    // createClients: the scheduler's client, the event client and the leader-election client,
    // each with its own rate limiter at clientConnection's qps and burst.
    const { qps, burst } = this.setup.config.raw.clientConnection;
    const limit = { qps, burst };
    this.transport = new Transport(this.config.server, { main: limit, events: limit, 'leader-election': limit });
    this.nextStartNodeIndex = { nextStartNodeIndex: 0 };
    this.loopArmed = false;
    this.loopTimer = -1;
    this.electorTimer = -1;
    this.electorWakeAt = -1;
  }

  /** The nominator, for the handle (kept a method so the handle holds no closure). */
  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.queue.nominatedPodsForNode(nodeName);
  }

  private newQueue(): PriorityQueue {
    const s = this.setup;
    return new PriorityQueue({
      queueSort: s.queueSort,
      preEnqueue: s.preEnqueue,
      enqueueExtensions: s.enqueueExtensions,
      podInitialBackoffMs: s.config.podInitialBackoffSeconds * 1000,
      podMaxBackoffMs: s.config.podMaxBackoffSeconds * 1000,
      podMaxInUnschedulablePodsDurationMs: 5 * 60_000,
    });
  }

  private newElector(): LeaderElector {
    const le = this.setup.config.leaderElection;
    return new LeaderElector({
      name: le.resourceName,
      namespace: le.resourceNamespace,
      // hostname_uuid, a new uuid each start (the handle's seed moves with the incarnation).
      identity: `${this.id}_${uuidFrom(this.handle.random.fork('identity'))}`,
      leaseDurationMs: le.leaseDurationMs,
      renewDeadlineMs: le.renewDeadlineMs,
      retryPeriodMs: le.retryPeriodMs,
    });
  }

  get isLeader(): boolean {
    return !this.setup.config.leaderElection.leaderElect || this.elector.isLeader;
  }

  get synced(): boolean {
    for (const r of this.informers.values()) if (!r.synced) return false;
    return true;
  }

  // ---- lifecycle --------------------------------------------------------------------

  start(ctx: ActorContext): void {
    this.handle.nowMs = ctx.now;
    for (const name of this.informers.keys()) this.list(ctx, name);
    if (this.setup.config.leaderElection.leaderElect) this.applyElection(ctx, this.elector.run(ctx.now));
    if (!this.periodicArmed) {
      this.periodicArmed = true;
      ctx.setTimer(BACKOFF_FLUSH_MS, 'flushBackoff');
      ctx.setTimer(UNSCHEDULABLE_FLUSH_MS, 'flushUnschedulable');
      ctx.setTimer(SERIES_FINISH_MS, 'eventSeries');
      ctx.setTimer(SERIES_REFRESH_MS, 'eventRefresh');
    }
  }

  private send(ctx: ActorContext, req: Omit<ApiRequest, 'headers'>, purpose: Purpose, contentType?: string, client = 'main'): number {
    const reqId = this.nextReq++;
    this.requests.set(reqId, purpose);
    const full: ApiRequest = {
      ...req,
      headers: {
        [CLIENT_CERT_HEADER]: 'CN=system:kube-scheduler',
        accept: 'application/json',
        'user-agent': 'kube-scheduler/v1.32.0 (linux/amd64) kubernetes/70d3cc9/scheduler',
        ...(req.body !== undefined ? { 'content-type': contentType ?? 'application/json' } : {}),
      },
    };
    // client-go never rate-limits a watch (rest/request.go Watch).
    this.transport.send(ctx, httpMsg.request(reqId, full), purpose.kind === 'watch' ? undefined : purpose.kind === 'lease' ? 'leader-election' : client);
    // The leader-election client's Timeout is the renew deadline.
    if (purpose.kind === 'lease') ctx.setTimer(this.setup.config.leaderElection.renewDeadlineMs, 'requestTimeout', reqId);
    return reqId;
  }

  private sendAction(ctx: ActorContext, a: ApiAction, purpose: Purpose): number {
    // Events go through the event client (its own rate limiter).
    const client = /\/events(\/|$)/.test(a.path) ? 'events' : 'main';
    return this.send(ctx, { method: a.method, path: a.path, query: {}, ...(a.body !== undefined ? { body: JSON.stringify(a.body) } : {}) }, purpose, a.contentType, client);
  }

  private list(ctx: ActorContext, name: string): void {
    const r = this.informers.get(name)!;
    const q = r.listRequest();
    r.reqId = this.send(ctx, { method: 'GET', path: q.path, query: this.informerQuery(name, q.query) }, { kind: 'list', informer: name });
  }

  private watch(ctx: ActorContext, name: string): void {
    const r = this.informers.get(name)!;
    const q = r.watchRequest();
    r.reqId = this.send(ctx, { method: 'GET', path: q.path, query: this.informerQuery(name, q.query) }, { kind: 'watch', informer: name });
  }

  /** The scheduler's pod informer skips finished pods (scheduler.go NewInformerFactory). */
  private informerQuery(name: string, q: Record<string, string>): Record<string, string> {
    return name === 'pods' ? { ...q, fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' } : q;
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (serveComponentHealth(ctx, from, p)) return;
    this.handle.nowMs = ctx.now;
    if (this.transport.receive(ctx, from, p)) return;
    const reqId = (p as { reqId?: number }).reqId ?? 0;
    const purpose = this.requests.get(reqId);
    if (!purpose) return;
    if (p.type === 'HttpResponse') {
      const m = p as unknown as HttpResponseMsg;
      if (!m.streaming) this.requests.delete(reqId);
      this.onResponse(ctx, purpose, m.response.status, m.response.body);
      return;
    }
    if (p.type === 'HttpChunk' && purpose.kind === 'watch') {
      const r = this.informers.get(purpose.informer)!;
      const out = r.onChunk((p as unknown as HttpChunkMsg).chunk);
      if (out === 'relist') {
        this.requests.delete(reqId);
        this.list(ctx, purpose.informer);
      } else this.onEvents(ctx, purpose.informer, out);
      return;
    }
    if (p.type === 'HttpEnd' && purpose.kind === 'watch') {
      this.requests.delete(reqId);
      this.watch(ctx, purpose.informer);
    }
  }

  private onResponse(ctx: ActorContext, purpose: Purpose, status: number, body: string): void {
    switch (purpose.kind) {
      case 'list': {
        const r = this.informers.get(purpose.informer)!;
        const wasSynced = this.synced;
        const out = r.onList(status, body);
        if (out === 'retry') {
          ctx.setTimer(1000, 'relist', purpose.informer);
          return;
        }
        const next = r.nextRequest();
        if (next) {
          r.reqId = this.send(ctx, { method: 'GET', path: next.path, query: this.informerQuery(purpose.informer, next.query) }, { kind: 'list', informer: purpose.informer });
          return;
        }
        this.watch(ctx, purpose.informer);
        this.onEvents(ctx, purpose.informer, out);
        if (!wasSynced && this.synced) this.kick(ctx);
        return;
      }
      case 'watch':
        if (status !== 200) ctx.setTimer(1000, 'relist', purpose.informer);
        return;
      case 'lease':
        this.applyElection(ctx, this.elector.onResponse(ctx.now, purpose.seq, status, body));
        return;
      case 'write':
        return;
      case 'event':
        return this.onEventAnswer(ctx, purpose.write, status);
      case 'binding':
        return this.onBindingResponse(ctx, purpose.uid, purpose.step, status, body);
    }
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    this.handle.nowMs = ctx.now;
    if (TRANSPORT_TIMERS.has(tag)) {
      if (this.transport.timer(ctx, tag, data, this.requests.size > 0)) this.failInFlight(ctx);
      return;
    }
    switch (tag) {
      case 'requestTimeout': {
        const purpose = this.requests.get(data as number);
        if (!purpose) return;
        this.requests.delete(data as number);
        this.transport.cancel(ctx, data as number);
        return this.failRequest(ctx, purpose);
      }
      case 'relist':
        return this.list(ctx, data as string);
      case 'schedule':
        this.loopArmed = false;
        this.loopTimer = -1;
        return this.scheduleOne(ctx);
      case 'elector':
        this.electorTimer = -1;
        this.electorWakeAt = -1;
        return this.applyElection(ctx, this.elector.tick(ctx.now));
      case 'flushBackoff':
        ctx.setTimer(BACKOFF_FLUSH_MS, 'flushBackoff');
        this.queue.flushBackoffQCompleted(ctx.now);
        return this.kick(ctx);
      case 'flushUnschedulable':
        ctx.setTimer(UNSCHEDULABLE_FLUSH_MS, 'flushUnschedulable');
        this.queue.flushUnschedulablePodsLeftover(ctx.now);
        return this.kick(ctx);
      case 'eventSeries':
        ctx.setTimer(SERIES_FINISH_MS, 'eventSeries');
        for (const r of this.recorders.values()) for (const w of r.finish(ctx.now)) this.sendEvent(ctx, w);
        return;
      case 'eventRefresh':
        ctx.setTimer(SERIES_REFRESH_MS, 'eventRefresh');
        for (const r of this.recorders.values()) for (const w of r.refresh()) this.sendEvent(ctx, w);
        return;
      case 'eventRetry':
        return this.sendEvent(ctx, data as EventWrite);
      case 'preBindPoll':
        return this.continueBinding(ctx, data as string);
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

  peerReset(ctx: ActorContext, peer: ActorId): void {
    if (peer !== this.config.server) return;
    this.transport.close(ctx);
    this.failInFlight(ctx);
  }

  /** The connection closed: what was on it fails (requests waiting for a token go on the next one). */
  private failInFlight(ctx: ActorContext): void {
    for (const [reqId, purpose] of [...this.requests]) {
      if (this.transport.isThrottled(reqId) || !this.requests.has(reqId)) continue;
      this.requests.delete(reqId);
      this.failRequest(ctx, purpose);
    }
  }

  private failRequest(ctx: ActorContext, purpose: Purpose): void {
    switch (purpose.kind) {
      case 'list':
      case 'watch':
        ctx.setTimer(1000, 'relist', purpose.informer);
        return;
      case 'lease':
        this.applyElection(ctx, this.elector.onResponse(ctx.now, purpose.seq, 0, ''));
        return;
      case 'write':
        return;
      case 'event':
        return this.onEventAnswer(ctx, purpose.write, 0);
      case 'binding':
        return this.onBindingResponse(ctx, purpose.uid, purpose.step, 0, '{"message":"connection refused"}');
    }
  }

  // ---- leader election --------------------------------------------------------------

  private applyElection(ctx: ActorContext, plan: LeaderElectionPlan): void {
    if (plan.request) {
      const r = plan.request;
      this.send(ctx, { method: r.method, path: r.path, query: {}, ...(r.body !== undefined ? { body: r.body } : {}) }, { kind: 'lease', seq: r.seq });
    }
    for (const e of plan.events) this.onElectionEvent(ctx, e);
    const wake = this.elector.nextWakeAt();
    if (wake !== null && wake !== this.electorWakeAt) {
      if (this.electorTimer >= 0) ctx.cancelTimer(this.electorTimer);
      this.electorWakeAt = wake;
      this.electorTimer = ctx.setTimer(Math.max(0, wake - ctx.now), 'elector');
    }
  }

  private onElectionEvent(ctx: ActorContext, e: LeaderElectionEvent): void {
    switch (e.type) {
      case 'OnStartedLeading':
        this.kick(ctx);
        return;
      case 'OnStoppedLeading':
        // kube-scheduler exits when it loses its lease ("leaderelection lost"); it comes back as a fresh process.
        this.restartProcess(ctx);
        return;
      case 'OnNewLeader':
        return;
      case 'RecordEvent': {
        const lease = { apiVersion: e.involvedObject.apiVersion, kind: 'Lease', metadata: { name: e.involvedObject.name, namespace: e.involvedObject.namespace, uid: e.involvedObject.uid, resourceVersion: e.involvedObject.resourceVersion } };
        // Leader election records through the legacy core/v1 recorder, as the first profile's scheduler
        // (cmd/kube-scheduler/app/options: DeprecatedNewLegacyRecorder): events.k8s.io would refuse it without an action.
        const component = this.setup.config.raw.profiles?.[0]?.schedulerName ?? DEFAULT_SCHEDULER_NAME;
        const call = this.leaderEvents.record({ regarding: lease, type: 'Normal', reason: 'LeaderElection', message: e.message }, component, ctx.now);
        if (call) this.sendEvent(ctx, coreEventWrite(call));
        return;
      }
    }
  }

  /** What a restarted kube-scheduler process starts from: nothing but its configuration. */
  private restartProcess(ctx: ActorContext): void {
    for (const [reqId] of this.requests) ctx.send(this.config.server, httpMsg.cancel(reqId));
    this.requests.clear();
    this.binding.clear();
    if (this.electorTimer >= 0) ctx.cancelTimer(this.electorTimer);
    if (this.loopTimer >= 0) ctx.cancelTimer(this.loopTimer);
    this.incarnation++;
    this.init();
    this.start(ctx);
  }

  // ---- informer events --------------------------------------------------------------

  private responsibleFor(pod: Pod): boolean {
    return this.setup.frameworks.has(pod.spec.schedulerName ?? DEFAULT_SCHEDULER_NAME);
  }

  private onEvents(ctx: ActorContext, informer: string, events: ReflectorEvent[]): void {
    if (events.length === 0) return;
    const now = ctx.now;
    for (const ev of events) {
      if (informer === 'pods') this.onPodEvent(ev, now);
      else if (informer === 'nodes') this.onNodeEvent(ev, now);
      else {
        const l = LISTED.find((x) => x.name === informer);
        if (l?.resource) {
          const action = ev.type === 'ADDED' ? 'Add' : ev.type === 'DELETED' ? 'Delete' : 'Update';
          this.queue.moveAllToActiveOrBackoffQueue({ resource: l.resource, actions: [action] }, ev.old ?? (ev.type === 'DELETED' ? ev.object : undefined), ev.type === 'DELETED' ? undefined : ev.object, now);
        }
      }
    }
    // A PreBind waiting for the volume binder may be done now.
    if (informer === 'persistentvolumeclaims' || informer === 'persistentvolumes') for (const uid of this.binding.keys()) this.continueBinding(ctx, uid);
    this.kick(ctx);
  }

  private onPodEvent(ev: ReflectorEvent, now: number): void {
    const pod = ev.object as Pod;
    const old = ev.old as Pod | undefined;
    const assigned = !!pod.spec.nodeName;
    if (ev.type === 'DELETED') {
      if (assigned) {
        this.cache.removePod(pod);
        this.queue.moveAllToActiveOrBackoffQueue({ resource: 'AssignedPod', actions: ['Delete'] }, pod, undefined, now);
      } else {
        this.queue.delete(pod);
        this.cache.forgetPod(pod);
      }
      this.queue.deleteNominatedPodIfExists(pod);
      return;
    }
    if (assigned) {
      if (old && !old.spec.nodeName) {
        // The binding came back through the watch: the pod left the queue for good.
        this.queue.delete(pod);
        this.queue.deleteNominatedPodIfExists(pod);
      }
      if (!old || !old.spec.nodeName) {
        this.cache.addPod(pod);
        this.queue.moveAllToActiveOrBackoffQueue({ resource: 'AssignedPod', actions: ['Add'] }, undefined, pod, now);
      } else {
        this.cache.updatePod(old, pod);
        const actions = podUpdateEvents(old, pod);
        if (actions.length) this.queue.moveAllToActiveOrBackoffQueue({ resource: 'AssignedPod', actions }, old, pod, now);
      }
      return;
    }
    // Unassigned: the queue's, unless another scheduler owns it or it is being bound.
    // A pod being deleted stays queued: the cycle that pops it skips it (skipPodSchedule).
    if (!this.responsibleFor(pod)) {
      if (old) this.queue.delete(pod);
      return;
    }
    if (this.binding.has(pod.metadata.uid!) || this.cache.isAssumedPod(pod)) return;
    if (old && old.metadata.uid === pod.metadata.uid) this.queue.update(old, pod, now);
    else this.queue.add(pod, now);
  }

  private onNodeEvent(ev: ReflectorEvent, now: number): void {
    const node = ev.object as Node;
    if (ev.type === 'DELETED') {
      this.cache.removeNode(node);
      return;
    }
    if (ev.type === 'ADDED' || !ev.old) {
      this.cache.addNode(node);
      this.queue.moveAllToActiveOrBackoffQueue({ resource: 'Node', actions: ['Add'] }, undefined, node, now);
      return;
    }
    const old = ev.old as Node;
    this.cache.updateNode(old, node);
    const actions = nodeUpdateEvents(old, node);
    if (actions.length) this.queue.moveAllToActiveOrBackoffQueue({ resource: 'Node', actions }, old, node, now);
  }

  // ---- the scheduling loop ----------------------------------------------------------

  /** Arms the loop if there may be work (idempotent). */
  private kick(ctx: ActorContext, delay = 0): void {
    if (this.loopArmed || !this.isLeader || !this.synced) return;
    this.loopArmed = true;
    this.loopTimer = ctx.setTimer(delay, 'schedule');
  }

  private recorder(profile: string): EventRecorder {
    let r = this.recorders.get(profile);
    if (!r) this.recorders.set(profile, (r = new EventRecorder(profile, `${profile}-${this.id}`)));
    return r;
  }

  private emit(ctx: ActorContext, profile: string, regarding: KObject, type: 'Normal' | 'Warning', reason: string, action: string, note: string): void {
    this.record(ctx, profile, { regarding, type, reason, action, note });
  }

  private record(ctx: ActorContext, profile: string, e: EventSpec): void {
    for (const w of this.recorder(profile).record(e, ctx.now)) this.sendEvent(ctx, w);
  }

  /** Event writes go through the event client (its own rate limiter). */
  private sendEvent(ctx: ActorContext, write: EventWrite): void {
    const r = eventRequest(write);
    this.send(ctx, { method: r.method, path: r.path, query: {}, body: r.body }, { kind: 'event', write }, r.contentType, 'events');
  }

  private onEventAnswer(ctx: ActorContext, write: EventWrite, status: number): void {
    const next = afterEventAnswer(write, status, () => ctx.rng.float());
    if (next.type === 'send') this.sendEvent(ctx, next.write);
    else if (next.type === 'retry') ctx.setTimer(next.afterMs, 'eventRetry', next.write);
  }

  /** ScheduleOne: pop a pod, run its scheduling cycle, start its binding cycle. */
  private scheduleOne(ctx: ActorContext): void {
    if (!this.isLeader || !this.synced) return;
    const qpi = this.queue.pop(ctx.now);
    if (!qpi) return;
    const pod = qpi.podInfo.pod;
    const profile = pod.spec.schedulerName ?? DEFAULT_SCHEDULER_NAME;
    const fwk = this.setup.frameworks.get(profile);
    if (!fwk || pod.metadata.deletionTimestamp || this.cache.isAssumedPod(pod)) {
      // skipPodSchedule: no profile, being deleted (said in an event), or already assumed.
      if (fwk && pod.metadata.deletionTimestamp) this.emit(ctx, profile, pod, 'Warning', 'FailedScheduling', 'Scheduling', `skip schedule deleting pod: ${pod.metadata.namespace}/${pod.metadata.name}`);
      this.queue.done(pod);
      this.kick(ctx);
      return;
    }
    const cycle = ++this.cycle;
    this.stats.cycles++;
    this.handle.current = fwk;
    const state = new CycleState();
    const rec = emptyRecord(cycle, ctx.now, pod, profile);
    const outcome = schedulePod(fwk, this.cache, state, pod, this.nextStartNodeIndex, this.handle.random, this.setup.config.percentageOfNodesToScore, rec);
    const cost = CYCLE_BASE_MS + CYCLE_PER_NODE_MS * rec.nodes.length;
    switch (outcome.type) {
      case 'scheduled':
        this.decisions.add(rec);
        this.assumeAndBind(ctx, fwk, state, qpi, outcome.node, rec);
        break;
      case 'noNodes': {
        rec.outcome = 'Unschedulable';
        this.decisions.add(rec);
        const d: Diagnosis = { nodeToStatus: new Map(), absentNodesStatus: null, unschedulablePlugins: new Set(), pendingPlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };
        this.handleFailure(ctx, fwk, qpi, { code: 'UnschedulableAndUnresolvable', reasons: [NO_NODES_AVAILABLE] }, d, NO_NODES_AVAILABLE, '', rec);
        break;
      }
      case 'fitError': {
        let nominated = '';
        if (fwk.postFilter.length > 0) {
          const pf = fwk.runPostFilterPlugins(state, pod, outcome.diagnosis.nodeToStatus, outcome.diagnosis.absentNodesStatus);
          outcome.diagnosis.postFilterMsg = message(pf.status);
          rec.postFilter = {
            status: pf.status === null ? 'Success' : pf.status.code === 'Unschedulable' || pf.status.code === 'UnschedulableAndUnresolvable' ? pf.status.code : 'Error',
            message: message(pf.status),
            ...(pf.result?.nominatedNodeName ? { nominatedNodeName: pf.result.nominatedNodeName } : {}),
            ...(pf.result?.candidates ? { candidates: pf.result.candidates } : {}),
            ...(pf.result?.victims ? { victims: pf.result.victims } : {}),
          };
          nominated = pf.result?.nominatedNodeName ?? '';
          for (const a of pf.result?.actions ?? []) {
            if ('event' in a) this.record(ctx, profile, a.event);
            else this.sendAction(ctx, a, { kind: 'write', what: a.description });
          }
        }
        const msg = fitErrorMessage(outcome.numAllNodes, outcome.diagnosis);
        rec.message = msg;
        rec.outcome = 'Unschedulable';
        this.decisions.add(rec);
        this.handleFailure(ctx, fwk, qpi, { code: 'Unschedulable', reasons: [msg] }, outcome.diagnosis, msg, nominated, rec);
        break;
      }
      case 'error':
        rec.outcome = 'Error';
        this.decisions.add(rec);
        this.handleFailure(ctx, fwk, qpi, outcome.status, null, message(outcome.status), '', rec);
        break;
    }
    this.handle.current = null;
    this.loopArmed = true;
    this.loopTimer = ctx.setTimer(cost, 'schedule');
  }

  /** assume + Reserve + Permit, then the binding cycle. */
  private assumeAndBind(ctx: ActorContext, fwk: Framework, state: CycleState, qpi: QueuedPodInfo, nodeName: string, rec: DecisionRecord): void {
    const pod = qpi.podInfo.pod;
    const assumed: Pod = { ...pod, spec: { ...pod.spec, nodeName } };
    this.cache.assumePod(assumed);
    this.queue.deleteNominatedPodIfExists(pod);
    const reserve = fwk.runReservePluginsReserve(state, assumed, nodeName);
    const permit = reserve === null ? fwk.runPermitPlugins(state, assumed, nodeName) : null;
    const failed = reserve ?? permit;
    if (failed) {
      fwk.runReservePluginsUnreserve(state, assumed, nodeName);
      this.cache.forgetPod(assumed);
      rec.outcome = failed.code === 'Error' ? 'Error' : 'Unschedulable';
      // A rejection at Reserve/Permit is a FitError over that one node.
      const d: Diagnosis = { nodeToStatus: new Map([[nodeName, failed]]), absentNodesStatus: null, unschedulablePlugins: new Set(failed.plugin ? [failed.plugin] : []), pendingPlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };
      const msg = failed.code === 'Error' ? message(failed) : fitErrorMessage(1, d);
      rec.outcomeMessage = msg;
      this.handleFailure(ctx, fwk, qpi, failed.code === 'Error' ? failed : { code: failed.code, reasons: [msg] }, failed.code === 'Error' ? null : d, msg, '', rec);
      return;
    }
    this.stats.scheduled++;
    rec.outcome = 'Binding';
    this.queue.done(pod);
    const pre = fwk.runPreBindPlugins(state, assumed, nodeName);
    const bind = 'code' in pre ? null : fwk.runBindPlugins(state, assumed, nodeName);
    const job: BindingJob = {
      uid: pod.metadata.uid!,
      qpi,
      assumed,
      nodeName,
      profile: fwk.profileName,
      state,
      cycle: rec.cycle,
      preBind: 'code' in pre ? [] : pre.actions,
      waitingPlugins: 'code' in pre ? [] : pre.plugins,
      bind: bind && !('code' in bind) ? bind.actions : [],
      bindPlugin: bind && !('code' in bind) ? bind.plugin : '',
      phase: 'preBind',
      startedAt: ctx.now,
    };
    this.binding.set(job.uid, job);
    if ('code' in pre) return this.bindingFailed(ctx, job, pre);
    if (bind && 'code' in bind) return this.bindingFailed(ctx, job, bind.code === 'Skip' ? { code: 'Error', reasons: ['no bind plugin bound the pod'] } : bind);
    this.continueBinding(ctx, job.uid);
  }

  /** Advances a binding: the next PreBind call, the wait for PreBind, then Bind. */
  private continueBinding(ctx: ActorContext, uid: string): void {
    const job = this.binding.get(uid);
    if (!job || this.requestsFor(uid)) return;
    const fwk = this.setup.frameworks.get(job.profile);
    if (!fwk) return this.bindingFailed(ctx, job, { code: 'Error', reasons: [`profile ${job.profile} no longer exists`] });
    if (job.phase === 'preBind') {
      const next = job.preBind.shift();
      if (next) {
        this.sendAction(ctx, next, { kind: 'binding', uid, step: 'preBind' });
        return;
      }
      job.phase = 'waitPreBind';
    }
    if (job.phase === 'waitPreBind') {
      for (const name of job.waitingPlugins) {
        const pl = fwk.preBind.find((p) => p.name === name);
        const s = pl?.preBindDone?.(job.state, job.assumed, job.nodeName) ?? null;
        if (s === 'wait') {
          ctx.setTimer(1000, 'preBindPoll', uid);
          return;
        }
        if (s !== null) return this.bindingFailed(ctx, job, s);
      }
      job.phase = 'bind';
    }
    const next = job.bind.shift();
    if (next) {
      this.sendAction(ctx, next, { kind: 'binding', uid, step: 'bind' });
      return;
    }
    // Bound.
    this.binding.delete(uid);
    this.cache.finishBinding(job.assumed);
    this.stats.bindings++;
    const rec = this.decisions.byCycle(job.cycle);
    if (rec) rec.outcome = 'Scheduled';
    this.emit(ctx, job.profile, job.assumed, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${job.assumed.metadata.namespace}/${job.assumed.metadata.name} to ${job.nodeName}`);
    fwk.runPostBindPlugins(job.state, job.assumed, job.nodeName);
  }

  private requestsFor(uid: string): boolean {
    for (const p of this.requests.values()) if (p.kind === 'binding' && p.uid === uid) return true;
    return false;
  }

  private onBindingResponse(ctx: ActorContext, uid: string, step: 'preBind' | 'bind', status: number, body: string): void {
    const job = this.binding.get(uid);
    if (!job) return;
    if (status >= 200 && status < 300) return this.continueBinding(ctx, uid);
    let msg = `HTTP ${status}`;
    try {
      msg = (JSON.parse(body) as { message?: string }).message ?? msg;
    } catch {
      /* not JSON */
    }
    const plugin = step === 'bind' ? job.bindPlugin : 'PreBind';
    const text = step === 'bind' ? `running Bind plugin "${plugin}": ${msg}` : `running PreBind plugin: ${msg}`;
    this.bindingFailed(ctx, job, { code: 'Error', reasons: [text] });
  }

  private bindingFailed(ctx: ActorContext, job: BindingJob, s: Status): void {
    this.binding.delete(job.uid);
    this.stats.bindFailures++;
    const fwk = this.setup.frameworks.get(job.profile);
    fwk?.runReservePluginsUnreserve(job.state, job.assumed, job.nodeName);
    this.cache.forgetPod(job.assumed);
    const rec = this.decisions.byCycle(job.cycle);
    if (rec) {
      rec.outcome = 'BindingFailed';
      rec.outcomeMessage = message(s);
    }
    if (fwk) this.handleFailure(ctx, fwk, job.qpi, s.code === 'Error' ? s : { code: 'Error', reasons: s.reasons }, null, message(s), '', undefined);
    // Anything waiting on this node's resources may fit now (the assumed pod is gone).
    this.queue.moveAllToActiveOrBackoffQueue({ resource: 'AssignedPod', actions: ['Delete'] }, job.assumed, undefined, ctx.now);
    this.kick(ctx);
  }

  /**
   * handleSchedulingFailure: requeue (unschedulable or back-off), record the
   * nomination, and tell the user — a FailedScheduling event and the
   * PodScheduled=False condition (with nominatedNodeName) through pods/status.
   */
  private handleFailure(ctx: ActorContext, fwk: Framework, qpi: QueuedPodInfo, s: Status, d: Diagnosis | null, msg: string, nominatedNode: string, rec: DecisionRecord | undefined): void {
    const rejected = s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable' || s.code === 'Pending';
    const reason = rejected ? 'Unschedulable' : 'SchedulerError';
    if (rejected) this.stats.unschedulable++;
    else this.stats.errors++;
    qpi.unschedulablePlugins = d ? [...d.unschedulablePlugins] : [];
    qpi.pendingPlugins = d ? [...d.pendingPlugins] : [];
    const pod = qpi.podInfo.pod;
    const cached = this.informers.get('pods')!.store.get(podKey(pod)) as Pod | undefined;
    if (cached && !cached.spec.nodeName && cached.metadata.uid === pod.metadata.uid) {
      qpi.podInfo = new PodInfo(cached);
      this.queue.addUnschedulableIfNotPresent(qpi, this.queue.schedulingCycle, ctx.now, msg, !rejected);
    } else {
      this.queue.done(pod);
    }
    if (nominatedNode) this.queue.addNominatedPod(qpi.podInfo, nominatedNode);
    if (rec) rec.outcomeMessage = msg;
    const target = cached ?? pod;
    this.emit(ctx, fwk.profileName, target, 'Warning', 'FailedScheduling', 'Scheduling', truncateMessage(msg));
    this.updatePodScheduledCondition(ctx, target, reason, msg, nominatedNode);
  }

  /** updatePod: only when the condition or nomination changes. */
  private updatePodScheduledCondition(ctx: ActorContext, pod: Pod, reason: string, msg: string, nominatedNode: string): void {
    const current = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    const nnnChange = nominatedNode !== '' && nominatedNode !== (pod.status?.nominatedNodeName ?? '');
    if (current && current.status === 'False' && current.reason === reason && current.message === msg && !nnnChange) return;
    const transition = current && current.status === 'False' ? current.lastTransitionTime : rfc3339(ctx.now);
    const patch = {
      status: {
        conditions: [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: transition, reason, message: msg }],
        ...(nnnChange ? { nominatedNodeName: nominatedNode } : {}),
      },
    };
    this.send(ctx, { method: 'PATCH', path: `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`, query: {}, body: JSON.stringify(patch) }, { kind: 'write', what: `PodScheduled of ${podKey(pod)}` }, 'application/strategic-merge-patch+json');
  }

  // ---- the playground's controls ----------------------------------------------------

  /** Replaces the running configuration (the playground's live edit); an error string when invalid. */
  setConfig(ctx: ActorContext, text: string): string | null {
    const built = buildProfiles(text, this.handle);
    if (!built.ok) return built.error;
    const pending = this.queue.allPods();
    this.setup = built.setup;
    this.configText = built.setup.text;
    this.queue = this.newQueue();
    for (const p of pending) if (this.responsibleFor(p)) this.queue.add(p, ctx.now);
    this.kick(ctx);
    return null;
  }
}

/** truncateMessage: events notes are limited to 1024 bytes. */
function truncateMessage(msg: string): string {
  const max = 1024;
  if (msg.length <= max) return msg;
  const suffix = ' ...';
  return msg.slice(0, max - suffix.length) + suffix;
}

registerClass('KubeScheduler', KubeScheduler);
registerActorKind<SchedulerActorConfig, null>({
  kind: SCHEDULER_KIND,
  initDurable: () => null,
  create: (id, config, _durable, env) => new KubeScheduler(id, config, env.rng.nextU32()),
});

/** A version-4 UUID from four draws of a seeded generator. */
function uuidFrom(r: { nextU32(): number }): string {
  const w = [r.nextU32(), r.nextU32(), r.nextU32(), r.nextU32()];
  w[1] = (w[1]! & 0xffff0fff) | 0x4000; // version 4
  w[2] = (w[2]! & 0x3fffffff) | 0x80000000; // RFC 4122 variant
  const hex = w.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
