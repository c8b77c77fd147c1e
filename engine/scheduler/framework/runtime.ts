// frameworkImpl (pkg/scheduler/framework/runtime/framework.go): one profile's
// plugins sorted into per-extension-point lists, and the Run* functions that
// call them in order with upstream's rules — PreFilter Skip switches a
// plugin's Filter off, the first failing Filter decides a node, Score is
// normalised then weighted, Reserve is undone in reverse order.
import { registerClass } from '../../sim/serial';
import type { Pod } from './api';
import { podPriority } from './api';
import type { CycleState } from './cycleState';
import {
  MAX_NODE_SCORE,
  MIN_NODE_SCORE,
  type ApiAction,
  type BindPlugin,
  type FilterPlugin,
  type NodeScore,
  type NodeToStatus,
  type PermitPlugin,
  type Plugin,
  type PostBindPlugin,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreBindPlugin,
  type PreEnqueuePlugin,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type QueueSortPlugin,
  type ReservePlugin,
  type ScorePlugin,
} from './interface';
import type { NodeInfo } from './nodeInfo';
import type { PodInfo } from './podInfo';
import type { RecordedInputs, ScoreInputs, ScoreInputsRecorder } from './scoreInputs';
import { errorStatus, unresolvable, withPlugin, type MaybeStatus, type Status } from './status';

export type ExtensionPoint = 'preEnqueue' | 'queueSort' | 'preFilter' | 'filter' | 'postFilter' | 'preScore' | 'score' | 'reserve' | 'permit' | 'preBind' | 'bind' | 'postBind';

export const EXTENSION_POINTS: readonly ExtensionPoint[] = ['preEnqueue', 'queueSort', 'preFilter', 'filter', 'postFilter', 'preScore', 'score', 'reserve', 'permit', 'preBind', 'bind', 'postBind'];

export interface PointPlugin {
  name: string;
  weight: number;
}

/** What RunPreFilterPlugins found. */
export interface PreFilterOutcome {
  result: PreFilterResult | null;
  status: MaybeStatus;
  /** Plugins whose PreFilterResult narrowed the nodes. */
  pluginsWithNodes: string[];
  /** Plugins that rejected the pod at PreFilter (diagnosis.UnschedulablePlugins). */
  unschedulablePlugins: string[];
}

/** RunScorePlugins' output, kept in flat arrays (node-major) for the decision record. */
export interface ScoreOutcome {
  /** Score plugins that ran (PreScore Skip removes some), in order. */
  plugins: string[];
  weights: number[];
  /** raw[n * plugins.length + p] */
  raw: Float64Array;
  normalized: Float64Array;
  totals: Float64Array;
  /** Per plugin: what it scored each node from (when asked for and the plugin records inputs). */
  inputs?: (RecordedInputs | null)[];
}

export class Framework {
  readonly preEnqueue: PreEnqueuePlugin[];
  readonly queueSort: QueueSortPlugin | null;
  readonly preFilter: PreFilterPlugin[];
  readonly filter: FilterPlugin[];
  readonly postFilter: PostFilterPlugin[];
  readonly preScore: PreScorePlugin[];
  readonly score: ScorePlugin[];
  readonly scoreWeights: number[];
  readonly reserve: ReservePlugin[];
  readonly permit: PermitPlugin[];
  readonly preBind: PreBindPlugin[];
  readonly bind: BindPlugin[];
  readonly postBind: PostBindPlugin[];

  constructor(
    readonly profileName: string,
    readonly percentageOfNodesToScore: number | undefined,
    readonly points: Record<ExtensionPoint, PointPlugin[]>,
    /** Every plugin instance of the profile, by name. */
    readonly plugins: Map<string, Plugin>,
    /** The scheduler's nominator: nominated pods per node. */
    private readonly nominated: { nominatedPodsForNode(nodeName: string): readonly PodInfo[] },
  ) {
    const at = <T extends Plugin>(p: ExtensionPoint): T[] => points[p].map((e) => plugins.get(e.name) as T);
    this.preEnqueue = at('preEnqueue');
    this.queueSort = at<QueueSortPlugin>('queueSort')[0] ?? null;
    this.preFilter = at('preFilter');
    this.filter = at('filter');
    this.postFilter = at('postFilter');
    this.preScore = at('preScore');
    this.score = at('score');
    this.scoreWeights = points.score.map((e) => e.weight);
    this.reserve = at('reserve');
    this.permit = at('permit');
    this.preBind = at('preBind');
    this.bind = at('bind');
    this.postBind = at('postBind');
  }

  get filterNames(): string[] {
    return this.filter.map((p) => p.name);
  }

  runPreFilterPlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterOutcome {
    let result: PreFilterResult | null = null;
    let returnStatus: MaybeStatus = null;
    const pluginsWithNodes: string[] = [];
    const unschedulablePlugins: string[] = [];
    for (const pl of this.preFilter) {
      const { result: r, status: s } = pl.preFilter(state, pod, nodes);
      if (s && s.code === 'Skip') {
        state.skipFilterPlugins.add(pl.name);
        continue;
      }
      if (s) {
        const st = withPlugin(s, pl.name);
        if (st.code === 'UnschedulableAndUnresolvable') {
          unschedulablePlugins.push(pl.name);
          return { result: null, status: st, pluginsWithNodes, unschedulablePlugins };
        }
        if (st.code === 'Unschedulable') {
          // Keep going: preemption may still help, so every PreFilter must run (kubernetes#119770).
          unschedulablePlugins.push(pl.name);
          returnStatus = st;
          continue;
        }
        return { result: null, status: withPlugin(errorStatus(`running PreFilter plugin "${pl.name}": ${st.reasons.join(', ')}`), pl.name), pluginsWithNodes, unschedulablePlugins };
      }
      if (r && r.nodeNames) {
        pluginsWithNodes.push(pl.name);
        result = mergePreFilterResults(result, r);
        if (result.nodeNames && result.nodeNames.size === 0) {
          const sorted = [...pluginsWithNodes].sort();
          const msg = sorted.length === 1 ? `node(s) didn't satisfy plugin ${sorted[0]}` : `node(s) didn't satisfy plugin(s) [${sorted.join(' ')}] simultaneously`;
          return { result, status: unresolvable(msg), pluginsWithNodes, unschedulablePlugins };
        }
      }
    }
    return { result, status: returnStatus, pluginsWithNodes, unschedulablePlugins };
  }

  /** RunFilterPlugins: the first plugin that rejects the node decides. */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const filters = state.filtersToRun(this.filter);
    for (let i = 0; i < filters.length; i++) {
      const pl = filters[i]!;
      const s = pl.filter(state, pod, nodeInfo);
      if (s !== null) {
        if (s.code === 'Error') return withPlugin(errorStatus(`running "${pl.name}" filter plugin: ${s.reasons.join(', ')}`), pl.name);
        return withPlugin(s, pl.name);
      }
    }
    return null;
  }

  /**
   * RunFilterPluginsWithNominatedPods: a node passes only if it passes both
   * with the pods nominated to it (of equal or higher priority) counted as
   * running there, and without them.
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    // Nothing nominated to the node (the common case): the second pass alone.
    if (this.nominated.nominatedPodsForNode(nodeInfo.name).length === 0) return this.runFilterPlugins(state, pod, nodeInfo);
    let status: MaybeStatus = null;
    // First with nominated pods added (if any), then without.
    for (let i = 0; i < 2; i++) {
      let stateToUse = state;
      let nodeInfoToUse = nodeInfo;
      if (i === 0) {
        const added = this.addNominatedPods(pod, state, nodeInfo);
        if (added === 'error') return errorStatus('adding nominated pods');
        if (!added) continue;
        stateToUse = added.state;
        nodeInfoToUse = added.nodeInfo;
      }
      status = this.runFilterPlugins(stateToUse, pod, nodeInfoToUse);
      if (status !== null && status.code !== 'Unschedulable' && status.code !== 'UnschedulableAndUnresolvable') return status;
      if (status !== null) return status;
    }
    return status;
  }

  private addNominatedPods(pod: Pod, state: CycleState, nodeInfo: NodeInfo): { state: CycleState; nodeInfo: NodeInfo } | null | 'error' {
    const nominated = this.nominated.nominatedPodsForNode(nodeInfo.name);
    if (nominated.length === 0) return null;
    const prio = podPriority(pod);
    let out: { state: CycleState; nodeInfo: NodeInfo } | null = null;
    for (const pi of nominated) {
      if (podPriority(pi.pod) >= prio && pi.pod.metadata.uid !== pod.metadata.uid) {
        if (!out) out = { state: state.clone(), nodeInfo: cloneNodeInfo(nodeInfo) };
        out.nodeInfo.addPodInfo(pi);
        if (this.runPreFilterExtensionAddPod(out.state, pod, pi, out.nodeInfo) !== null) return 'error';
      }
    }
    return out;
  }

  runPreFilterExtensionAddPod(state: CycleState, podToSchedule: Pod, toAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    for (const pl of this.preFilter) {
      if (state.skipFilterPlugins.has(pl.name)) continue;
      const ext = pl.preFilterExtensions?.();
      if (!ext) continue;
      const s = ext.addPod(state, podToSchedule, toAdd, nodeInfo);
      if (s) return withPlugin(errorStatus(`running AddPod on PreFilter plugin "${pl.name}": ${s.reasons.join(', ')}`), pl.name);
    }
    return null;
  }

  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: Pod, toRemove: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    for (const pl of this.preFilter) {
      if (state.skipFilterPlugins.has(pl.name)) continue;
      const ext = pl.preFilterExtensions?.();
      if (!ext) continue;
      const s = ext.removePod(state, podToSchedule, toRemove, nodeInfo);
      if (s) return withPlugin(errorStatus(`running RemovePod on PreFilter plugin "${pl.name}": ${s.reasons.join(', ')}`), pl.name);
    }
    return null;
  }

  /** RunPostFilterPlugins: the first plugin that succeeds (or errors) wins; rejections are collected. */
  runPostFilterPlugins(state: CycleState, pod: Pod, filtered: NodeToStatus, absentNodesStatus: Status | null = null): { result?: PostFilterResult; status: MaybeStatus } {
    const reasons: string[] = [];
    let rejectorPlugin = '';
    let result: PostFilterResult | undefined;
    for (const pl of this.postFilter) {
      const out = pl.postFilter(state, pod, filtered, absentNodesStatus);
      if (out.status === null) return { result: out.result, status: null };
      if (out.status.code === 'UnschedulableAndUnresolvable') return { result: out.result, status: withPlugin(out.status, pl.name) };
      if (out.status.code !== 'Unschedulable') return { result: out.result, status: withPlugin(errorStatus(out.status.reasons.join(', ')), pl.name) };
      reasons.push(...out.status.reasons);
      if (!rejectorPlugin) rejectorPlugin = pl.name;
      result = out.result ?? result;
    }
    return { result, status: { code: 'Unschedulable', reasons, plugin: rejectorPlugin } };
  }

  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
    for (const pl of this.preScore) {
      const s = pl.preScore(state, pod, nodes);
      if (s === null) continue;
      if (s.code === 'Skip') {
        state.skipScorePlugins.add(pl.name);
        continue;
      }
      return withPlugin(errorStatus(`running PreScore plugin "${pl.name}": ${s.reasons.join(', ')}`), pl.name);
    }
    return null;
  }

  /**
   * RunScorePlugins: score every node with every plugin, normalise per plugin,
   * then weigh. `withInputs`: also collect each plugin's scoreInputs (the decision record's).
   */
  runScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], withInputs = false): ScoreOutcome | Status {
    const plugins: ScorePlugin[] = [];
    const weights: number[] = [];
    for (let i = 0; i < this.score.length; i++) {
      const pl = this.score[i]!;
      if (state.skipScorePlugins.size !== 0 && state.skipScorePlugins.has(pl.name)) continue;
      plugins.push(pl);
      weights.push(this.scoreWeights[i]!);
    }
    const P = plugins.length;
    const N = nodes.length;
    // raw, normalized and totals share one buffer (one allocation a cycle).
    const buffer = new Float64Array(2 * N * P + N);
    const raw = buffer.subarray(0, N * P);
    const normalized = buffer.subarray(N * P, 2 * N * P);
    const totals = buffer.subarray(2 * N * P);
    // The dense input recorders (they read only PreScore's state), asked for
    // first so that their numbers share one buffer too — a separate one, which
    // the decision log drops with the inputs of older cycles.
    const recorders: (ScoreInputsRecorder | null)[] | null = withInputs ? plugins.map((pl) => pl.scoreInputsRecorder?.(state, pod) ?? null) : null;
    let denseSize = 0;
    if (recorders) for (const r of recorders) if (r) denseSize += N * r.width;
    const denseBuffer = denseSize > 0 ? new Float64Array(denseSize) : null;
    let denseAt = 0;
    // One plugin's raw scores, node by node (scratch, reused between cycles).
    if (scratchColumn.length < N) scratchColumn = new Float64Array(Math.max(N, 2 * scratchColumn.length));
    const col = scratchColumn.subarray(0, N);
    let column: NodeScore[] | null = null;
    const inputs: (RecordedInputs | null)[] | undefined = withInputs ? new Array<RecordedInputs | null>(P).fill(null) : undefined;
    for (let p = 0; p < P; p++) {
      const pl = plugins[p]!;
      const failed = pl.scoreNodes ? pl.scoreNodes(state, pod, nodes, col) : scoreEach(pl, state, pod, nodes, col);
      if (failed) return withPlugin(errorStatus(`running Score plugin "${pl.name}": ${failed.reasons.join(', ')}`), pl.name);
      for (let n = 0; n < N; n++) raw[n * P + p] = col[n]!;
      if (inputs) {
        const recorder = recorders![p]!;
        if (recorder) {
          const dense = denseBuffer!.subarray(denseAt, denseAt + N * recorder.width);
          denseAt += N * recorder.width;
          for (let n = 0; n < N; n++) recorder.write(state, pod, nodes[n]!, dense, n * recorder.width);
          inputs[p] = { recorder, dense };
        } else if (!pl.scoreInputsRecorder) inputs[p] = sparseInputs(pl, state, pod, nodes);
      }
      const ext = pl.scoreExtensions?.();
      if (ext && ext.normalizeScoreValues) {
        const s = ext.normalizeScoreValues(state, pod, col);
        if (s) return withPlugin(errorStatus(`running Normalize on Score plugins: plugin "${pl.name}" failed with: ${s.reasons.join(', ')}`), pl.name);
      } else if (ext) {
        if (!column) {
          column = new Array<NodeScore>(N);
          for (let n = 0; n < N; n++) column[n] = { name: nodes[n]!.name, score: 0 };
        }
        for (let n = 0; n < N; n++) column[n]!.score = col[n]!;
        const s = ext.normalizeScore(state, pod, column);
        if (s) return withPlugin(errorStatus(`running Normalize on Score plugins: plugin "${pl.name}" failed with: ${s.reasons.join(', ')}`), pl.name);
        for (let n = 0; n < N; n++) col[n] = column[n]!.score;
      }
      const w = weights[p]!;
      for (let n = 0; n < N; n++) {
        const v = col[n]!;
        if (v > MAX_NODE_SCORE || v < MIN_NODE_SCORE) return withPlugin(errorStatus(`applying score defaultWeights on Score plugins: plugin "${pl.name}" returns an invalid score ${v}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`), pl.name);
        normalized[n * P + p] = v;
        totals[n]! += v * w;
      }
    }
    return { plugins: plugins.map((p) => p.name), weights, raw, normalized, totals, ...(inputs ? { inputs } : {}) };
  }

  runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): MaybeStatus {
    for (const pl of this.reserve) {
      const s = pl.reserve(state, pod, nodeName);
      if (s) return s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable' ? withPlugin(s, pl.name) : withPlugin(errorStatus(`running Reserve plugin "${pl.name}": ${s.reasons.join(', ')}`), pl.name);
    }
    return null;
  }

  /** Unreserve runs in the reverse order of Reserve. */
  runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void {
    for (let i = this.reserve.length - 1; i >= 0; i--) this.reserve[i]!.unreserve(state, pod, nodeName);
  }

  runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): MaybeStatus {
    for (const pl of this.permit) {
      const { status } = pl.permit(state, pod, nodeName);
      if (status && status.code !== 'Wait') return withPlugin(status, pl.name);
      // Wait has no in-tree user; a waiting plugin is treated as approving at once.
    }
    return null;
  }

  /** The PreBind calls of every plugin, in order (or the first failure). */
  runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string): { actions: ApiAction[]; plugins: string[] } | Status {
    const actions: ApiAction[] = [];
    const plugins: string[] = [];
    for (const pl of this.preBind) {
      const out = pl.preBind(state, pod, nodeName);
      if (out === null) continue;
      if (!Array.isArray(out)) return withPlugin(out.code === 'Error' ? out : errorStatus(`running PreBind plugin "${pl.name}": ${out.reasons.join(', ')}`), pl.name);
      actions.push(...out);
      if (pl.preBindDone) plugins.push(pl.name);
    }
    return { actions, plugins };
  }

  /** RunBindPlugins: the first plugin that does not Skip binds. */
  runBindPlugins(state: CycleState, pod: Pod, nodeName: string): { plugin: string; actions: ApiAction[] } | Status {
    for (const pl of this.bind) {
      const out = pl.bind(state, pod, nodeName);
      if (!Array.isArray(out)) {
        if (out.code === 'Skip') continue;
        return withPlugin(out, pl.name);
      }
      return { plugin: pl.name, actions: out };
    }
    return { code: 'Skip', reasons: [] };
  }

  runPostBindPlugins(state: CycleState, pod: Pod, nodeName: string): void {
    for (const pl of this.postBind) pl.postBind(state, pod, nodeName);
  }
}

/** A plugin without scoreNodes, scored node by node. */
function scoreEach(pl: ScorePlugin, state: CycleState, pod: Pod, nodes: readonly NodeInfo[], out: Float64Array): Status | null {
  for (let n = 0; n < nodes.length; n++) {
    const s = pl.score(state, pod, nodes[n]!);
    if (typeof s !== 'number') return s;
    out[n] = s;
  }
  return null;
}

/** runScorePlugins' scratch column: one plugin's scores, only while it runs. */
let scratchColumn = new Float64Array(0);

/**
 * The decision record's inputs for a plugin without a dense recorder: sparse
 * objects, the array only made once some node has inputs (an empty one reads
 * as null for every node).
 */
function sparseInputs(pl: ScorePlugin, state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): RecordedInputs | null {
  const N = nodes.length;
  if (!pl.scoreInputs) return null;
  let sparse: (ScoreInputs | null)[] | null = null;
  for (let n = 0; n < N; n++) {
    const x = pl.scoreInputs(state, pod, nodes[n]!);
    if (x === null) continue;
    if (!sparse) sparse = new Array<ScoreInputs | null>(N).fill(null);
    sparse[n] = x;
  }
  return { sparse: sparse ?? [] };
}

function mergePreFilterResults(a: PreFilterResult | null, b: PreFilterResult): PreFilterResult {
  if (!a || !a.nodeNames) return { nodeNames: b.nodeNames ? new Set(b.nodeNames) : null };
  if (!b.nodeNames) return a;
  const out = new Set<string>();
  for (const n of a.nodeNames) if (b.nodeNames.has(n)) out.add(n);
  return { nodeNames: out };
}

/** NodeInfo.Snapshot(): a copy preemption can add pods to and remove pods from. */
export function cloneNodeInfo(ni: NodeInfo): NodeInfo {
  const c = Object.create(Object.getPrototypeOf(ni) as object) as NodeInfo;
  c.node = ni.node;
  c.name = ni.name;
  c.pods = [...ni.pods];
  c.podsWithAffinity = [...ni.podsWithAffinity];
  c.podsWithRequiredAntiAffinity = [...ni.podsWithRequiredAntiAffinity];
  c.usedPorts = new Map([...ni.usedPorts].map(([k, v]) => [k, new Set(v)]));
  c.requested = { ...ni.requested, scalar: { ...ni.requested.scalar } };
  c.nonZeroRequested = { ...ni.nonZeroRequested, scalar: { ...ni.nonZeroRequested.scalar } };
  c.allocatable = ni.allocatable;
  c.imageStates = ni.imageStates;
  c.pvcRefCounts = new Map(ni.pvcRefCounts);
  c.generation = ni.generation;
  return c;
}

registerClass('SchedulerFramework', Framework);
