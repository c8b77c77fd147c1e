// The kubelet of one node (`kubelet` actor, id = node name), talking to
// kube-apiserver as system:node:<name> (pkg/kubelet). Its parts live beside
// it, as upstream splits them: registration and node status
// (nodestatus/nodeStatus.ts), the node Lease (nodestatus/lease.ts), the pod
// and node sources (podSource.ts), admission (lifecycle/admission.ts), the pod
// workers and their syncs (pod/), the image manager (images/), the prober
// (prober/), the status manager (status/), the eviction manager (eviction/),
// events (events.ts), and the kubelet's own HTTP server (server/).
//
// Durable and volatile: the container runtime (runtime/runtime.ts, containerd
// and the machine) is the node's durable state, so when the kubelet process
// crashes and restarts, running containers keep running and the new kubelet
// finds them and carries on; everything here (pod workers, probe results,
// back-offs, caches) is the process's and starts afresh. A lost node powers the
// runtime off (`loseNode`): nothing runs until it boots again, and then its
// pods' sandboxes are re-created.
import type { Actor, ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerActorKind } from '../sim/kernel';
import type { Rng } from '../sim/rng';
import { registerClass } from '../sim/serial';
import type { KObject } from '../apimachinery/types';
import type { HttpCancelMsg, HttpChunkMsg, HttpDataMsg, HttpRequestMsg, HttpResponseMsg } from '../apiserver/http/messages';
import { Reflector } from '../client/reflector';
import type { Node, Pod } from '../scheduler/framework/api';
import { Backoff } from './backoff';
import { apiRequest, KUBELET_RATE_LIMITS, type Purpose } from './client';
import { Transport, TRANSPORT_TIMERS } from '../client/transport';
import { applyIptablesSync, kubeletIptables } from './network/iptables';
import type { IptablesSyncMsg } from '../kubeproxy/messages';
import { KUBELET_KIND, LEASE_JITTER, LEASE_RENEW_MS, NODE_STATUS_UPDATE_MS, RETRY_MS, type KubeletConfig } from './config';
import { flushEvents, onEventAnswer, sendEventWrite, type EventWrite, type KubeletEvent } from './events';
import { newEventCorrelator, type EventCorrelatorState } from '../client/eventCorrelator';
import { hex } from './ids';
import { createLease, onLeaseNode, renewLease } from './nodestatus/lease';
import { allocatableOf, initialNode, onRegistered, register, syncNodeStatus } from './nodestatus/nodeStatus';
import { ObjectCache } from './pod/objects';
import { dispatch } from './pod/podWorkers';
import type { PodWorker } from './pod/worker';
import { listNode, listPods, listServices, onNodeEvents, onPodEvents, onServicesListed, podQuery, nodeQuery, watchNode, watchPods, watchServices } from './podSource';
import { FakeRuntime } from './runtime/runtime';
import { quantityNumber } from '../scheduler/framework/resources';
import { KubeletServer } from './server/server';
import { EvictionManager } from './eviction/manager';
import { maybeDelete, flushStatus } from './status/statusManager';
import { askToJoin, onJoinAnswer } from './join';
import { onCorednsView, reconcileProcesses } from './network/processes';
import type { CorednsViewMsg } from '../coredns/server';
import { flushPodNetwork, hostReceive, NET_TIMERS, onPodConnect, onPodConnectReply, podNetworkTimer, startPodNetwork, type PodConnectMsg, type PodConnectReplyMsg } from './network/podNetwork';

/** Boot ids by seed (see Kubelet.bootId). */
const bootIds = new Map<number, string>();

export * from './config';

/** nodeStatusUpdateRetry (kubelet.go) and the lease controller's maxUpdateRetries. */
const HEARTBEAT_RETRIES = 5;

/** What survives the kubelet process: the machine's container runtime. */
export interface KubeletDurable {
  runtime: FakeRuntime | null;
  /** The machine has joined the cluster (join.ts): its kubelet starts at once from then on. */
  joined?: boolean;
}

export class Kubelet implements Actor {
  readonly pods = new Reflector('/api/v1/pods');
  readonly node = new Reflector('/api/v1/nodes');
  /** Every Service (the kubelet's service informer: containers' Service environment variables). */
  readonly services = new Reflector('/api/v1/services');
  readonly workers = new Map<string, PodWorker>();
  readonly crashBackoff = new Backoff();
  readonly pullBackoff = new Backoff();
  readonly objects = new ObjectCache();
  readonly requests = new Map<number, Purpose>();
  nextReq = 1;
  /** The kubelet's connection to kube-apiserver (health check, rate limits). */
  readonly transport: Transport;
  registered = false;
  /** The start-up events (Starting kubelet., the condition events) were recorded. */
  announced = false;
  /** The boot id the Node in the API had was compared with this boot's (the Rebooted event). */
  bootChecked = false;
  /** When the node status was last PATCHed (nodeStatusReportFrequency counts from it). */
  lastNodeReportAt = -Infinity;
  nodeStatusInFlight = false;
  readonly transitions = new Map<string, string>();
  lease: KObject | null = null;
  leaseInFlight = false;
  /** Renewals (for the UI and tests): virtual times the lease write succeeded. */
  readonly leaseRenewals: number[] = [];
  /** Events recorded, waiting to be POSTed. */
  readonly outbox: KubeletEvent[] = [];
  /** The event correlator's memory: repeats become count bumps, floods are cut. */
  readonly events: EventCorrelatorState = newEventCorrelator();
  eventSeq = 0;
  readonly machineId: string;
  readonly runtime: FakeRuntime;
  readonly server: KubeletServer;
  readonly eviction: EvictionManager;
  /** When this kubelet process started (the prober spreads its first probes after a start). */
  startedAt: number;
  /** The timer that wakes the kubelet for a container's next connection out, and its time. */
  netWakeTimer: number | null = null;
  netWakeAt = Infinity;
  /** When that timer last fired. */
  netWokeAt = -Infinity;

  constructor(
    readonly id: ActorId,
    readonly config: KubeletConfig,
    readonly rng: Rng,
    now: number,
    private readonly durable: KubeletDurable,
    private readonly seed: number,
  ) {
    this.machineId = hex(seed, 'machine');
    this.startedAt = now;
    // containerd is its own process: it is there before the kubelet and outlives it. It lives in the
    // node's durable slot rather than being written through persist(): nothing of it goes through the kubelet's disk.
    durable.runtime ??= new FakeRuntime(
      { cpuMilli: quantityNumber(config.capacity.cpu, true), podCIDR: config.podCIDR, nodeIP: config.internalIP, nodeName: config.nodeName, bandwidthBytesPerSec: config.imageBandwidthBytesPerSec, images: config.images ?? [] },
      seed,
      now,
    );
    this.runtime = durable.runtime;
    this.runtime.powerOn(now);
    this.transport = new Transport(config.server, KUBELET_RATE_LIMITS, now);
    this.server = new KubeletServer();
    this.eviction = new EvictionManager();
  }

  get nodeName(): string {
    return this.config.nodeName;
  }

  /** The boot id changes with every boot of the machine. */
  get bootId(): string {
    // Read on every status sync: the hex of a boot is kept (a pure function of the seed and boot count).
    const seed = this.seed + this.runtime.boots * 7919;
    let id = bootIds.get(seed);
    if (id === undefined) bootIds.set(seed, (id = hex(seed, 'boot')));
    return id;
  }

  /** The node's allocatable resources (capacity less the eviction thresholds). */
  allocatable(): { cpuMilli: number; memoryBytes: number } {
    const a = allocatableOf(this.config.capacity);
    return { cpuMilli: quantityNumber(a.cpu, true), memoryBytes: quantityNumber(a.memory, false) };
  }

  /** The kubelet's Node, as its node informer has it (or as it registered it, before the first answer). */
  nodeObject(): Node {
    return (this.node.store.get(this.nodeName) as Node | undefined) ?? (initialNode(this, this.runtime.at) as Node);
  }

  podsByUid(uid: string): Pod | undefined {
    for (const p of this.pods.store.values()) if (p.metadata.uid === uid) return p as Pod;
    return undefined;
  }

  // ---- plumbing ---------------------------------------------------------------------

  start(ctx: ActorContext): void {
    // The machine is on the pod network from boot (its route, its containers' connections).
    startPodNetwork(this, ctx);
    if (!this.durable.joined) return askToJoin(this, ctx);
    this.startKubelet(ctx);
  }

  /** The control plane answered: the machine has joined, and its kubelet starts. */
  joined(ctx: ActorContext): void {
    this.durable.joined = true;
    this.startedAt = ctx.now;
    this.startKubelet(ctx);
  }

  private startKubelet(ctx: ActorContext): void {
    kubeletIptables(this.runtime.netfilter);
    register(this, ctx);
    // NewMainKubelet starts the service informer at once, before registration completes.
    listServices(this, ctx);
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    this.handle(ctx, from, p);
    flushPodNetwork(this, ctx);
    reconcileProcesses(this, ctx);
  }

  private handle(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (p.type === 'PodConnect') return onPodConnect(this.runtime, { now: ctx.now, send: (to, r) => ctx.send(to, r), podRouteOf: (ip) => ctx.podRouteOf(ip) }, from, p as unknown as PodConnectMsg);
    if (p.type === 'PodConnectReply') return onPodConnectReply(this, ctx, p as unknown as PodConnectReplyMsg);
    if (p.type === 'IptablesSync') return ctx.send(from, applyIptablesSync(this.runtime.netfilter, p as unknown as IptablesSyncMsg));
    if (p.type === 'CorednsView') return onCorednsView(this.runtime, p as unknown as CorednsViewMsg);
    if (p.type === 'HttpRequest') return this.server.serve(this, ctx, from, p as unknown as HttpRequestMsg);
    if (p.type === 'HttpCancel') return this.server.cancel(this, ctx, from, (p as unknown as HttpCancelMsg).reqId);
    if (p.type === 'HttpData') return this.server.data(this, ctx, from, p as unknown as HttpDataMsg);
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
    if (p.type === 'HttpChunk' && purpose.kind === 'svcWatch') {
      if (this.services.onChunk((p as unknown as HttpChunkMsg).chunk) === 'relist') {
        this.requests.delete(reqId);
        listServices(this, ctx);
      }
      return;
    }
    if (p.type === 'HttpEnd' && purpose.kind === 'svcWatch') {
      this.requests.delete(reqId);
      return watchServices(this, ctx);
    }
    const watching = purpose.kind === 'watch' || purpose.kind === 'nodeWatch';
    if (p.type === 'HttpChunk' && watching) {
      const r = purpose.kind === 'watch' ? this.pods : this.node;
      const out = r.onChunk((p as unknown as HttpChunkMsg).chunk);
      if (out === 'relist') {
        this.requests.delete(reqId);
        return purpose.kind === 'watch' ? listPods(this, ctx) : listNode(this, ctx);
      }
      return purpose.kind === 'watch' ? onPodEvents(this, ctx, out) : onNodeEvents(this, ctx, out);
    }
    if (p.type === 'HttpEnd' && watching) {
      this.requests.delete(reqId);
      return purpose.kind === 'watch' ? watchPods(this, ctx) : watchNode(this, ctx);
    }
  }

  persisted(): void {}

  refused(ctx: ActorContext, _to: ActorId, p: Payload): void {
    if (this.transport.refused(ctx, p)) return this.failInFlight(ctx);
    const reqId = (p as { reqId?: number }).reqId ?? 0;
    const purpose = this.requests.get(reqId);
    this.requests.delete(reqId);
    if (purpose) this.onResponse(ctx, purpose, 0, '');
  }

  peerReset(ctx: ActorContext, peer: ActorId): void {
    this.server.dropClient(this, ctx, peer);
    if (peer !== this.config.server) return;
    this.transport.close(ctx);
    this.failInFlight(ctx);
  }

  /** The connection closed: what was on it fails (requests still waiting for a token go on the next one). */
  failInFlight(ctx: ActorContext): void {
    for (const [reqId, purpose] of [...this.requests]) {
      // A failure handled below may itself close the connection and fail the rest first.
      if (this.transport.isThrottled(reqId) || !this.requests.has(reqId)) continue;
      this.requests.delete(reqId);
      this.onResponse(ctx, purpose, 0, '');
    }
  }

  /** closeAllConns: a heartbeat failed again, so the kubelet drops its connection and dials anew. */
  closeAllConns(ctx: ActorContext): void {
    this.transport.close(ctx);
    this.failInFlight(ctx);
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    this.onTimer(ctx, tag, data);
    flushPodNetwork(this, ctx);
    reconcileProcesses(this, ctx);
  }

  private onTimer(ctx: ActorContext, tag: string, data: unknown): void {
    if (NET_TIMERS.has(tag)) return podNetworkTimer(this, ctx, tag, data);
    if (TRANSPORT_TIMERS.has(tag)) {
      if (this.transport.timer(ctx, tag, data, this.requests.size > 0)) this.failInFlight(ctx);
      return;
    }
    switch (tag) {
      case 'requestTimeout': {
        // The heartbeat client's Timeout: the request is cancelled and fails.
        const reqId = data as number;
        const purpose = this.requests.get(reqId);
        if (!purpose) return;
        this.requests.delete(reqId);
        this.transport.cancel(ctx, reqId);
        return this.onResponse(ctx, purpose, 0, '');
      }
      case 'register':
        return register(this, ctx);
      case 'join':
        return askToJoin(this, ctx);
      case 'eventRetry':
        return sendEventWrite(this, ctx, data as EventWrite);
      case 'relist':
        return listPods(this, ctx);
      case 'relistNode':
        return listNode(this, ctx);
      case 'relistServices':
        return listServices(this, ctx);
      case 'nodeStatus':
        ctx.setTimer(NODE_STATUS_UPDATE_MS, 'nodeStatus');
        return syncNodeStatus(this, ctx);
      case 'lease':
        renewLease(this, ctx);
        ctx.setTimer(LEASE_RENEW_MS * (1 + LEASE_JITTER * ctx.rng.float()), 'lease');
        return;
      case 'eviction':
        return this.eviction.synchronize(this, ctx);
      case 'pod': {
        const { uid, at } = data as { uid: string; at: number };
        const w = this.workers.get(uid);
        if (!w || w.wakeAt !== at) return;
        w.wakeAt = -1;
        return dispatch(this, ctx, w);
      }
      case 'serve':
        return this.server.timer(this, ctx, data);
    }
  }

  private onResponse(ctx: ActorContext, purpose: Purpose, status: number, body: string): void {
    const ok = status >= 200 && status < 300;
    switch (purpose.kind) {
      case 'join':
        return onJoinAnswer(this, ctx, status);
      case 'register':
        // tryRegisterWithAPIServer: an existing Node is ours to reconcile.
        if (ok || status === 409) return onRegistered(this, ctx);
        ctx.setTimer(7000, 'register');
        return;
      case 'list':
      case 'nodeList': {
        const pods = purpose.kind === 'list';
        const r = pods ? this.pods : this.node;
        const out = r.onList(status, body);
        if (out === 'retry') {
          ctx.setTimer(RETRY_MS, pods ? 'relist' : 'relistNode');
          return;
        }
        const next = r.nextRequest();
        if (next) {
          r.reqId = apiRequest(this, ctx, { method: 'GET', path: next.path, query: pods ? podQuery(this, next.query) : nodeQuery(this, next.query) }, { kind: purpose.kind });
          return;
        }
        if (pods) {
          watchPods(this, ctx);
          return onPodEvents(this, ctx, out, true);
        }
        watchNode(this, ctx);
        return onNodeEvents(this, ctx, out);
      }
      case 'svcList': {
        const wasSynced = this.services.synced;
        const out = this.services.onList(status, body);
        if (out === 'retry') {
          ctx.setTimer(RETRY_MS, 'relistServices');
          return;
        }
        const next = this.services.nextRequest();
        if (next) {
          this.services.reqId = apiRequest(this, ctx, { method: 'GET', path: next.path, query: next.query }, { kind: 'svcList' });
          return;
        }
        watchServices(this, ctx);
        return onServicesListed(this, ctx, !wasSynced);
      }
      case 'watch':
      case 'nodeWatch':
      case 'svcWatch':
        if (!ok) ctx.setTimer(RETRY_MS, purpose.kind === 'watch' ? 'relist' : purpose.kind === 'nodeWatch' ? 'relistNode' : 'relistServices');
        return;
      case 'nodeStatus':
        this.nodeStatusInFlight = false;
        if (ok) {
          this.lastNodeReportAt = ctx.now;
          return;
        }
        return this.heartbeatFailed(ctx, purpose);
      case 'nodeStatusGet':
        this.nodeStatusInFlight = false;
        if (ok) return syncNodeStatus(this, ctx, purpose.attempt, JSON.parse(body) as KObject);
        return this.heartbeatFailed(ctx, { kind: 'nodeStatus', attempt: purpose.attempt });
      case 'leaseGet':
        this.leaseInFlight = false;
        if (status === 404) return createLease(this, ctx);
        if (ok) {
          this.lease = JSON.parse(body) as KObject;
          return renewLease(this, ctx);
        }
        return;
      case 'leaseNode':
        return onLeaseNode(this, ctx, purpose.then, purpose.attempt, ok ? (JSON.parse(body) as KObject) : null);
      case 'leaseWrite':
        this.leaseInFlight = false;
        if (ok) {
          this.lease = JSON.parse(body) as KObject;
          this.leaseRenewals.push(ctx.now);
        } else if (status === 409) this.lease = null; // refetched on the next renewal
        else return this.heartbeatFailed(ctx, purpose);
        return;
      case 'podStatus': {
        const w = this.workers.get(purpose.uid);
        if (!w) return;
        w.patchInFlight = false;
        if (ok) {
          w.lastSent = purpose.body;
          // The API's copy of the status is what later conditions' transition times are kept from.
          const written = JSON.parse(body) as Pod;
          if (written?.metadata?.uid === w.uid) w.pod = { ...w.pod, status: written.status, metadata: { ...w.pod.metadata, resourceVersion: written.metadata.resourceVersion } };
        } else if (status === 404) return;
        flushStatus(this, ctx, w);
        maybeDelete(this, ctx, w);
        return;
      }
      case 'podDelete': {
        const w = this.workers.get(purpose.uid);
        if (w && !ok && status !== 404 && status !== 409) w.deleteSent = false;
        return;
      }
      case 'object': {
        this.objects.answered(purpose.key, ok ? (JSON.parse(body) as KObject) : status === 404 ? null : undefined, ctx.now);
        // Pods waiting on it sync again.
        const [, ns] = purpose.key.split('/');
        for (const w of this.workers.values()) if (w.phase === 'sync' && (w.pod.metadata.namespace ?? 'default') === ns) dispatch(this, ctx, w);
        return;
      }
      case 'event':
        return onEventAnswer(ctx, this, purpose.write, status);
    }
  }

  /**
   * updateNodeStatus and the lease controller's retryUpdateLease: up to 5
   * tries in a row (nodeStatusUpdateRetry, maxUpdateRetries); each failure
   * after the first closes the kubelet's connections (onRepeatedHeartbeatFailure).
   */
  private heartbeatFailed(ctx: ActorContext, purpose: Extract<Purpose, { kind: 'nodeStatus' | 'leaseWrite' }>): void {
    if (purpose.attempt > 0) this.closeAllConns(ctx);
    if (purpose.attempt + 1 >= HEARTBEAT_RETRIES) return;
    if (purpose.kind === 'nodeStatus') return syncNodeStatus(this, ctx, purpose.attempt + 1);
    renewLease(this, ctx, purpose.attempt + 1);
  }

  /** Sends what is queued (events recorded outside a pod sync). */
  flush(ctx: ActorContext): void {
    flushEvents(this, ctx);
  }
}

/**
 * Node loss (the machine is gone): call with the kernel's durable state of
 * the node's actor, after crashing the actor. Every container stops where it
 * is; when the actor is restarted the machine boots again.
 */
export function loseNode(durable: KubeletDurable, now: number): void {
  durable.runtime?.powerOff(now);
}

registerClass('Kubelet', Kubelet);
registerActorKind<KubeletConfig, KubeletDurable>({
  kind: KUBELET_KIND,
  initDurable: () => ({ runtime: null }),
  create: (id, config, durable, env) => {
    // The seed is drawn once per boot of the actor from its own stream; ids derived from it stay stable per node.
    const seed = durable.runtime ? durable.runtime.seed : env.rng.nextU32();
    return new Kubelet(id, config, env.rng, env.now, durable, seed);
  },
  host: { types: new Set(['PodConnect', 'PodConnectReply', 'IptablesSync', 'CorednsView']), receive: (host, durable, from, p) => hostReceive(host, durable.runtime, from, p) },
});
