// The scheduling framework's extension points (pkg/scheduler/framework/interface.go,
// v1.32): one small interface per point, each a Plugin with a name. A plugin
// implements only the points it uses; the framework sorts plugins into
// per-point lists once, from the profile.
//
// Effects are plans: plugins that need the API (Bind, PreBind, PostFilter's
// preemption) return the REST calls to make, and the scheduler actor makes them.
import type { KObject } from '../../apimachinery/types';
import type { Rng } from '../../sim/rng';
import type { Pod } from './api';
import type { EventSpec } from '../eventRecorder';
import type { CycleState } from './cycleState';
import type { NodeInfo } from './nodeInfo';
import type { PodInfo } from './podInfo';
import type { MaybeStatus, Status } from './status';
import type { ScoreInputs, ScoreInputsRecorder } from './scoreInputs';
import type { FieldError, FieldPath } from '../../apimachinery/fieldErrors';

/** framework.MaxNodeScore / MinNodeScore */
export const MAX_NODE_SCORE = 100;
export const MIN_NODE_SCORE = 0;

export interface Plugin {
  readonly name: string;
}

/** A pod waiting in the scheduling queue (framework.QueuedPodInfo). */
export interface QueuedPodInfo {
  podInfo: PodInfo;
  /** Virtual ms the pod was first added to the queue (PrioritySort's tie-break). */
  timestamp: number;
  /** Scheduling attempts so far (drives back-off). */
  attempts: number;
  initialAttemptTimestamp?: number;
  /** Plugins that rejected the pod in its last attempt (decides which events requeue it). */
  unschedulablePlugins: string[];
  /** Plugins whose Pending status rejected it (PreEnqueue / Permit). */
  pendingPlugins: string[];
  gated: boolean;
}

export interface PreEnqueuePlugin extends Plugin {
  preEnqueue(pod: Pod): MaybeStatus;
}

export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/** framework.PreFilterResult: the only nodes worth evaluating (nil = all). */
export interface PreFilterResult {
  nodeNames: Set<string> | null;
}

export interface PreFilterExtensions {
  /** The pod being scheduled, were `toAdd` on `nodeInfo` (preemption's what-if). */
  addPod(state: CycleState, podToSchedule: Pod, toAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus;
  removePod(state: CycleState, podToSchedule: Pod, toRemove: PodInfo, nodeInfo: NodeInfo): MaybeStatus;
}

export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): { result?: PreFilterResult; status: MaybeStatus };
  /** Present when the plugin's PreFilter state must follow pods added/removed in what-ifs. */
  preFilterExtensions?(): PreFilterExtensions | null;
}

export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus;
}

/** What the rejected nodes said: node name → status. */
export type NodeToStatus = Map<string, Status>;

export interface PostFilterResult {
  nominatedNodeName?: string;
  /** Preemption's choice, for the decision record. */
  candidates?: { node: string; victims: string[]; numPDBViolations: number }[];
  victims?: string[];
  /** What to do, in order: REST calls (victims' deletion, clearing lower pods' nominations) and events. */
  actions?: PostFilterAction[];
}

/**
 * An event for the profile's events recorder (the framework handle's
 * EventRecorder), which counts repeats into a series as any other of the
 * scheduler's events.
 */
export interface EventAction {
  event: EventSpec;
  description: string;
}

export type PostFilterAction = ApiAction | EventAction;

export interface PostFilterPlugin extends Plugin {
  /** `absentNodesStatus`: the status of nodes not in `filtered` (all of them when PreFilter rejected the pod). */
  postFilter(state: CycleState, pod: Pod, filtered: NodeToStatus, absentNodesStatus?: Status | null): { result?: PostFilterResult; status: MaybeStatus };
}

export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus;
}

/** framework.NodeScore */
export interface NodeScore {
  name: string;
  score: number;
}

export interface ScoreExtensions {
  /** Rewrites the scores in place into [MinNodeScore, MaxNodeScore]. */
  normalizeScore(state: CycleState, pod: Pod, scores: NodeScore[]): MaybeStatus;
  /**
   * Optional, for speed, when normalising needs no node names: the same
   * rewrite over the scores alone (the framework then makes no NodeScore objects).
   */
  normalizeScoreValues?(state: CycleState, pod: Pod, scores: Float64Array): MaybeStatus;
}

export interface ScorePlugin extends Plugin {
  /** A raw score, or a Status on error. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status;
  /**
   * Optional, for speed: every node's raw score into out[n], exactly what
   * `score` returns node by node (the first error stops it and is returned).
   * The plugin reads its cycle state once and its own loop stays monomorphic.
   */
  scoreNodes?(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], out: Float64Array): Status | null;
  scoreExtensions?(): ScoreExtensions | null;
  /**
   * The inputs `score` used for this node, for the decision record (null when
   * the raw score explains itself). Called after the plugin scored every node,
   * with the same state. For plugins whose inputs are rarely empty, prefer scoreInputsRecorder.
   */
  scoreInputs?(state: CycleState, pod: Pod, nodeInfo: NodeInfo): ScoreInputs | null;
  /** A dense recorder of this cycle's inputs (used instead of scoreInputs); null: nothing to record. */
  scoreInputsRecorder?(state: CycleState, pod: Pod): ScoreInputsRecorder | null;
}

export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): MaybeStatus;
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

export interface PermitPlugin extends Plugin {
  /** Success, a rejection, or Wait with a timeout in ms. */
  permit(state: CycleState, pod: Pod, nodeName: string): { status: MaybeStatus; timeoutMs: number };
}

/** A REST call a plugin asks the scheduler to make. */
export interface ApiAction {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** For PATCH: application/merge-patch+json, strategic-merge-patch+json, json-patch+json. */
  contentType?: string;
  /** What it is for, shown in records ("bind pod default/web-1 to node-a"). */
  description: string;
}

export interface PreBindPlugin extends Plugin {
  /** REST calls to make before binding (null: nothing to do). */
  preBind(state: CycleState, pod: Pod, nodeName: string): ApiAction[] | Status | null;
  /** After the calls: done (null), still waiting (e.g. for the PV controller), or failed. */
  preBindDone?(state: CycleState, pod: Pod, nodeName: string): MaybeStatus | 'wait';
}

export interface BindPlugin extends Plugin {
  /** The calls that bind the pod, or Skip to let the next Bind plugin do it. */
  bind(state: CycleState, pod: Pod, nodeName: string): ApiAction[] | Status;
}

export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: Pod, nodeName: string): void;
}

/** framework.EventResource */
export type EventResource =
  | 'Pod'
  | 'AssignedPod'
  | 'UnscheduledPod'
  | 'Node'
  | 'PersistentVolume'
  | 'PersistentVolumeClaim'
  | 'StorageClass'
  | 'CSINode'
  | 'CSIDriver'
  | 'CSIStorageCapacity'
  | 'Namespace'
  | 'Service'
  | 'WildCard';

/** framework.ActionType, as names (a registration lists the ones it wants). */
export type ActionType =
  | 'Add'
  | 'Delete'
  | 'Update'
  | 'UpdateNodeAllocatable'
  | 'UpdateNodeLabel'
  | 'UpdateNodeTaint'
  | 'UpdateNodeCondition'
  | 'UpdateNodeAnnotation'
  | 'UpdatePodLabel'
  | 'UpdatePodScaleDown'
  | 'UpdatePodTolerations'
  | 'UpdatePodSchedulingGatesEliminated'
  | 'All';

export interface ClusterEvent {
  resource: EventResource;
  actions: ActionType[];
}

export type QueueingHint = 'Queue' | 'QueueSkip';

/**
 * framework.EnqueueExtensions: the cluster events that may make a pod this
 * plugin rejected schedulable. `isSchedulableAfter` is the QueueingHint: given
 * the event's objects, may the pod now pass? (absent = always Queue).
 */
export interface EnqueueExtensions {
  eventsToRegister(): ClusterEvent[];
  isSchedulableAfter?(event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint;
}

/** The kinds the scheduler keeps informers for, besides pods and nodes. */
export type ListedResource =
  | 'namespaces'
  | 'services'
  | 'replicationcontrollers'
  | 'replicasets'
  | 'statefulsets'
  | 'persistentvolumes'
  | 'persistentvolumeclaims'
  | 'storageclasses'
  | 'csinodes'
  | 'csidrivers'
  | 'csistoragecapacities'
  | 'poddisruptionbudgets';

export interface ObjectLister {
  /** By "namespace/name" (namespaced) or "name". */
  get(key: string): KObject | undefined;
  list(): Iterable<KObject>;
}

/** The node snapshot (framework.NodeInfoLister + StorageInfoLister). */
export interface NodeInfoLister {
  list(): readonly NodeInfo[];
  get(name: string): NodeInfo | undefined;
  havePodsWithAffinityList(): readonly NodeInfo[];
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[];
  /** StorageInfoLister.IsPVCUsedByPods: "namespace/claim". */
  isPVCUsedByPods(key: string): boolean;
}

/** framework.Handle: what plugins may use of the scheduler. */
export interface Handle {
  readonly nodes: NodeInfoLister;
  lister(resource: ListedResource): ObjectLister;
  /** Virtual time, ms. */
  now(): number;
  /** The scheduler's seeded random stream. */
  rng(): Rng;
  /** Pods nominated to run on a node, by preemption (PodNominator). */
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  /** Framework.RunFilterPluginsWithNominatedPods for the current profile. */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus;
  runPreFilterExtensionAddPod(state: CycleState, podToSchedule: Pod, toAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus;
  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: Pod, toRemove: PodInfo, nodeInfo: NodeInfo): MaybeStatus;
  /** The current profile's filter plugins' names, in order (for preemption's records). */
  filterPluginNames(): readonly string[];
}

/** A plugin constructor's inputs: its args (already defaulted and validated) and the handle. */
export type PluginFactory = (args: unknown, handle: Handle) => Plugin;

// Type guards: a plugin is at an extension point when it has the method.
export const isPreEnqueue = (p: Plugin): p is PreEnqueuePlugin => typeof (p as PreEnqueuePlugin).preEnqueue === 'function';
export const isQueueSort = (p: Plugin): p is QueueSortPlugin => typeof (p as QueueSortPlugin).less === 'function';
export const isPreFilter = (p: Plugin): p is PreFilterPlugin => typeof (p as PreFilterPlugin).preFilter === 'function';
export const isFilter = (p: Plugin): p is FilterPlugin => typeof (p as FilterPlugin).filter === 'function';
export const isPostFilter = (p: Plugin): p is PostFilterPlugin => typeof (p as PostFilterPlugin).postFilter === 'function';
export const isPreScore = (p: Plugin): p is PreScorePlugin => typeof (p as PreScorePlugin).preScore === 'function';
export const isScore = (p: Plugin): p is ScorePlugin => typeof (p as ScorePlugin).score === 'function';
export const isReserve = (p: Plugin): p is ReservePlugin => typeof (p as ReservePlugin).reserve === 'function';
export const isPermit = (p: Plugin): p is PermitPlugin => typeof (p as PermitPlugin).permit === 'function';
export const isPreBind = (p: Plugin): p is PreBindPlugin => typeof (p as PreBindPlugin).preBind === 'function';
export const isBind = (p: Plugin): p is BindPlugin => typeof (p as BindPlugin).bind === 'function';
export const isPostBind = (p: Plugin): p is PostBindPlugin => typeof (p as PostBindPlugin).postBind === 'function';
export const isEnqueueExtensions = (p: Plugin): p is Plugin & EnqueueExtensions => typeof (p as unknown as EnqueueExtensions).eventsToRegister === 'function';

/**
 * An in-tree plugin: its name, its args' v1 defaulting and validation
 * (pkg/scheduler/apis/config/v1/defaults.go, validation/validation_pluginargs.go),
 * and its constructor. The registry (plugins/registry.ts) lists them all.
 */
export interface PluginDefinition<A = unknown> {
  name: string;
  /** Upstream's args kind ("NodeResourcesFitArgs"); absent when the plugin takes none. */
  argsKind?: string;
  /** Fills defaults into the user's args (which may be undefined). */
  defaultArgs?(args: Partial<A> | undefined): A;
  /** Field errors, using engine/apimachinery/fieldErrors (path given, e.g. profiles[0].pluginConfig[1].args). */
  validateArgs?(args: A, path: FieldPath): FieldError[];
  factory(args: A, handle: Handle): Plugin;
}
