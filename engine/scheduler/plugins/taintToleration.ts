// TaintToleration (pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go, v1.32):
// Filter rejects nodes with a NoSchedule/NoExecute taint the pod does not
// tolerate; Score counts the PreferNoSchedule taints it does not tolerate,
// and NormalizeScore reverses (fewest intolerable taints → 100).
import type { KObject } from '../../apimachinery/types';
import { registerClass } from '../../sim/serial';
import type { Node, Pod, Taint, Toleration } from '../framework/api';
import { stateKey, type CycleState } from '../framework/cycleState';
import {
  MAX_NODE_SCORE,
  type ClusterEvent,
  type EnqueueExtensions,
  type FilterPlugin,
  type Handle,
  type NodeScore,
  type PluginDefinition,
  type PreScorePlugin,
  type QueueingHint,
  type ScoreExtensions,
  type ScorePlugin,
} from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import type { ScoreInputs } from '../framework/scoreInputs';
import { errorStatus, unresolvable, type MaybeStatus, type Status } from '../framework/status';
import { defaultNormalizeScore, defaultNormalizeScoreValues } from './helper/normalizeScore';
import { doNotScheduleTaintsFilter, findMatchingUntoleratedTaint, tolerationsTolerateTaint } from './helper/taints';

/** ErrReasonNotMatch: declared upstream (the Filter says which taint instead). */
export const ERR_REASON_NOT_MATCH = "node(s) had taints that the pod didn't tolerate";

/** The Filter's reason: `node(s) had untolerated taint {key: value}`. */
export function untoleratedTaintReason(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

/** preScoreState: the tolerations that can tolerate a PreferNoSchedule taint. */
export interface TaintTolerationPreScoreState {
  tolerationsPreferNoSchedule: Toleration[];
}

export const PRE_SCORE_STATE_KEY = stateKey<TaintTolerationPreScoreState>('PreScoreTaintToleration');

/** getAllTolerationPreferNoSchedule: an empty effect matches every effect, so it counts too. */
export function tolerationsPreferNoSchedule(tolerations: readonly Toleration[] | undefined): Toleration[] {
  const out: Toleration[] = [];
  for (const t of tolerations ?? []) if (!t.effect || t.effect === 'PreferNoSchedule') out.push(t);
  return out;
}

/** countIntolerableTaintsPreferNoSchedule */
export function countIntolerableTaintsPreferNoSchedule(taints: readonly Taint[] | undefined, tolerations: readonly Toleration[]): number {
  if (!taints) return 0;
  let n = 0;
  for (let i = 0; i < taints.length; i++) {
    const taint = taints[i]!;
    if (taint.effect !== 'PreferNoSchedule') continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) n++;
  }
  return n;
}

export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions {
  readonly name = 'TaintToleration';

  constructor(readonly handle: Handle) {}

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const node = nodeInfo.node;
    if (!node) return errorStatus('node not found');
    const taint = findMatchingUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, doNotScheduleTaintsFilter);
    return taint === undefined ? null : unresolvable(untoleratedTaintReason(taint));
  }

  preScore(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): MaybeStatus {
    state.write(PRE_SCORE_STATE_KEY, { tolerationsPreferNoSchedule: tolerationsPreferNoSchedule(pod.spec.tolerations) });
    return null;
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    const s = state.read(PRE_SCORE_STATE_KEY);
    if (s === undefined) return errorStatus(`failed to read "${PRE_SCORE_STATE_KEY.name}" from cycleState: not found`);
    return countIntolerableTaintsPreferNoSchedule(nodeInfo.node?.spec?.taints, s.tolerationsPreferNoSchedule);
  }

  scoreNodes(state: CycleState, _pod: Pod, nodes: readonly NodeInfo[], out: Float64Array): Status | null {
    if (nodes.length === 0) return null;
    const s = state.read(PRE_SCORE_STATE_KEY);
    if (s === undefined) return errorStatus(`failed to read "${PRE_SCORE_STATE_KEY.name}" from cycleState: not found`);
    const tolerations = s.tolerationsPreferNoSchedule;
    for (let n = 0; n < nodes.length; n++) out[n] = countIntolerableTaintsPreferNoSchedule(nodes[n]!.node?.spec?.taints, tolerations);
    return null;
  }

  /** The PreferNoSchedule taints the raw score counted (none: the raw 0 says it). */
  scoreInputs(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): ScoreInputs | null {
    const taints = nodeInfo.node?.spec?.taints;
    if (!taints || taints.length === 0) return null;
    const s = state.read(PRE_SCORE_STATE_KEY);
    if (!s) return null;
    let intolerable: string[] | null = null;
    for (const t of taints) {
      if (t.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(s.tolerationsPreferNoSchedule, t)) (intolerable ??= []).push(`${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
    }
    return intolerable ? { kind: 'taints', intolerable } : null;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): MaybeStatus {
    return defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
  }

  normalizeScoreValues(_state: CycleState, _pod: Pod, scores: Float64Array): MaybeStatus {
    return defaultNormalizeScoreValues(MAX_NODE_SCORE, true, scores);
  }

  // Queueing hints on (v1.32 default): Node Add/UpdateNodeTaint, and the pod's own toleration updates.
  eventsToRegister(): ClusterEvent[] {
    return [
      { resource: 'Node', actions: ['Add', 'UpdateNodeTaint'] },
      { resource: 'Pod', actions: ['UpdatePodTolerations'] },
    ];
  }

  isSchedulableAfter(event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint {
    if (!newObj) return 'Queue';
    if (event.resource === 'Node') {
      // Queue only when the node goes from untolerated (or new) to tolerated.
      const original = oldObj as Node | undefined;
      const modified = newObj as Node;
      const wasUntolerated = original === undefined || findMatchingUntoleratedTaint(original.spec?.taints, pod.spec.tolerations, doNotScheduleTaintsFilter) !== undefined;
      const isUntolerated = findMatchingUntoleratedTaint(modified.spec?.taints, pod.spec.tolerations, doNotScheduleTaintsFilter) !== undefined;
      return wasUntolerated && !isUntolerated ? 'Queue' : 'QueueSkip';
    }
    // isSchedulableAfterPodTolerationChange: any new toleration on this pod may help.
    return newObj.metadata.uid === pod.metadata.uid ? 'Queue' : 'QueueSkip';
  }
}

registerClass('PluginTaintToleration', TaintToleration);

export const taintTolerationDefinition: PluginDefinition = {
  name: 'TaintToleration',
  factory: (_args, handle) => new TaintToleration(handle),
};
