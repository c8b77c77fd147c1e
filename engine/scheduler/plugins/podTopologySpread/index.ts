// PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread/plugin.go,
// v1.32): the plugin, its args, and its queueing hints. The extension points
// live in filtering.ts and scoring.ts, as upstream splits them.
import type { KObject } from '../../../apimachinery/types';
import { registerClass } from '../../../sim/serial';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/api';
import type { CycleState } from '../../framework/cycleState';
import type {
  ClusterEvent,
  EnqueueExtensions,
  FilterPlugin,
  Handle,
  NodeScore,
  PluginDefinition,
  PreFilterExtensions,
  PreFilterPlugin,
  PreFilterResult,
  PreScorePlugin,
  QueueingHint,
  ScoreExtensions,
  ScorePlugin,
} from '../../framework/interface';
import type { NodeInfo } from '../../framework/nodeInfo';
import type { PodInfo } from '../../framework/podInfo';
import type { MaybeStatus, Status } from '../../framework/status';
import { defaultPodTopologySpreadArgs, SYSTEM_DEFAULT_CONSTRAINTS, validatePodTopologySpreadArgs, type PodTopologySpreadArgs } from './args';
import { getConstraints, labelsOf, labelValue, NAME, nodeLabelsMatchSpreadConstraints, selectorMatches, type SpreadConstraint, type SpreadPluginContext } from './common';
import { addOrRemovePod, filter, preFilter } from './filtering';
import { normalizeScore, preScore, score, scoreInputsRecorder } from './scoring';
import type { ScoreInputsRecorder } from '../../framework/scoreInputs';

export { ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_NODE_LABEL_NOT_MATCH } from './filtering';
export type { PodTopologySpreadArgs } from './args';

export class PodTopologySpread
  implements PreFilterPlugin, PreFilterExtensions, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions, SpreadPluginContext
{
  readonly name = NAME;
  readonly systemDefaulted: boolean;
  readonly defaultConstraints: readonly TopologySpreadConstraint[];

  constructor(
    readonly args: PodTopologySpreadArgs,
    readonly handle: Handle,
  ) {
    this.systemDefaulted = args.defaultingType === 'System';
    this.defaultConstraints = this.systemDefaulted ? SYSTEM_DEFAULT_CONSTRAINTS : (args.defaultConstraints ?? []);
  }

  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): { result?: PreFilterResult; status: MaybeStatus } {
    return { status: preFilter(this, state, pod, nodes) };
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(state: CycleState, podToSchedule: Pod, toAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return addOrRemovePod(state, podToSchedule, toAdd, nodeInfo, 1);
  }

  removePod(state: CycleState, podToSchedule: Pod, toRemove: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return addOrRemovePod(state, podToSchedule, toRemove, nodeInfo, -1);
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    return filter(state, pod, nodeInfo);
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
    return preScore(this, state, pod, nodes);
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    return score(state, pod, nodeInfo);
  }

  scoreInputsRecorder(state: CycleState): ScoreInputsRecorder | null {
    return scoreInputsRecorder(state);
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(state: CycleState, pod: Pod, scores: NodeScore[]): MaybeStatus {
    return normalizeScore(state, pod, scores);
  }

  // EventsToRegister with SchedulerQueueingHints on (the v1.32 default): the
  // pod's own toleration updates count too (a NodeTaintsPolicy: Honor
  // constraint may then admit more nodes).
  eventsToRegister(): ClusterEvent[] {
    return [
      { resource: 'Pod', actions: ['Add', 'UpdatePodLabel', 'UpdatePodTolerations', 'Delete'] },
      { resource: 'Node', actions: ['Add', 'Delete', 'UpdateNodeLabel', 'UpdateNodeTaint'] },
    ];
  }

  isSchedulableAfter(event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint {
    switch (event.resource) {
      case 'Pod':
      case 'AssignedPod':
      case 'UnscheduledPod':
        return this.isSchedulableAfterPodChange(pod, oldObj as Pod | undefined, newObj as Pod | undefined);
      case 'Node':
        return this.isSchedulableAfterNodeChange(pod, oldObj as Node | undefined, newObj as Node | undefined);
      default:
        return 'Queue';
    }
  }

  /** isSchedulableAfterPodChange */
  isSchedulableAfterPodChange(pod: Pod, originalPod: Pod | undefined, modifiedPod: Pod | undefined): QueueingHint {
    if ((modifiedPod && !involvedInTopologySpreading(modifiedPod, pod)) || (originalPod && !involvedInTopologySpreading(originalPod, pod))) {
      // Unscheduled, or in another namespace.
      return 'QueueSkip';
    }
    const r = getConstraints(this, pod);
    if (!r.ok) return 'Queue';
    const constraints = r.constraints;
    if (modifiedPod && originalPod) {
      // The unschedulable pod itself got new tolerations: Honor-taints constraints may now admit more nodes.
      if (
        (pod.metadata.uid ?? '') === (modifiedPod.metadata.uid ?? '') &&
        !semanticDeepEqual(modifiedPod.spec.tolerations, originalPod.spec.tolerations) &&
        constraints.some((c) => c.nodeTaintsPolicy === 'Honor')
      ) {
        return 'Queue';
      }
      if (semanticDeepEqual(modifiedPod.metadata.labels, originalPod.metadata.labels)) return 'QueueSkip';
      for (const c of constraints) {
        // The update makes the pod match, or stop matching, this constraint.
        if (selectorMatches(c.selector, labelsOf(originalPod)) !== selectorMatches(c.selector, labelsOf(modifiedPod))) return 'Queue';
      }
      return 'QueueSkip';
    }
    if (modifiedPod) return podLabelsMatchSpreadConstraints(constraints, labelsOf(modifiedPod)) ? 'Queue' : 'QueueSkip';
    if (originalPod) return podLabelsMatchSpreadConstraints(constraints, labelsOf(originalPod)) ? 'Queue' : 'QueueSkip';
    return 'Queue';
  }

  /** isSchedulableAfterNodeChange */
  isSchedulableAfterNodeChange(pod: Pod, originalNode: Node | undefined, modifiedNode: Node | undefined): QueueingHint {
    const r = getConstraints(this, pod);
    if (!r.ok) return 'Queue';
    const constraints = r.constraints;
    const originalMatching = originalNode !== undefined && nodeLabelsMatchSpreadConstraints(labelsOf(originalNode), constraints);
    const modifiedMatching = modifiedNode !== undefined && nodeLabelsMatchSpreadConstraints(labelsOf(modifiedNode), constraints);
    // Update: the node enters or leaves the constraints' nodes, changes domain, or changes taints.
    if (originalNode && modifiedNode) {
      if (originalMatching !== modifiedMatching) return 'Queue';
      if (
        modifiedMatching &&
        (topologyKeyLabelsChanged(labelsOf(originalNode), labelsOf(modifiedNode), constraints) ||
          !semanticDeepEqual(originalNode.spec?.taints, modifiedNode.spec?.taints))
      ) {
        return 'Queue';
      }
      return 'QueueSkip';
    }
    // Add: the new node matches. Delete: the old node matched.
    if (modifiedNode) return modifiedMatching ? 'Queue' : 'QueueSkip';
    return originalMatching ? 'Queue' : 'QueueSkip';
  }
}

/** involvedInTopologySpreading: the pod itself, or a scheduled pod of its namespace. */
function involvedInTopologySpreading(incomingPod: Pod, podWithSpreading: Pod): boolean {
  return (
    (incomingPod.metadata.uid ?? '') === (podWithSpreading.metadata.uid ?? '') ||
    (!!incomingPod.spec.nodeName && (incomingPod.metadata.namespace ?? '') === (podWithSpreading.metadata.namespace ?? ''))
  );
}

function podLabelsMatchSpreadConstraints(constraints: readonly SpreadConstraint[], podLabels: Readonly<Record<string, string>>): boolean {
  return constraints.some((c) => selectorMatches(c.selector, podLabels));
}

function topologyKeyLabelsChanged(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>, constraints: readonly SpreadConstraint[]): boolean {
  return constraints.some((c) => labelValue(a, c.topologyKey) !== labelValue(b, c.topologyKey));
}

function isEmptyCollection(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}

/** equality.Semantic.DeepEqual on JSON values: a nil and an empty slice or map are equal. */
export function semanticDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmptyCollection(a) && isEmptyCollection(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => semanticDeepEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!semanticDeepEqual(ao[k], bo[k])) return false;
  return true;
}

registerClass('PluginPodTopologySpread', PodTopologySpread);

export const podTopologySpreadDefinition: PluginDefinition<PodTopologySpreadArgs> = {
  name: NAME,
  argsKind: 'PodTopologySpreadArgs',
  defaultArgs: defaultPodTopologySpreadArgs,
  validateArgs: validatePodTopologySpreadArgs,
  factory: (args, handle) => new PodTopologySpread(args, handle),
};
