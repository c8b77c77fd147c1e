// The cluster map's wire format, between the feed (in the engine's worker) and
// the map (on the main thread): columnar typed arrays of the entries that
// changed since the last delta, strings sent once into a shared table, so a
// 150,000-pod cluster costs a few bytes per changed pod per delta and its
// buffers move between threads without copying.

/** Pod phase, one byte. */
export const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;
export type PodPhase = (typeof PHASES)[number];

/** Pod flags. */
export const POD_READY = 1;
export const POD_TERMINATING = 2;

/** Node Ready condition status, one byte ('' = no condition yet). */
export const READY_STATUS = ['', 'True', 'False', 'Unknown'] as const;

/** Node flags. */
export const NODE_UNSCHEDULABLE = 1;
export const NODE_TAINTED = 2;

/** No string (a pod without a node, reason or owner). */
export const NO_STRING = -1;

export interface MapComponent {
  name: string;
  kind: string;
  up: boolean;
  leader: boolean;
}

/** Changed pods, one entry per slot in each column. Strings are ids into the delta's string table. */
export interface PodColumns {
  slot: Int32Array;
  /** spec.nodeName (NO_STRING when unscheduled). */
  node: Int32Array;
  phase: Uint8Array;
  flags: Uint8Array;
  /** The waiting or terminated reason of the first container not running (ContainerCreating, CrashLoopBackOff…). */
  reason: Int32Array;
  /** The controller owner's name. */
  owner: Int32Array;
}

export interface NodeColumns {
  slot: Int32Array;
  name: Int32Array;
  ready: Uint8Array;
  flags: Uint8Array;
  /** Allocatable cpu (millicores), memory (bytes), pods; requested cpu and memory of the pods bound to it that still run. */
  allocCpu: Float64Array;
  allocMemory: Float64Array;
  allocPods: Float64Array;
  reqCpu: Float64Array;
  reqMemory: Float64Array;
}

export interface MapDelta {
  /** The feed this delta continues (a new engine is a new feed). */
  epoch: number;
  seq: number;
  /** Everything, from an empty map (the first delta, or after the consumer lost track). */
  full: boolean;
  /** Strings appended to the table, the first at index `stringsFrom`. */
  stringsFrom: number;
  strings: string[];
  nodes?: NodeColumns;
  /** Taints ("key=value:Effect") and labels of nodes whose metadata changed. */
  nodeMeta?: { slot: number; taints: string[]; labels: Record<string, string> }[];
  nodesRemoved?: Int32Array;
  pods?: PodColumns;
  /** Keys ("namespace/name") of pods given a slot in this delta, newline-separated, in `slot` order. */
  podNames?: { slot: Int32Array; keys: string };
  podsRemoved?: Int32Array;
  /** The control-plane components, when any of them changed. */
  components?: MapComponent[];
  /** No API server could be read: the map keeps its last picture. */
  stale?: boolean;
  /** More changes wait (a big first delta comes in parts): ask again at once. */
  more?: boolean;
  /** Totals in the source, for checking and for "loading N of M pods". */
  podCount: number;
  nodeCount: number;
}

/** The buffers of a delta, to transfer rather than copy. */
export function deltaBuffers(d: MapDelta): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const add = (cols: object | undefined) => {
    if (!cols) return;
    for (const v of Object.values(cols)) if (ArrayBuffer.isView(v)) out.push(v.buffer as ArrayBuffer);
  };
  add(d.nodes);
  add(d.pods);
  add(d.podNames);
  if (d.nodesRemoved) out.push(d.nodesRemoved.buffer as ArrayBuffer);
  if (d.podsRemoved) out.push(d.podsRemoved.buffer as ArrayBuffer);
  return [...new Set(out)];
}
