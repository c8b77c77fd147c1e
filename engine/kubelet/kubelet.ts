// The kubelet of one node (`kubelet` actor, id = node name), talking to
// kube-apiserver as system:node:<name> (pkg/kubelet). Its parts live beside
// it, as upstream splits them: registration and node status
// (nodestatus/nodeStatus.ts, kubelet_node_status.go), the node Lease
// (nodestatus/lease.ts), the pod source watching spec.nodeName=<node>
// (podSource.ts, pkg/kubelet/config), admission (lifecycle/admission.ts,
// lifecycle/predicate.go), pod workers and container starts
// (pod/podWorkers.ts, pod/containers.ts), the image puller
// (images/puller.ts), the prober (prober/), the status manager (status/),
// events (events.ts), the fake runtime's pieces (runtime/) and the kubelet's
// own HTTP server (server/). This file holds the state and routes messages
// and timers to those parts.
import type { Actor, ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerActorKind } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import type { KObject } from '../apimachinery/types';
import { httpMsg, type HttpChunkMsg, type HttpRequestMsg, type HttpResponseMsg } from '../apiserver/http/messages';
import { Reflector } from '../client/reflector';
import { quantityNumber } from '../scheduler/framework/resources';
import { KUBELET_KIND, LEASE_JITTER, LEASE_RENEW_MS, NODE_STATUS_UPDATE_MS, RETRY_MS, type KubeletConfig } from './config';
import { apiRequest, type Purpose } from './client';
import type { BackoffEntry } from './backoff';
import type { KubeletEvent } from './events';
import type { Pull } from './images/puller';
import { lookupImage, parseImage } from './runtime/images';
import type { PodWorker } from './status/generate';
import { flushStatus, maybeDelete } from './status/statusManager';
import { onRegistered, register, syncNodeStatus } from './nodestatus/nodeStatus';
import { createLease, renewLease } from './nodestatus/lease';
import { list, onPodEvents, podQuery, watch } from './podSource';
import { syncPod } from './pod/podWorkers';
import { UsageMeter } from './runtime/meter';
import type { Demand } from './runtime/usage';
import { serveKubelet } from './server/server';
import { hex } from './ids';

export * from './config';

/** What runs outside kubepods (the OS, kubelet, containerd): the usage model's node floor. */
const SYSTEM_USAGE: Demand = { cpuMilli: 40, memory: { baseBytes: 512 * 1024 * 1024, allocBytes: 0, rateBytesPerSec: 0 } };

export class Kubelet implements Actor {
  readonly pods = new Reflector('/api/v1/pods');
  readonly workers = new Map<string, PodWorker>();
  /** Image cache: normalised name → size. */
  readonly images = new Map<string, number>();
  readonly pulls: Pull[] = [];
  pullFreeAt = 0;
  readonly backoff = new Map<string, BackoffEntry>();
  readonly requests = new Map<number, Purpose>();
  nextReq = 1;
  nextContainer = 1;
  registered = false;
  /** The status last sent, without heartbeats, and when. */
  lastNodeStatus = '';
  lastNodeReportAt = -Infinity;
  nodeStatusInFlight = false;
  readonly transitions = new Map<string, string>();
  lease: KObject | null = null;
  leaseInFlight = false;
  /** Renewals (for the UI and tests): virtual times the lease write succeeded. */
  readonly leaseRenewals: number[] = [];
  /** IP allocation within the pod CIDR, round-robin as host-local IPAM. */
  readonly usedIPs = new Set<number>();
  lastIP = 1;
  /** Events recorded, waiting to be POSTed. */
  readonly outbox: KubeletEvent[] = [];
  eventSeq = 0;
  readonly bootId: string;
  readonly machineId: string;
  /** cgroup accounting and cAdvisor's samples: what /metrics/resource serves. */
  readonly meter: UsageMeter;

  constructor(
    readonly id: ActorId,
    readonly config: KubeletConfig,
    seed: number,
    now = 0,
  ) {
    this.meter = new UsageMeter(quantityNumber(config.capacity.cpu, true), SYSTEM_USAGE, now);
    for (const i of config.images ?? []) {
      const ref = parseImage(i);
      const img = lookupImage(ref);
      if (img) this.images.set(ref.full, img.sizeBytes);
    }
    this.bootId = hex(seed, 'boot');
    this.machineId = hex(seed, 'machine');
  }

  get nodeName(): string {
    return this.config.nodeName;
  }

  // ---- plumbing ---------------------------------------------------------------------

  start(ctx: ActorContext): void {
    register(this, ctx);
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (p.type === 'HttpRequest') {
      const m = p as unknown as HttpRequestMsg;
      ctx.send(from, httpMsg.response(m.reqId, serveKubelet(this, m.request, ctx.now)));
      return;
    }
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
      const out = this.pods.onChunk((p as unknown as HttpChunkMsg).chunk);
      if (out === 'relist') {
        this.requests.delete(reqId);
        list(this, ctx);
      } else onPodEvents(this, ctx, out);
      return;
    }
    if (p.type === 'HttpEnd' && purpose.kind === 'watch') {
      this.requests.delete(reqId);
      watch(this, ctx);
    }
  }

  persisted(): void {}

  refused(ctx: ActorContext, _to: ActorId, p: Payload): void {
    const reqId = (p as { reqId?: number }).reqId ?? 0;
    const purpose = this.requests.get(reqId);
    this.requests.delete(reqId);
    if (purpose) this.failed(ctx, purpose);
  }

  peerReset(ctx: ActorContext, peer: ActorId): void {
    if (peer !== this.config.server) return;
    for (const [reqId, purpose] of [...this.requests]) {
      this.requests.delete(reqId);
      this.failed(ctx, purpose);
    }
  }

  private failed(ctx: ActorContext, purpose: Purpose): void {
    this.onResponse(ctx, purpose, 0, '');
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    switch (tag) {
      case 'register':
        return register(this, ctx);
      case 'relist':
        return list(this, ctx);
      case 'nodeStatus':
        ctx.setTimer(NODE_STATUS_UPDATE_MS, 'nodeStatus');
        return syncNodeStatus(this, ctx);
      case 'lease':
        renewLease(this, ctx);
        ctx.setTimer(LEASE_RENEW_MS * (1 + LEASE_JITTER * ctx.rng.float()), 'lease');
        return;
      case 'pod': {
        const { uid, at } = data as { uid: string; at: number };
        const w = this.workers.get(uid);
        if (!w || w.wakeAt !== at) return;
        w.wakeAt = -1;
        return syncPod(this, ctx, w);
      }
    }
  }

  private onResponse(ctx: ActorContext, purpose: Purpose, status: number, body: string): void {
    const ok = status >= 200 && status < 300;
    switch (purpose.kind) {
      case 'register':
        // tryRegisterWithAPIServer: an existing Node is ours to reconcile.
        if (ok || status === 409) return onRegistered(this, ctx);
        ctx.setTimer(7000, 'register');
        return;
      case 'list': {
        const out = this.pods.onList(status, body);
        if (out === 'retry') {
          ctx.setTimer(RETRY_MS, 'relist');
          return;
        }
        const next = this.pods.nextRequest();
        if (next) {
          this.pods.reqId = apiRequest(this, ctx, { method: 'GET', path: next.path, query: podQuery(this, next.query) }, { kind: 'list' });
          return;
        }
        watch(this, ctx);
        return onPodEvents(this, ctx, out);
      }
      case 'watch':
        if (!ok) ctx.setTimer(RETRY_MS, 'relist');
        return;
      case 'nodeStatus':
        this.nodeStatusInFlight = false;
        if (ok) this.lastNodeStatus = purpose.body;
        return;
      case 'leaseGet':
        this.leaseInFlight = false;
        if (status === 404) return createLease(this, ctx);
        if (ok) {
          this.lease = JSON.parse(body) as KObject;
          return renewLease(this, ctx);
        }
        return;
      case 'leaseWrite':
        this.leaseInFlight = false;
        if (ok) {
          this.lease = JSON.parse(body) as KObject;
          this.leaseRenewals.push(ctx.now);
        } else if (status === 409) this.lease = null; // refetched on the next renewal
        return;
      case 'podStatus': {
        const w = this.workers.get(purpose.uid);
        if (!w) return;
        w.patchInFlight = false;
        if (ok) w.lastSent = purpose.body;
        else if (status === 404) return;
        flushStatus(this, ctx, w);
        maybeDelete(this, ctx, w);
        return;
      }
      case 'podDelete': {
        const w = this.workers.get(purpose.uid);
        if (!w) return;
        w.deleteInFlight = false;
        if (!ok && status !== 404 && status !== 409) w.deleteSent = false;
        return;
      }
      case 'event':
        return;
    }
  }
}

registerClass('Kubelet', Kubelet);
registerActorKind<KubeletConfig, null>({
  kind: KUBELET_KIND,
  initDurable: () => null,
  create: (id, config, _durable, env) => new Kubelet(id, config, env.rng.nextU32(), env.now),
});
