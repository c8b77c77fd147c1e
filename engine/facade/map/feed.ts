// The cluster map's feed: reads nodes and pods as an API server's watch cache
// holds them and hands the map only what changed since its last delta, as
// columns (see protocol.ts). The cache replaces an object on every change, so
// an unchanged object is recognised by identity and costs one comparison; a
// changed one is re-encoded and sent only if what the map shows differs.
// Requested cpu and memory per node are kept as running sums.
import type { KObject } from '../../apimachinery/types';
import type { Pod } from '../../scheduler/framework/api';
import { podRequests, quantityNumber } from '../../scheduler/framework/resources';
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
  type NodeColumns,
  type PodColumns,
} from './protocol';

export type MapResource = 'pods' | 'nodes';

/** What changed in a store since a cursor: the current object of each changed key, and the keys deleted. */
export interface MapChanges {
  changed: [string, KObject][];
  deleted: string[];
  cursor: unknown;
}

/** Where the feed reads: stores keyed by a stable key (the etcd key), objects replaced, never mutated, on change. */
export interface MapSource {
  /** Null while no API server has its caches ready. */
  pods(): ReadonlyMap<string, KObject> | null;
  nodes(): ReadonlyMap<string, KObject> | null;
  components(): MapComponent[];
  /**
   * Optional, to skip the scans: the position in a store's history now, and the
   * changes since one (null when they are no longer known: the feed then scans).
   */
  cursor?(r: MapResource): unknown;
  changesSince?(r: MapResource, cursor: unknown): MapChanges | null;
}

interface PodRow {
  uid: string;
  /** cpu and memory hold the pod's requests (computed once the pod counts, then kept for its uid). */
  reqKnown: boolean;
  node: number;
  phase: number;
  flags: number;
  reason: number;
  owner: number;
  /** Counted in its node's requests (bound and not finished). */
  counted: boolean;
  cpu: number;
  memory: number;
}

interface NodeRow {
  name: number;
  ready: number;
  flags: number;
  allocCpu: number;
  allocMemory: number;
  allocPods: number;
  meta: string;
}

interface Slot<R> {
  obj: KObject;
  row: R;
  seen: number;
}

type ContainerStatus = { state?: { waiting?: { reason?: string }; terminated?: { reason?: string } } };

let epochs = 0;

/** Pods per delta at most: a part of 20,000 pods applies in a few tens of milliseconds on the main thread. */
export const MAX_PODS_PER_DELTA = 20_000;

export class ClusterFeed {
  readonly epoch = ++epochs;
  private seq = 0;
  private gen = 0;
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private sentStrings = 0;
  private readonly pods = new PodTable();
  private readonly nodes = new NodeTable();
  /** Requested [cpu, memory] per node name (string id), of counted pods. */
  private readonly requested = new Map<number, [number, number]>();
  private readonly sentRequested = new Map<number, string>();
  private componentsJson = '';
  private readonly cursors: Record<MapResource, unknown> = { pods: undefined, nodes: undefined };
  /** Pod slots the consumer has (with their names), and slots it still has to be sent. */
  private known = new Uint8Array(0);
  private readonly pending = new Set<number>();
  /** Set while reading when the source had no store to read. */
  private unavailable = false;

  /**
   * `maxPodsPerDelta` bounds one delta (the first of a big cluster arrives in
   * parts, each `more: true` but the last), so applying one stays short.
   */
  constructor(
    private readonly source: MapSource,
    private readonly maxPodsPerDelta = MAX_PODS_PER_DELTA,
  ) {}

  private id(s: string): number {
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.stringIds.set(s, id);
    }
    return id;
  }

  /**
   * The changes since the delta `seq` of feed `epoch` (what the consumer last
   * applied); everything when the consumer has nothing or lost track.
   */
  next(epoch = 0, seq = 0): MapDelta {
    const full = epoch !== this.epoch || seq !== this.seq || this.seq === 0;
    if (full) {
      this.sentStrings = 0;
      this.sentRequested.clear();
      this.componentsJson = '';
      this.known.fill(0);
      this.pending.clear();
    }
    this.gen++;
    this.unavailable = false;
    const dirtyNodes = new Set<number>();
    const podDelta = this.scanPods(dirtyNodes);
    const nodeDelta = this.scanNodes(dirtyNodes);
    const d: MapDelta = { epoch: this.epoch, seq: ++this.seq, full, stringsFrom: 0, strings: [], podCount: this.pods.size, nodeCount: this.nodes.size };

    // Pods: what the consumer lacks or has stale, at most maxPodsPerDelta of them now.
    const removed: number[] = [];
    for (const slot of podDelta.removed) {
      if (this.known[slot]) removed.push(slot);
      this.known[slot] = 0;
      this.pending.delete(slot);
    }
    for (const slot of full ? this.pods.liveSlots() : podDelta.changed) this.pending.add(slot);
    if (this.known.length < this.pods.rows.length) {
      const k = new Uint8Array(Math.max(64, this.pods.rows.length * 2));
      k.set(this.known);
      this.known = k;
    }
    const podSlots: number[] = [];
    const named: number[] = [];
    for (const slot of this.pending) {
      if (podSlots.length >= this.maxPodsPerDelta) break;
      podSlots.push(slot);
      if (!this.known[slot]) {
        named.push(slot);
        this.known[slot] = 1;
      }
    }
    for (const slot of podSlots) this.pending.delete(slot);
    if (this.pending.size > 0) d.more = true;
    if (this.unavailable) d.stale = true;

    const nodeSlots = full ? this.nodes.liveSlots() : nodeDelta.changed;
    // Nodes whose requests moved are sent even if their object did not change.
    const nodeSet = new Set(nodeSlots);
    const objectChanged = new Set(nodeDelta.changed);
    for (const nameId of dirtyNodes) {
      const slot = this.nodes.byName.get(nameId);
      if (slot !== undefined) nodeSet.add(slot);
    }
    const nodesOut: number[] = [];
    for (const slot of nodeSet) {
      const row = this.nodes.rows[slot]!.row;
      const req = this.requested.get(row.name) ?? [0, 0];
      const reqKey = `${req[0]},${req[1]}`;
      if (!full && !objectChanged.has(slot) && this.sentRequested.get(row.name) === reqKey) continue;
      this.sentRequested.set(row.name, reqKey);
      nodesOut.push(slot);
    }
    if (nodesOut.length > 0) d.nodes = this.nodeColumns(nodesOut);
    const metaSlots = full ? nodeSlots : nodeDelta.metaChanged;
    if (metaSlots.length > 0) {
      d.nodeMeta = metaSlots.map((slot) => {
        const m = JSON.parse(this.nodes.rows[slot]!.row.meta) as { taints: string[]; labels: Record<string, string> };
        return { slot, taints: m.taints, labels: m.labels };
      });
    }
    if (!full && nodeDelta.removed.length > 0) d.nodesRemoved = Int32Array.from(nodeDelta.removed);
    if (podSlots.length > 0) d.pods = this.podColumns(podSlots);
    if (named.length > 0) d.podNames = { slot: Int32Array.from(named), keys: named.map((s) => this.pods.names[s]!).join('\n') };
    if (removed.length > 0) d.podsRemoved = Int32Array.from(removed);

    const components = this.source.components();
    const cj = JSON.stringify(components);
    if (cj !== this.componentsJson) {
      this.componentsJson = cj;
      d.components = components;
    }
    d.stringsFrom = this.sentStrings;
    d.strings = this.strings.slice(this.sentStrings);
    this.sentStrings = this.strings.length;
    return d;
  }

  /** The keys and objects to look at: what changed since the last delta if the source knows, else everything. */
  private changes(r: MapResource, store: ReadonlyMap<string, KObject> | null): { each: (visit: (obj: KObject, key: string) => void) => void; deleted: string[] | null } {
    const known = this.cursors[r] === undefined ? null : (this.source.changesSince?.(r, this.cursors[r]) ?? null);
    if (known) {
      this.cursors[r] = known.cursor;
      return { each: (visit) => known.changed.forEach(([key, obj]) => visit(obj, key)), deleted: known.deleted };
    }
    this.cursors[r] = this.source.cursor?.(r);
    // No API server to read (all down or not ready): keep the last picture rather than empty it.
    if (!store) {
      this.unavailable = true;
      return { each: () => undefined, deleted: [] };
    }
    return { each: (visit) => store.forEach(visit), deleted: null };
  }

  private scanPods(dirtyNodes: Set<number>): { changed: number[]; added: number[]; removed: number[] } {
    const out = { changed: [] as number[], added: [] as number[], removed: [] as number[] };
    const t = this.pods;
    const gen = this.gen;
    let visited = 0;
    const { each, deleted } = this.changes('pods', this.source.pods());
    each((obj, key) => {
      let slot = t.byKey.get(key);
      if (slot !== undefined) {
        visited++;
        const s = t.rows[slot]!;
        s.seen = gen;
        if (s.obj === obj) return;
        s.obj = obj;
        const row = this.podRow(obj, s.row);
        if (samePod(s.row, row)) return;
        this.count(s.row, -1, dirtyNodes);
        this.count(row, 1, dirtyNodes);
        s.row = row;
        out.changed.push(slot);
        return;
      }
      const row = this.podRow(obj);
      slot = t.add(key, `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`, { obj, row, seen: gen });
      this.count(row, 1, dirtyNodes);
      out.changed.push(slot);
      out.added.push(slot);
    });
    const gone = (key: string, slot: number) => {
      this.count(t.rows[slot]!.row, -1, dirtyNodes);
      t.remove(key, slot);
      out.removed.push(slot);
    };
    if (deleted) {
      for (const key of deleted) {
        const slot = t.byKey.get(key);
        if (slot !== undefined) gone(key, slot);
      }
    } else if (visited < t.size - out.added.length) {
      for (const [key, slot] of t.byKey) if (t.rows[slot]!.seen !== gen) gone(key, slot);
    }
    return out;
  }

  private count(row: PodRow, sign: 1 | -1, dirty: Set<number>): void {
    if (!row.counted) return;
    let r = this.requested.get(row.node);
    if (!r) this.requested.set(row.node, (r = [0, 0]));
    r[0] += sign * row.cpu;
    r[1] += sign * row.memory;
    if (r[0] === 0 && r[1] === 0 && sign < 0) this.requested.delete(row.node);
    dirty.add(row.node);
  }

  private podRow(p: KObject, prev?: PodRow): PodRow {
    const spec = (p.spec ?? {}) as { nodeName?: string };
    const status = (p.status ?? {}) as { phase?: string; conditions?: { type: string; status: string }[]; containerStatuses?: ContainerStatus[]; initContainerStatuses?: ContainerStatus[] };
    const phaseName = status.phase ?? 'Pending';
    const phase = Math.max(0, PHASES.indexOf(phaseName as (typeof PHASES)[number]));
    const ready = status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    const cs = status.initContainerStatuses?.find(notRunning) ?? status.containerStatuses?.find(notRunning);
    const reason = cs?.state?.waiting?.reason ?? cs?.state?.terminated?.reason ?? '';
    const owner = p.metadata.ownerReferences?.find((o) => o.controller)?.name ?? '';
    const node = spec.nodeName ? this.id(spec.nodeName) : NO_STRING;
    const counted = node !== NO_STRING && phaseName !== 'Succeeded' && phaseName !== 'Failed';
    const uid = p.metadata.uid ?? '';
    // A pod's requests do not change over its life (in-place resize is alpha in v1.32): computed once per uid.
    const reuse = prev !== undefined && prev.reqKnown && prev.uid === uid && uid !== '';
    const req = reuse ? { milliCPU: prev.cpu, memory: prev.memory } : counted ? podRequests(p as unknown as Pod) : null;
    return {
      uid,
      reqKnown: req !== null,
      node,
      phase,
      flags: (ready ? POD_READY : 0) | (p.metadata.deletionTimestamp ? POD_TERMINATING : 0),
      reason: reason ? this.id(reason) : NO_STRING,
      owner: owner ? this.id(owner) : NO_STRING,
      counted,
      cpu: req?.milliCPU ?? 0,
      memory: req?.memory ?? 0,
    };
  }

  private scanNodes(dirty: Set<number>): { changed: number[]; metaChanged: number[]; removed: number[] } {
    const out = { changed: [] as number[], metaChanged: [] as number[], removed: [] as number[] };
    const t = this.nodes;
    const gen = this.gen;
    let visited = 0;
    let added = 0;
    const { each, deleted } = this.changes('nodes', this.source.nodes());
    each((obj, key) => {
      let slot = t.byKey.get(key);
      if (slot !== undefined) {
        visited++;
        const s = t.rows[slot]!;
        s.seen = gen;
        if (s.obj === obj) return;
        s.obj = obj;
        const row = this.nodeRow(obj);
        const before = s.row;
        s.row = row;
        if (row.meta !== before.meta) out.metaChanged.push(slot);
        if (sameNode(before, row)) return;
        if (row.name !== before.name) {
          t.byName.delete(before.name);
          t.byName.set(row.name, slot);
        }
        out.changed.push(slot);
        return;
      }
      const row = this.nodeRow(obj);
      slot = t.add(key, obj.metadata.name ?? '', { obj, row, seen: gen });
      t.byName.set(row.name, slot);
      added++;
      out.changed.push(slot);
      out.metaChanged.push(slot);
      dirty.add(row.name);
    });
    const gone = (key: string, slot: number) => {
      const s = t.rows[slot]!;
      t.byName.delete(s.row.name);
      this.sentRequested.delete(s.row.name);
      t.remove(key, slot);
      out.removed.push(slot);
    };
    if (deleted) {
      for (const key of deleted) {
        const slot = t.byKey.get(key);
        if (slot !== undefined) gone(key, slot);
      }
    } else if (visited < t.size - added) {
      for (const [key, slot] of t.byKey) if (t.rows[slot]!.seen !== gen) gone(key, slot);
    }
    return out;
  }

  private nodeRow(n: KObject): NodeRow {
    const spec = (n.spec ?? {}) as { unschedulable?: boolean; taints?: { key: string; value?: string; effect: string }[] };
    const status = (n.status ?? {}) as { allocatable?: Record<string, string>; conditions?: { type: string; status: string }[] };
    const a = status.allocatable ?? {};
    const taints = (spec.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
    const readyStatus = status.conditions?.find((c) => c.type === 'Ready')?.status ?? '';
    return {
      name: this.id(n.metadata.name ?? ''),
      ready: Math.max(0, READY_STATUS.indexOf(readyStatus as (typeof READY_STATUS)[number])),
      flags: (spec.unschedulable ? NODE_UNSCHEDULABLE : 0) | (taints.length > 0 ? NODE_TAINTED : 0),
      allocCpu: quantityNumber(a.cpu, true),
      allocMemory: quantityNumber(a.memory, false),
      allocPods: quantityNumber(a.pods, false),
      meta: JSON.stringify({ taints, labels: n.metadata.labels ?? {} }),
    };
  }

  private podColumns(slots: number[]): PodColumns {
    const n = slots.length;
    const c: PodColumns = { slot: Int32Array.from(slots), node: new Int32Array(n), phase: new Uint8Array(n), flags: new Uint8Array(n), reason: new Int32Array(n), owner: new Int32Array(n) };
    for (let i = 0; i < n; i++) {
      const r = this.pods.rows[slots[i]!]!.row;
      c.node[i] = r.node;
      c.phase[i] = r.phase;
      c.flags[i] = r.flags;
      c.reason[i] = r.reason;
      c.owner[i] = r.owner;
    }
    return c;
  }

  private nodeColumns(slots: number[]): NodeColumns {
    const n = slots.length;
    const f = () => new Float64Array(n);
    const c: NodeColumns = { slot: Int32Array.from(slots), name: new Int32Array(n), ready: new Uint8Array(n), flags: new Uint8Array(n), allocCpu: f(), allocMemory: f(), allocPods: f(), reqCpu: f(), reqMemory: f() };
    for (let i = 0; i < n; i++) {
      const r = this.nodes.rows[slots[i]!]!.row;
      const req = this.requested.get(r.name);
      c.name[i] = r.name;
      c.ready[i] = r.ready;
      c.flags[i] = r.flags;
      c.allocCpu[i] = r.allocCpu;
      c.allocMemory[i] = r.allocMemory;
      c.allocPods[i] = r.allocPods;
      c.reqCpu[i] = req?.[0] ?? 0;
      c.reqMemory[i] = req?.[1] ?? 0;
    }
    return c;
  }
}

function notRunning(c: ContainerStatus): boolean {
  return !!(c.state?.waiting || c.state?.terminated);
}

function samePod(a: PodRow, b: PodRow): boolean {
  return a.uid === b.uid && a.node === b.node && a.phase === b.phase && a.flags === b.flags && a.reason === b.reason && a.owner === b.owner && a.counted === b.counted && a.cpu === b.cpu && a.memory === b.memory;
}

function sameNode(a: NodeRow, b: NodeRow): boolean {
  return a.name === b.name && a.ready === b.ready && a.flags === b.flags && a.allocCpu === b.allocCpu && a.allocMemory === b.allocMemory && a.allocPods === b.allocPods;
}

/** Rows by slot; slots of removed entries are reused (the consumer learns of the removal first). */
class Table<R> {
  readonly byKey = new Map<string, number>();
  readonly rows: (Slot<R> | undefined)[] = [];
  readonly names: string[] = [];
  private readonly free: number[] = [];
  /** Slots freed in this scan: reusable from the next one on. */
  private freed: number[] = [];

  get size(): number {
    return this.byKey.size;
  }

  add(key: string, name: string, s: Slot<R>): number {
    if (this.freed.length > 0) {
      this.free.push(...this.freed);
      this.freed = [];
    }
    const slot = this.free.length > 0 ? this.free.pop()! : this.rows.length;
    this.byKey.set(key, slot);
    this.rows[slot] = s;
    this.names[slot] = name;
    return slot;
  }

  remove(key: string, slot: number): void {
    this.byKey.delete(key);
    this.rows[slot] = undefined;
    this.freed.push(slot);
  }

  liveSlots(): number[] {
    return [...this.byKey.values()];
  }
}

class PodTable extends Table<PodRow> {}

class NodeTable extends Table<NodeRow> {
  /** Node slot by name (string id). */
  readonly byName = new Map<number, number>();
}
