// NodeResourcesBalancedAllocation (pkg/scheduler/framework/plugins/noderesources/
// balanced_allocation.go, v1.32): favours nodes whose resources would be used
// evenly — score = (1 - std of requested/allocatable fractions) * MaxNodeScore,
// fractions capped at 1, over the plain (not defaulted) requests.
// v1.32 scores best-effort pods too (the PreScore Skip for them came in v1.33).
import { fieldErr, type FieldError, type FieldPath } from '../../apimachinery/fieldErrors';
import { registerClass } from '../../sim/serial';
import type { Pod } from '../framework/api';
import { stateKey, type CycleState } from '../framework/cycleState';
import type { Handle, PluginDefinition, PreScorePlugin, ScoreExtensions, ScorePlugin } from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import type { MaybeStatus, Status } from '../framework/status';
import { ResourceAllocationScorer, ResourceInputsRecorder, type ResourceSpec } from './helper/resourceAllocation';

export const NODE_RESOURCES_BALANCED_ALLOCATION = 'NodeResourcesBalancedAllocation';

/** config.NodeResourcesBalancedAllocationArgs (v1 JSON). */
export interface NodeResourcesBalancedAllocationArgs {
  resources: ResourceSpec[];
}

/** SetDefaults_NodeResourcesBalancedAllocationArgs: cpu and memory; weight 0 means 1. Returns a copy. */
export function defaultNodeResourcesBalancedAllocationArgs(args: Partial<NodeResourcesBalancedAllocationArgs> | undefined): NodeResourcesBalancedAllocationArgs {
  const resources = (args?.resources ?? []).map((r) => ({ ...r }));
  if (resources.length === 0) {
    return {
      resources: [
        { name: 'cpu', weight: 1 },
        { name: 'memory', weight: 1 },
      ],
    };
  }
  for (const r of resources) if (!r.weight) r.weight = 1;
  return { resources };
}

/** ValidateNodeResourcesBalancedAllocationArgs: names unique, every weight exactly 1. */
export function validateNodeResourcesBalancedAllocationArgs(args: NodeResourcesBalancedAllocationArgs, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (args.resources ?? []).forEach((r, i) => {
    const p = path.child('resources').index(i);
    if (seen.has(r.name)) errs.push(fieldErr.duplicate(p.child('name'), r.name));
    else seen.add(r.name);
    if (r.weight !== 1) errs.push(fieldErr.invalid(p.child('weight'), r.weight, 'must be 1'));
  });
  return errs;
}

/** balancedAllocationPreScoreState */
export interface BalancedAllocationPreScoreState {
  podRequests: number[];
}

export const BALANCED_ALLOCATION_PRE_SCORE_STATE_KEY = stateKey<BalancedAllocationPreScoreState>(`PreScore${NODE_RESOURCES_BALANCED_ALLOCATION}`);

export class NodeResourcesBalancedAllocation implements PreScorePlugin, ScorePlugin {
  readonly name = NODE_RESOURCES_BALANCED_ALLOCATION;
  readonly scorer: ResourceAllocationScorer;

  constructor(
    readonly args: NodeResourcesBalancedAllocationArgs,
    readonly handle: Handle | null,
  ) {
    const resources = (args.resources ?? []).map((r) => ({ name: r.name, weight: r.weight }));
    // useRequested: NodeInfo.requested and the pod's plain requests, no 100m/200Mi defaults.
    this.scorer = new ResourceAllocationScorer(NODE_RESOURCES_BALANCED_ALLOCATION, 'BalancedAllocation', resources, true);
  }

  preScore(state: CycleState, pod: Pod): MaybeStatus {
    state.write(BALANCED_ALLOCATION_PRE_SCORE_STATE_KEY, { podRequests: this.scorer.calculatePodResourceRequestList(pod) });
    return null;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const s = state.read(BALANCED_ALLOCATION_PRE_SCORE_STATE_KEY);
    const podRequests = s ? s.podRequests : this.scorer.calculatePodResourceRequestList(pod);
    return this.scorer.score(nodeInfo, podRequests);
  }

  scoreNodes(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], out: Float64Array): Status | null {
    const s = state.read(BALANCED_ALLOCATION_PRE_SCORE_STATE_KEY);
    return this.scorer.scoreNodes(nodes, s ? s.podRequests : this.scorer.calculatePodResourceRequestList(pod), out);
  }

  scoreInputsRecorder(state: CycleState, pod: Pod): ResourceInputsRecorder {
    const s = state.read(BALANCED_ALLOCATION_PRE_SCORE_STATE_KEY);
    return new ResourceInputsRecorder(this.scorer, s ? s.podRequests : this.scorer.calculatePodResourceRequestList(pod));
  }

  scoreExtensions(): ScoreExtensions | null {
    return null;
  }
}

registerClass('PluginNodeResourcesBalancedAllocation', NodeResourcesBalancedAllocation);

export const nodeResourcesBalancedAllocationDefinition: PluginDefinition<NodeResourcesBalancedAllocationArgs> = {
  name: NODE_RESOURCES_BALANCED_ALLOCATION,
  argsKind: 'NodeResourcesBalancedAllocationArgs',
  defaultArgs: defaultNodeResourcesBalancedAllocationArgs,
  validateArgs: validateNodeResourcesBalancedAllocationArgs,
  factory: (args, handle) => new NodeResourcesBalancedAllocation(args, handle),
};
