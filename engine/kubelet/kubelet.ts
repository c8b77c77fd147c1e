// The kubelet of one node (`kubelet` actor, id = node name), talking to
// kube-apiserver as system:node:<name> (pkg/kubelet): it registers its Node
// (kubelet_node_status.go), reports status every nodeStatusUpdateFrequency
// (10 s, a PATCH only on change or every nodeStatusReportFrequency 5 min),
// renews its Lease in kube-node-lease every 10 s (nodelease controller,
// duration 40 s), watches its pods (spec.nodeName=<node>), admits them
// (lifecycle/predicate.go), runs them in a fake runtime (serialized image
// pulls from images.ts, sandbox + IP from podCIDR, containers), reports their
// status through pods/<name>/status (status_manager.go) and, once a deleted
// pod's containers are gone, deletes it with gracePeriodSeconds=0.
import type { Actor, ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerActorKind } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import type { KObject } from '../apimachinery/types';
import type { ApiRequest } from '../apiserver/types';
import { httpMsg, type HttpChunkMsg, type HttpResponseMsg } from '../apiserver/http/messages';
import { CLIENT_CERT_HEADER } from '../apiserver/auth/authn';
import { rfc3339, rfc3339Micro, SIM_EPOCH_MS } from '../apiserver/http/time';
import { Reflector, type ReflectorEvent } from '../client/reflector';
import type { Pod } from '../scheduler/framework/api';
import { podRequests, quantityNumber } from '../scheduler/framework/resources';
import { behaviourOf, imageDigest, lookupImage, parseImage, type Behaviour } from './images';
import { podStatusFor, type ContainerRt, type PodWorker } from './status';
import { newProbeState, probeName, runProbe, type ProbeKind, type ProbeSpec } from './probes';
import { UsageMeter } from './runtime/meter';
import { demandOf, oomAfterMs, processArgv, type Demand } from './runtime/usage';
import { serveKubelet } from './server/server';
import type { HttpRequestMsg } from '../apiserver/http/messages';

type ContainerSpec = Pod['spec']['containers'][number] & {
  command?: string[];
  args?: string[];
  imagePullPolicy?: string;
  startupProbe?: ProbeSpec;
  readinessProbe?: ProbeSpec;
  livenessProbe?: ProbeSpec;
};

export const KUBELET_KIND = 'kubelet';
export const KUBELET_VERSION = 'v1.32.0';
export const CONTAINER_RUNTIME_VERSION = 'containerd://1.7.24';

export interface KubeletCapacity {
  cpu: string;
  memory: string;
  pods: string;
  'ephemeral-storage': string;
}

export interface KubeletConfig {
  server: ActorId;
  nodeName: string;
  capacity: KubeletCapacity;
  labels?: Record<string, string>;
  /** e.g. 10.244.1.0/24 */
  podCIDR: string;
  internalIP: string;
  imageBandwidthBytesPerSec: number;
  /** Images present at boot (normalised or not). */
  images?: string[];
}

/** Upstream defaults (KubeletConfiguration, nodelease). */
export const NODE_STATUS_UPDATE_MS = 10_000;
export const NODE_STATUS_REPORT_MS = 5 * 60_000;
export const LEASE_DURATION_S = 40;
/** renewInterval = leaseDuration * 0.25, run with JitterUntil(0.04). */
export const LEASE_RENEW_MS = 10_000;
const LEASE_JITTER = 0.04;
/** Image pull and crash-loop back-off: 10 s doubling to 300 s, forgotten after 2×max idle. */
export const BACKOFF_INITIAL_MS = 10_000;
export const BACKOFF_MAX_MS = 300_000;
/** Virtual durations of runtime steps. */
const SANDBOX_MS = 500;
const CREATE_MS = 100;
const RESOLVE_FAIL_MS = 800;
const RETRY_MS = 1000;
/** The worker's quick requeue after a sync error (ErrImagePull → ImagePullBackOff shows up). */
const ERROR_RESYNC_MS = 1000;
/** What runs outside kubepods (the OS, kubelet, containerd): the usage model's node floor. */
const SYSTEM_USAGE: Demand = { cpuMilli: 40, memory: { baseBytes: 512 * 1024 * 1024, allocBytes: 0, rateBytesPerSec: 0 } };

/** A core/v1 Event the kubelet records about a pod (kubecontainer's recordContainerEvent). */
interface KubeletEvent {
  pod: Pod;
  container: string;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  at: number;
}

type Purpose =
  | { kind: 'list' | 'watch' }
  | { kind: 'register' }
  | { kind: 'nodeStatus'; body: string }
  | { kind: 'leaseGet' | 'leaseWrite' }
  | { kind: 'podStatus'; uid: string; body: string }
  | { kind: 'podDelete'; uid: string }
  | { kind: 'event' };

/** A pull of the node's serialized image puller. */
interface Pull {
  image: string;
  doneAt: number;
  ok: boolean;
}

/** A back-off entry (flowcontrol.Backoff). */
interface BackoffEntry {
  backoffMs: number;
  lastUpdate: number;
}

export class Kubelet implements Actor {
  readonly pods = new Reflector('/api/v1/pods');
  readonly workers = new Map<string, PodWorker>();
  /** Image cache: normalised name → size. */
  readonly images = new Map<string, number>();
  readonly pulls: Pull[] = [];
  private pullFreeAt = 0;
  private readonly backoff = new Map<string, BackoffEntry>();
  private readonly requests = new Map<number, Purpose>();
  private nextReq = 1;
  private nextContainer = 1;
  registered = false;
  /** The status last sent, without heartbeats, and when. */
  private lastNodeStatus = '';
  private lastNodeReportAt = -Infinity;
  private nodeStatusInFlight = false;
  private readonly transitions = new Map<string, string>();
  lease: KObject | null = null;
  private leaseInFlight = false;
  /** Renewals (for the UI and tests): virtual times the lease write succeeded. */
  readonly leaseRenewals: number[] = [];
  /** IP allocation within the pod CIDR, round-robin as host-local IPAM. */
  private readonly usedIPs = new Set<number>();
  private lastIP = 1;
  /** Events recorded, waiting to be POSTed. */
  private readonly outbox: KubeletEvent[] = [];
  private eventSeq = 0;
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
    this.register(ctx);
  }

  private send(ctx: ActorContext, req: Omit<ApiRequest, 'headers'>, purpose: Purpose, contentType?: string): number {
    const reqId = this.nextReq++;
    this.requests.set(reqId, purpose);
    const full: ApiRequest = {
      ...req,
      headers: {
        [CLIENT_CERT_HEADER]: `CN=system:node:${this.nodeName},O=system:nodes`,
        accept: 'application/json',
        'user-agent': `kubelet/${KUBELET_VERSION} (linux/amd64) kubernetes/70d3cc9`,
        ...(req.body !== undefined ? { 'content-type': contentType ?? 'application/json' } : {}),
      },
    };
    ctx.send(this.config.server, httpMsg.request(reqId, full));
    return reqId;
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
        this.list(ctx);
      } else this.onPodEvents(ctx, out);
      return;
    }
    if (p.type === 'HttpEnd' && purpose.kind === 'watch') {
      this.requests.delete(reqId);
      this.watch(ctx);
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
        return this.register(ctx);
      case 'relist':
        return this.list(ctx);
      case 'nodeStatus':
        ctx.setTimer(NODE_STATUS_UPDATE_MS, 'nodeStatus');
        return this.syncNodeStatus(ctx);
      case 'lease':
        this.renewLease(ctx);
        ctx.setTimer(LEASE_RENEW_MS * (1 + LEASE_JITTER * ctx.rng.float()), 'lease');
        return;
      case 'pod': {
        const { uid, at } = data as { uid: string; at: number };
        const w = this.workers.get(uid);
        if (!w || w.wakeAt !== at) return;
        w.wakeAt = -1;
        return this.syncPod(ctx, w);
      }
    }
  }

  private onResponse(ctx: ActorContext, purpose: Purpose, status: number, body: string): void {
    const ok = status >= 200 && status < 300;
    switch (purpose.kind) {
      case 'register':
        // tryRegisterWithAPIServer: an existing Node is ours to reconcile.
        if (ok || status === 409) return this.onRegistered(ctx);
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
          this.pods.reqId = this.send(
            ctx,
            {
              method: 'GET',
              path: next.path,
              query: this.podQuery(next.query),
            },
            { kind: 'list' },
          );
          return;
        }
        this.watch(ctx);
        return this.onPodEvents(ctx, out);
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
        if (status === 404) return this.createLease(ctx);
        if (ok) {
          this.lease = JSON.parse(body) as KObject;
          return this.renewLease(ctx);
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
        this.flushStatus(ctx, w);
        this.maybeDelete(ctx, w);
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

  // ---- registration, node status, lease -------------------------------------------------

  private register(ctx: ActorContext): void {
    this.send(
      ctx,
      {
        method: 'POST',
        path: '/api/v1/nodes',
        query: {},
        body: JSON.stringify(this.initialNode(ctx.now)),
      },
      { kind: 'register' },
    );
  }

  private onRegistered(ctx: ActorContext): void {
    if (this.registered) return;
    this.registered = true;
    this.list(ctx);
    this.renewLease(ctx);
    ctx.setTimer(LEASE_RENEW_MS * (1 + LEASE_JITTER * ctx.rng.float()), 'lease');
    ctx.setTimer(NODE_STATUS_UPDATE_MS, 'nodeStatus');
  }

  /** initialNode (kubelet_node_status.go) with the status setters' first result. */
  initialNode(now: number): KObject {
    const n = this.nodeName;
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: n,
        labels: {
          'beta.kubernetes.io/arch': 'amd64',
          'beta.kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          'kubernetes.io/hostname': n,
          'kubernetes.io/os': 'linux',
          ...(this.config.labels ?? {}),
        },
        annotations: {
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        },
      },
      // Upstream the node-ipam controller fills podCIDR; the fleet is given one up front.
      spec: { podCIDR: this.config.podCIDR, podCIDRs: [this.config.podCIDR] },
      status: this.nodeStatus(now),
    };
  }

  private resources(): Record<string, string> {
    const c = this.config.capacity;
    return {
      cpu: c.cpu,
      'ephemeral-storage': c['ephemeral-storage'],
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: c.memory,
      pods: c.pods,
    };
  }

  /** The node's status with heartbeats at `now`. */
  nodeStatus(now: number): Record<string, unknown> {
    const cond = (type: string, status: string, reason: string, message: string) => {
      const key = `${type}=${status}`;
      let since = this.transitions.get(type);
      if (!since || !since.startsWith(`${key}@`)) {
        since = `${key}@${rfc3339(now)}`;
        this.transitions.set(type, since);
      }
      return {
        type,
        status,
        lastHeartbeatTime: rfc3339(now),
        lastTransitionTime: since.slice(key.length + 1),
        reason,
        message,
      };
    };
    const images = [...this.images]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 50)
      .map(([name, size]) => {
        const ref = parseImage(name);
        return {
          names: [`${ref.repo}@${imageDigest(ref)}`, ref.full],
          sizeBytes: size,
        };
      });
    return {
      capacity: this.resources(),
      allocatable: this.resources(),
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [
        { type: 'InternalIP', address: this.config.internalIP },
        { type: 'Hostname', address: this.nodeName },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: this.machineId,
        systemUUID: `${this.machineId.slice(0, 8)}-${this.machineId.slice(8, 12)}-${this.machineId.slice(12, 16)}-${this.machineId.slice(16, 20)}-${this.machineId.slice(20, 32)}`,
        bootID: `${this.bootId.slice(0, 8)}-${this.bootId.slice(8, 12)}-${this.bootId.slice(12, 16)}-${this.bootId.slice(16, 20)}-${this.bootId.slice(20, 32)}`,
        kernelVersion: '6.8.0-1021-aws',
        osImage: 'Ubuntu 24.04.1 LTS',
        containerRuntimeVersion: CONTAINER_RUNTIME_VERSION,
        kubeletVersion: KUBELET_VERSION,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images,
      runtimeHandlers: [
        {
          name: 'runc',
          features: { recursiveReadOnlyMounts: true, userNamespaces: true },
        },
        {
          name: '',
          features: { recursiveReadOnlyMounts: true, userNamespaces: true },
        },
      ],
      features: { supplementalGroupsPolicy: true },
    };
  }

  /** syncNodeStatus: PATCH when the status changed, or every nodeStatusReportFrequency. */
  private syncNodeStatus(ctx: ActorContext): void {
    if (!this.registered || this.nodeStatusInFlight) return;
    const status = this.nodeStatus(ctx.now);
    const comparable = JSON.stringify(withoutHeartbeats(status));
    if (comparable === this.lastNodeStatus && ctx.now - this.lastNodeReportAt < NODE_STATUS_REPORT_MS) return;
    this.lastNodeReportAt = ctx.now;
    this.nodeStatusInFlight = true;
    this.send(
      ctx,
      {
        method: 'PATCH',
        path: `/api/v1/nodes/${this.nodeName}/status`,
        query: {},
        body: JSON.stringify({ status }),
      },
      { kind: 'nodeStatus', body: comparable },
      'application/strategic-merge-patch+json',
    );
  }

  /** The node lease controller's sync: update the cached lease, or get / create it first. */
  private renewLease(ctx: ActorContext): void {
    if (this.leaseInFlight) return;
    this.leaseInFlight = true;
    const path = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${this.nodeName}`;
    if (!this.lease) {
      this.send(ctx, { method: 'GET', path, query: {} }, { kind: 'leaseGet' });
      return;
    }
    const lease = {
      ...this.lease,
      spec: {
        ...(this.lease.spec as object),
        holderIdentity: this.nodeName,
        leaseDurationSeconds: LEASE_DURATION_S,
        renewTime: rfc3339Micro(ctx.now),
      },
    };
    this.send(ctx, { method: 'PUT', path, query: {}, body: JSON.stringify(lease) }, { kind: 'leaseWrite' });
  }

  private createLease(ctx: ActorContext): void {
    this.leaseInFlight = true;
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.nodeName, namespace: 'kube-node-lease' },
      spec: {
        holderIdentity: this.nodeName,
        leaseDurationSeconds: LEASE_DURATION_S,
        renewTime: rfc3339Micro(ctx.now),
      },
    };
    this.send(
      ctx,
      {
        method: 'POST',
        path: '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases',
        query: {},
        body: JSON.stringify(lease),
      },
      { kind: 'leaseWrite' },
    );
  }

  // ---- pods ---------------------------------------------------------------------------

  private podQuery(q: Record<string, string>): Record<string, string> {
    return { ...q, fieldSelector: `spec.nodeName=${this.nodeName}` };
  }

  private list(ctx: ActorContext): void {
    const q = this.pods.listRequest();
    this.pods.reqId = this.send(ctx, { method: 'GET', path: q.path, query: this.podQuery(q.query) }, { kind: 'list' });
  }

  private watch(ctx: ActorContext): void {
    const q = this.pods.watchRequest();
    this.pods.reqId = this.send(ctx, { method: 'GET', path: q.path, query: this.podQuery(q.query) }, { kind: 'watch' });
  }

  private onPodEvents(ctx: ActorContext, events: ReflectorEvent[]): void {
    const added: Pod[] = [];
    for (const ev of events) {
      const pod = ev.object as Pod;
      const uid = pod.metadata.uid!;
      if (ev.type === 'DELETED') {
        const w = this.workers.get(uid);
        if (w) this.forget(w);
        continue;
      }
      const w = this.workers.get(uid);
      if (w) {
        const annotationsChanged = JSON.stringify(w.pod.metadata.annotations ?? {}) !== JSON.stringify(pod.metadata.annotations ?? {});
        w.pod = pod;
        if (annotationsChanged) this.updateDemands(w, ctx.now);
        if (pod.metadata.deletionTimestamp && !w.deleting) this.syncPod(ctx, w);
      } else added.push(pod);
    }
    // HandlePodAdditions: oldest first.
    added.sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || a.metadata.name!.localeCompare(b.metadata.name!));
    for (const pod of added) this.admit(ctx, pod);
  }

  private forget(w: PodWorker): void {
    if (w.ip) this.usedIPs.delete(w.ip);
    this.workers.delete(w.uid);
    for (const c of w.containers) this.backoff.delete(`${w.uid}/${c.name}`);
  }

  private newWorker(pod: Pod, now: number): PodWorker {
    const spec = pod.spec as Pod['spec'] & { restartPolicy?: string };
    return {
      uid: pod.metadata.uid!,
      pod,
      stage: 'sandbox',
      readyToStartAt: -1,
      ip: 0,
      podIP: '',
      startTime: rfc3339(now),
      rejected: null,
      deleting: false,
      containers: spec.containers.map((c) => ({
        name: c.name,
        image: c.image ?? '',
        state: 'waiting',
        reason: 'ContainerCreating',
        message: '',
        restartCount: 0,
        containerID: '',
        imageID: '',
        startedAt: -1,
        listeningAt: -1,
        ready: false,
        started: false,
        probes: {},
        ports: [],
        exitAt: -1,
        exitCode: 0,
        finishedAt: -1,
        lastTerminated: null,
        pullAt: -1,
        pullStartedAt: -1,
        backoffUntil: -1,
        ignoresSigterm: false,
        oomKilled: false,
      })),
      restartPolicy: spec.restartPolicy ?? 'Always',
      wakeAt: -1,
      lastSent: '',
      patchInFlight: false,
      deleteSent: false,
      deleteInFlight: false,
      transitions: {},
    };
  }

  /** canAdmitPod: the pods count, then cpu, memory, ephemeral-storage (Fit's order). */
  private admit(ctx: ActorContext, pod: Pod): void {
    const w = this.newWorker(pod, ctx.now);
    this.workers.set(w.uid, w);
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') {
      w.stage = 'done';
      w.lastSent = 'terminal';
      return this.maybeDelete(ctx, w);
    }
    if (!pod.metadata.deletionTimestamp) {
      const verdict = this.fits(pod, w.uid);
      if (verdict) {
        w.rejected = verdict;
        w.stage = 'done';
        this.record(w, '', 'Warning', verdict.reason, verdict.message, ctx.now);
        this.flushEvents(ctx);
        return this.flushStatus(ctx, w);
      }
    }
    this.syncPod(ctx, w);
  }

  private fits(pod: Pod, uid: string): { reason: string; message: string } | null {
    const c = this.config.capacity;
    const active = [...this.workers.values()].filter((w) => w.uid !== uid && w.stage !== 'done' && !w.rejected);
    const insufficient = (name: string, requested: number, used: number, capacity: number) => ({
      reason: `OutOf${name}`,
      message: `Node didn't have enough resource: ${name}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
    });
    const maxPods = quantityNumber(c.pods, false);
    if (active.length + 1 > maxPods)
      return {
        reason: 'OutOfpods',
        message: `Node didn't have enough resource: pods, requested: 1, used: ${active.length}, capacity: ${maxPods}`,
      };
    const req = podRequests(pod);
    const used = { cpu: 0, memory: 0, storage: 0 };
    for (const w of active) {
      const r = podRequests(w.pod);
      used.cpu += r.milliCPU;
      used.memory += r.memory;
      used.storage += r.ephemeralStorage;
    }
    const cpu = quantityNumber(c.cpu, true);
    const mem = quantityNumber(c.memory, false);
    const eph = quantityNumber(c['ephemeral-storage'], false);
    if (req.milliCPU > 0 && used.cpu + req.milliCPU > cpu) return insufficient('cpu', req.milliCPU, used.cpu, cpu);
    if (req.memory > 0 && used.memory + req.memory > mem) return insufficient('memory', req.memory, used.memory, mem);
    if (req.ephemeralStorage > 0 && used.storage + req.ephemeralStorage > eph) return insufficient('ephemeral-storage', req.ephemeralStorage, used.storage, eph);
    return null;
  }

  private allocateIP(): number {
    const bitsText = this.config.podCIDR.split('/')[1];
    const size = 2 ** (32 - Number(bitsText ?? '24'));
    for (let i = 1; i <= size - 3; i++) {
      const candidate = ((this.lastIP - 2 + i + (size - 3)) % (size - 3)) + 2;
      if (!this.usedIPs.has(candidate)) {
        this.usedIPs.add(candidate);
        this.lastIP = candidate;
        return candidate;
      }
    }
    return 0;
  }

  private ipString(offset: number): string {
    const base = this.config.podCIDR.split('/')[0]!.split('.').map(Number);
    const n = (((base[0]! << 24) | (base[1]! << 16) | (base[2]! << 8) | base[3]!) >>> 0) + offset;
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  }

  private wake(ctx: ActorContext, w: PodWorker, at: number): void {
    if (w.wakeAt >= ctx.now && w.wakeAt <= at) return;
    w.wakeAt = at;
    ctx.setTimer(Math.max(0, at - ctx.now), 'pod', { uid: w.uid, at });
  }

  private backoffKey(w: PodWorker, c: ContainerRt, kind: string): string {
    return `${w.uid}/${c.name}/${kind}`;
  }

  /** flowcontrol.Backoff.IsInBackOffSince. */
  private inBackoff(key: string, since: number, now: number): boolean {
    const e = this.backoff.get(key);
    if (!e || now - e.lastUpdate > 2 * BACKOFF_MAX_MS) return false;
    return now - since < e.backoffMs;
  }

  /** flowcontrol.Backoff.Next. */
  private nextBackoff(key: string, now: number): number {
    const e = this.backoff.get(key);
    const ms = !e || now - e.lastUpdate > 2 * BACKOFF_MAX_MS ? BACKOFF_INITIAL_MS : Math.min(e.backoffMs * 2, BACKOFF_MAX_MS);
    this.backoff.set(key, { backoffMs: ms, lastUpdate: now });
    return ms;
  }

  /** Starts (or joins) a pull on the node's serialized puller; its completion time. */
  private pull(now: number, image: string, alwaysPull: boolean): Pull {
    const pending = this.pulls.find((p) => p.image === image);
    if (pending) return pending;
    const ref = parseImage(image);
    const img = lookupImage(ref);
    const start = Math.max(now, this.pullFreeAt);
    const cached = this.images.has(ref.full);
    const ms = !img ? RESOLVE_FAIL_MS : cached && alwaysPull ? 200 : Math.ceil((img.sizeBytes / this.config.imageBandwidthBytesPerSec) * 1000);
    const p: Pull = { image, doneAt: start + ms, ok: !!img };
    this.pullFreeAt = p.doneAt;
    this.pulls.push(p);
    return p;
  }

  private finishPulls(now: number): void {
    for (let i = this.pulls.length - 1; i >= 0; i--) {
      const p = this.pulls[i]!;
      if (p.doneAt > now) continue;
      // A failed pull stays until a worker reads its error.
      if (!p.ok) continue;
      const ref = parseImage(p.image);
      this.images.set(ref.full, lookupImage(ref)!.sizeBytes);
      this.pulls.splice(i, 1);
    }
  }

  /** The pod worker's SyncPod / SyncTerminatingPod, driven to `now`. */
  private syncPod(ctx: ActorContext, w: PodWorker): void {
    const now = ctx.now;
    this.finishPulls(now);
    const next: number[] = [];
    if (w.stage === 'done') return this.flushStatus(ctx, w);
    if (w.pod.metadata.deletionTimestamp && !w.deleting) {
      w.deleting = true;
      const grace = (w.pod.metadata.deletionGracePeriodSeconds ?? (w.pod.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ?? 30) * 1000;
      for (const c of w.containers) {
        if (c.state === 'running') {
          // SIGTERM: ordinary images exit at once; others are SIGKILLed at the end of the grace period.
          this.kill(c, c.ignoresSigterm ? now + grace : now, now);
          this.record(w, c.name, 'Normal', 'Killing', `Stopping container ${c.name}`, now);
        }
      }
    }
    if (w.stage === 'sandbox') {
      if (w.readyToStartAt < 0) w.readyToStartAt = now + SANDBOX_MS;
      if (w.deleting) w.stage = 'terminated';
      else if (now >= w.readyToStartAt) {
        w.ip = this.allocateIP();
        w.podIP = this.ipString(w.ip);
        w.stage = 'running';
        const pause = lookupImage(parseImage('registry.k8s.io/pause:3.10'))!;
        this.meter.addPod(w.uid, w.pod.metadata.name!, w.pod.metadata.namespace ?? 'default', demandOf(pause, [], undefined, w.uid), now);
      } else next.push(w.readyToStartAt);
    }
    if (w.stage === 'running') {
      for (const c of w.containers) this.syncContainer(now, w, c, next);
      if (w.containers.every((c) => c.state === 'terminated' && (w.deleting || this.finished(w, c)))) {
        w.stage = 'terminated';
      }
    }
    if (w.stage === 'terminated') {
      w.stage = 'done';
      this.meter.removePod(w.uid, now);
      if (w.ip) this.usedIPs.delete(w.ip);
      w.ip = 0;
    }
    this.flushStatus(ctx, w);
    this.flushEvents(ctx);
    const soonest = next.length ? Math.min(...next) : -1;
    if (soonest >= 0) this.wake(ctx, w, soonest);
  }

  /** Stops a running container at `at` (SIGTERM now, or SIGKILL at the end of the grace period). */
  private kill(c: ContainerRt, at: number, now: number): void {
    if (c.exitAt >= 0 && c.exitAt <= at) return; // it ends by itself (or is OOM-killed) first
    c.exitAt = at;
    c.exitCode = c.ignoresSigterm ? 137 : 0;
    c.oomKilled = false;
    this.meter.stop(c.containerID, at, now);
  }

  /** A pod's annotations changed: containers whose load they set (hpa-example) get the new demand. */
  private updateDemands(w: PodWorker, now: number): void {
    for (const c of w.containers) {
      if (c.state !== 'running') continue;
      const spec = w.pod.spec.containers.find((s) => s.name === c.name) as ContainerSpec | undefined;
      const img = lookupImage(parseImage(c.image));
      if (!img) continue;
      this.meter.setDemand(c.containerID, demandOf(img, processArgv(img, spec?.command, spec?.args), w.pod.metadata.annotations, c.containerID), now);
    }
  }

  /** A terminated container that will not be restarted (restartPolicy). */
  private finished(w: PodWorker, c: ContainerRt): boolean {
    if (w.restartPolicy === 'Never') return true;
    if (w.restartPolicy === 'OnFailure') return c.exitCode === 0;
    return false;
  }

  private syncContainer(now: number, w: PodWorker, c: ContainerRt, next: number[]): void {
    const spec = w.pod.spec.containers.find((s) => s.name === c.name) as ContainerSpec | undefined;
    if (c.state === 'running') {
      if (!w.deleting && !(c.exitAt >= 0 && now >= c.exitAt)) this.probe(now, w, c, spec, next);
      if (c.exitAt >= 0 && now >= c.exitAt) {
        c.ready = false;
        c.started = false;
        c.probes = {};
        c.state = 'terminated';
        c.finishedAt = c.exitAt;
        c.reason = c.oomKilled ? 'OOMKilled' : c.exitCode === 0 ? 'Completed' : 'Error';
        c.exitAt = -1;
      } else {
        if (c.exitAt >= 0) next.push(c.exitAt);
        return;
      }
    }
    if (w.deleting) {
      if (c.state === 'waiting') {
        c.state = 'terminated';
        c.reason = 'ContainerStatusUnknown';
        c.finishedAt = now;
        c.exitCode = 137;
      }
      return;
    }
    if (c.state === 'terminated') {
      if (this.finished(w, c)) return;
      // doBackOff: the first restart is at once, later ones wait out the back-off.
      const key = this.backoffKey(w, c, 'crash');
      if (this.inBackoff(key, c.finishedAt, now)) {
        const e = this.backoff.get(key)!;
        c.backoffUntil = c.finishedAt + e.backoffMs;
        c.lastTerminated = {
          exitCode: c.exitCode,
          reason: c.reason,
          startedAt: c.startedAt,
          finishedAt: c.finishedAt,
          containerID: c.containerID,
        };
        c.state = 'waiting';
        if (c.reason !== 'CrashLoopBackOff')
          this.record(w, c.name, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${w.pod.metadata.name}_${w.pod.metadata.namespace}(${w.uid})`, now);
        c.reason = 'CrashLoopBackOff';
        c.message = `back-off ${e.backoffMs / 1000 >= 60 ? `${e.backoffMs / 60_000}m0s` : `${e.backoffMs / 1000}s`} restarting failed container=${c.name} pod=${w.pod.metadata.name}_${w.pod.metadata.namespace}(${w.uid})`;
        next.push(c.backoffUntil);
        return;
      }
      this.nextBackoff(key, c.finishedAt);
      c.lastTerminated = {
        exitCode: c.exitCode,
        reason: c.reason,
        startedAt: c.startedAt,
        finishedAt: c.finishedAt,
        containerID: c.containerID,
      };
      c.restartCount++;
      c.pullAt = -1;
      c.state = 'waiting';
      c.reason = 'ContainerCreating';
      c.backoffUntil = -1;
    }
    // waiting
    if (c.reason === 'CrashLoopBackOff') {
      if (now < c.backoffUntil) {
        next.push(c.backoffUntil);
        return;
      }
      const key = this.backoffKey(w, c, 'crash');
      this.nextBackoff(key, now);
      c.restartCount++;
      c.pullAt = -1;
      c.reason = 'ContainerCreating';
    }
    const ref = parseImage(c.image);
    const policy = spec?.imagePullPolicy ?? (ref.tag === 'latest' ? 'Always' : 'IfNotPresent');
    const present = this.images.has(ref.full);
    const needPull = policy === 'Always' ? c.pullAt < 0 || !present : !present && policy !== 'Never';
    if (!present && policy === 'Never') {
      c.reason = 'ErrImageNeverPull';
      c.message = `Container image "${c.image}" is not present with pull policy of Never`;
      return;
    }
    if (needPull || c.pullStartedAt >= 0) {
      const key = this.backoffKey(w, c, 'pull');
      if (c.pullStartedAt < 0 && c.backoffUntil > now) {
        if (c.reason !== 'ImagePullBackOff') {
          this.record(w, c.name, 'Normal', 'BackOff', `Back-off pulling image "${c.image}"`, now);
          this.record(w, c.name, 'Warning', 'Failed', 'Error: ImagePullBackOff', now);
        }
        c.reason = 'ImagePullBackOff';
        c.message = `Back-off pulling image "${c.image}"`;
        next.push(c.backoffUntil);
        return;
      }
      // A pull this container waited on that left the queue has succeeded (failures stay until read).
      const finished = c.pullStartedAt >= 0 && !this.pulls.some((q) => q.image === c.image);
      if (!finished) {
        const p = this.pull(now, c.image, policy === 'Always');
        if (c.pullStartedAt < 0) {
          c.pullStartedAt = now;
          this.record(w, c.name, 'Normal', 'Pulling', `Pulling image "${c.image}"`, now);
        }
        if (p.doneAt > now) {
          next.push(p.doneAt);
          return;
        }
        if (!p.ok) {
          // ErrImagePull now, ImagePullBackOff on the worker's next sync until the back-off ends.
          this.pulls.splice(this.pulls.indexOf(p), 1);
          const ms = this.nextBackoff(key, now);
          c.backoffUntil = now + ms;
          c.reason = 'ErrImagePull';
          c.message = `failed to pull and unpack image "${ref.full}": failed to resolve reference "${ref.full}": ${ref.full}: not found`;
          c.pullStartedAt = -1;
          this.record(w, c.name, 'Warning', 'Failed', `Failed to pull image "${c.image}": rpc error: code = NotFound desc = ${c.message}`, now);
          this.record(w, c.name, 'Warning', 'Failed', 'Error: ErrImagePull', now);
          next.push(now + ERROR_RESYNC_MS);
          return;
        }
      }
      c.pullAt = now;
      const img = lookupImage(ref)!;
      const pullMs = Math.min(now - c.pullStartedAt, Math.ceil((img.sizeBytes / this.config.imageBandwidthBytesPerSec) * 1000));
      this.record(
        w,
        c.name,
        'Normal',
        'Pulled',
        `Successfully pulled image "${c.image}" in ${goDuration(pullMs)} (${goDuration(now - c.pullStartedAt)} including waiting). Image size: ${img.sizeBytes} bytes.`,
        now,
      );
      c.pullStartedAt = -1;
    } else {
      this.record(w, c.name, 'Normal', 'Pulled', `Container image "${c.image}" already present on machine`, now);
    }
    // Create and start.
    const img = lookupImage(ref)!;
    const b: Behaviour = behaviourOf(img, spec?.command, spec?.args);
    this.record(w, c.name, 'Normal', 'Created', `Created container: ${c.name}`, now);
    this.record(w, c.name, 'Normal', 'Started', `Started container ${c.name}`, now);
    c.state = 'running';
    c.reason = '';
    c.message = '';
    c.startedAt = now + CREATE_MS;
    c.containerID = `containerd://${hex(this.nextContainer++ * 2654435761 + w.uid.length, w.uid + c.name)}`;
    c.imageID = `${ref.repo}@${imageDigest(ref)}`;
    c.ignoresSigterm = b.type === 'run' && b.ignoresSigterm;
    c.listeningAt = c.startedAt + (b.type === 'run' ? b.startDelayMs : 0);
    c.ports = img.ports;
    c.ready = false;
    c.started = false;
    c.probes = {};
    c.exitAt = b.type === 'exit' ? c.startedAt + b.afterMs : -1;
    c.exitCode = b.type === 'exit' ? b.exitCode : 0;
    c.oomKilled = false;
    // The usage model: a working set above the memory limit gets the container OOM-killed (137).
    const demand = demandOf(img, processArgv(img, spec?.command, spec?.args), w.pod.metadata.annotations, c.containerID);
    const limits = spec?.resources?.limits;
    const oomAfter = oomAfterMs(demand.memory, quantityNumber(limits?.memory, false));
    if (oomAfter !== null && (c.exitAt < 0 || c.startedAt + oomAfter < c.exitAt)) {
      c.exitAt = c.startedAt + oomAfter;
      c.exitCode = 137;
      c.oomKilled = true;
    }
    this.meter.start(
      {
        id: c.containerID,
        podUid: w.uid,
        name: c.name,
        startedAt: c.startedAt,
        stopAt: c.exitAt >= 0 ? c.exitAt : Infinity,
        demand,
        requestMilli: quantityNumber(spec?.resources?.requests?.cpu ?? limits?.cpu, true),
        limitMilli: quantityNumber(limits?.cpu, true),
      },
      now,
    );
    next.push(c.startedAt);
    if (c.exitAt >= 0) next.push(c.exitAt);
  }

  /** The prober: startup first, then readiness and liveness; a failed liveness/startup probe kills the container. */
  private probe(now: number, w: PodWorker, c: ContainerRt, spec: ContainerSpec | undefined, next: number[]): void {
    if (now < c.startedAt) {
      next.push(c.startedAt);
      return;
    }
    const ports = (spec as { ports?: { name?: string; containerPort: number }[] } | undefined)?.ports ?? [];
    const specs: Record<ProbeKind, ProbeSpec | undefined> = { startup: spec?.startupProbe, readiness: spec?.readinessProbe, liveness: spec?.livenessProbe };
    const run = (kind: ProbeKind): boolean => {
      const st = (c.probes[kind] ??= newProbeState(kind, kind === 'startup' ? c.startedAt : now));
      for (const o of runProbe(kind, specs[kind]!, st, c, now, w.podIP, c.ports, ports)) {
        if (o.type === 'failed') {
          this.record(w, c.name, 'Warning', 'Unhealthy', `${probeName(kind)} probe failed: ${o.message}`, now);
          continue;
        }
        this.record(w, c.name, 'Normal', 'Killing', `Container ${c.name} failed ${kind} probe, will be restarted`, now);
        const grace = ((w.pod.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ?? 30) * 1000;
        this.kill(c, c.ignoresSigterm ? now + grace : now, now);
        return false;
      }
      next.push(st.nextAt);
      return true;
    };
    if (specs.startup && !c.started) {
      if (!run('startup')) return;
      c.started = c.probes.startup!.ok;
      if (!c.started) {
        c.ready = false;
        return;
      }
    }
    c.started = true;
    if (specs.liveness && !run('liveness')) return;
    if (specs.readiness) {
      if (!run('readiness')) return;
      c.ready = c.probes.readiness!.ok;
    } else c.ready = true;
  }

  private record(w: PodWorker, container: string, type: KubeletEvent['type'], reason: string, message: string, at: number): void {
    this.outbox.push({ pod: w.pod, container, type, reason, message, at });
  }

  /** Sends the recorded events (no series aggregation: each one is its own Event, count 1). */
  private flushEvents(ctx: ActorContext): void {
    for (const ev of this.outbox.splice(0)) {
      const ns = ev.pod.metadata.namespace ?? 'default';
      const t = rfc3339(ev.at);
      const nanos = (BigInt(Math.floor(SIM_EPOCH_MS + ev.at)) * 1_000_000n + BigInt(this.eventSeq++ % 1_000_000)).toString(16);
      const body = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${ev.pod.metadata.name}.${nanos}`, namespace: ns },
        involvedObject: {
          kind: 'Pod',
          namespace: ns,
          name: ev.pod.metadata.name,
          uid: ev.pod.metadata.uid,
          apiVersion: 'v1',
          resourceVersion: ev.pod.metadata.resourceVersion,
          ...(ev.container ? { fieldPath: `spec.containers{${ev.container}}` } : {}),
        },
        reason: ev.reason,
        message: ev.message,
        source: { component: 'kubelet', host: this.nodeName },
        firstTimestamp: t,
        lastTimestamp: t,
        count: 1,
        type: ev.type,
        eventTime: null,
        reportingComponent: 'kubelet',
        reportingInstance: this.nodeName,
      };
      this.send(
        ctx,
        {
          method: 'POST',
          path: `/api/v1/namespaces/${ns}/events`,
          query: {},
          body: JSON.stringify(body),
        },
        { kind: 'event' },
      );
    }
  }

  /** The status manager: PATCH pods/<name>/status when the status changed. */
  private flushStatus(ctx: ActorContext, w: PodWorker): void {
    if (w.patchInFlight || !this.workers.has(w.uid)) return;
    const status = podStatusFor(w, ctx.now, this.config.internalIP);
    const body = JSON.stringify(status);
    if (body === w.lastSent) return this.maybeDelete(ctx, w);
    w.patchInFlight = true;
    this.send(
      ctx,
      {
        method: 'PATCH',
        path: `/api/v1/namespaces/${w.pod.metadata.namespace}/pods/${w.pod.metadata.name}/status`,
        query: {},
        body: JSON.stringify({ status }),
      },
      { kind: 'podStatus', uid: w.uid, body },
      'application/strategic-merge-patch+json',
    );
  }

  /** canBeDeleted: a deleted pod whose terminal status is written goes with grace 0. */
  private maybeDelete(ctx: ActorContext, w: PodWorker): void {
    if (!w.pod.metadata.deletionTimestamp || w.stage !== 'done' || w.patchInFlight || w.deleteSent) return;
    w.deleteSent = true;
    w.deleteInFlight = true;
    const opts = {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      gracePeriodSeconds: 0,
      preconditions: { uid: w.uid },
    };
    this.send(
      ctx,
      {
        method: 'DELETE',
        path: `/api/v1/namespaces/${w.pod.metadata.namespace}/pods/${w.pod.metadata.name}`,
        query: {},
        body: JSON.stringify(opts),
      },
      { kind: 'podDelete', uid: w.uid },
    );
  }
}

/** time.Duration's String for whole milliseconds: 800ms, 1.5s, 2m3.4s. */
export function goDuration(ms: number): string {
  ms = Math.round(ms);
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const m = Math.floor(ms / 60_000);
  const rest = ms - m * 60_000;
  const sec = `${Math.floor(rest / 1000)}${
    rest % 1000
      ? `.${String(rest % 1000)
          .padStart(3, '0')
          .replace(/0+$/, '')}`
      : ''
  }s`;
  return m > 0 ? `${m}m${sec}` : sec;
}

/** Drops lastHeartbeatTime from conditions, to compare statuses. */
function withoutHeartbeats(status: Record<string, unknown>): unknown {
  const conds = status.conditions as { lastHeartbeatTime?: string }[];
  return {
    ...status,
    conditions: conds.map(({ lastHeartbeatTime: _h, ...rest }) => rest),
  };
}

/** 32 hex digits from a seed and a label (deterministic ids). */
function hex(seed: number, label: string): string {
  let out = '';
  for (let round = 0; round < 4; round++) {
    let h = (0x811c9dc5 ^ seed ^ (round * 0x9e3779b9)) >>> 0;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out;
}

registerClass('Kubelet', Kubelet);
registerActorKind<KubeletConfig, null>({
  kind: KUBELET_KIND,
  initDurable: () => null,
  create: (id, config, _durable, env) => new Kubelet(id, config, env.rng.nextU32(), env.now),
});
