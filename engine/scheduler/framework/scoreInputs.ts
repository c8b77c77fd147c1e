// What a Score plugin computed a node's raw score from, for the decision
// record: the numbers the scoring table's hover puts into each plugin's
// formula. Plain data, built only when the score is not self-explaining (a
// plugin returns null when its raw score is 0 for want of anything to count),
// and shared between nodes where it can be (a pod's terms are built once a
// cycle). Records keep them for recent cycles only (records/decisionLog.ts).
import { registerClass } from '../../sim/serial';
import type { Pod } from './api';
import type { CycleState } from './cycleState';
import type { NodeInfo } from './nodeInfo';

/** One resource in a resource scorer's formula (milli-CPU for cpu, else the base unit). */
export interface ResourceInput {
  name: string;
  weight: number;
  /** What the node's pods already request (non-zero defaults counted where the scorer counts them). */
  nodeRequested: number;
  /** This pod's request. */
  podRequest: number;
  allocatable: number;
  /** The resource's own score (LeastAllocated, MostAllocated, RequestedToCapacityRatio), before the weighted mean. */
  score?: number;
}

/** A preferred term that matched, with its weight (NodeAffinity). */
export interface MatchedTerm {
  weight: number;
  /** The term as text, e.g. "topology.kubernetes.io/zone In [zone1]". */
  term: string;
  /** From the profile's NodeAffinityArgs.addedAffinity rather than the pod. */
  added?: boolean;
}

export type ScoreInputs =
  | {
      kind: 'resources';
      /** LeastAllocated, MostAllocated, RequestedToCapacityRatio, or BalancedAllocation. */
      scorer: string;
      /** The resources that counted (allocatable > 0), in the configured order. */
      resources: ResourceInput[];
    }
  | { kind: 'taints'; /** PreferNoSchedule taints the pod does not tolerate, as "key=value:Effect". */ intolerable: string[] }
  | { kind: 'nodeAffinity'; matched: MatchedTerm[] }
  | {
      kind: 'imageLocality';
      /** Nodes in the snapshot (the spread's denominator). */
      totalNodes: number;
      /** Init and regular containers (the upper threshold is 1000 MiB each). */
      containers: number;
      /** The pod's images already on this node: size in bytes and how many nodes have them. */
      images: { name: string; size: number; nodes: number }[];
    }
  | {
      kind: 'topologySpread';
      /** True when the node lacks a constraint's topology key: it scores 0 and is left out of normalisation. */
      ignored: boolean;
      /** Per constraint whose key the node has: its domain, the matching pods there, maxSkew and log(domains + 2). */
      constraints: { topologyKey: string; value: string; matching: number; maxSkew: number; weight: number }[];
    }
  | {
      kind: 'interPodAffinity';
      /** The node's domains that carry a summed (anti-)affinity weight. */
      domains: { topologyKey: string; value: string; score: number }[];
    };

/**
 * A Score plugin's dense recording of its inputs for one cycle, asked for once
 * after PreScore: `width` numbers per node written into the record's flat
 * array while scheduling (no allocation per node), read back as ScoreInputs
 * only when the record is shown. It stays with the record, so it holds only the
 * cycle's small context (names, weights, the pod's requests), never the cycle
 * state or NodeInfos; and it is a registered class (records are snapshotted).
 */
export interface ScoreInputsRecorder {
  readonly width: number;
  write(state: CycleState, pod: Pod, nodeInfo: NodeInfo, out: Float64Array, at: number): void;
  read(numbers: Float64Array, at: number): ScoreInputs | null;
}

/** One Score plugin's inputs over a cycle's scored nodes, in the record. */
export type RecordedInputs = { recorder: ScoreInputsRecorder; dense: Float64Array } | { sparse: (ScoreInputs | null)[] };

/** Node f's inputs from a plugin's recording. */
export function inputsAt(r: RecordedInputs, f: number): ScoreInputs | null {
  return 'sparse' in r ? (r.sparse[f] ?? null) : r.recorder.read(r.dense, f * r.recorder.width);
}

/** Interns strings (domain values) as small numbers, for dense recorders. */
export class StringTable {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();

  id(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(s);
      this.index.set(s, i);
    }
    return i;
  }
}

registerClass('SchedulerStringTable', StringTable);
