// PreFilter, Filter and the PreFilterExtensions of PodTopologySpread
// (pkg/scheduler/framework/plugins/podtopologyspread/filtering.go, v1.32).
// PreFilter counts, per hard constraint and per topology value, the pods
// matching the constraint's selector on the eligible nodes, and keeps the two
// smallest counts (the critical paths); Filter then checks
// matching + self-match - global minimum <= maxSkew with map lookups only.
import { registerClass } from '../../../sim/serial';
import type { Node, Pod } from '../../framework/api';
import { stateKey, type CycleState } from '../../framework/cycleState';
import type { NodeInfo } from '../../framework/nodeInfo';
import type { PodInfo } from '../../framework/podInfo';
import { errorStatus, SKIP, unresolvable, unschedulable, type MaybeStatus } from '../../framework/status';
import { requiredNodeAffinity, type RequiredNodeAffinity } from '../helper/nodeSelector';
import {
  countMatchingOnNode,
  getConstraints,
  labelsOf,
  labelValue,
  matchNodeInclusionPolicies,
  NAME,
  nodeLabelsMatchSpreadConstraints,
  selectorMatches,
  type SpreadConstraint,
  type SpreadPluginContext,
} from './common';

/** ErrReasonConstraintsNotMatch / ErrReasonNodeLabelNotMatch */
export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + ' (missing required label)';

/** math.MaxInt32: an unset critical path. */
export const MAX_INT32 = 2147483647;

/**
 * criticalPaths: the two smallest match counts of a constraint's domains.
 * [0] always holds the minimum; [1] is >= [0] but not necessarily the second
 * minimum (enough for preemption, which only ever changes one node per copy).
 */
export class CriticalPaths {
  value0 = '';
  num0 = MAX_INT32;
  value1 = '';
  num1 = MAX_INT32;

  update(tpVal: string, num: number): void {
    // Is tpVal already one of the two?
    const i = tpVal === this.value0 ? 0 : tpVal === this.value1 ? 1 : -1;
    if (i >= 0) {
      if (i === 0) this.num0 = num;
      else this.num1 = num;
      if (this.num0 > this.num1) this.swap();
    } else if (num < this.num0) {
      this.value1 = this.value0;
      this.num1 = this.num0;
      this.value0 = tpVal;
      this.num0 = num;
    } else if (num < this.num1) {
      this.value1 = tpVal;
      this.num1 = num;
    }
  }

  private swap(): void {
    const v = this.value0;
    const n = this.num0;
    this.value0 = this.value1;
    this.num0 = this.num1;
    this.value1 = v;
    this.num1 = n;
  }

  clone(): CriticalPaths {
    const c = new CriticalPaths();
    c.value0 = this.value0;
    c.num0 = this.num0;
    c.value1 = this.value1;
    c.num1 = this.num1;
    return c;
  }
}

/**
 * preFilterState. An empty one (no constraints) is legit and tolerates every
 * node. AddPod/RemovePod mutate the counts, so clone() copies them; the
 * constraints and the per-pod precomputations are shared.
 */
export class PreFilterState {
  constructor(
    readonly constraints: SpreadConstraint[],
    readonly criticalPaths: CriticalPaths[],
    /** TpValueToMatchNum: per constraint, topology value → matching pods. */
    readonly tpValueToMatchNum: Map<string, number>[],
    /** Per constraint, 1 when the incoming pod matches its own selector (Filter's selfMatchNum). */
    readonly selfMatchNum: number[],
    /** The incoming pod's required node affinity (nodeSelector + required terms). */
    readonly requiredNodeAffinity: RequiredNodeAffinity | null,
  ) {}

  /** minMatchNum: the global minimum, 0 while fewer than minDomains domains are eligible. */
  minMatchNum(i: number, minDomains: number): number {
    if (this.tpValueToMatchNum[i]!.size < minDomains) return 0;
    return this.criticalPaths[i]!.num0;
  }

  clone(): PreFilterState {
    return new PreFilterState(
      this.constraints,
      this.criticalPaths.map((p) => p.clone()),
      this.tpValueToMatchNum.map((m) => new Map(m)),
      this.selfMatchNum,
      this.requiredNodeAffinity,
    );
  }
}

export const PRE_FILTER_STATE_KEY = stateKey<PreFilterState>('PreFilter' + NAME);

export type PreFilterStateResult = { ok: true; state: PreFilterState } | { ok: false; error: string };

/** calPreFilterState */
export function calPreFilterState(ctx: SpreadPluginContext, pod: Pod, allNodes: readonly NodeInfo[]): PreFilterStateResult {
  const r = getConstraints(ctx, pod);
  if (!r.ok) return { ok: false, error: `get constraints from pod: ${r.error}` };
  const constraints = r.constraints;
  if (constraints.length === 0) return { ok: true, state: new PreFilterState([], [], [], [], null) };

  const podLabels = labelsOf(pod);
  const ns = pod.metadata.namespace ?? '';
  const required = requiredNodeAffinity(pod);
  const counts = constraints.map(() => new Map<string, number>());
  for (let n = 0; n < allNodes.length; n++) {
    const nodeInfo = allNodes[n]!;
    const node = nodeInfo.node;
    if (!node) continue;
    const nodeLabels = labelsOf(node);
    // The node must carry every topology key of the constraints.
    if (!nodeLabelsMatchSpreadConstraints(nodeLabels, constraints)) continue;
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i]!;
      if (!matchNodeInclusionPolicies(c, pod, node, required)) continue;
      const value = labelValue(nodeLabels, c.topologyKey)!;
      const m = counts[i]!;
      m.set(value, (m.get(value) ?? 0) + countMatchingOnNode(nodeInfo, c.selector, ns));
    }
  }
  const paths = counts.map((m) => {
    const p = new CriticalPaths();
    for (const [value, num] of m) p.update(value, num);
    return p;
  });
  const selfMatch = constraints.map((c) => (selectorMatches(c.selector, podLabels) ? 1 : 0));
  return { ok: true, state: new PreFilterState(constraints, paths, counts, selfMatch, required) };
}

/** PreFilter: Skip when the pod has no hard constraints (its own or default). */
export function preFilter(ctx: SpreadPluginContext, cycleState: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
  const r = calPreFilterState(ctx, pod, nodes);
  if (!r.ok) return errorStatus(r.error);
  if (r.state.constraints.length === 0) return SKIP;
  cycleState.write(PRE_FILTER_STATE_KEY, r.state);
  return null;
}

function readState(cycleState: CycleState): PreFilterState | string {
  const s = cycleState.read(PRE_FILTER_STATE_KEY);
  return s ?? `reading "${PRE_FILTER_STATE_KEY.name}" from cycleState: not found`;
}

/** Filter: allocation-free when the node fits. */
export function filter(cycleState: CycleState, _pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
  const s = readState(cycleState);
  if (typeof s === 'string') return errorStatus(s);
  const constraints = s.constraints;
  if (constraints.length === 0) return null;
  const node = nodeInfo.node;
  if (!node) return errorStatus('node not found');
  const nodeLabels = labelsOf(node);
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    const tpVal = labelValue(nodeLabels, c.topologyKey);
    if (tpVal === undefined) return unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
    // existing matches + self-match - global minimum <= maxSkew
    const skew = (s.tpValueToMatchNum[i]!.get(tpVal) ?? 0) + s.selfMatchNum[i]! - s.minMatchNum(i, c.minDomains);
    if (skew > c.maxSkew) return unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);
  }
  return null;
}

/** updateWithPod: AddPod (+1) / RemovePod (-1) of a pod on `node` in a what-if. */
export function updateWithPod(s: PreFilterState, updatedPod: Pod, preemptorPod: Pod, node: Node | null, delta: number): void {
  if ((updatedPod.metadata.namespace ?? '') !== (preemptorPod.metadata.namespace ?? '') || !node) return;
  const nodeLabels = labelsOf(node);
  if (!nodeLabelsMatchSpreadConstraints(nodeLabels, s.constraints)) return;
  const required = s.requiredNodeAffinity ?? requiredNodeAffinity(preemptorPod);
  const podLabels = labelsOf(updatedPod);
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    if (!selectorMatches(c.selector, podLabels)) continue;
    if (!matchNodeInclusionPolicies(c, preemptorPod, node, required)) continue;
    const v = labelValue(nodeLabels, c.topologyKey)!;
    const m = s.tpValueToMatchNum[i]!;
    const n = (m.get(v) ?? 0) + delta;
    m.set(v, n);
    s.criticalPaths[i]!.update(v, n);
  }
}

export function addOrRemovePod(cycleState: CycleState, podToSchedule: Pod, pi: PodInfo, nodeInfo: NodeInfo, delta: 1 | -1): MaybeStatus {
  const s = readState(cycleState);
  if (typeof s === 'string') return errorStatus(s);
  updateWithPod(s, pi.pod, podToSchedule, nodeInfo.node, delta);
  return null;
}

registerClass('PodTopologySpreadCriticalPaths', CriticalPaths);
registerClass('PodTopologySpreadPreFilterState', PreFilterState);
