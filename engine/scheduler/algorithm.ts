// schedulePod (pkg/scheduler/schedule_one.go): find the nodes that fit —
// PreFilter, the nominated node first, then Filter over nodes taken
// round-robin from where the last cycle stopped until enough are feasible —
// score them, and pick the best, breaking ties at random.
import type { Rng } from '../sim/rng';
import type { Pod } from './framework/api';
import type { CycleState } from './framework/cycleState';
import type { NodeToStatus } from './framework/interface';
import type { NodeInfo } from './framework/nodeInfo';
import type { Framework, ScoreOutcome } from './framework/runtime';
import { message, unresolvable, type MaybeStatus, type Status } from './framework/status';
import type { DecisionRecord, Verdict } from './records/types';
import type { SchedulerCache } from './cache/cache';

/** minFeasibleNodesToFind / minFeasibleNodesPercentageToFind */
const MIN_FEASIBLE_NODES_TO_FIND = 100;
const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * numFeasibleNodesToFind: every node below 100; otherwise the percentage
 * (adaptive when 0: 50 − N/125, at least 5) of the nodes, at least 100.
 * Integer arithmetic as Go's int32.
 */
export function numFeasibleNodesToFind(percentageOfNodesToScore: number, numAllNodes: number): { count: number; percentage: number } {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return { count: numAllNodes, percentage: 100 };
  let percentage = percentageOfNodesToScore;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  if (numNodes < MIN_FEASIBLE_NODES_TO_FIND) return { count: MIN_FEASIBLE_NODES_TO_FIND, percentage };
  return { count: numNodes, percentage };
}

/** framework.Diagnosis */
export interface Diagnosis {
  nodeToStatus: NodeToStatus;
  /** Status for nodes not in the map (PreFilter rejections, PreFilterResult exclusions). */
  absentNodesStatus: Status | null;
  unschedulablePlugins: Set<string>;
  pendingPlugins: Set<string>;
  preFilterMsg: string;
  postFilterMsg: string;
}

export type ScheduleOutcome =
  | { type: 'scheduled'; node: string; evaluatedNodes: number; feasibleNodes: number }
  | { type: 'fitError'; numAllNodes: number; diagnosis: Diagnosis }
  | { type: 'noNodes' }
  | { type: 'error'; status: Status };

/** ErrNoNodesAvailable */
export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/** FitError.Error(): "0/N nodes are available: <prefilter or histogram>. <postfilter>." */
export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (d.preFilterMsg !== '') msg += ` ${d.preFilterMsg}.`;
  else {
    const counts = new Map<string, number>();
    for (const s of d.nodeToStatus.values()) for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
    // Nodes without an entry carry the absent-nodes status (PreFilterResult left them out).
    const absent = numAllNodes - d.nodeToStatus.size;
    if (absent > 0 && d.absentNodesStatus) for (const r of d.absentNodesStatus.reasons) counts.set(r, (counts.get(r) ?? 0) + absent);
    const parts = [...counts].map(([r, n]) => `${n} ${r}`).sort(goStringLess);
    if (parts.length > 0) msg += ` ${parts.join(', ')}.`;
  }
  // Events in real clusters read "... preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod." — one full stop.
  if (d.postFilterMsg !== '') msg += d.postFilterMsg.endsWith('.') ? ` ${d.postFilterMsg}` : ` ${d.postFilterMsg}.`;
  return msg;
}

/** Diagnosis.AddPluginStatus: a rejecting plugin is remembered (it decides which events requeue the pod). */
function addPluginStatus(d: Diagnosis, s: Status): void {
  if (!s.plugin) return;
  if (s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable' || s.code === 'Pending') d.unschedulablePlugins.add(s.plugin);
  if (s.code === 'Pending') d.pendingPlugins.add(s.plugin);
}

/** sort.Strings: byte order. */
function goStringLess(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface AlgorithmState {
  nextStartNodeIndex: number;
}

/**
 * One pod through Filter and Score. Fills `rec` (the decision record) as it
 * goes; returns the outcome.
 */
export function schedulePod(fwk: Framework, cache: SchedulerCache, state: CycleState, pod: Pod, alg: AlgorithmState, rng: Rng, globalPercentage: number, rec: DecisionRecord): ScheduleOutcome {
  const allNodes = cache.list();
  rec.numAllNodes = allNodes.length;
  rec.filterPlugins = fwk.filterNames;
  if (allNodes.length === 0) {
    rec.message = NO_NODES_AVAILABLE;
    return { type: 'noNodes' };
  }
  const diagnosis: Diagnosis = { nodeToStatus: new Map(), absentNodesStatus: null, unschedulablePlugins: new Set(), pendingPlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };

  // PreFilter
  const pre = fwk.runPreFilterPlugins(state, pod, allNodes);
  // diagnosis.UnschedulablePlugins starts as the plugins whose PreFilterResult narrowed the nodes.
  for (const p of pre.pluginsWithNodes) diagnosis.unschedulablePlugins.add(p);
  rec.skippedFilters = [...state.skipFilterPlugins];
  if (pre.status !== null) {
    if (pre.status.code === 'Error' || pre.status.code === 'Skip' || pre.status.code === 'Wait') {
      rec.preFilter = verdict(pre.status);
      rec.message = message(pre.status);
      return { type: 'error', status: pre.status };
    }
    diagnosis.absentNodesStatus = pre.status;
    diagnosis.preFilterMsg = message(pre.status);
    if (pre.status.plugin) diagnosis.unschedulablePlugins.add(pre.status.plugin);
    if (pre.status.code === 'Pending' && pre.status.plugin) diagnosis.pendingPlugins.add(pre.status.plugin);
    rec.preFilter = verdict(pre.status);
    rec.message = fitErrorMessage(allNodes.length, diagnosis);
    return { type: 'fitError', numAllNodes: allNodes.length, diagnosis };
  }

  // The node a previous preemption nominated is tried first (evaluateNominatedNode);
  // its rejection joins the diagnosis like any node's.
  const nominated = pod.status?.nominatedNodeName;
  let nominatedFailed = false;
  if (nominated) {
    const ni = cache.get(nominated);
    if (ni) {
      rec.nominatedNode = nominated;
      const s = fwk.runFilterPluginsWithNominatedPods(state, pod, ni);
      // An Error here is logged upstream and the full search goes on.
      if (s === null || s.code !== 'Error') {
        rec.nodes.push(ni.name);
        rec.rejections.push(s);
      }
      if (s === null) {
        rec.feasible.push(0);
        rec.numNodesToFind = 1;
        rec.scoringSkipped = 'the nominated node passed every filter';
        rec.selected = ni.name;
        return { type: 'scheduled', node: ni.name, evaluatedNodes: 1, feasibleNodes: 1 };
      }
      if (s.code !== 'Error') {
        diagnosis.nodeToStatus.set(ni.name, s);
        addPluginStatus(diagnosis, s);
        nominatedFailed = true;
      }
    }
  }

  let nodes: readonly NodeInfo[] = allNodes;
  if (pre.result && pre.result.nodeNames) {
    const narrowed: NodeInfo[] = [];
    for (const name of pre.result.nodeNames) {
      const ni = cache.get(name);
      if (ni) narrowed.push(ni);
    }
    nodes = narrowed;
    rec.preFilterNarrowedBy = pre.pluginsWithNodes;
    rec.preFilterNodes = narrowed.length;
    diagnosis.absentNodesStatus = unresolvable(`node(s) didn't satisfy plugin(s) [${[...pre.pluginsWithNodes].sort().join(' ')}]`);
  }

  // Filter (findNodesThatPassFilters): round-robin from nextStartNodeIndex until
  // numNodesToFind are feasible; one is enough when nothing will score them.
  const found = numFeasibleNodesToFind(fwk.percentageOfNodesToScore ?? globalPercentage, nodes.length);
  const numNodesToFind = fwk.score.length === 0 ? 1 : found.count;
  rec.numNodesToFind = numNodesToFind;
  rec.percentageOfNodesToScore = found.percentage;
  rec.startIndex = alg.nextStartNodeIndex;
  const feasible: NodeInfo[] = [];
  const numNodes = nodes.length;
  let error: Status | null = null;
  for (let i = 0; i < numNodes && feasible.length < numNodesToFind; i++) {
    const ni = nodes[(alg.nextStartNodeIndex + i) % numNodes]!;
    const s: MaybeStatus = fwk.filter.length === 0 ? null : fwk.runFilterPluginsWithNominatedPods(state, pod, ni);
    if (s !== null && s.code === 'Error') {
      error = s;
      break;
    }
    // The failed nominated node, evaluated again, gives the same verdict: one row, one count.
    const repeat = nominatedFailed && ni.name === nominated;
    if (!repeat) {
      rec.nodes.push(ni.name);
      rec.rejections.push(s);
    }
    if (s === null) {
      rec.feasible.push(rec.nodes.length - 1);
      feasible.push(ni);
    } else {
      diagnosis.nodeToStatus.set(ni.name, s);
      addPluginStatus(diagnosis, s);
    }
  }
  // Always advanced, error or not, so every node gets its turn.
  const processedNodes = feasible.length + diagnosis.nodeToStatus.size;
  alg.nextStartNodeIndex = (alg.nextStartNodeIndex + processedNodes) % allNodes.length;
  if (error) {
    rec.message = message(error);
    return { type: 'error', status: error };
  }

  if (feasible.length === 0) {
    rec.message = fitErrorMessage(allNodes.length, diagnosis);
    return { type: 'fitError', numAllNodes: allNodes.length, diagnosis };
  }
  const evaluated = feasible.length + diagnosis.nodeToStatus.size;
  // One feasible node: no need to score (schedulePod).
  if (feasible.length === 1) {
    rec.scoringSkipped = fwk.score.length === 0 ? 'no Score plugins: the first feasible node is taken' : 'only one node passed the filters';
    rec.selected = feasible[0]!.name;
    return { type: 'scheduled', node: feasible[0]!.name, evaluatedNodes: evaluated, feasibleNodes: 1 };
  }

  // Score
  let totals: Float64Array;
  if (fwk.score.length === 0) {
    rec.scoringSkipped = 'no score plugins: every node scores 1';
    totals = new Float64Array(feasible.length).fill(1);
  } else {
    const ps = fwk.runPreScorePlugins(state, pod, feasible);
    if (ps !== null) {
      rec.message = message(ps);
      return { type: 'error', status: ps };
    }
    const out: ScoreOutcome | Status = fwk.runScorePlugins(state, pod, feasible, true);
    if (!('totals' in out)) {
      rec.message = message(out);
      return { type: 'error', status: out };
    }
    rec.scorePlugins = out.plugins;
    rec.skippedScores = [...state.skipScorePlugins];
    rec.weights = out.weights;
    rec.raw = out.raw;
    rec.normalized = out.normalized;
    rec.totals = out.totals;
    if (out.inputs) rec.inputs = out.inputs;
    totals = out.totals;
  }
  const selected = selectHost(feasible, totals, rng);
  rec.selected = feasible[selected]!.name;
  return { type: 'scheduled', node: rec.selected, evaluatedNodes: evaluated, feasibleNodes: feasible.length };
}

/**
 * selectHost: the highest total wins; among equal totals each is equally
 * likely (reservoir sampling, one draw per tie, as upstream).
 */
export function selectHost(nodes: readonly NodeInfo[], totals: Float64Array, rng: Rng): number {
  let best = 0;
  let cntOfMaxScore = 1;
  for (let i = 1; i < nodes.length; i++) {
    const s = totals[i]!;
    if (s > totals[best]!) {
      best = i;
      cntOfMaxScore = 1;
    } else if (s === totals[best]!) {
      cntOfMaxScore++;
      if (rng.int(0, cntOfMaxScore) === 0) best = i;
    }
  }
  return best;
}

function verdict(s: Status): Verdict {
  return { plugin: s.plugin ?? '', code: s.code, reason: s.reasons.join(', ') };
}

export function emptyRecord(cycle: number, t: number, pod: Pod, profile: string): DecisionRecord {
  return {
    cycle,
    t,
    pod: `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`,
    uid: pod.metadata.uid ?? '',
    profile,
    numAllNodes: 0,
    numNodesToFind: 0,
    percentageOfNodesToScore: 100,
    startIndex: 0,
    skippedFilters: [],
    filterPlugins: [],
    nodes: [],
    rejections: [],
    feasible: [],
    scorePlugins: [],
    skippedScores: [],
    weights: [],
    selected: '',
    message: '',
    outcome: 'Unschedulable',
  };
}
