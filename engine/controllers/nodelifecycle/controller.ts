// The node lifecycle controller ("node-controller",
// pkg/controller/nodelifecycle/node_lifecycle_controller.go, v1.32):
// - monitorNodeHealth every node-monitor-period (5 s): a node whose Ready
//   condition heartbeat or Lease renewal was not observed to change for
//   node-monitor-grace-period (50 s; node-startup-grace-period 60 s for a node
//   that never posted) gets every condition set to Unknown;
// - taint-based eviction: Ready False → node.kubernetes.io/not-ready:NoExecute,
//   Unknown → node.kubernetes.io/unreachable:NoExecute, added through per-zone
//   rate-limited queues (--node-eviction-rate 0.1, secondary 0.01 for large
//   zones in partial disruption, none when every zone is fully disrupted),
//   removed once Ready again;
// - TaintNodesByCondition: NoSchedule taints mirroring the conditions.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { parseRfc3339, rfc3339 } from '../../apiserver/http/time';
import { jsonRoundTrip } from '../../sim/jsonClone';
import { registerClass } from '../../sim/serial';
import { assertNever } from '../../sim/assert';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { RateLimitedTimedQueue } from './rateLimitedTimedQueue';
import { PeriodicLoops } from '../framework/loops';
import {
  NOT_READY_TAINT,
  swapTaints,
  taintExists,
  taintsOf,
  TAINT_NODE_DISK_PRESSURE,
  TAINT_NODE_MEMORY_PRESSURE,
  TAINT_NODE_NETWORK_UNAVAILABLE,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_PID_PRESSURE,
  TAINT_NODE_UNREACHABLE,
  TAINT_NODE_UNSCHEDULABLE,
  UNREACHABLE_TAINT,
  type Taint,
} from './taints';

export interface NodeCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

export interface NodeLifecycleOptions {
  nodeMonitorPeriodMs: number;
  nodeMonitorGracePeriodMs: number;
  nodeStartupGracePeriodMs: number;
  evictionLimiterQPS: number;
  secondaryEvictionLimiterQPS: number;
  largeClusterThreshold: number;
  unhealthyZoneThreshold: number;
}

/** kube-controller-manager v1.32 defaults. */
export const NODE_LIFECYCLE_DEFAULTS: NodeLifecycleOptions = {
  nodeMonitorPeriodMs: 5_000,
  nodeMonitorGracePeriodMs: 50_000,
  nodeStartupGracePeriodMs: 60_000,
  evictionLimiterQPS: 0.1,
  secondaryEvictionLimiterQPS: 0.01,
  largeClusterThreshold: 50,
  unhealthyZoneThreshold: 0.55,
};

/** scheduler.NodeEvictionPeriod: how often the NoExecute tainting queues are worked. */
export const NODE_EVICTION_PERIOD_MS = 100;

export type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

interface NodeHealth {
  savedReady: NodeCondition | null;
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  /** The observed Lease's renewTime (virtual ms), if any. */
  leaseRenew: number | null;
}

type Tag = { op: 'status'; node: string } | { op: 'taint'; node: string; zone: string | null } | { op: 'podStatus'; pod: string };

const MONITOR = 'monitor';
const TAINT_PASS = 'noExecuteTaintingPass';
const NODE_PREFIX = 'node/';
const RECENT = 50;

const CONDITION_TYPES = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/** nodeConditionToTaintKeyStatusMap. */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NODE_NOT_READY, Unknown: TAINT_NODE_UNREACHABLE },
  MemoryPressure: { True: TAINT_NODE_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_NODE_DISK_PRESSURE },
  NetworkUnavailable: { True: TAINT_NODE_NETWORK_UNAVAILABLE },
  PIDPressure: { True: TAINT_NODE_PID_PRESSURE },
};
const CONDITION_TAINT_KEYS = new Set(Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)));

export function conditionsOf(node: KObject): NodeCondition[] {
  return ((node.status as { conditions?: NodeCondition[] } | undefined)?.conditions ?? []) as NodeCondition[];
}

export function readyCondition(node: KObject): NodeCondition | null {
  return conditionsOf(node).find((c) => c.type === 'Ready') ?? null;
}

/** nodetopology.GetZoneKey: region and zone labels, "" when neither is set. */
export function zoneKey(node: KObject): string {
  const l = node.metadata.labels ?? {};
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\x00:${zone}`;
}

function sameCondition(a: NodeCondition | null, b: NodeCondition | null): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '') && a.lastHeartbeatTime === b.lastHeartbeatTime && a.lastTransitionTime === b.lastTransitionTime;
}

/** A Lease's renewTime in virtual ms, parsed once per informer object (every monitor pass reads every node's Lease). */
const renewTimes = new WeakMap<KObject, number>();

function renewTimeOf(lease: KObject): number {
  let t = renewTimes.get(lease);
  if (t === undefined) renewTimes.set(lease, (t = parseRfc3339((lease.spec as { renewTime?: string } | undefined)?.renewTime ?? '')));
  return t;
}

/** nodeutil.RecordNodeEvent's message: "Node %s event: %s". */
function nodeEventMessage(name: string, event: string): string {
  return `Node ${name} event: ${event}`;
}

function nodeRef(node: KObject): KObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: node.metadata.name, uid: node.metadata.uid } };
}

export class NodeLifecycleController implements Controller {
  readonly name = 'node-controller';
  readonly informers = ['nodes', 'leases', 'pods'] as const;
  readonly queue = new RateLimitingQueue<string>('node_lifecycle_controller');
  readonly recent: { t: number; key: string; what: string }[] = [];
  readonly opts: NodeLifecycleOptions;
  private started = false;
  readonly loops = new PeriodicLoops();
  /** Nodes seen by monitorNodeHealth (knownNodeSet), with their uid. */
  readonly knownNodes = new Map<string, string>();
  readonly nodeHealth = new Map<string, NodeHealth>();
  readonly zoneStates = new Map<string, ZoneState>();
  readonly zoneTainter = new Map<string, RateLimitedTimedQueue>();
  /** NoExecute taints written by the tainting pass, until the informer shows them (so a pass in between does not queue the node again). */
  readonly taintInFlight = new Map<string, string>();

  constructor(opts: Partial<NodeLifecycleOptions> = {}) {
    this.opts = { ...NODE_LIFECYCLE_DEFAULTS, ...opts };
  }

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (!this.started) {
      // wait.UntilWithContext(monitorNodeHealth, nodeMonitorPeriod): first pass at once.
      this.started = true;
      this.loops.schedule(MONITOR, ctx.now);
    }
    // The node update queue (doNodeProcessingPassWorker: condition → NoSchedule taints).
    if (resource === 'nodes') {
      const name = ev.object.metadata.name!;
      const pending = this.taintInFlight.get(name);
      if (pending && (ev.type === 'DELETED' || taintsOf(ev.object).some((t) => t.key === pending && t.effect === 'NoExecute'))) this.taintInFlight.delete(name);
      if (ev.type !== 'DELETED') this.queue.add(NODE_PREFIX + name, ctx.now);
    }
  }

  runPass(pass: string, ctx: ControllerContext): number | null {
    if (pass === MONITOR) {
      this.monitorNodeHealth(ctx);
      this.ensureTaintPass(ctx);
      return this.opts.nodeMonitorPeriodMs;
    }
    // TAINT_PASS: it runs while some zone's tainter has nodes waiting.
    this.doNoExecuteTaintingPass(ctx);
    const next = this.nextTaintPassAt(ctx.now);
    return next === Infinity ? null : Math.max(NODE_EVICTION_PERIOD_MS, next - ctx.now);
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (key.startsWith(NODE_PREFIX)) {
      this.doNoScheduleTaintingPass(key.slice(NODE_PREFIX.length), ctx);
      return { type: 'done' };
    }
    return { type: 'done' };
  }

  onResponse(tag: unknown, status: number, _body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    if (status >= 200 && status < 300) return;
    switch (t.op) {
      case 'status':
      case 'podStatus':
        // The next monitor pass sees the informer's object again and retries.
        return;
      case 'taint': {
        // A failed swap from the tainting queue is queued again (Try's requeue).
        if (t.zone === null) return;
        this.taintInFlight.delete(t.node);
        const q = this.zoneTainter.get(t.zone);
        const node = ctx.store('nodes').get(t.node);
        if (q && node) {
          q.remove(t.node);
          q.add(t.node, node.metadata.uid ?? '', ctx.now);
          this.ensureTaintPass(ctx);
        }
        return;
      }
      default:
        assertNever(t, 'tag');
    }
  }

  // ---- monitorNodeHealth ------------------------------------------------------------

  private monitorNodeHealth(ctx: ControllerContext): void {
    const nodes = [...ctx.store('nodes').values()].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    const names = new Set(nodes.map((n) => n.metadata.name!));
    for (const n of nodes) {
      if (this.knownNodes.has(n.metadata.name!)) continue;
      ctx.event({ regarding: nodeRef(n), type: 'Normal', reason: 'RegisteredNode', message: nodeEventMessage(n.metadata.name ?? '', `Registered Node ${n.metadata.name} in Controller`) });
      this.knownNodes.set(n.metadata.name!, n.metadata.uid ?? '');
      this.addPodEvictorForNewZone(n, ctx.now);
      this.markNodeAsReachable(n, ctx);
    }
    for (const [name, uid] of [...this.knownNodes]) {
      if (names.has(name)) continue;
      ctx.event({ regarding: { apiVersion: 'v1', kind: 'Node', metadata: { name, uid } }, type: 'Normal', reason: 'RemovingNode', message: nodeEventMessage(name, `Removing Node ${name} from Controller`) });
      this.knownNodes.delete(name);
      this.nodeHealth.delete(name);
    }

    const zoneConditions = new Map<string, (NodeCondition | null)[]>();
    for (const node of nodes) {
      const { observed, current } = this.tryUpdateNodeHealth(node, ctx);
      if (!this.isExcluded(node)) {
        const z = zoneKey(node);
        const list = zoneConditions.get(z) ?? [];
        list.push(current);
        zoneConditions.set(z, list);
      }
      if (current) {
        this.processTaintBaseEviction(node, observed, ctx);
        if (current.status !== 'True' && observed.status === 'True') {
          // RecordNodeStatusChange, then MarkPodsNotReady.
          ctx.event({ regarding: nodeRef(node), type: 'Normal', reason: 'NodeNotReady', message: `Node ${node.metadata.name} status is now: NodeNotReady` });
          this.markPodsNotReady(node.metadata.name!, ctx);
          this.note(ctx, node.metadata.name!, `Ready ${observed.status} → ${current.status}`);
        }
      }
    }
    this.handleDisruption(zoneConditions, nodes, ctx);
  }

  private isExcluded(node: KObject): boolean {
    return 'node.kubernetes.io/exclude-disruption' in (node.metadata.labels ?? {});
  }

  /**
   * tryUpdateNodeHealth: the probe timestamp is when this controller saw the
   * Ready heartbeat or the Lease renewTime change (its own clock); past the
   * grace period every condition becomes Unknown.
   */
  private tryUpdateNodeHealth(node: KObject, ctx: ControllerContext): { observed: NodeCondition; current: NodeCondition | null } {
    const now = ctx.now;
    const name = node.metadata.name!;
    let health = this.nodeHealth.get(name);
    const currentReady = readyCondition(node);
    let observed: NodeCondition;
    let grace: number;
    if (!currentReady) {
      // Never posted: a fake Unknown condition from the creation time, and the startup grace period.
      observed = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: node.metadata.creationTimestamp ?? undefined, lastTransitionTime: node.metadata.creationTimestamp ?? undefined };
      grace = this.opts.nodeStartupGracePeriodMs;
      const created = parseRfc3339(node.metadata.creationTimestamp ?? '') || 0;
      if (health) health.savedReady = null;
      else health = { savedReady: null, probeTimestamp: created, readyTransitionTimestamp: created, leaseRenew: null };
    } else {
      observed = { ...currentReady };
      grace = this.opts.nodeMonitorGracePeriodMs;
    }
    // The node's health record is this controller's own: updated in place (every node, every pass).
    const saved = health ? health.savedReady : null;
    if (!health) {
      health = { savedReady: currentReady ? { ...currentReady } : null, probeTimestamp: now, readyTransitionTimestamp: now, leaseRenew: null };
    } else if (!saved && currentReady) {
      health.savedReady = { ...currentReady };
      health.probeTimestamp = now;
      health.readyTransitionTimestamp = now;
    } else if (saved && !currentReady) {
      health.savedReady = null;
      health.probeTimestamp = now;
      health.readyTransitionTimestamp = now;
    } else if (saved && currentReady && saved.lastHeartbeatTime !== currentReady.lastHeartbeatTime) {
      if (saved.lastTransitionTime !== currentReady.lastTransitionTime) health.readyTransitionTimestamp = now;
      health.savedReady = { ...currentReady };
      health.probeTimestamp = now;
    }
    // Always refresh the probe time when the node's Lease was renewed.
    const lease = ctx.store('leases').get(`kube-node-lease/${name}`);
    const renew = lease ? renewTimeOf(lease) : NaN;
    if (lease && !Number.isNaN(renew) && (health.leaseRenew === null || health.leaseRenew < renew)) {
      health.leaseRenew = renew;
      health.probeTimestamp = now;
    }
    this.nodeHealth.set(name, health);

    if (now > health.probeTimestamp + grace) {
      // A copy to write (the informer's object stays as it is); only nodes past their grace period pay for it.
      node = jsonRoundTrip(node);
      const status = (node.status ?? (node.status = {})) as { conditions?: NodeCondition[] };
      const conditions = (status.conditions ??= []);
      const stamp = rfc3339(now);
      for (const type of CONDITION_TYPES) {
        const c = conditions.find((x) => x.type === type);
        if (!c) {
          conditions.push({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: node.metadata.creationTimestamp ?? undefined, lastTransitionTime: stamp });
        } else if (c.status !== 'Unknown') {
          c.status = 'Unknown';
          c.reason = 'NodeStatusUnknown';
          c.message = 'Kubelet stopped posting node status.';
          c.lastTransitionTime = stamp;
        }
      }
      const updated = readyCondition(node);
      if (!sameCondition(updated, observed)) {
        ctx.request({ method: 'PUT', path: `/api/v1/nodes/${name}/status`, body: node }, { op: 'status', node: name } satisfies Tag);
        this.nodeHealth.set(name, { savedReady: updated ? { ...updated } : null, probeTimestamp: health.probeTimestamp, readyTransitionTimestamp: now, leaseRenew: health.leaseRenew });
        this.note(ctx, name, 'Kubelet stopped posting node status: conditions Unknown');
        return { observed, current: updated };
      }
    }
    return { observed, current: readyCondition(node) };
  }

  /** processTaintBaseEviction, on the condition observed before this pass changed it. */
  private processTaintBaseEviction(node: KObject, observed: NodeCondition, ctx: ControllerContext): void {
    const taints = taintsOf(node);
    switch (observed.status) {
      case 'False':
        if (taintExists(taints, UNREACHABLE_TAINT)) this.swap(node, [NOT_READY_TAINT], [UNREACHABLE_TAINT], null, ctx);
        else this.markNodeForTainting(node, 'False', ctx.now);
        return;
      case 'Unknown':
        if (taintExists(taints, NOT_READY_TAINT)) this.swap(node, [UNREACHABLE_TAINT], [NOT_READY_TAINT], null, ctx);
        else this.markNodeForTainting(node, 'Unknown', ctx.now);
        return;
      case 'True':
        this.markNodeAsReachable(node, ctx);
        return;
      default:
        return;
    }
  }

  private markNodeForTainting(node: KObject, status: 'False' | 'Unknown', now: number): boolean {
    const q = this.tainterFor(node, now);
    const taint = status === 'False' ? NOT_READY_TAINT : UNREACHABLE_TAINT;
    if (!taintExists(taintsOf(node), taint) && this.taintInFlight.get(node.metadata.name!) !== taint.key) q.remove(node.metadata.name!);
    return q.add(node.metadata.name!, node.metadata.uid ?? '', now);
  }

  private markNodeAsReachable(node: KObject, ctx: ControllerContext): void {
    const taints = taintsOf(node);
    // Every Ready node comes here on every pass: most have no taint at all.
    const remove = taints.length === 0 ? [] : [UNREACHABLE_TAINT, NOT_READY_TAINT].filter((t) => taintExists(taints, t));
    if (remove.length) {
      this.swap(node, [], remove, null, ctx);
      this.note(ctx, node.metadata.name!, 'Ready again: NoExecute taints removed');
    }
    this.tainterFor(node, ctx.now).remove(node.metadata.name!);
  }

  private tainterFor(node: KObject, now: number): RateLimitedTimedQueue {
    this.addPodEvictorForNewZone(node, now);
    return this.zoneTainter.get(zoneKey(node))!;
  }

  private addPodEvictorForNewZone(node: KObject, now: number): void {
    const z = zoneKey(node);
    if (this.zoneStates.has(z) && this.zoneTainter.has(z)) return;
    this.zoneStates.set(z, 'Initial');
    this.zoneTainter.set(z, new RateLimitedTimedQueue(this.opts.evictionLimiterQPS, now));
  }

  /** One strategic-merge patch of spec.taints, guarded by the node's resourceVersion (PatchNodeTaints). */
  private swap(node: KObject, add: Taint[], remove: Taint[], zone: string | null, ctx: ControllerContext): void {
    const taints = swapTaints(taintsOf(node), add, remove, ctx.now);
    ctx.request(
      {
        method: 'PATCH',
        path: `/api/v1/nodes/${node.metadata.name}`,
        contentType: 'application/strategic-merge-patch+json',
        body: { metadata: { resourceVersion: node.metadata.resourceVersion }, spec: { taints } },
      },
      { op: 'taint', node: node.metadata.name!, zone } satisfies Tag,
    );
  }

  /** MarkPodsNotReady: every pod on the node gets Ready=False. */
  private markPodsNotReady(nodeName: string, ctx: ControllerContext): void {
    for (const p of ctx.store('pods').values()) {
      if ((p.spec as { nodeName?: string } | undefined)?.nodeName !== nodeName) continue;
      const pod = jsonRoundTrip(p);
      const conds = ((pod.status as { conditions?: { type: string; status: string; lastTransitionTime?: string }[] } | undefined)?.conditions ?? []);
      const ready = conds.find((c) => c.type === 'Ready');
      if (!ready || ready.status === 'False') continue;
      ready.status = 'False';
      ready.lastTransitionTime = rfc3339(ctx.now);
      const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
      ctx.request({ method: 'PUT', path: `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`, body: { ...pod, apiVersion: 'v1', kind: 'Pod' } }, { op: 'podStatus', pod: key } satisfies Tag);
      ctx.event({ regarding: { apiVersion: 'v1', kind: 'Pod', metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid } }, type: 'Warning', reason: 'NodeNotReady', message: 'Node is not ready' });
    }
  }

  // ---- zones ------------------------------------------------------------------------

  /** ComputeZoneState. */
  computeZoneState(conditions: readonly (NodeCondition | null)[]): ZoneState {
    let ready = 0;
    let notReady = 0;
    for (const c of conditions) {
      if (c && c.status === 'True') ready++;
      else notReady++;
    }
    if (ready === 0 && notReady > 0) return 'FullDisruption';
    if (notReady > 2 && notReady / (notReady + ready) >= this.opts.unhealthyZoneThreshold) return 'PartialDisruption';
    return 'Normal';
  }

  private setLimiterInZone(zone: string, zoneSize: number, state: ZoneState, now: number): void {
    const q = this.zoneTainter.get(zone);
    if (!q) return;
    switch (state) {
      case 'Normal':
      case 'FullDisruption':
        // HealthyQPSFunc for a fully disrupted zone while others are not.
        q.swapLimiter(this.opts.evictionLimiterQPS, now);
        return;
      case 'PartialDisruption':
        // ReducedQPSFunc: no evictions in small zones, the secondary rate in large ones.
        q.swapLimiter(zoneSize <= this.opts.largeClusterThreshold ? 0 : this.opts.secondaryEvictionLimiterQPS, now);
        return;
      case 'Initial':
        return;
      default:
        assertNever(state, 'zone state');
    }
  }

  private handleDisruption(zoneConditions: Map<string, (NodeCondition | null)[]>, nodes: KObject[], ctx: ControllerContext): void {
    const newStates = new Map<string, ZoneState>();
    let allAreFullyDisrupted = true;
    for (const [z, conds] of zoneConditions) {
      const s = this.computeZoneState(conds);
      newStates.set(z, s);
      if (s !== 'FullDisruption') allAreFullyDisrupted = false;
    }
    let allWasFullyDisrupted = true;
    for (const [z, s] of [...this.zoneStates]) {
      if (!zoneConditions.has(z)) {
        this.zoneStates.delete(z);
        continue;
      }
      if (s !== 'FullDisruption') {
        allWasFullyDisrupted = false;
        break;
      }
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) return;
    if (allAreFullyDisrupted) {
      // "Entering master disruption mode": nobody is tainted, no evictions.
      for (const n of nodes) this.markNodeAsReachable(n, ctx);
      for (const z of this.zoneStates.keys()) this.zoneTainter.get(z)?.swapLimiter(0, ctx.now);
      for (const z of this.zoneStates.keys()) this.zoneStates.set(z, 'FullDisruption');
      this.note(ctx, '', 'all nodes not Ready: entering master disruption mode');
      return;
    }
    if (allWasFullyDisrupted) {
      // Exiting: every node gets a fresh probe timestamp.
      for (const n of nodes) {
        const h = this.nodeHealth.get(n.metadata.name!);
        if (h) this.nodeHealth.set(n.metadata.name!, { ...h, probeTimestamp: ctx.now, readyTransitionTimestamp: ctx.now });
      }
      for (const z of this.zoneStates.keys()) {
        const s = newStates.get(z) ?? 'Normal';
        this.setLimiterInZone(z, zoneConditions.get(z)?.length ?? 0, s, ctx.now);
        this.zoneStates.set(z, s);
      }
      this.note(ctx, '', 'some nodes Ready: exiting master disruption mode');
      return;
    }
    for (const [z, s] of this.zoneStates) {
      const ns = newStates.get(z);
      if (!ns || ns === s) continue;
      this.setLimiterInZone(z, zoneConditions.get(z)?.length ?? 0, ns, ctx.now);
      this.zoneStates.set(z, ns);
      this.note(ctx, '', `zone ${JSON.stringify(z)} is now ${ns}`);
    }
  }

  // ---- tainting passes ------------------------------------------------------------------

  private ensureTaintPass(ctx: ControllerContext): void {
    if (this.loops.has(TAINT_PASS) || this.nextTaintPassAt(ctx.now) === Infinity) return;
    this.loops.schedule(TAINT_PASS, ctx.now);
  }

  private nextTaintPassAt(now: number): number {
    let next = Infinity;
    for (const q of this.zoneTainter.values()) next = Math.min(next, q.nextAt(now));
    return next;
  }

  /** doNoExecuteTaintingPass: each zone's queue, under its limiter. */
  private doNoExecuteTaintingPass(ctx: ControllerContext): void {
    const nodes = ctx.store('nodes');
    for (const [zone, q] of this.zoneTainter) {
      q.try(ctx.now, (v) => {
        const node = nodes.get(v.value);
        if (!node) return { ok: true, waitMs: 0 };
        const ready = readyCondition(node);
        if (!ready) return { ok: false, waitMs: 50 };
        let add: Taint;
        let opposite: Taint;
        if (ready.status === 'False') {
          add = NOT_READY_TAINT;
          opposite = UNREACHABLE_TAINT;
        } else if (ready.status === 'Unknown') {
          add = UNREACHABLE_TAINT;
          opposite = NOT_READY_TAINT;
        } else {
          return { ok: true, waitMs: 0 };
        }
        this.swap(node, [add], [opposite], zone, ctx);
        this.taintInFlight.set(v.value, add.key);
        this.note(ctx, v.value, `tainted ${add.key}:NoExecute`);
        return { ok: true, waitMs: 0 };
      });
    }
  }

  /** doNoScheduleTaintingPass: NoSchedule taints follow the conditions and spec.unschedulable. */
  private doNoScheduleTaintingPass(name: string, ctx: ControllerContext): void {
    const node = ctx.store('nodes').get(name);
    if (!node) return;
    const want: Taint[] = [];
    for (const c of conditionsOf(node)) {
      const key = CONDITION_TAINTS[c.type]?.[c.status];
      if (key) want.push({ key, effect: 'NoSchedule' });
    }
    if ((node.spec as { unschedulable?: boolean } | undefined)?.unschedulable) want.push({ key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' });
    const have = taintsOf(node).filter((t) => t.effect === 'NoSchedule' && (t.key === TAINT_NODE_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key)));
    const add = want.filter((w) => !have.some((h) => h.key === w.key && h.effect === w.effect && (h.value ?? '') === (w.value ?? '')));
    const del = have.filter((h) => !want.some((w) => w.key === h.key && w.effect === h.effect && (h.value ?? '') === (w.value ?? '')));
    if (add.length === 0 && del.length === 0) return;
    this.swap(node, add, del, null, ctx);
  }

  private note(ctx: ControllerContext, key: string, what: string): void {
    this.recent.push({ t: ctx.now, key, what });
    if (this.recent.length > RECENT) this.recent.splice(0, this.recent.length - RECENT);
  }
}

registerClass('NodeLifecycleController', NodeLifecycleController);
