// NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go, v1.32):
// PreFilter computes the pod's requests once; Filter checks them, and the pod
// count, against each node's allocatable minus what its pods request; PreScore
// and Score rank feasible nodes with the configured scoring strategy
// (LeastAllocated by default, MostAllocated, RequestedToCapacityRatio).
// Args: NodeResourcesFitArgs with the v1 defaults (defaults.go) and validation
// (validation_pluginargs.go ValidateNodeResourcesFitArgs).
import { fieldErr, type FieldError, type FieldPath } from '../../apimachinery/fieldErrors';
import type { KObject } from '../../apimachinery/types';
import { isQualifiedName } from '../../apimachinery/validation/names';
import { registerClass } from '../../sim/serial';
import type { Node, Pod } from '../framework/api';
import { stateKey, type CycleState } from '../framework/cycleState';
import type {
  ClusterEvent,
  EnqueueExtensions,
  FilterPlugin,
  Handle,
  PluginDefinition,
  PreFilterExtensions,
  PreFilterPlugin,
  PreFilterResult,
  PreScorePlugin,
  QueueingHint,
  ScoreExtensions,
  ScorePlugin,
} from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import { emptyResource, isExtendedResourceName, isScalarResourceName, podRequestList, podRequests, resourceOf, type Resource } from '../framework/resources';
import { errorStatus, unresolvable, type MaybeStatus, type Status } from '../framework/status';
import {
  MAX_CUSTOM_PRIORITY_SCORE,
  ResourceAllocationScorer,
  ResourceInputsRecorder,
  scaledShape,
  type ResourceSpec,
  type ScoringStrategyType,
} from './helper/resourceAllocation';

export const NODE_RESOURCES_FIT = 'NodeResourcesFit';

/** config.UtilizationShapePoint (v1 JSON: utilization, score). */
export interface UtilizationShapePoint {
  utilization: number;
  score: number;
}

/** config.ScoringStrategy (v1 JSON). */
export interface ScoringStrategy {
  type: ScoringStrategyType;
  resources?: ResourceSpec[];
  requestedToCapacityRatio?: { shape: UtilizationShapePoint[] } | null;
}

/** config.NodeResourcesFitArgs (v1 JSON field names). */
export interface NodeResourcesFitArgs {
  ignoredResources?: string[];
  ignoredResourceGroups?: string[];
  scoringStrategy?: ScoringStrategy | null;
}

/** defaults.go defaultResourceSpec */
export function defaultResourceSpec(): ResourceSpec[] {
  return [
    { name: 'cpu', weight: 1 },
    { name: 'memory', weight: 1 },
  ];
}

/** SetDefaults_NodeResourcesFitArgs: LeastAllocated over cpu and memory; weight 0 means 1. Returns a copy. */
export function defaultNodeResourcesFitArgs(args: Partial<NodeResourcesFitArgs> | undefined): NodeResourcesFitArgs {
  const a = args ?? {};
  const s = a.scoringStrategy;
  const scoringStrategy: ScoringStrategy = s
    ? { ...s, resources: (s.resources ?? []).map((r) => ({ ...r })), ...(s.requestedToCapacityRatio ? { requestedToCapacityRatio: { shape: (s.requestedToCapacityRatio.shape ?? []).map((p) => ({ ...p })) } } : {}) }
    : { type: 'LeastAllocated', resources: defaultResourceSpec() };
  if (scoringStrategy.resources!.length === 0) scoringStrategy.resources = defaultResourceSpec();
  for (const r of scoringStrategy.resources!) if (!r.weight) r.weight = 1;
  return {
    ...(a.ignoredResources ? { ignoredResources: [...a.ignoredResources] } : {}),
    ...(a.ignoredResourceGroups ? { ignoredResourceGroups: [...a.ignoredResourceGroups] } : {}),
    scoringStrategy,
  };
}

const SUPPORTED_SCORING_STRATEGY_TYPES: readonly ScoringStrategyType[] = ['LeastAllocated', 'MostAllocated', 'RequestedToCapacityRatio'];

/** metav1validation.ValidateLabelName */
function validateLabelName(name: string, p: FieldPath): FieldError[] {
  return isQualifiedName(name).map((m) => fieldErr.invalid(p, name, m));
}

/** validateResources: every weight in (0, 100]. */
export function validateResources(resources: readonly ResourceSpec[] | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (resources ?? []).forEach((r, i) => {
    if (!(r.weight > 0) || r.weight > 100) errs.push(fieldErr.invalid(p.index(i).child('weight'), r.weight, `resource weight of ${r.name} not in valid range (0, 100]`));
  });
  return errs;
}

/** validateFunctionShape: at least one point, utilization strictly increasing within [0, 100], score within [0, 10]. */
export function validateFunctionShape(shape: readonly UtilizationShapePoint[], p: FieldPath): FieldError[] {
  if (shape.length === 0) return [fieldErr.required(p, 'at least one point must be specified')];
  const errs: FieldError[] = [];
  for (let i = 1; i < shape.length; i++) {
    if (shape[i - 1]!.utilization >= shape[i]!.utilization) {
      errs.push(fieldErr.invalid(p.index(i).child('utilization'), shape[i]!.utilization, 'utilization values must be sorted in increasing order'));
      break;
    }
  }
  shape.forEach((pt, i) => {
    if (pt.utilization < 0 || pt.utilization > 100) errs.push(fieldErr.invalid(p.index(i).child('utilization'), pt.utilization, 'not in valid range [0, 100]'));
    if (pt.score < 0 || pt.score > MAX_CUSTOM_PRIORITY_SCORE) errs.push(fieldErr.invalid(p.index(i).child('score'), pt.score, `not in valid range [0, ${MAX_CUSTOM_PRIORITY_SCORE}]`));
  });
  return errs;
}

/** ValidateNodeResourcesFitArgs */
export function validateNodeResourcesFitArgs(args: NodeResourcesFitArgs, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (args.ignoredResources ?? []).forEach((res, i) => errs.push(...validateLabelName(res, path.child('ignoredResources').index(i))));
  (args.ignoredResourceGroups ?? []).forEach((group, i) => {
    const p = path.child('ignoredResourceGroups').index(i);
    if (group.includes('/')) errs.push(fieldErr.invalid(p, group, "resource group name can't contain '/'"));
    errs.push(...validateLabelName(group, p));
  });
  const s = args.scoringStrategy;
  if (s) {
    const sp = path.child('scoringStrategy');
    if (!SUPPORTED_SCORING_STRATEGY_TYPES.includes(s.type)) errs.push(fieldErr.notSupported(sp.child('type'), s.type, SUPPORTED_SCORING_STRATEGY_TYPES));
    errs.push(...validateResources(s.resources, sp.child('resources')));
    if (s.requestedToCapacityRatio) {
      errs.push(...validateFunctionShape(s.requestedToCapacityRatio.shape ?? [], sp.child('shape')));
    } else if (s.type === 'RequestedToCapacityRatio') {
      // Ours: upstream dereferences the missing parameter in NewFit and crashes.
      errs.push(fieldErr.required(sp.child('shape'), 'at least one point must be specified'));
    }
  }
  return errs;
}

/** Feature gates NodeResourcesFit reads (plugins/feature.Features), at their v1.32 defaults. */
export interface FitFeatures {
  /** InPlacePodVerticalScaling: alpha, off in v1.32. */
  enableInPlacePodVerticalScaling: boolean;
  /** SidecarContainers: beta, on in v1.32. */
  enableSidecarContainers: boolean;
  /** SchedulerQueueingHints: beta, on in v1.32. */
  enableSchedulingQueueHint: boolean;
  /**
   * Not a v1.32 behaviour: from v1.34 (kubernetes#131345) Filter answers
   * UnschedulableAndUnresolvable when a request exceeds the node's allocatable
   * outright, so preemption skips the node. Off to match v1.32.
   */
  unresolvableWhenExceedsAllocatable: boolean;
}

export const FIT_FEATURES_V1_32: Readonly<FitFeatures> = Object.freeze({
  enableInPlacePodVerticalScaling: false,
  enableSidecarContainers: true,
  enableSchedulingQueueHint: true,
  unresolvableWhenExceedsAllocatable: false,
});

/** noderesources.InsufficientResource: why a pod does not fit a node. */
export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
  /** The request exceeds the node's allocatable outright: preemption cannot help (v1.34's Unresolvable). */
  unresolvable: boolean;
}

/**
 * preFilterState: the pod's requests as computePodResourceRequest gives them,
 * plus the scalar resources Filter must check (non-zero, not ignored) laid
 * out as arrays so Filter loops without allocating.
 */
export interface FitPreFilterState {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  scalarNames: string[];
  scalarQuantities: number[];
  scalarReasons: string[];
}

export const PRE_FILTER_STATE_KEY = stateKey<FitPreFilterState>(`PreFilter${NODE_RESOURCES_FIT}`);

/** preScoreState: the pod's request per scoring resource, in the strategy's order. */
export interface FitPreScoreState {
  podRequests: number[];
}

export const PRE_SCORE_STATE_KEY = stateKey<FitPreScoreState>(`PreScore${NODE_RESOURCES_FIT}`);

/**
 * computePodResourceRequest: framework.Resource.SetMaxResource over
 * PodRequests — cpu, memory, ephemeral-storage and scalar resources (a
 * "pods" request is not carried).
 */
export function computePodResourceRequest(pod: Pod): Resource {
  const r = podRequests(pod, false);
  return { milliCPU: r.milliCPU, memory: r.memory, ephemeralStorage: r.ephemeralStorage, allowedPodNumber: 0, scalar: r.scalar };
}

/** The ignored-resources rule: only extended resources can be ignored, by name or by domain. */
function isIgnored(name: string, ignored: ReadonlySet<string> | undefined, ignoredGroups: ReadonlySet<string> | undefined): boolean {
  if (!isExtendedResourceName(name)) return false;
  if (ignored?.has(name)) return true;
  if (ignoredGroups && ignoredGroups.size > 0) return ignoredGroups.has(name.split('/')[0]!);
  return false;
}

/** Lays a request out for Filter: zero-quantity and ignored scalar resources are dropped here, once. */
export function preparePreFilterState(request: Resource, ignored?: ReadonlySet<string>, ignoredGroups?: ReadonlySet<string>): FitPreFilterState {
  const s: FitPreFilterState = { milliCPU: request.milliCPU, memory: request.memory, ephemeralStorage: request.ephemeralStorage, scalarNames: [], scalarQuantities: [], scalarReasons: [] };
  for (const name in request.scalar) {
    const q = request.scalar[name]!;
    if (q === 0 || isIgnored(name, ignored, ignoredGroups)) continue;
    s.scalarNames.push(name);
    s.scalarQuantities.push(q);
    s.scalarReasons.push(`Insufficient ${name}`);
  }
  return s;
}

/**
 * fitsRequest. With `out` null it answers "fits?" and stops at the first
 * shortfall, allocating nothing (Filter's hot path); with `out` it lists
 * every shortfall in upstream's order: pods, cpu, memory, ephemeral-storage,
 * then scalar resources.
 */
function checkFit(s: FitPreFilterState, allocatable: Resource, requested: Resource, podCount: number, out: InsufficientResource[] | null): boolean {
  let ok = true;
  if (podCount + 1 > allocatable.allowedPodNumber) {
    if (!out) return false;
    ok = false;
    out.push({ resourceName: 'pods', reason: 'Too many pods', requested: 1, used: podCount, capacity: allocatable.allowedPodNumber, unresolvable: false });
  }
  if (s.milliCPU > 0 && s.milliCPU > allocatable.milliCPU - requested.milliCPU) {
    if (!out) return false;
    ok = false;
    out.push({ resourceName: 'cpu', reason: 'Insufficient cpu', requested: s.milliCPU, used: requested.milliCPU, capacity: allocatable.milliCPU, unresolvable: s.milliCPU > allocatable.milliCPU });
  }
  if (s.memory > 0 && s.memory > allocatable.memory - requested.memory) {
    if (!out) return false;
    ok = false;
    out.push({ resourceName: 'memory', reason: 'Insufficient memory', requested: s.memory, used: requested.memory, capacity: allocatable.memory, unresolvable: s.memory > allocatable.memory });
  }
  if (s.ephemeralStorage > 0 && s.ephemeralStorage > allocatable.ephemeralStorage - requested.ephemeralStorage) {
    if (!out) return false;
    ok = false;
    out.push({
      resourceName: 'ephemeral-storage',
      reason: 'Insufficient ephemeral-storage',
      requested: s.ephemeralStorage,
      used: requested.ephemeralStorage,
      capacity: allocatable.ephemeralStorage,
      unresolvable: s.ephemeralStorage > allocatable.ephemeralStorage,
    });
  }
  for (let i = 0; i < s.scalarNames.length; i++) {
    const name = s.scalarNames[i]!;
    const q = s.scalarQuantities[i]!;
    const alloc = allocatable.scalar[name] ?? 0;
    const used = requested.scalar[name] ?? 0;
    if (q > alloc - used) {
      if (!out) return false;
      ok = false;
      out.push({ resourceName: name, reason: s.scalarReasons[i]!, requested: q, used, capacity: alloc, unresolvable: q > alloc });
    }
  }
  return ok;
}

/** fitsRequest: every resource the node lacks for the request (empty: it fits). */
export function fitsRequest(request: Resource, nodeInfo: NodeInfo, ignored?: ReadonlySet<string>, ignoredGroups?: ReadonlySet<string>): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  checkFit(preparePreFilterState(request, ignored, ignoredGroups), nodeInfo.allocatable, nodeInfo.requested, nodeInfo.pods.length, out);
  return out;
}

/** noderesources.Fits: the pod against a node, no resources ignored. */
export function fits(pod: Pod, nodeInfo: NodeInfo): InsufficientResource[] {
  return fitsRequest(computePodResourceRequest(pod), nodeInfo);
}

/** isFit: would the pod fit the node were it empty? (false without a node) */
export function isFit(pod: Pod, node: Node | undefined | null): boolean {
  if (!node) return false;
  const s = preparePreFilterState(computePodResourceRequest(pod));
  return checkFit(s, resourceOf(node.status?.allocatable), emptyResource(), 0, null);
}

/** haveAnyRequestedResourcesIncreased: more allowed pods, or more of something the pod requests. */
export function haveAnyRequestedResourcesIncreased(pod: Pod, originalNode: Node, modifiedNode: Node): boolean {
  const req = computePodResourceRequest(pod);
  const orig = resourceOf(originalNode.status?.allocatable);
  const mod = resourceOf(modifiedNode.status?.allocatable);
  if (mod.allowedPodNumber > orig.allowedPodNumber) return true;
  if (
    (req.milliCPU > 0 && mod.milliCPU > orig.milliCPU) ||
    (req.memory > 0 && mod.memory > orig.memory) ||
    (req.ephemeralStorage > 0 && mod.ephemeralStorage > orig.ephemeralStorage)
  ) {
    return true;
  }
  for (const name in req.scalar) {
    if (req.scalar[name] === 0) continue;
    if ((mod.scalar[name] ?? 0) > (orig.scalar[name] ?? 0)) return true;
  }
  return false;
}

function hasRestartableInitContainer(pod: Pod): boolean {
  return (pod.spec.initContainers ?? []).some((c) => c.restartPolicy === 'Always');
}

// schedutil.As: the event's objects must be of the kind the hint expects.
function isPod(o: unknown): o is Pod {
  if (typeof o !== 'object' || o === null) return false;
  const k = (o as KObject).kind;
  return (k === undefined || k === 'Pod') && Array.isArray((o as Pod).spec?.containers);
}

function isNode(o: unknown): o is Node {
  if (typeof o !== 'object' || o === null) return false;
  const k = (o as KObject).kind;
  return (k === undefined || k === 'Node') && typeof (o as Node).metadata === 'object' && !Array.isArray((o as Pod).spec?.containers);
}

export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = NODE_RESOURCES_FIT;
  readonly ignoredResources: Set<string>;
  readonly ignoredResourceGroups: Set<string>;
  readonly scorer: ResourceAllocationScorer;
  readonly features: FitFeatures;

  /** `args` are defaulted and valid (the framework runs defaultArgs and validateArgs first). */
  constructor(
    readonly args: NodeResourcesFitArgs,
    readonly handle: Handle | null,
    features: Partial<FitFeatures> = {},
  ) {
    this.features = { ...FIT_FEATURES_V1_32, ...features };
    this.ignoredResources = new Set(args.ignoredResources ?? []);
    this.ignoredResourceGroups = new Set(args.ignoredResourceGroups ?? []);
    const strategy = args.scoringStrategy ?? defaultNodeResourcesFitArgs(undefined).scoringStrategy!;
    const resources = (strategy.resources ?? []).map((r) => ({ name: r.name, weight: r.weight }));
    const shape = strategy.type === 'RequestedToCapacityRatio' ? scaledShape(strategy.requestedToCapacityRatio?.shape ?? []) : [];
    this.scorer = new ResourceAllocationScorer(strategy.type, strategy.type, resources, false, shape);
  }

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    if (!this.features.enableSidecarContainers && hasRestartableInitContainer(pod)) {
      return { status: unresolvable('Pod has a restartable init container and the SidecarContainers feature is disabled') };
    }
    state.write(PRE_FILTER_STATE_KEY, preparePreFilterState(computePodResourceRequest(pod), this.ignoredResources, this.ignoredResourceGroups));
    return { status: null };
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = state.read(PRE_FILTER_STATE_KEY);
    if (!s) return errorStatus(`error reading "${PRE_FILTER_STATE_KEY.name}" from cycleState: not found`);
    if (checkFit(s, nodeInfo.allocatable, nodeInfo.requested, nodeInfo.pods.length, null)) return null;
    const insufficient: InsufficientResource[] = [];
    checkFit(s, nodeInfo.allocatable, nodeInfo.requested, nodeInfo.pods.length, insufficient);
    const code = this.features.unresolvableWhenExceedsAllocatable && insufficient.some((r) => r.unresolvable) ? 'UnschedulableAndUnresolvable' : 'Unschedulable';
    return { code, reasons: insufficient.map((r) => r.reason) };
  }

  /** What Filter would say, itemised (for decision records and the scoring table). */
  insufficientResources(state: CycleState, nodeInfo: NodeInfo): InsufficientResource[] {
    const s = state.read(PRE_FILTER_STATE_KEY);
    const out: InsufficientResource[] = [];
    if (s) checkFit(s, nodeInfo.allocatable, nodeInfo.requested, nodeInfo.pods.length, out);
    return out;
  }

  preScore(state: CycleState, pod: Pod): MaybeStatus {
    state.write(PRE_SCORE_STATE_KEY, { podRequests: this.scorer.calculatePodResourceRequestList(pod) });
    return null;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const s = state.read(PRE_SCORE_STATE_KEY);
    // Without PreScore (upstream tolerates it), compute the requests here.
    const podRequests = s ? s.podRequests : this.scorer.calculatePodResourceRequestList(pod);
    return this.scorer.score(nodeInfo, podRequests);
  }

  scoreNodes(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], out: Float64Array): Status | null {
    const s = state.read(PRE_SCORE_STATE_KEY);
    return this.scorer.scoreNodes(nodes, s ? s.podRequests : this.scorer.calculatePodResourceRequestList(pod), out);
  }

  scoreInputsRecorder(state: CycleState, pod: Pod): ResourceInputsRecorder {
    const s = state.read(PRE_SCORE_STATE_KEY);
    return new ResourceInputsRecorder(this.scorer, s ? s.podRequests : this.scorer.calculatePodResourceRequestList(pod));
  }

  scoreExtensions(): ScoreExtensions | null {
    return null;
  }

  eventsToRegister(): ClusterEvent[] {
    const podActions: ClusterEvent['actions'] = ['Delete'];
    // A pod resized down in place frees resources too.
    if (this.features.enableInPlacePodVerticalScaling) podActions.push('UpdatePodScaleDown');
    // Without queueing hints the taint/label updates stand in for Node/Add events preCheck may drop (kubernetes#109437).
    const nodeActions: ClusterEvent['actions'] = this.features.enableSchedulingQueueHint
      ? ['Add', 'UpdateNodeAllocatable']
      : ['Add', 'UpdateNodeAllocatable', 'UpdateNodeTaint', 'UpdateNodeLabel'];
    return [
      { resource: 'Pod', actions: podActions },
      { resource: 'Node', actions: nodeActions },
    ];
  }

  isSchedulableAfter(event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint {
    switch (event.resource) {
      case 'Pod':
      case 'AssignedPod':
      case 'UnscheduledPod':
        return this.isSchedulableAfterPodEvent(pod, oldObj, newObj);
      case 'Node':
        return this.isSchedulableAfterNodeChange(pod, oldObj, newObj);
      default:
        return 'Queue';
    }
  }

  /** isSchedulableAfterPodEvent: a scheduled pod deleted, or (with in-place resize) scaled down in something this pod requests. */
  isSchedulableAfterPodEvent(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    // A wrong object is an error upstream, which requeues.
    if ((oldObj !== undefined && !isPod(oldObj)) || (newObj !== undefined && !isPod(newObj))) return 'Queue';
    if (newObj === undefined) {
      if (!oldObj || !oldObj.spec.nodeName) return 'QueueSkip';
      return 'Queue';
    }
    if (!this.features.enableInPlacePodVerticalScaling) return 'QueueSkip';
    if (!oldObj) return 'Queue';
    return this.isSchedulableAfterPodScaleDown(pod, oldObj, newObj) ? 'Queue' : 'QueueSkip';
  }

  /** isSchedulableAfterPodScaleDown (status resources of in-place resize are not modelled: spec requests stand in). */
  isSchedulableAfterPodScaleDown(targetPod: Pod, originalPod: Pod, modifiedPod: Pod): boolean {
    if (modifiedPod.metadata.uid === targetPod.metadata.uid) return true;
    if (!modifiedPod.spec.nodeName) return false;
    const orig = computePodResourceRequest(originalPod);
    const mod = computePodResourceRequest(modifiedPod);
    for (const [name, nanos] of podRequestList(targetPod)) {
      if (nanos === 0n) continue;
      switch (name) {
        case 'cpu':
          if (orig.milliCPU > mod.milliCPU) return true;
          break;
        case 'memory':
          if (orig.memory > mod.memory) return true;
          break;
        case 'ephemeral-storage':
          if (orig.ephemeralStorage > mod.ephemeralStorage) return true;
          break;
        default:
          if (isScalarResourceName(name) && (orig.scalar[name] ?? 0) > (mod.scalar[name] ?? 0)) return true;
      }
    }
    return false;
  }

  /** isSchedulableAfterNodeChange: the node (now) fits the pod, and is new or gained something the pod needs. */
  isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    if ((oldObj !== undefined && !isNode(oldObj)) || (newObj !== undefined && !isNode(newObj))) return 'Queue';
    const modified = newObj as Node | undefined;
    if (!isFit(pod, modified)) return 'QueueSkip';
    if (oldObj === undefined) return 'Queue';
    if (!haveAnyRequestedResourcesIncreased(pod, oldObj as Node, modified!)) return 'QueueSkip';
    return 'Queue';
  }
}

registerClass('PluginNodeResourcesFit', NodeResourcesFit);

export const nodeResourcesFitDefinition: PluginDefinition<NodeResourcesFitArgs> = {
  name: NODE_RESOURCES_FIT,
  argsKind: 'NodeResourcesFitArgs',
  defaultArgs: defaultNodeResourcesFitArgs,
  validateArgs: validateNodeResourcesFitArgs,
  factory: (args, handle) => new NodeResourcesFit(args, handle),
};
