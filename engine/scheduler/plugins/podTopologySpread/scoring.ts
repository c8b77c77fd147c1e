// PreScore, Score and NormalizeScore of PodTopologySpread
// (pkg/scheduler/framework/plugins/podtopologyspread/scoring.go, v1.32).
// Soft (ScheduleAnyway) constraints: a node scores the matching pods of its
// domains, each constraint weighted by log(#domains + 2) plus maxSkew-1; fewer
// is better, so NormalizeScore flips the scale. Per-zone counts are summed in
// PreScore over all nodes; hostname counts are the node's own, taken in Score.
import { registerClass } from '../../../sim/serial';
import type { Pod } from '../../framework/api';
import { StringTable, type ScoreInputs, type ScoreInputsRecorder } from '../../framework/scoreInputs';
import { stateKey, type CycleState } from '../../framework/cycleState';
import { MAX_NODE_SCORE, type NodeScore } from '../../framework/interface';
import type { NodeInfo } from '../../framework/nodeInfo';
import { errorStatus, SKIP, type MaybeStatus, type Status } from '../../framework/status';
import { requiredNodeAffinity } from '../helper/nodeSelector';
import {
  buildDefaultConstraints,
  countMatchingOnNode,
  filterTopologySpreadConstraints,
  LABEL_HOSTNAME,
  labelsOf,
  labelValue,
  matchNodeInclusionPolicies,
  NAME,
  nodeLabelsMatchSpreadConstraints,
  type ConstraintsResult,
  type SpreadConstraint,
  type SpreadPluginContext,
} from './common';

/** invalidScore: marks ignored nodes inside NormalizeScore. */
const INVALID_SCORE = -1;

/** preScoreState. Score only reads it, so clone() shares it (as upstream). */
export class PreScoreState {
  constraints: SpreadConstraint[] = [];
  /** Nodes missing some topology key: they score 0. */
  ignoredNodes = new Set<string>();
  /** TopologyValueToPodCounts: per constraint, topology value → matching pods (hostname: counted in Score). */
  topologyValueToPodCounts: Map<string, number>[] = [];
  /** TopologyNormalizingWeight: log(#domains + 2) per constraint. */
  topologyNormalizingWeight: number[] = [];

  clone(): PreScoreState {
    return this;
  }
}

export const PRE_SCORE_STATE_KEY = stateKey<PreScoreState>('PreScore' + NAME);

/** topologyNormalizingWeight: log(size + 2), in <1.09, 8.52> for 1..5000 domains. */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

/** scoreForCount: maxSkew-1 waters the differences between domains down. */
export function scoreForCount(cnt: number, maxSkew: number, tpWeight: number): number {
  return cnt * tpWeight + (maxSkew - 1);
}

/** initPreScoreState: the soft constraints, ignored nodes, domains seen among the filtered nodes, and the weights. */
export function initPreScoreState(
  ctx: SpreadPluginContext,
  s: PreScoreState,
  pod: Pod,
  filteredNodes: readonly NodeInfo[],
  requireAllTopologies: boolean,
): string | null {
  const own = pod.spec.topologySpreadConstraints;
  let r: ConstraintsResult;
  if (own && own.length > 0) {
    r = filterTopologySpreadConstraints(own, labelsOf(pod), 'ScheduleAnyway');
    if (!r.ok) return `obtaining pod's soft topology spread constraints: ${r.error}`;
  } else {
    r = buildDefaultConstraints(ctx, pod, 'ScheduleAnyway');
    if (!r.ok) return `setting default soft topology spread constraints: ${r.error}`;
  }
  s.constraints = r.constraints;
  if (s.constraints.length === 0) return null;
  s.topologyValueToPodCounts = s.constraints.map(() => new Map<string, number>());
  const topoSize = s.constraints.map(() => 0);
  for (const nodeInfo of filteredNodes) {
    const node = nodeInfo.node;
    if (!node) continue;
    const nodeLabels = labelsOf(node);
    if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(nodeLabels, s.constraints)) {
      // Nodes without every required topology key are not scored.
      s.ignoredNodes.add(nodeInfo.name);
      continue;
    }
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i]!;
      // Per-node counts are taken in Score.
      if (c.topologyKey === LABEL_HOSTNAME) continue;
      const value = labelValue(nodeLabels, c.topologyKey) ?? '';
      const m = s.topologyValueToPodCounts[i]!;
      if (!m.has(value)) {
        m.set(value, 0);
        topoSize[i]!++;
      }
    }
  }
  s.topologyNormalizingWeight = s.constraints.map((c, i) =>
    topologyNormalizingWeight(c.topologyKey === LABEL_HOSTNAME ? filteredNodes.length - s.ignoredNodes.size : topoSize[i]!),
  );
  return null;
}

/** PreScore: Skip without soft constraints (or without any node). */
export function preScore(ctx: SpreadPluginContext, cycleState: CycleState, pod: Pod, filteredNodes: readonly NodeInfo[]): MaybeStatus {
  const allNodes = ctx.handle.nodes.list();
  if (allNodes.length === 0) return SKIP;
  const state = new PreScoreState();
  // Only non-system-default rules require every topology label: nodes without
  // a zone label still get hostname spreading under the system defaults.
  const requireAllTopologies = (pod.spec.topologySpreadConstraints?.length ?? 0) > 0 || !ctx.systemDefaulted;
  const err = initPreScoreState(ctx, state, pod, filteredNodes, requireAllTopologies);
  if (err !== null) return errorStatus(`calculating preScoreState: ${err}`);
  if (state.constraints.length === 0) return SKIP;

  const constraints = state.constraints;
  // Hostname domains are counted in Score: only the other constraints walk every node here.
  const counted: number[] = [];
  for (let i = 0; i < constraints.length; i++) if (constraints[i]!.topologyKey !== LABEL_HOSTNAME) counted.push(i);
  if (counted.length > 0) {
    const required = requiredNodeAffinity(pod);
    const ns = pod.metadata.namespace ?? '';
    for (let n = 0; n < allNodes.length; n++) {
      const nodeInfo = allNodes[n]!;
      const node = nodeInfo.node;
      // A node without pods adds nothing to any domain.
      if (!node || nodeInfo.pods.length === 0) continue;
      const nodeLabels = labelsOf(node);
      if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(nodeLabels, constraints)) continue;
      for (let k = 0; k < counted.length; k++) {
        const i = counted[k]!;
        const c = constraints[i]!;
        // Only domains of candidate nodes count.
        const m = state.topologyValueToPodCounts[i]!;
        const value = labelValue(nodeLabels, c.topologyKey) ?? '';
        const cur = m.get(value);
        if (cur === undefined) continue;
        if (!matchNodeInclusionPolicies(c, pod, node, required)) continue;
        m.set(value, cur + countMatchingOnNode(nodeInfo, c.selector, ns));
      }
    }
  }
  cycleState.write(PRE_SCORE_STATE_KEY, state);
  return null;
}

function readState(cycleState: CycleState): PreScoreState | Status {
  const s = cycleState.read(PRE_SCORE_STATE_KEY);
  return s ?? errorStatus(`error reading "${PRE_SCORE_STATE_KEY.name}" from cycleState: not found`);
}

/** Score: the weighted matching pods of the node's domains (normalized later). */
export function score(cycleState: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
  const s = readState(cycleState);
  if (!(s instanceof PreScoreState)) return s;
  if (s.ignoredNodes.has(nodeInfo.name)) return 0;
  const nodeLabels = labelsOf(nodeInfo.node);
  let total = 0;
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    const tpVal = labelValue(nodeLabels, c.topologyKey);
    if (tpVal === undefined) continue;
    const cnt =
      c.topologyKey === LABEL_HOSTNAME
        ? countMatchingOnNode(nodeInfo, c.selector, pod.metadata.namespace ?? '')
        : (s.topologyValueToPodCounts[i]!.get(tpVal) ?? 0);
    total += scoreForCount(cnt, c.maxSkew, s.topologyNormalizingWeight[i]!);
  }
  // int64(math.Round(score)): scores are non-negative, so JS rounding agrees.
  return Math.round(total);
}

/**
 * What Score counted, node by node: whether the node is ignored, then per
 * constraint its domain (interned) and matching pods; maxSkew and the
 * normalizing weight are the cycle's.
 */
export class SpreadInputsRecorder implements ScoreInputsRecorder {
  readonly width: number;
  readonly values = new StringTable();

  constructor(
    readonly keys: string[],
    readonly maxSkews: number[],
    readonly weights: number[],
  ) {
    this.width = 1 + 2 * keys.length;
  }

  write(cycleState: CycleState, pod: Pod, nodeInfo: NodeInfo, out: Float64Array, at: number): void {
    const s = cycleState.read(PRE_SCORE_STATE_KEY);
    if (!(s instanceof PreScoreState)) return;
    out[at] = s.ignoredNodes.has(nodeInfo.name) ? 1 : 0;
    const nodeLabels = labelsOf(nodeInfo.node);
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i]!;
      const value = labelValue(nodeLabels, c.topologyKey);
      if (value === undefined) {
        out[at + 1 + 2 * i] = -1;
        continue;
      }
      out[at + 1 + 2 * i] = this.values.id(value);
      out[at + 2 + 2 * i] = c.topologyKey === LABEL_HOSTNAME ? countMatchingOnNode(nodeInfo, c.selector, pod.metadata.namespace ?? '') : (s.topologyValueToPodCounts[i]!.get(value) ?? 0);
    }
  }

  read(numbers: Float64Array, at: number): ScoreInputs {
    if (numbers[at] === 1) return { kind: 'topologySpread', ignored: true, constraints: [] };
    const constraints: Extract<ScoreInputs, { kind: 'topologySpread' }>['constraints'] = [];
    for (let i = 0; i < this.keys.length; i++) {
      const v = numbers[at + 1 + 2 * i]!;
      if (v < 0) continue;
      constraints.push({ topologyKey: this.keys[i]!, value: this.values.values[v]!, matching: numbers[at + 2 + 2 * i]!, maxSkew: this.maxSkews[i]!, weight: this.weights[i]! });
    }
    return { kind: 'topologySpread', ignored: false, constraints };
  }
}

export function scoreInputsRecorder(cycleState: CycleState): SpreadInputsRecorder | null {
  const s = cycleState.read(PRE_SCORE_STATE_KEY);
  if (!(s instanceof PreScoreState)) return null;
  return new SpreadInputsRecorder(
    s.constraints.map((c) => c.topologyKey),
    s.constraints.map((c) => c.maxSkew),
    [...s.topologyNormalizingWeight],
  );
}

/** NormalizeScore: MaxNodeScore * (max + min - score) / max with Go's integer division; ignored nodes get 0. */
export function normalizeScore(cycleState: CycleState, _pod: Pod, scores: NodeScore[]): MaybeStatus {
  const s = readState(cycleState);
  if (!(s instanceof PreScoreState)) return s;
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  for (const ns of scores) {
    if (s.ignoredNodes.has(ns.name)) {
      ns.score = INVALID_SCORE;
      continue;
    }
    if (ns.score < minScore) minScore = ns.score;
    if (ns.score > maxScore) maxScore = ns.score;
  }
  for (const ns of scores) {
    if (ns.score === INVALID_SCORE) {
      ns.score = 0;
      continue;
    }
    if (maxScore === 0) {
      ns.score = MAX_NODE_SCORE;
      continue;
    }
    ns.score = Math.trunc((MAX_NODE_SCORE * (maxScore + minScore - ns.score)) / maxScore);
  }
  return null;
}

registerClass('PodTopologySpreadPreScoreState', PreScoreState);
registerClass('PodTopologySpreadInputsRecorder', SpreadInputsRecorder);
