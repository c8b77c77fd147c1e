// Pod and owner helpers the workload controllers share, after upstream's
// pkg/api/v1/pod/util.go (IsPodReady, IsPodAvailable) and
// pkg/controller/controller_utils.go (IsPodActive, FilterActivePods,
// GetPodFromTemplate, controller refs).
import type { KObject, OwnerReference } from '../../apimachinery/types';
import { parseRfc3339 } from '../../apiserver/http/time';

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string | null;
}

interface PodLike {
  metadata: KObject['metadata'];
  spec?: { nodeName?: string; initContainers?: { name: string; restartPolicy?: string }[] };
  status?: {
    phase?: string;
    conditions?: PodCondition[];
    containerStatuses?: { restartCount?: number }[];
    initContainerStatuses?: { name: string; restartCount?: number }[];
  };
}

export const asPod = (o: KObject): PodLike => o as unknown as PodLike;

export function podPhase(o: KObject): string {
  return asPod(o).status?.phase ?? '';
}

export function nodeName(o: KObject): string {
  return asPod(o).spec?.nodeName ?? '';
}

export function podReadyCondition(o: KObject): PodCondition | undefined {
  return asPod(o).status?.conditions?.find((c) => c.type === 'Ready');
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(o: KObject): boolean {
  return podReadyCondition(o)?.status === 'True';
}

/** Virtual ms of a metav1.Time, or null for a zero/absent one. */
export function timeOf(s: string | null | undefined): number | null {
  if (!s) return null;
  const t = parseRfc3339(s);
  return Number.isNaN(t) ? null : t;
}

/** podutil.IsPodAvailable: ready for at least minReadySeconds (strictly before now). */
export function isPodAvailable(o: KObject, minReadySeconds: number, now: number): boolean {
  const c = podReadyCondition(o);
  if (c?.status !== 'True') return false;
  if (minReadySeconds === 0) return true;
  const t = timeOf(c.lastTransitionTime);
  return t !== null && t + minReadySeconds * 1000 < now;
}

/** controller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(o: KObject): boolean {
  const p = podPhase(o);
  return p !== 'Succeeded' && p !== 'Failed' && !o.metadata.deletionTimestamp;
}

/** metav1.GetControllerOf. */
export function controllerOf(o: KObject): OwnerReference | undefined {
  return o.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** The group-version-kind a controller owns by (upstream's package-level controllerKind). */
export interface ControllerKind {
  apiVersion: string;
  kind: string;
}
export const KIND = {
  ReplicaSet: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  Deployment: { apiVersion: 'apps/v1', kind: 'Deployment' },
  StatefulSet: { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  DaemonSet: { apiVersion: 'apps/v1', kind: 'DaemonSet' },
  CronJob: { apiVersion: 'batch/v1', kind: 'CronJob' },
} as const satisfies Record<string, ControllerKind>;

/**
 * metav1.NewControllerRef(owner, controllerKind): the kind is the controller's
 * constant, never read off the object (a listed item may carry none).
 */
export function newControllerRef(owner: KObject, gvk: ControllerKind): OwnerReference {
  return { apiVersion: gvk.apiVersion, kind: gvk.kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

/** The objects of one namespace in a store, in store order. */
export function inNamespace(store: ReadonlyMap<string, KObject>, ns: string): KObject[] {
  const out: KObject[] = [];
  for (const o of store.values()) if ((o.metadata.namespace ?? '') === ns) out.push(o);
  return out;
}

/** A reference to an object small enough to keep in controller state (events name it). */
export function refObject(o: KObject): KObject {
  const m = o.metadata;
  return { apiVersion: o.apiVersion, kind: o.kind, metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion } };
}

/** The `message` of a metav1.Status body, else the status code. */
export function errorMessage(status: number, body: string): string {
  if (status === 0) return 'connection refused';
  try {
    const m = (JSON.parse(body) as { message?: unknown }).message;
    if (typeof m === 'string' && m) return m;
  } catch {
    // not JSON: fall through
  }
  return `the server returned ${status}`;
}
