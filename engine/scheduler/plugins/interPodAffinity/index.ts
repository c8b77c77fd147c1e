// InterPodAffinity (pkg/scheduler/framework/plugins/interpodaffinity/plugin.go,
// v1.32): the plugin, its args (defaults.go, validation_pluginargs.go) and its
// queueing hints. The extension points live in filtering.ts and scoring.ts.
import { fieldErr, type FieldError, type FieldPath } from '../../../apimachinery/fieldErrors';
import type { KObject } from '../../../apimachinery/types';
import { registerClass } from '../../../sim/serial';
import type { Node, Pod, PodAffinityTerm } from '../../framework/api';
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
import { newAffinityTerm, type AffinityTerm, type PodInfo } from '../../framework/podInfo';
import type { MaybeStatus, Status } from '../../framework/status';
import { addOrRemovePod, filter, preFilter } from './filtering';
import { normalizeScore, preScore, score, scoreInputsRecorder } from './scoring';
import type { ScoreInputsRecorder } from '../../framework/scoreInputs';
import { labelsOf, labelValue, NAME, podMatchesAllAffinityTerms } from './terms';

export {
  ERR_REASON_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
} from './filtering';

/** InterPodAffinityArgs (v1). */
export interface InterPodAffinityArgs {
  /** Score weight of an existing pod's required affinity the incoming pod satisfies; [0, 100], default 1. */
  hardPodAffinityWeight: number;
  /** Skip existing pods' preferred terms when the incoming pod has no preferred terms of its own. */
  ignorePreferredTermsOfExistingPods: boolean;
}

/** SetDefaults_InterPodAffinityArgs */
export function defaultInterPodAffinityArgs(args: Partial<InterPodAffinityArgs> | undefined): InterPodAffinityArgs {
  return {
    hardPodAffinityWeight: args?.hardPodAffinityWeight ?? 1,
    ignorePreferredTermsOfExistingPods: args?.ignorePreferredTermsOfExistingPods ?? false,
  };
}

/** ValidateInterPodAffinityArgs */
export function validateInterPodAffinityArgs(args: InterPodAffinityArgs, path: FieldPath): FieldError[] {
  const w = args.hardPodAffinityWeight;
  if (w < 0 || w > 100) return [fieldErr.invalid(path.child('hardPodAffinityWeight'), w, 'not in valid range [0, 100]')];
  return [];
}

/** framework.GetAffinityTerms for the hints: undefined on a bad selector (the hint then says Queue). */
function getAffinityTerms(pod: Pod, list: readonly PodAffinityTerm[] | undefined): AffinityTerm[] | undefined {
  const out: AffinityTerm[] = [];
  for (const t of list ?? []) {
    const r = newAffinityTerm(pod, t);
    if (typeof r === 'string') return undefined;
    out.push(r);
  }
  return out;
}

export class InterPodAffinity
  implements PreFilterPlugin, PreFilterExtensions, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions
{
  readonly name = NAME;

  constructor(
    readonly args: InterPodAffinityArgs,
    readonly handle: Handle,
  ) {}

  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): { result?: PreFilterResult; status: MaybeStatus } {
    return { status: preFilter(this.handle, state, pod, nodes) };
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(state: CycleState, _podToSchedule: Pod, toAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return addOrRemovePod(state, toAdd, nodeInfo, 1);
  }

  removePod(state: CycleState, _podToSchedule: Pod, toRemove: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return addOrRemovePod(state, toRemove, nodeInfo, -1);
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    return filter(state, pod, nodeInfo);
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
    return preScore(this.args, this.handle, state, pod, nodes);
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

  // EventsToRegister with SchedulerQueueingHints on (v1.32 default): no
  // preCheck, so UpdateNodeTaint is not needed for nodes.
  eventsToRegister(): ClusterEvent[] {
    return [
      { resource: 'Pod', actions: ['Add', 'UpdatePodLabel', 'Delete'] },
      { resource: 'Node', actions: ['Add', 'UpdateNodeLabel'] },
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
    if (!originalPod && !modifiedPod) return 'Queue';
    // Unscheduled pods take no part in (anti-)affinity.
    if ((modifiedPod && !modifiedPod.spec.nodeName) || (originalPod && !originalPod.spec.nodeName)) return 'QueueSkip';
    const terms = getAffinityTerms(pod, pod.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
    const antiTerms = getAffinityTerms(pod, pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
    if (!terms || !antiTerms) return 'Queue';
    // A single existing pod must satisfy all the affinity terms, so they are checked together.
    if (modifiedPod && originalPod) {
      if (!podMatchesAllAffinityTerms(terms, originalPod) && podMatchesAllAffinityTerms(terms, modifiedPod)) return 'Queue';
      if (podMatchesAllAffinityTerms(antiTerms, originalPod) && !podMatchesAllAffinityTerms(antiTerms, modifiedPod)) return 'Queue';
      return 'QueueSkip';
    }
    // Added: it may satisfy the affinity. Deleted: it may have been what the anti-affinity hated.
    if (modifiedPod) return podMatchesAllAffinityTerms(terms, modifiedPod) ? 'Queue' : 'QueueSkip';
    return podMatchesAllAffinityTerms(antiTerms, originalPod!) ? 'Queue' : 'QueueSkip';
  }

  /** isSchedulableAfterNodeChange */
  isSchedulableAfterNodeChange(pod: Pod, originalNode: Node | undefined, modifiedNode: Node | undefined): QueueingHint {
    if (!modifiedNode) return 'Queue';
    const modified = labelsOf(modifiedNode);
    const original = originalNode ? labelsOf(originalNode) : undefined;
    const terms = getAffinityTerms(pod, pod.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
    if (!terms) return 'Queue';
    // Affinity: a new node with the key, a node gaining the key, or a node moving domain.
    for (const t of terms) {
      const m = labelValue(modified, t.topologyKey);
      if (!original) {
        if (m !== undefined) return 'Queue';
        continue;
      }
      const o = labelValue(original, t.topologyKey);
      if (o === undefined && m !== undefined) return 'Queue';
      if (o !== undefined && m !== undefined && o !== m) return 'Queue';
    }
    const antiTerms = getAffinityTerms(pod, pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
    if (!antiTerms) return 'Queue';
    // Anti-affinity: any new node (nodes without the key always pass), a node
    // losing the key, or a node moving domain.
    for (const t of antiTerms) {
      if (!original) return 'Queue';
      const o = labelValue(original, t.topologyKey);
      const m = labelValue(modified, t.topologyKey);
      if (o !== undefined && m === undefined) return 'Queue';
      if (o !== undefined && m !== undefined && o !== m) return 'Queue';
    }
    return 'QueueSkip';
  }
}

registerClass('PluginInterPodAffinity', InterPodAffinity);

export const interPodAffinityDefinition: PluginDefinition<InterPodAffinityArgs> = {
  name: NAME,
  argsKind: 'InterPodAffinityArgs',
  defaultArgs: defaultInterPodAffinityArgs,
  validateArgs: validateInterPodAffinityArgs,
  factory: (args, handle) => new InterPodAffinity(args, handle),
};
