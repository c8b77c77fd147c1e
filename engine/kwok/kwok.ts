// kwok-controller (sigs.k8s.io/kwok): fake nodes without kubelets, as KWOK
// runs them — for nodes created through the API with the annotation
// kwok.x-k8s.io/node=fake it plays the kubelet's part through the API only:
// a node not yet Ready gets its conditions, addresses and phase (stage
// node-initialize), its Lease is renewed and its status heartbeat kept (stage
// node-heartbeat-with-lease; the node lease controller, pkg/kwok/controllers/
// node_lease_controller.go: each held Lease renewed by an Update of the lease
// informer's copy, every 10 s jittered by up to 4 %, created when missing),
// pods bound there are marked Running and Ready (pod-ready), and pods being
// deleted removed (pod-delete). Other nodes without
// a kubelet go NotReady as they would in a real cluster.
import type { Actor, ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerActorKind } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import type { KObject } from '../apimachinery/types';
import { httpMsg, type HttpChunkMsg, type HttpResponseMsg } from '../apiserver/http/messages';
import { CLIENT_CERT_HEADER } from '../apiserver/auth/authn';
import { parseRfc3339, rfc3339, rfc3339Micro } from '../apiserver/http/time';
import { Reflector, type ReflectorEvent } from '../client/reflector';
import { readonlyChecks } from '../apimachinery/readonly';

export const KWOK_KIND = 'kwok-controller';
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
/** KWOK's node Lease: 40 s, renewed every 10 s (a quarter of its duration) jittered by up to 4 % (wait.Jitter). */
const LEASE_DURATION_S = 40;
const LEASE_RENEW_MS = 10_000;
const LEASE_RENEW_JITTER = 0.04;
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
/**
 * node-heartbeat-with-lease (kustomize/stage/node/heartbeat-with-lease): with the
 * Lease carrying liveness, a Ready node's status is heartbeated after a delay of
 * 600 s, jittered up to 610 s.
 */
const STATUS_DELAY_MS = 600_000;
const STATUS_JITTER_MS = 610_000;
/** KWOK's --node-ip default: every fake node reports this InternalIP unless it has addresses. */
const DEFAULT_NODE_IP = '10.0.0.1';

export interface KwokConfig {
  server: ActorId;
  /** Pod IPs for fake nodes' pods (KWOK's default cidr 10.0.0.1/24 per node is approximated by a per-node /24). */
  podCidrBase?: string;
}

type Informer = 'nodes' | 'pods' | 'leases';
type Purpose = { kind: 'list' | 'watch'; informer: Informer } | { kind: 'write'; what: string; w?: PendingWrite };

/** Writes in flight at most (client-side throttling, as KWOK's client QPS/burst keep it from flooding the API server). */
const MAX_WRITES_IN_FLIGHT = 16;

interface PendingWrite {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body: unknown;
  /** JSON.stringify(body), when it was had for less. */
  text?: string;
  what: string;
  contentType: string;
}

export class KwokController implements Actor {
  readonly nodes = new Reflector('/api/v1/nodes');
  readonly pods = new Reflector('/api/v1/pods');
  /** Its objects' texts kept: a renewal is the Lease's own JSON with a new renewTime. */
  readonly leases = new Reflector(LEASES, true);
  private readonly requests = new Map<number, Purpose>();
  /** Pods already marked ready / being deleted (by uid), so each write is made once. */
  private readonly readied = new Set<string>();
  private readonly deleting = new Set<string>();
  /** Nodes whose Lease this controller holds or tries to (TryHold), each with its renewal timer. */
  private readonly held = new Set<string>();
  /** Nodes with a node-initialize patch in flight, and nodes with a status heartbeat timer (node name). */
  private readonly initializing = new Set<string>();
  private readonly heartbeats = new Set<string>();
  /** Pods bound to a node not seen yet (node name → pod keys), handled when it appears. */
  private readonly waitingForNode = new Map<string, Set<string>>();
  private readonly nodeIndex = new Map<string, number>();
  private readonly podCounter = new Map<string, number>();
  private nextReq = 1;
  /** Writes waiting for a slot, oldest first from `pendingHead` (a queue without O(n) shifts). */
  private pending: PendingWrite[] = [];
  private pendingHead = 0;
  private writesInFlight = 0;

  constructor(
    readonly id: ActorId,
    readonly config: KwokConfig,
  ) {}

  start(ctx: ActorContext): void {
    this.list(ctx, 'nodes');
    this.list(ctx, 'pods');
    this.list(ctx, 'leases');
  }

  private send(ctx: ActorContext, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, query: Record<string, string>, body: unknown, purpose: Purpose, contentType = 'application/json', text?: string): number {
    const reqId = this.nextReq++;
    this.requests.set(reqId, purpose);
    ctx.send(
      this.config.server,
      httpMsg.request(reqId, {
        method,
        path,
        query,
        headers: { [CLIENT_CERT_HEADER]: 'CN=kwok-controller,O=system:masters', accept: 'application/json', 'user-agent': 'kwok/v0.6.1', ...(body !== undefined ? { 'content-type': contentType } : {}) },
        ...(body !== undefined ? { body: text ?? JSON.stringify(body) } : {}),
      }),
    );
    return reqId;
  }

  private write(ctx: ActorContext, w: PendingWrite): void {
    this.pending.push(w);
    this.pump(ctx);
  }

  private pump(ctx: ActorContext): void {
    while (this.writesInFlight < MAX_WRITES_IN_FLIGHT && this.pendingHead < this.pending.length) {
      const w = this.pending[this.pendingHead++]!;
      if (this.pendingHead === this.pending.length || this.pendingHead > 4096) {
        this.pending = this.pending.slice(this.pendingHead);
        this.pendingHead = 0;
      }
      this.writesInFlight++;
      this.send(ctx, w.method, w.path, {}, w.body, { kind: 'write', what: w.what, w }, w.contentType, w.text);
    }
  }

  private list(ctx: ActorContext, informer: Informer): void {
    const r = this[informer];
    const q = r.listRequest();
    r.reqId = this.send(ctx, 'GET', q.path, q.query, undefined, { kind: 'list', informer });
  }

  private watch(ctx: ActorContext, informer: Informer): void {
    const r = this[informer];
    const q = r.watchRequest();
    r.reqId = this.send(ctx, 'GET', q.path, q.query, undefined, { kind: 'watch', informer });
  }

  receive(ctx: ActorContext, _from: ActorId, p: Payload): void {
    const reqId = (p as { reqId?: number }).reqId ?? 0;
    const purpose = this.requests.get(reqId);
    if (!purpose) return;
    if (p.type === 'HttpResponse') {
      const m = p as unknown as HttpResponseMsg;
      if (!m.streaming) this.requests.delete(reqId);
      if (purpose.kind === 'write') {
        this.writesInFlight--;
        // A throttled write (429) is tried again after a second.
        if (m.response.status === 429 && purpose.w) ctx.setTimer(1000, 'retry', purpose.w);
        this.pump(ctx);
        return;
      }
      if (purpose.kind === 'list') {
        const r = this[purpose.informer];
        const out = r.onList(m.response.status, m.response.body);
        if (out === 'retry') {
          ctx.setTimer(1000, 'relist', purpose.informer);
          return;
        }
        const next = r.nextRequest();
        if (next) {
          r.reqId = this.send(ctx, 'GET', next.path, next.query, undefined, purpose);
          return;
        }
        this.watch(ctx, purpose.informer);
        this.react(ctx, purpose.informer, out);
      } else if (purpose.kind === 'watch' && m.response.status !== 200) ctx.setTimer(1000, 'relist', purpose.informer);
      return;
    }
    if (p.type === 'HttpChunk' && purpose.kind === 'watch') {
      const out = this[purpose.informer].onChunk((p as unknown as HttpChunkMsg).chunk);
      if (out === 'relist') {
        this.requests.delete(reqId);
        this.list(ctx, purpose.informer);
      } else this.react(ctx, purpose.informer, out);
      return;
    }
    if (p.type === 'HttpEnd' && purpose.kind === 'watch') {
      this.requests.delete(reqId);
      this.watch(ctx, purpose.informer);
    }
  }

  private isFake(nodeName: string): boolean {
    const n = this.nodes.store.get(nodeName);
    return n?.metadata.annotations?.[KWOK_NODE_ANNOTATION] === 'fake';
  }

  private react(ctx: ActorContext, informer: Informer, events: ReflectorEvent[]): void {
    // The lease informer is read at each sync (a Lease deleted under us is made again then); its events need nothing.
    if (informer === 'leases') return;
    if (informer === 'nodes') {
      for (const ev of events) {
        const name = ev.object.metadata.name!;
        if (ev.type === 'DELETED' || !this.isFake(name)) continue;
        if (!this.held.has(name)) this.tryHold(ctx, name);
        this.nodeStage(ctx, ev.object);
        // Pods bound before their node was seen.
        const waiting = this.waitingForNode.get(name);
        if (!waiting) continue;
        this.waitingForNode.delete(name);
        for (const key of waiting) {
          const p = this.pods.store.get(key);
          if (p) this.handlePod(ctx, p);
        }
      }
      return;
    }
    for (const ev of events) if (ev.type !== 'DELETED') this.handlePod(ctx, ev.object);
  }

  /** pod-ready and pod-delete stages. */
  private handlePod(ctx: ActorContext, pod: KObject): void {
    const spec = pod.spec as { nodeName?: string; containers?: { name: string; image?: string }[] };
    const node = spec.nodeName;
    if (!node) return;
    if (!this.isFake(node)) {
      if (!this.nodes.store.has(node)) {
        let waiting = this.waitingForNode.get(node);
        if (!waiting) this.waitingForNode.set(node, (waiting = new Set()));
        waiting.add(Reflector.keyOf(pod));
      }
      return;
    }
    const uid = pod.metadata.uid!;
    const ns = pod.metadata.namespace!;
    if (pod.metadata.deletionTimestamp) {
      if (this.deleting.has(uid)) return;
      this.deleting.add(uid);
      this.write(ctx, { method: 'DELETE', path: `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}`, body: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid } }, what: `delete ${ns}/${pod.metadata.name}`, contentType: 'application/json' });
      return;
    }
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (this.readied.has(uid) || phase === 'Running' || phase === 'Succeeded' || phase === 'Failed') return;
    this.readied.add(uid);
    const now = rfc3339(ctx.now);
    const idx = this.nodeIndexOf(node);
    const n = (this.podCounter.get(node) ?? 1) + 1;
    this.podCounter.set(node, n > 254 ? 2 : n);
    const podIP = `10.${200 + Math.floor(idx / 256)}.${idx % 256}.${n}`;
    const hostIP = ((this.nodes.store.get(node)?.status as { addresses?: { type: string; address: string }[] } | undefined)?.addresses ?? []).find((a) => a.type === 'InternalIP')?.address ?? '10.0.0.1';
    const cond = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: now });
    const status = {
      phase: 'Running',
      conditions: [cond('PodReadyToStartContainers'), cond('Initialized'), cond('Ready'), cond('ContainersReady'), cond('PodScheduled')],
      hostIP,
      hostIPs: [{ ip: hostIP }],
      podIP,
      podIPs: [{ ip: podIP }],
      startTime: now,
      containerStatuses: (spec.containers ?? []).map((c) => ({ name: c.name, image: c.image ?? '', imageID: '', ready: true, started: true, restartCount: 0, state: { running: { startedAt: now } } })),
    };
    this.write(ctx, { method: 'PATCH', path: `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/status`, body: { status }, what: `ready ${ns}/${pod.metadata.name}`, contentType: 'application/strategic-merge-patch+json' });
  }

  /** node-initialize for a node not Ready; a Ready node gets its heartbeat timer. */
  private nodeStage(ctx: ActorContext, node: KObject): void {
    const name = node.metadata.name!;
    const st = (node.status ?? {}) as NodeStatus;
    if (st.conditions?.find((c) => c.type === 'Ready')?.status !== 'True') {
      if (this.initializing.has(name)) return;
      this.initializing.add(name);
      this.write(ctx, { method: 'PATCH', path: `/api/v1/nodes/${name}/status`, body: { status: this.initialStatus(ctx, node) }, what: `initialize ${name}`, contentType: 'application/strategic-merge-patch+json' });
      return;
    }
    this.initializing.delete(name);
    if (this.heartbeats.has(name)) return;
    this.heartbeats.add(name);
    ctx.setTimer(this.heartbeatDelay(ctx), 'status', name);
  }

  private heartbeatDelay(ctx: ActorContext): number {
    return ctx.rng.int(STATUS_DELAY_MS, STATUS_JITTER_MS + 1);
  }

  /** The node-initialize stage's status: KWOK's node conditions, addresses, resources and phase Running. */
  private initialStatus(ctx: ActorContext, node: KObject): NodeStatus {
    const now = rfc3339(ctx.now);
    const since = node.metadata.creationTimestamp ?? now;
    const st = (node.status ?? {}) as NodeStatus;
    const unlimited = { cpu: '1k', memory: '1Ti', pods: '1M' };
    return {
      conditions: nodeConditions(now, since),
      addresses: st.addresses?.length ? st.addresses : [{ address: DEFAULT_NODE_IP, type: 'InternalIP' }, { address: node.metadata.name!, type: 'Hostname' }],
      allocatable: st.allocatable && Object.keys(st.allocatable).length ? st.allocatable : unlimited,
      capacity: st.capacity && Object.keys(st.capacity).length ? st.capacity : unlimited,
      phase: 'Running',
    };
  }

  private nodeIndexOf(node: string): number {
    let i = this.nodeIndex.get(node);
    if (i === undefined) this.nodeIndex.set(node, (i = this.nodeIndex.size + 1));
    return i;
  }

  /** TryHold: sync the node's Lease now, then every renewal interval. */
  private tryHold(ctx: ActorContext, name: string): void {
    this.held.add(name);
    this.syncLease(ctx, name);
  }

  /**
   * sync: renew the Lease from the informer's copy when it is ours (or its
   * holder's time ran out), create it when there is none; then the next try
   * after the jittered interval. A node gone or no longer fake is let go.
   */
  private syncLease(ctx: ActorContext, name: string): void {
    const node = this.nodes.store.get(name);
    if (!node || !this.isFake(name)) {
      this.held.delete(name);
      return;
    }
    // WaitForCacheSync: until the leases are listed, a missing one may only be unseen.
    if (!this.leases.synced) return void ctx.setTimer(1000, 'lease', name);
    ctx.setTimer(LEASE_RENEW_MS * (1 + LEASE_RENEW_JITTER * ctx.rng.float()), 'lease', name);
    const lease = this.leases.store.get(`kube-node-lease/${name}`);
    const renewTime = rfc3339Micro(ctx.now);
    // ensureLease: a create the informer has not seen back by the next sync (10 s on) is simply tried again,
    // an AlreadyExists answer then meaning only that the cache was behind.
    if (!lease) {
      const body = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace: 'kube-node-lease', ownerReferences: [nodeOwner(node)] },
        spec: { holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_S, renewTime },
      };
      this.write(ctx, { method: 'POST', path: LEASES, body, what: `lease ${name}`, contentType: 'application/json' });
      return;
    }
    const spec = (lease.spec ?? {}) as LeaseSpec;
    if (!mayHold(spec, name, ctx.now)) return;
    const transitions = spec.holderIdentity !== name;
    const owned = !!lease.metadata.ownerReferences?.length;
    const body: KObject = {
      ...lease,
      // setNodeOwnerFunc: the Node is the owner, set on any renewal that finds none.
      metadata: owned ? lease.metadata : { ...lease.metadata, ownerReferences: [nodeOwner(node)] },
      spec: transitions ? { ...spec, holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_S, leaseTransitions: (spec.leaseTransitions ?? 0) + 1, renewTime } : { ...spec, renewTime },
    };
    const leaseText = owned && !transitions ? this.leases.textOf(lease) : undefined;
    const text = leaseText === undefined ? undefined : renewedText(leaseText, lease, renewTime);
    if (text !== undefined && readonlyChecks() && text !== JSON.stringify(body)) throw new Error(`renewal text differs from its body's encoding: ${text.slice(0, 200)}`);
    this.write(ctx, { method: 'PUT', path: `${LEASES}/${name}`, body, ...(text !== undefined ? { text } : {}), what: `renew ${name}`, contentType: 'application/json' });
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (tag === 'relist') return this.list(ctx, data as Informer);
    if (tag === 'retry') return this.write(ctx, data as PendingWrite);
    if (tag === 'lease') return this.syncLease(ctx, data as string);
    if (tag === 'status') {
      // node-heartbeat-with-lease: the node's conditions heartbeated, addresses kept; then the next delay.
      const name = data as string;
      const n = this.nodes.store.get(name);
      if (!n || !this.isFake(name)) {
        this.heartbeats.delete(name);
        return;
      }
      ctx.setTimer(this.heartbeatDelay(ctx), 'status', name);
      const st = (n.status ?? {}) as NodeStatus;
      if (st.conditions?.find((c) => c.type === 'Ready')?.status !== 'True') return;
      const now = rfc3339(ctx.now);
      this.write(ctx, { method: 'PATCH', path: `/api/v1/nodes/${name}/status`, body: { status: { conditions: nodeConditions(now, n.metadata.creationTimestamp ?? now), ...(st.addresses ? { addresses: st.addresses } : {}) } }, what: `heartbeat ${name}`, contentType: 'application/strategic-merge-patch+json' });
    }
  }

  persisted(): void {}

  refused(ctx: ActorContext, _to: ActorId, p: Payload): void {
    const reqId = (p as { reqId?: number }).reqId ?? 0;
    const purpose = this.requests.get(reqId);
    this.requests.delete(reqId);
    if (purpose && (purpose.kind === 'list' || purpose.kind === 'watch')) ctx.setTimer(1000, 'relist', purpose.informer);
    if (purpose?.kind === 'write') {
      this.writesInFlight--;
      this.pump(ctx);
    }
  }

  peerReset(ctx: ActorContext, peer: ActorId): void {
    if (peer !== this.config.server) return;
    for (const [reqId, purpose] of [...this.requests]) {
      this.requests.delete(reqId);
      if (purpose.kind === 'list' || purpose.kind === 'watch') ctx.setTimer(1000, 'relist', purpose.informer);
      if (purpose.kind === 'write') this.writesInFlight--;
    }
    this.pump(ctx);
  }
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  renewTime?: string;
  leaseTransitions?: number;
}

/**
 * JSON.stringify({ ...lease, spec: { ...lease.spec, renewTime } }) from `text`
 * = JSON.stringify(lease), when spec is the Lease's last member and renewTime
 * spec's (as kwok creates it and the server keeps it): the text ends with the
 * old renewTime and two closing braces, and only that value changes.
 */
function renewedText(text: string, lease: KObject, renewTime: string): string | undefined {
  const spec = lease.spec as Record<string, unknown> | undefined;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec) || !isLastMember(lease, 'spec') || !isLastMember(spec, 'renewTime')) return undefined;
  const old = spec.renewTime;
  if (typeof old !== 'string') return undefined;
  return `${text.slice(0, text.length - JSON.stringify(old).length - 2)}${JSON.stringify(renewTime)}}}`;
}

function isLastMember(o: object, key: string): boolean {
  const keys = Object.keys(o);
  return keys[keys.length - 1] === key;
}

const nodeOwner = (node: KObject) => ({ apiVersion: 'v1', kind: 'Node', name: node.metadata.name!, uid: node.metadata.uid! });

/** tryAcquireOrRenew: ours, unheld, or its holder's renewTime + duration has passed. */
function mayHold(spec: LeaseSpec, holder: string, now: number): boolean {
  if (spec.holderIdentity === undefined || spec.holderIdentity === holder) return true;
  if (spec.renewTime === undefined || spec.leaseDurationSeconds === undefined) return true;
  return parseRfc3339(spec.renewTime) + spec.leaseDurationSeconds * 1000 < now;
}

interface NodeCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastHeartbeatTime: string;
  lastTransitionTime: string;
}

interface NodeStatus {
  conditions?: NodeCondition[];
  addresses?: { type: string; address: string }[];
  allocatable?: Record<string, string>;
  capacity?: Record<string, string>;
  phase?: string;
}

/** KWOK's NodeConditions: a healthy kubelet's five conditions (transition time: the node's creation). */
function nodeConditions(now: string, since: string): NodeCondition[] {
  const c = (type: string, status: string, reason: string, message: string): NodeCondition => ({ lastHeartbeatTime: now, lastTransitionTime: since, message, reason, status, type });
  return [
    c('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    c('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    c('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    c('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    c('NetworkUnavailable', 'False', 'RouteCreated', 'RouteController created a route'),
  ];
}

registerClass('KwokController', KwokController);
registerActorKind<KwokConfig, null>({
  kind: KWOK_KIND,
  initDurable: () => null,
  create: (id, config) => new KwokController(id, config),
});
