// Cluster events as the scheduling queue sees them: ActionType bits, the
// registration-vs-incoming match of framework.ClusterEvent.Match (v1.32
// pkg/scheduler/framework/types.go), the well-known events
// (framework/events.go) and the helpers that turn a Node or Pod update into
// the specific UpdateNodeXYZ / UpdatePodXYZ events
// (NodeSchedulingPropertiesChange, PodSchedulingPropertiesChange).
import { DEFAULT_SCHEDULER_NAME, type Node, type Pod } from '../framework/api';
import type { ActionType, ClusterEvent, EventResource } from '../framework/interface';
import { podRequests, quantityNumber } from '../framework/resources';

/**
 * The queue's ActionTypes: the framework's plus upstream's unexported
 * `updatePodOther` (a pod update none of the specific UpdatePodXYZ cover; only
 * registrations of plain `Update` or `All` match it). Plugins never see it:
 * their hints get `Update` instead.
 */
export type QueueActionType = ActionType | 'UpdatePodOther';

/** An incoming event. `label` names special events (UnschedulableTimeout, ForceActivate). */
export interface QueueClusterEvent {
  resource: EventResource;
  actions: readonly QueueActionType[];
  label?: string;
}

// Bit positions in upstream's order (UpdatePodGeneratedResourceClaim is DRA's; unused here).
const BITS: Record<Exclude<QueueActionType, 'All' | 'Update'>, number> = {
  Add: 1 << 0,
  Delete: 1 << 1,
  UpdateNodeAllocatable: 1 << 2,
  UpdateNodeLabel: 1 << 3,
  UpdateNodeTaint: 1 << 4,
  UpdateNodeCondition: 1 << 5,
  UpdateNodeAnnotation: 1 << 6,
  UpdatePodLabel: 1 << 7,
  UpdatePodScaleDown: 1 << 8,
  UpdatePodTolerations: 1 << 9,
  UpdatePodSchedulingGatesEliminated: 1 << 10,
  UpdatePodOther: 1 << 12,
};
const ALL = (1 << 13) - 1;
const UPDATE = ALL & ~(BITS.Add | BITS.Delete);

export function actionBits(a: QueueActionType): number {
  switch (a) {
    case 'All':
      return ALL;
    case 'Update':
      return UPDATE;
    default:
      return BITS[a];
  }
}

export function actionMask(actions: readonly QueueActionType[]): number {
  let m = 0;
  for (const a of actions) m |= actionBits(a);
  return m;
}

/** ClusterEvent.IsWildCard: resource "*" and every action. */
export function isWildCard(e: { resource: EventResource; actions: readonly QueueActionType[] }): boolean {
  return e.resource === 'WildCard' && actionMask(e.actions) === ALL;
}

/** EventResource.match: "*" matches all; Pod matches AssignedPod and UnscheduledPod. */
export function resourceMatches(registered: EventResource, incoming: EventResource): boolean {
  return registered === 'WildCard' || registered === incoming || (registered === 'Pod' && (incoming === 'AssignedPod' || incoming === 'UnscheduledPod'));
}

/**
 * ClusterEvent.Match: a registration matches an incoming event when it is the
 * wildcard, or its resource matches and their action bits overlap. An incoming
 * wildcard matches only a wildcard registration.
 */
export function matchClusterEvent(registered: ClusterEvent, incoming: QueueClusterEvent): boolean {
  return isWildCard(registered) || (resourceMatches(registered.resource, incoming.resource) && (actionMask(registered.actions) & actionMask(incoming.actions)) !== 0);
}

/** ClusterEvent.Label: the label, else resource + action names. */
export function eventLabel(e: QueueClusterEvent): string {
  if (e.label) return e.label;
  return `${e.resource}${e.actions.map((a) => (a === 'UpdatePodOther' ? 'Update' : a)).join('|')}`;
}

/** The event as a plugin's hint receives it: UpdatePodOther reads as Update. */
export function publicEvent(e: QueueClusterEvent): ClusterEvent {
  if (!e.actions.includes('UpdatePodOther')) return e as ClusterEvent;
  return { resource: e.resource, actions: e.actions.map((a) => (a === 'UpdatePodOther' ? 'Update' : a)) };
}

// framework/events.go, v1.32
export const EventAssignedPodAdd: QueueClusterEvent = { resource: 'AssignedPod', actions: ['Add'] };
export const EventAssignedPodUpdate: QueueClusterEvent = { resource: 'AssignedPod', actions: ['Update'] };
export const EventAssignedPodDelete: QueueClusterEvent = { resource: 'AssignedPod', actions: ['Delete'] };
export const EventUnscheduledPodAdd: QueueClusterEvent = { resource: 'UnscheduledPod', actions: ['Add'] };
export const EventUnscheduledPodUpdate: QueueClusterEvent = { resource: 'UnscheduledPod', actions: ['Update'] };
export const EventUnscheduledPodDelete: QueueClusterEvent = { resource: 'UnscheduledPod', actions: ['Delete'] };
export const EventNodeAdd: QueueClusterEvent = { resource: 'Node', actions: ['Add'] };
export const EventUnschedulableTimeout: QueueClusterEvent = { resource: 'WildCard', actions: ['All'], label: 'UnschedulableTimeout' };
export const EventForceActivate: QueueClusterEvent = { resource: 'WildCard', actions: ['All'], label: 'ForceActivate' };

/** Queue-internal event labels (framework.ScheduleAttemptFailure, BackoffComplete, ...). */
export const ScheduleAttemptFailure = 'ScheduleAttemptFailure';
export const BackoffComplete = 'BackoffComplete';
export const ForceActivate = 'ForceActivate';
export const UnschedulableTimeout = 'UnschedulableTimeout';

/**
 * framework.UnrollWildCardResource: what a plugin without EnqueueExtensions is
 * registered for (every event on these resources).
 */
export const UNROLLED_WILDCARD: readonly ClusterEvent[] = (['Pod', 'Node', 'PersistentVolume', 'PersistentVolumeClaim', 'CSINode', 'CSIDriver', 'CSIStorageCapacity', 'StorageClass'] as const).map((resource) => ({ resource, actions: ['All'] as ActionType[] }));

// ---- Semantic equality (equality.Semantic.DeepEqual: nil and empty maps/slices are equal) ----

function isEmptyish(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

/** Deep equality of JSON values where absent, null, {} and [] are all "empty". */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmptyish(a) && isEmptyish(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // Absent and undefined fields are the same in JSON.
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  for (const k of ak) {
    if (!(k in bo) || !semanticEqual(ao[k], bo[k])) return false;
  }
  return true;
}

/** Resource lists compared as quantities ("1Gi" equals "1024Mi"). */
function resourceListsEqual(a: Record<string, string | number> | undefined, b: Record<string, string | number> | undefined): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  if (ak.length !== bk.length) return false;
  for (const k of ak) {
    const bv = b?.[k];
    if (bv === undefined) return false;
    if (quantityNumber(a![k], true) !== quantityNumber(bv, true)) return false;
  }
  return true;
}

// ---- Node updates (framework.NodeSchedulingPropertiesChange) ----

function conditionStatuses(n: Node): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of n.status?.conditions ?? []) out[c.type] = c.status;
  return out;
}

/**
 * The UpdateNodeXYZ actions of a node update, in upstream's order:
 * spec.unschedulable turned off (reported as UpdateNodeTaint, as upstream),
 * allocatable, labels, taints, conditions (type → status only), annotations.
 * Upstream delivers each as its own event: call moveAllToActiveOrBackoffQueue
 * once per action (see nodeUpdateClusterEvents).
 */
export function nodeUpdateEvents(oldNode: Node, newNode: Node): ActionType[] {
  const out: ActionType[] = [];
  const oldU = oldNode.spec?.unschedulable ?? false;
  const newU = newNode.spec?.unschedulable ?? false;
  if (oldU !== newU && !newU) out.push('UpdateNodeTaint');
  if (!resourceListsEqual(oldNode.status?.allocatable, newNode.status?.allocatable)) out.push('UpdateNodeAllocatable');
  if (!semanticEqual(oldNode.metadata.labels, newNode.metadata.labels)) out.push('UpdateNodeLabel');
  if (!semanticEqual(oldNode.spec?.taints, newNode.spec?.taints)) out.push('UpdateNodeTaint');
  if (!semanticEqual(conditionStatuses(oldNode), conditionStatuses(newNode))) out.push('UpdateNodeCondition');
  if (!semanticEqual(oldNode.metadata.annotations, newNode.metadata.annotations)) out.push('UpdateNodeAnnotation');
  return out;
}

/** NodeSchedulingPropertiesChange: one Node event per action (empty when nothing scheduling-relevant changed). */
export function nodeUpdateClusterEvents(oldNode: Node, newNode: Node): QueueClusterEvent[] {
  return nodeUpdateEvents(oldNode, newNode).map((a) => ({ resource: 'Node', actions: [a] }));
}

// ---- Pod updates (framework.PodSchedulingPropertiesChange) ----

/** extractPodScaleDown: some request of the old pod is gone or smaller. */
function podScaledDown(oldPod: Pod, newPod: Pod): boolean {
  const o = podRequests(oldPod);
  const n = podRequests(newPod);
  if (o.milliCPU > n.milliCPU || o.memory > n.memory || o.ephemeralStorage > n.ephemeralStorage) return true;
  for (const k in o.scalar) if (o.scalar[k]! > (n.scalar[k] ?? 0)) return true;
  return false;
}

/**
 * The UpdatePodXYZ actions of a pod update, in upstream's order (labels,
 * scale-down, scheduling gates eliminated, tolerations added), or
 * UpdatePodOther when none applies.
 */
export function podUpdateEvents(oldPod: Pod, newPod: Pod): QueueActionType[] {
  const out: QueueActionType[] = [];
  if (!semanticEqual(newPod.metadata.labels, oldPod.metadata.labels)) out.push('UpdatePodLabel');
  if (podScaledDown(oldPod, newPod)) out.push('UpdatePodScaleDown');
  if ((newPod.spec.schedulingGates?.length ?? 0) === 0 && (oldPod.spec.schedulingGates?.length ?? 0) !== 0) out.push('UpdatePodSchedulingGatesEliminated');
  // Tolerations can only be added (API validation), so a length change is enough.
  if ((newPod.spec.tolerations?.length ?? 0) !== (oldPod.spec.tolerations?.length ?? 0)) out.push('UpdatePodTolerations');
  if (out.length === 0) out.push('UpdatePodOther');
  return out;
}

/** PodSchedulingPropertiesChange: one event per action, on AssignedPod or UnscheduledPod by the new pod's nodeName. */
export function podSchedulingPropertiesChange(oldPod: Pod, newPod: Pod): QueueClusterEvent[] {
  const resource: EventResource = newPod.spec.nodeName ? 'AssignedPod' : 'UnscheduledPod';
  return podUpdateEvents(oldPod, newPod).map((a) => ({ resource, actions: [a] }));
}

/**
 * isPodUpdated (used when queueing hints are off): anything but status
 * (resourceClaimStatuses aside), resourceVersion, generation, managedFields
 * and finalizers changed.
 */
export function isPodUpdated(oldPod: Pod, newPod: Pod): boolean {
  const strip = (p: Pod): unknown => {
    const { resourceVersion: _rv, generation: _g, managedFields: _mf, finalizers: _f, ...meta } = p.metadata;
    const status = p.status as { resourceClaimStatuses?: unknown } | undefined;
    return { ...p, metadata: meta, status: { resourceClaimStatuses: status?.resourceClaimStatuses } };
  };
  return !semanticEqual(strip(oldPod), strip(newPod));
}

/** The scheduling profile a pod belongs to. */
export function profileOf(pod: Pod): string {
  return pod.spec.schedulerName || DEFAULT_SCHEDULER_NAME;
}
