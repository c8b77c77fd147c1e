// The cluster map's data on the main thread, merged from the feed's deltas
// (engine/facade/map/protocol.ts) into columns by slot: what the canvas reads
// every frame without allocating. Derived here, kept up to date per change:
// each pod's display state, pods grouped by node (in name order), nodes in
// name order (node-2 before node-10), the counts the summary shows.
import {
  NO_STRING,
  NODE_TAINTED,
  NODE_UNSCHEDULABLE,
  PHASES,
  POD_READY,
  POD_TERMINATING,
  READY_STATUS,
  type MapComponent,
  type MapDelta,
} from '../../engine/facade/map/protocol';

/** How a pod is drawn. Order matters: the legend follows it; values index POD_STATES. */
export type PodState = 'ready' | 'notReady' | 'pending' | 'failed' | 'terminating' | 'succeeded';
export const POD_STATES: readonly PodState[] = ['ready', 'notReady', 'pending', 'failed', 'terminating', 'succeeded'];
export type NodeState = 'ready' | 'notReady' | 'unknown';
export const NODE_STATES: readonly NodeState[] = ['ready', 'notReady', 'unknown'];

/** Waiting or terminated reasons that mean the pod is in trouble even while its phase says Running or Pending. */
const FAILING_REASONS = new Set(['CrashLoopBackOff', 'Error', 'OOMKilled', 'ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'CreateContainerError', 'CreateContainerConfigError', 'RunContainerError', 'StartError', 'ContainerCannotRun']);

export function podStateOf(phase: string, ready: boolean, terminating: boolean, reason: string): PodState {
  if (terminating) return 'terminating';
  if (phase === 'Failed' || FAILING_REASONS.has(reason)) return 'failed';
  if (phase === 'Succeeded') return 'succeeded';
  if (phase === 'Running') return ready ? 'ready' : 'notReady';
  return 'pending';
}

export function nodeStateOf(ready: string): NodeState {
  return ready === 'True' ? 'ready' : ready === 'False' ? 'notReady' : 'unknown';
}

/** A pod as the tooltip, the inspector and the accessible list describe it. */
export interface PodInfo {
  slot: number;
  key: string;
  namespace: string;
  name: string;
  node: string;
  phase: string;
  ready: boolean;
  terminating: boolean;
  reason: string;
  owner: string;
  state: PodState;
}

export interface NodeInfo {
  slot: number;
  name: string;
  ready: string;
  state: NodeState;
  unschedulable: boolean;
  taints: string[];
  labels: Record<string, string>;
  allocatable: { cpu: number; memory: number; pods: number };
  requested: { cpu: number; memory: number };
  pods: number;
}

const byName = new Intl.Collator('en', { numeric: true });

/** Deltas with more pods than this are merged in bulk. */
const BULK_PODS = 512;

function grow<T extends Int32Array | Uint8Array | Float64Array>(a: T, n: number): T {
  if (n <= a.length) return a;
  const b = new (a.constructor as { new (n: number): T })(Math.max(n, a.length * 2, 64));
  b.set(a);
  return b;
}

export class MapData {
  epoch = 0;
  seq = 0;
  /** Bumps on every applied delta that changed anything. */
  version = 0;
  readonly strings: string[] = [];
  // ---- pods by slot
  podKey: string[] = [];
  podNode = new Int32Array(0);
  podPhase = new Uint8Array(0);
  podFlags = new Uint8Array(0);
  podReason = new Int32Array(0);
  podOwner = new Int32Array(0);
  /** Index into POD_STATES. */
  podState = new Uint8Array(0);
  podLive = new Uint8Array(0);
  readonly podByKey = new Map<string, number>();
  // ---- nodes by slot
  nodeName = new Int32Array(0);
  nodeReady = new Uint8Array(0);
  nodeFlags = new Uint8Array(0);
  allocCpu = new Float64Array(0);
  allocMemory = new Float64Array(0);
  allocPods = new Float64Array(0);
  reqCpu = new Float64Array(0);
  reqMemory = new Float64Array(0);
  nodeLive = new Uint8Array(0);
  nodeMeta: ({ taints: string[]; labels: Record<string, string> } | undefined)[] = [];
  readonly nodeByName = new Map<string, number>();
  components: MapComponent[] = [];
  // ---- derived
  /** Node slots in name order: the grid's order. */
  order: number[] = [];
  /** Grid position by node slot (-1 for none). */
  gridIndex = new Int32Array(0);
  /** Pod slots per node name (string id), in key order; includes names no node has (yet). */
  readonly podsByNodeName = new Map<number, number[]>();
  /** Pods with no node, or bound to a node the map does not list. */
  unscheduled: number[] = [];
  readonly podCounts = new Int32Array(POD_STATES.length);
  readonly nodeCounts = new Int32Array(NODE_STATES.length);
  podTotal = 0;
  /** The last read found no API server to read: the picture is the last one known. */
  stale = false;
  /** Pods the source holds (podTotal lags while a big first read arrives in parts). */
  sourcePods = 0;
  /** The most pods on any one node (sizes the tiles). */
  maxPodsPerNode = 0;
  private orderDirty = true;
  private unscheduledDirty = true;
  /** While applying many pods: the lists appended to, sorted once at the end. */
  private bulk: Set<number[]> | null = null;
  /** Node name ids whose tile changed since the last takeDirty (its node or any of its pods). */
  private dirtyNames = new Set<number>();
  /** Everything changed (a full delta, nodes added or removed: the grid moved). */
  private allDirty = true;

  apply(d: MapDelta): void {
    if (d.full) this.clear();
    else if (d.epoch !== this.epoch) throw new Error(`map delta of feed ${d.epoch} applied to feed ${this.epoch}'s data`);
    this.epoch = d.epoch;
    this.seq = d.seq;
    if (!d.stale) this.sourcePods = d.podCount;
    this.stale = !!d.stale;
    for (let i = 0; i < d.strings.length; i++) this.strings[d.stringsFrom + i] = d.strings[i]!;
    let changed = d.full || d.strings.length > 0;
    if (d.podsRemoved) for (const s of d.podsRemoved) this.removePod(s);
    if (d.nodesRemoved) for (const s of d.nodesRemoved) this.removeNode(s);
    if (d.podNames) {
      const keys = d.podNames.keys.split('\n');
      d.podNames.slot.forEach((s, i) => {
        this.podKey[s] = keys[i]!;
        this.podByKey.set(keys[i]!, s);
      });
    }
    if (d.nodes) this.applyNodes(d);
    if (d.nodeMeta) for (const m of d.nodeMeta) this.nodeMeta[m.slot] = { taints: m.taints, labels: m.labels };
    if (d.pods) {
      // Many at once (a full delta, a big part): append, then sort each list touched once (not a sorted insert per pod).
      this.bulk = d.pods.slot.length > BULK_PODS ? new Set() : null;
      this.applyPods(d);
      const touched = this.bulk;
      this.bulk = null;
      const byKey = (a: number, b: number) => (this.podKey[a]! < this.podKey[b]! ? -1 : 1);
      if (touched) for (const list of touched) list.sort(byKey);
    }
    if (d.components) this.components = d.components;
    changed ||= !!(d.podsRemoved || d.nodesRemoved || d.nodes || d.nodeMeta || d.pods || d.components);
    if (d.full || this.orderDirty || d.nodeMeta) this.allDirty ||= d.full || this.orderDirty;
    if (d.nodeMeta) for (const m of d.nodeMeta) this.dirtyNames.add(this.nodeName[m.slot]!);
    if (this.orderDirty) this.rebuildOrder();
    if (this.unscheduledDirty) this.rebuildUnscheduled();
    if (changed) this.version++;
  }

  private clear(): void {
    this.strings.length = 0;
    this.podKey = [];
    this.podLive.fill(0);
    this.podByKey.clear();
    this.nodeLive.fill(0);
    this.nodeMeta = [];
    this.nodeByName.clear();
    this.components = [];
    this.podsByNodeName.clear();
    this.podCounts.fill(0);
    this.nodeCounts.fill(0);
    this.podTotal = 0;
    this.orderDirty = true;
    this.unscheduledDirty = true;
  }

  private str(id: number): string {
    return id === NO_STRING ? '' : (this.strings[id] ?? '');
  }

  private applyNodes(d: MapDelta): void {
    const c = d.nodes!;
    const top = maxOf(c.slot) + 1;
    this.nodeName = grow(this.nodeName, top);
    this.nodeReady = grow(this.nodeReady, top);
    this.nodeFlags = grow(this.nodeFlags, top);
    this.allocCpu = grow(this.allocCpu, top);
    this.allocMemory = grow(this.allocMemory, top);
    this.allocPods = grow(this.allocPods, top);
    this.reqCpu = grow(this.reqCpu, top);
    this.reqMemory = grow(this.reqMemory, top);
    this.nodeLive = grow(this.nodeLive, top);
    for (let i = 0; i < c.slot.length; i++) {
      const s = c.slot[i]!;
      const name = this.str(c.name[i]!);
      if (this.nodeLive[s]) {
        this.nodeCounts[this.nodeStateIndex(s)]!--;
        const old = this.str(this.nodeName[s]!);
        if (old !== name) {
          this.nodeByName.delete(old);
          this.orderDirty = true;
          this.unscheduledDirty = true;
        }
      } else {
        this.orderDirty = true;
        this.unscheduledDirty = true;
      }
      this.nodeLive[s] = 1;
      this.nodeName[s] = c.name[i]!;
      this.dirtyNames.add(c.name[i]!);
      this.nodeByName.set(name, s);
      this.nodeReady[s] = c.ready[i]!;
      this.nodeFlags[s] = c.flags[i]!;
      this.allocCpu[s] = c.allocCpu[i]!;
      this.allocMemory[s] = c.allocMemory[i]!;
      this.allocPods[s] = c.allocPods[i]!;
      this.reqCpu[s] = c.reqCpu[i]!;
      this.reqMemory[s] = c.reqMemory[i]!;
      this.nodeCounts[this.nodeStateIndex(s)]!++;
    }
  }

  private removeNode(s: number): void {
    if (!this.nodeLive[s]) return;
    this.nodeCounts[this.nodeStateIndex(s)]!--;
    this.nodeLive[s] = 0;
    this.nodeByName.delete(this.str(this.nodeName[s]!));
    this.nodeMeta[s] = undefined;
    this.orderDirty = true;
    this.unscheduledDirty = true;
  }

  private applyPods(d: MapDelta): void {
    const c = d.pods!;
    const top = maxOf(c.slot) + 1;
    this.podNode = grow(this.podNode, top);
    this.podPhase = grow(this.podPhase, top);
    this.podFlags = grow(this.podFlags, top);
    this.podReason = grow(this.podReason, top);
    this.podOwner = grow(this.podOwner, top);
    this.podState = grow(this.podState, top);
    this.podLive = grow(this.podLive, top);
    for (let i = 0; i < c.slot.length; i++) {
      const s = c.slot[i]!;
      const node = c.node[i]!;
      if (this.podLive[s]) {
        this.podCounts[this.podState[s]!]!--;
        if (this.podNode[s] !== node) {
          this.unlink(s);
          this.link(s, node);
        }
      } else {
        this.podLive[s] = 1;
        this.podTotal++;
        this.link(s, node);
      }
      this.podNode[s] = node;
      if (node !== NO_STRING) this.dirtyNames.add(node);
      this.podPhase[s] = c.phase[i]!;
      this.podFlags[s] = c.flags[i]!;
      this.podReason[s] = c.reason[i]!;
      this.podOwner[s] = c.owner[i]!;
      const f = c.flags[i]!;
      const st = podStateOf(PHASES[c.phase[i]!] ?? 'Pending', (f & POD_READY) !== 0, (f & POD_TERMINATING) !== 0, this.str(c.reason[i]!));
      this.podState[s] = POD_STATES.indexOf(st);
      this.podCounts[this.podState[s]!]!++;
    }
  }

  private removePod(s: number): void {
    if (!this.podLive[s]) return;
    this.podCounts[this.podState[s]!]!--;
    this.unlink(s);
    this.podLive[s] = 0;
    this.podTotal--;
    this.podByKey.delete(this.podKey[s]!);
  }

  /** Adds pod slot `s` to its node's list, in key order. */
  private link(s: number, node: number): void {
    if (node === NO_STRING) {
      this.unscheduledDirty = true;
      return;
    }
    let list = this.podsByNodeName.get(node);
    if (!list) this.podsByNodeName.set(node, (list = []));
    this.dirtyNames.add(node);
    if (this.bulk) {
      list.push(s);
      this.bulk.add(list);
      if (list.length > this.maxPodsPerNode) this.maxPodsPerNode = list.length;
      return;
    }
    const key = this.podKey[s]!;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.podKey[list[mid]!]! < key) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, s);
    if (list.length > this.maxPodsPerNode) this.maxPodsPerNode = list.length;
    if (!this.nodeByName.has(this.str(node))) this.unscheduledDirty = true;
  }

  private unlink(s: number): void {
    const node = this.podNode[s]!;
    if (node === NO_STRING) {
      this.unscheduledDirty = true;
      return;
    }
    const list = this.podsByNodeName.get(node);
    this.dirtyNames.add(node);
    const i = list ? list.indexOf(s) : -1;
    if (i >= 0) list!.splice(i, 1);
    if (list && list.length === 0) this.podsByNodeName.delete(node);
    if (!this.nodeByName.has(this.str(node))) this.unscheduledDirty = true;
  }

  private rebuildOrder(): void {
    const slots: number[] = [];
    for (const s of this.nodeByName.values()) slots.push(s);
    slots.sort((a, b) => byName.compare(this.str(this.nodeName[a]!), this.str(this.nodeName[b]!)));
    this.order = slots;
    this.gridIndex = new Int32Array(Math.max(this.nodeLive.length, 1)).fill(-1);
    slots.forEach((s, i) => (this.gridIndex[s] = i));
    this.orderDirty = false;
  }

  private rebuildUnscheduled(): void {
    const out: number[] = [];
    for (let s = 0; s < this.podKey.length; s++) {
      if (!this.podLive[s]) continue;
      const n = this.podNode[s]!;
      if (n === NO_STRING || !this.nodeByName.has(this.str(n))) out.push(s);
    }
    out.sort((a, b) => (this.podKey[a]! < this.podKey[b]! ? -1 : 1));
    this.unscheduled = out;
    let max = 0;
    for (const l of this.podsByNodeName.values()) if (l.length > max) max = l.length;
    this.maxPodsPerNode = max;
    this.unscheduledDirty = false;
  }

  /**
   * What changed since the last call, for a consumer that keeps a picture of
   * the tiles (the map's overview): 'all', or the node slots to redraw.
   */
  takeDirty(): 'all' | number[] {
    if (this.allDirty) {
      this.allDirty = false;
      this.dirtyNames.clear();
      return 'all';
    }
    const out: number[] = [];
    for (const name of this.dirtyNames) {
      const slot = this.nodeByName.get(this.str(name));
      if (slot !== undefined) out.push(slot);
    }
    this.dirtyNames.clear();
    return out;
  }

  // ---- reads ---------------------------------------------------------------

  nodeStateIndex(s: number): number {
    return NODE_STATES.indexOf(nodeStateOf(READY_STATUS[this.nodeReady[s]!] ?? ''));
  }

  /** The pods drawn on node slot `s`, in key order. */
  podsOn(s: number): readonly number[] {
    return this.podsByNodeName.get(this.nodeName[s]!) ?? EMPTY;
  }

  nodeNameOf(s: number): string {
    return this.str(this.nodeName[s]!);
  }

  node(s: number): NodeInfo {
    const ready = READY_STATUS[this.nodeReady[s]!] ?? '';
    const meta = this.nodeMeta[s];
    return {
      slot: s,
      name: this.nodeNameOf(s),
      ready,
      state: nodeStateOf(ready),
      unschedulable: (this.nodeFlags[s]! & NODE_UNSCHEDULABLE) !== 0,
      taints: meta?.taints ?? [],
      labels: meta?.labels ?? {},
      allocatable: { cpu: this.allocCpu[s]!, memory: this.allocMemory[s]!, pods: this.allocPods[s]! },
      requested: { cpu: this.reqCpu[s]!, memory: this.reqMemory[s]! },
      pods: this.podsOn(s).length,
    };
  }

  tainted(s: number): boolean {
    return (this.nodeFlags[s]! & NODE_TAINTED) !== 0;
  }

  unschedulableNode(s: number): boolean {
    return (this.nodeFlags[s]! & NODE_UNSCHEDULABLE) !== 0;
  }

  pod(s: number): PodInfo {
    const key = this.podKey[s] ?? '';
    const slash = key.indexOf('/');
    const f = this.podFlags[s]!;
    return {
      slot: s,
      key,
      namespace: key.slice(0, slash),
      name: key.slice(slash + 1),
      node: this.str(this.podNode[s]!),
      phase: PHASES[this.podPhase[s]!] ?? 'Pending',
      ready: (f & POD_READY) !== 0,
      terminating: (f & POD_TERMINATING) !== 0,
      reason: this.str(this.podReason[s]!),
      owner: this.str(this.podOwner[s]!),
      state: POD_STATES[this.podState[s]!]!,
    };
  }

  /** A node or pod by name (a pod as namespace/name, or just its name: the first in key order). */
  find(text: string): { kind: 'node' | 'pod'; name: string } | null {
    const q = text.trim();
    if (!q) return null;
    if (this.nodeByName.has(q)) return { kind: 'node', name: q };
    if (this.podByKey.has(q)) return { kind: 'pod', name: q };
    let best: string | null = null;
    for (const key of this.podByKey.keys()) if (key.endsWith(`/${q}`) && (best === null || key < best)) best = key;
    return best ? { kind: 'pod', name: best } : null;
  }

  get nodeTotal(): number {
    return this.order.length;
  }
}

const EMPTY: readonly number[] = [];

function maxOf(a: Int32Array): number {
  let m = -1;
  for (let i = 0; i < a.length; i++) if (a[i]! > m) m = a[i]!;
  return m;
}
