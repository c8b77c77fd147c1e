// StatefulSet helpers, after upstream v1.32's
// pkg/controller/statefulset/stateful_set_utils.go: ordinals and stable
// identities (`<set>-<ordinal>`, hostname, subdomain, the pod-name and
// pod-index labels), claims `<template>-<set>-<ordinal>`, revisions stored as
// template patches, the PVC retention policy's owner references, status.
import type { KObject, OwnerReference } from '../../apimachinery/types';
import type { LabelSelector } from '../../apimachinery/selectors/labels';
import { newControllerRef, KIND, isPodAvailable, isPodReady } from '../replicaset/podUtil';
import { revisionTemplate } from '../history/history';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** StatefulSetRevisionLabel (= DefaultDaemonSetUniqueLabelKey). */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';

export interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector;
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] }; spec?: Loose };
  serviceName?: string;
  podManagementPolicy?: 'OrderedReady' | 'Parallel';
  updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { partition?: number; maxUnavailable?: number | string } };
  volumeClaimTemplates?: KObject[];
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: 'Retain' | 'Delete'; whenScaled?: 'Retain' | 'Delete' };
  ordinals?: { start?: number };
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: unknown[];
  availableReplicas: number;
}

export const setSpec = (s: KObject): StatefulSetSpec => (s.spec ?? {}) as StatefulSetSpec;
export const setStatus = (s: KObject): Partial<StatefulSetStatus> => (s.status ?? {}) as Partial<StatefulSetStatus>;
export const setReplicas = (s: KObject): number => setSpec(s).replicas ?? 1;

const STATEFUL_POD = /^(.*)-([0-9]+)$/;

/** getParentNameAndOrdinal: "web-2" → ["web", 2]; no match (or beyond int32) → ordinal -1. */
export function parentAndOrdinal(podName: string): { parent: string; ordinal: number } {
  const m = STATEFUL_POD.exec(podName);
  if (!m) return { parent: '', ordinal: -1 };
  const n = Number(m[2]);
  return { parent: m[1]!, ordinal: Number.isSafeInteger(n) && n <= 2147483647 ? n : -1 };
}

export const getOrdinal = (pod: KObject): number => parentAndOrdinal(pod.metadata.name ?? '').ordinal;
export const getStartOrdinal = (set: KObject): number => setSpec(set).ordinals?.start ?? 0;
export const getEndOrdinal = (set: KObject): number => getStartOrdinal(set) + setReplicas(set) - 1;
export const podName = (set: KObject, ordinal: number): string => `${set.metadata.name}-${ordinal}`;
export const claimName = (set: KObject, claim: KObject, ordinal: number): string => `${claim.metadata.name}-${set.metadata.name}-${ordinal}`;
export const isMemberOf = (set: KObject, pod: KObject): boolean => parentAndOrdinal(pod.metadata.name ?? '').parent === set.metadata.name;

export function podInOrdinalRange(pod: KObject, set: KObject): boolean {
  const o = getOrdinal(pod);
  return o >= getStartOrdinal(set) && o <= getEndOrdinal(set);
}

/** identityMatches. */
export function identityMatches(set: KObject, pod: KObject): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod.metadata.name ?? '');
  return ordinal >= 0 && parent === set.metadata.name && pod.metadata.name === podName(set, ordinal) && pod.metadata.namespace === set.metadata.namespace && pod.metadata.labels?.[STATEFULSET_POD_NAME_LABEL] === pod.metadata.name;
}

/** storageMatches: every claim template is mounted from the pod's own claim. */
export function storageMatches(set: KObject, pod: KObject): boolean {
  const ordinal = getOrdinal(pod);
  if (ordinal < 0) return false;
  const volumes = new Map<string, Loose>(((pod.spec as Loose)?.volumes ?? []).map((v: Loose) => [v.name, v]));
  return (setSpec(set).volumeClaimTemplates ?? []).every((t) => volumes.get(t.metadata.name!)?.persistentVolumeClaim?.claimName === claimName(set, t, ordinal));
}

/** getPersistentVolumeClaims: the pod's claims by template name, labelled with the set's matchLabels. */
export function podClaims(set: KObject, pod: KObject): Map<string, KObject> {
  const ordinal = getOrdinal(pod);
  const out = new Map<string, KObject>();
  for (const t of setSpec(set).volumeClaimTemplates ?? []) {
    const claim = JSON.parse(JSON.stringify(t)) as KObject;
    claim.apiVersion = 'v1';
    claim.kind = 'PersistentVolumeClaim';
    claim.metadata = { ...claim.metadata, name: claimName(set, t, ordinal), namespace: set.metadata.namespace };
    claim.metadata.labels = { ...(claim.metadata.labels ?? {}), ...(setSpec(set).selector?.matchLabels ?? {}) };
    delete (claim.metadata as Loose).creationTimestamp;
    delete (claim as Loose).status;
    out.set(t.metadata.name!, claim);
  }
  return out;
}

/** updateStorage: claim-backed volumes first, then the pod's other volumes. */
export function updateStorage(set: KObject, pod: KObject): void {
  const claims = podClaims(set, pod);
  const spec = (pod.spec ??= {}) as Loose;
  const current: Loose[] = spec.volumes ?? [];
  const volumes: Loose[] = [...claims].map(([name, c]) => ({ name, persistentVolumeClaim: { claimName: c.metadata.name } }));
  for (const v of current) if (!claims.has(v.name)) volumes.push(v);
  if (volumes.length) spec.volumes = volumes;
}

/** updateIdentity: name, namespace and the pod-name / pod-index labels. */
export function updateIdentity(set: KObject, pod: KObject): void {
  const ordinal = getOrdinal(pod);
  pod.metadata.name = podName(set, ordinal);
  pod.metadata.namespace = set.metadata.namespace;
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [STATEFULSET_POD_NAME_LABEL]: pod.metadata.name, [POD_INDEX_LABEL]: String(ordinal) };
}

/** newStatefulSetPod: GetPodFromTemplate (generateName `<set>-`) with identity (hostname, subdomain) and storage. */
export function newStatefulSetPod(set: KObject, ordinal: number): KObject {
  const t = setSpec(set).template ?? {};
  const m = t.metadata ?? {};
  const pod: KObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName(set, ordinal),
      generateName: `${set.metadata.name}-`,
      namespace: set.metadata.namespace,
      ...(m.labels ? { labels: { ...m.labels } } : {}),
      ...(m.annotations ? { annotations: { ...m.annotations } } : {}),
      ...(m.finalizers ? { finalizers: [...m.finalizers] } : {}),
      ownerReferences: [newControllerRef(set, KIND.StatefulSet)],
    },
    spec: JSON.parse(JSON.stringify(t.spec ?? {})) as unknown,
  };
  updateIdentity(set, pod);
  const spec = pod.spec as Loose;
  spec.hostname = pod.metadata.name;
  if (setSpec(set).serviceName) spec.subdomain = setSpec(set).serviceName;
  updateStorage(set, pod);
  return pod;
}

/** ApplyRevision: the set with the revision's template. */
export function applyRevision(set: KObject, revision: KObject): KObject {
  const clone = JSON.parse(JSON.stringify(set)) as KObject;
  (clone.spec as Loose).template = revisionTemplate(revision);
  return clone;
}

export const getPodRevision = (pod: KObject): string => pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';

/** newVersionedStatefulSetPod: ordinals below the partition stay at the current revision. */
export function newVersionedPod(currentSet: KObject, updateSet: KObject, currentRevision: string, updateRevision: string, ordinal: number): KObject {
  const us = setSpec(currentSet).updateStrategy;
  const ru = us?.rollingUpdate;
  // Go's precedence: (RollingUpdate && no rollingUpdate && below currentReplicas) || (rollingUpdate && below the partition).
  const keepCurrent =
    ((us?.type ?? 'RollingUpdate') === 'RollingUpdate' && !ru && ordinal < getStartOrdinal(currentSet) + (setStatus(currentSet).currentReplicas ?? 0)) ||
    (!!ru && ordinal < getStartOrdinal(currentSet) + (ru.partition ?? 0));
  const pod = keepCurrent ? newStatefulSetPod(currentSet, ordinal) : newStatefulSetPod(updateSet, ordinal);
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: keepCurrent ? currentRevision : updateRevision };
  return pod;
}

// Pod states (stateful_set_utils.go).
export const phaseOf = (pod: KObject): string => ((pod.status as Loose)?.phase as string | undefined) ?? '';
export const isCreated = (pod: KObject): boolean => phaseOf(pod) !== '';
export const isPending = (pod: KObject): boolean => phaseOf(pod) === 'Pending';
export const isFailed = (pod: KObject): boolean => phaseOf(pod) === 'Failed';
export const isSucceeded = (pod: KObject): boolean => phaseOf(pod) === 'Succeeded';
export const isTerminating = (pod: KObject): boolean => !!pod.metadata.deletionTimestamp;
export const isRunningAndReady = (pod: KObject): boolean => phaseOf(pod) === 'Running' && isPodReady(pod);
export const isRunningAndAvailable = (pod: KObject, minReadySeconds: number, now: number): boolean => isPodAvailable(pod, minReadySeconds, now);
/** isUnavailable: not available, or being deleted. */
export const isUnavailable = (pod: KObject, minReadySeconds: number, now: number): boolean => !isPodAvailable(pod, minReadySeconds, now) || isTerminating(pod);
export const allowsBurst = (set: KObject): boolean => setSpec(set).podManagementPolicy === 'Parallel';

// ---- PVC retention policy (StatefulSetAutoDeletePVC, beta and on in v1.32)

type RefTarget = { apiVersion: string; kind: string; metadata: { name?: string; uid?: string } };

function retention(set: KObject): { whenDeleted: string; whenScaled: string } {
  const p = setSpec(set).persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted ?? 'Retain', whenScaled: p?.whenScaled ?? 'Retain' };
}

const matchesRef = (ref: OwnerReference, obj: RefTarget): boolean => ref.apiVersion === obj.apiVersion && ref.kind === obj.kind && ref.name === obj.metadata.name;
const hasOwnerRef = (target: KObject, owner: RefTarget): boolean => (target.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid);
const hasStaleOwnerRef = (target: KObject, owner: RefTarget): boolean => {
  const r = (target.metadata.ownerReferences ?? []).find((x) => matchesRef(x, owner));
  return !!r && r.uid !== owner.metadata.uid;
};
const podRef = (pod: KObject): RefTarget => ({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata });
/** The set as matchesRef sees it: controllerKind, never the object's own (a listed item may carry none). */
const setRef = (set: KObject): RefTarget => ({ apiVersion: KIND.StatefulSet.apiVersion, kind: KIND.StatefulSet.kind, metadata: set.metadata });

/** hasUnexpectedController: another controller (or an earlier set or pod of the same name) owns the claim. */
export function hasUnexpectedController(claim: KObject, set: KObject, pod: KObject): boolean {
  const p = retention(set);
  if (p.whenScaled === 'Retain' && p.whenDeleted === 'Retain') return false;
  for (const ref of claim.metadata.ownerReferences ?? []) {
    if (matchesRef(ref, setRef(set))) {
      if (ref.uid !== set.metadata.uid) return true;
      continue;
    }
    if (matchesRef(ref, podRef(pod))) {
      if (ref.uid !== pod.metadata.uid) return true;
      continue;
    }
    if (ref.controller) return true;
  }
  return false;
}

const hasNonControllerOwner = (claim: KObject, set: KObject, pod: KObject): boolean =>
  (claim.metadata.ownerReferences ?? []).some((r) => (r.uid === set.metadata.uid || r.uid === pod.metadata.uid) && !r.controller);

/** claimOwnerMatchesSetAndPod (isClaimOwnerUpToDate): the claim's owner references follow the retention policy. */
export function claimOwnerMatchesSetAndPod(claim: KObject, set: KObject, pod: KObject): boolean {
  if (hasStaleOwnerRef(claim, setRef(set)) || hasStaleOwnerRef(claim, podRef(pod))) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, podRef(pod)));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const p = retention(set);
  const scaledDown = !podInOrdinalRange(pod, set);
  const onSet = hasOwnerRef(claim, set);
  const onPod = hasOwnerRef(claim, podRef(pod));
  if (p.whenScaled === 'Retain' && p.whenDeleted === 'Delete') return onSet && !onPod;
  if (p.whenScaled === 'Delete' && p.whenDeleted === 'Retain') return !onSet && scaledDown === onPod;
  if (p.whenScaled === 'Delete' && p.whenDeleted === 'Delete') return scaledDown !== onSet && scaledDown === onPod;
  return !onSet && !onPod;
}

/** updateClaimOwnerRefForSetAndPod: the claim's owner references as the policy wants them (true when changed). */
export function updateClaimOwnerRefs(claim: KObject, set: KObject, pod: KObject): boolean {
  const before = JSON.stringify(claim.metadata.ownerReferences ?? []);
  const unexpected = hasUnexpectedController(claim, set, pod);
  let refs = (claim.metadata.ownerReferences ?? []).filter((r) => !matchesRef(r, setRef(set)) && !matchesRef(r, podRef(pod)));
  if (!unexpected) {
    const p = retention(set);
    const scaledDown = !podInOrdinalRange(pod, set);
    // addControllerRef: the set as an apps/v1 StatefulSet, the pod as a v1 Pod.
    const add = (owner: RefTarget) => {
      if (!refs.some((r) => r.uid === owner.metadata.uid)) refs = [...refs, newControllerRef(owner as KObject, { apiVersion: owner.apiVersion, kind: owner.kind })];
    };
    if (p.whenScaled === 'Retain' && p.whenDeleted === 'Delete') add(setRef(set));
    else if (p.whenScaled === 'Delete' && p.whenDeleted === 'Retain' && scaledDown) add(podRef(pod));
    else if (p.whenScaled === 'Delete' && p.whenDeleted === 'Delete') add(scaledDown ? podRef(pod) : setRef(set));
  }
  if (refs.length) claim.metadata.ownerReferences = refs;
  else delete claim.metadata.ownerReferences;
  return JSON.stringify(claim.metadata.ownerReferences ?? []) !== before;
}

/** PodClaimIsStale: with whenScaled=Delete, a claim still owned by an earlier pod of the ordinal blocks its creation. */
export function podClaimIsStale(set: KObject, pod: KObject, claims: ReadonlyMap<string, KObject>): boolean {
  if (retention(set).whenScaled === 'Retain') return false;
  for (const c of podClaims(set, pod).values()) {
    const pvc = claims.get(`${c.metadata.namespace}/${c.metadata.name}`);
    if (pvc && hasStaleOwnerRef(pvc, podRef(pod))) return true;
  }
  return false;
}

// ---- status

/** inconsistentStatus: whether the computed status differs from the stored one. */
export function inconsistentStatus(set: KObject, s: StatefulSetStatus): boolean {
  const c = setStatus(set);
  return (
    (s.observedGeneration ?? 0) > (c.observedGeneration ?? 0) ||
    s.replicas !== (c.replicas ?? 0) ||
    (s.currentReplicas ?? 0) !== (c.currentReplicas ?? 0) ||
    (s.readyReplicas ?? 0) !== (c.readyReplicas ?? 0) ||
    (s.updatedReplicas ?? 0) !== (c.updatedReplicas ?? 0) ||
    (s.currentRevision ?? '') !== (c.currentRevision ?? '') ||
    s.availableReplicas !== (c.availableReplicas ?? 0) ||
    (s.updateRevision ?? '') !== (c.updateRevision ?? '')
  );
}

/** completeRollingUpdate: once every replica is updated and ready, the update revision becomes current. */
export function completeRollingUpdate(set: KObject, s: StatefulSetStatus): void {
  const r = setReplicas(set);
  if ((setSpec(set).updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && s.updatedReplicas === r && s.readyReplicas === r && s.replicas === r) {
    s.currentReplicas = s.updatedReplicas;
    s.currentRevision = s.updateRevision;
  }
}

/** StatefulSetStatus as Go marshals it (replicas and availableReplicas always; the rest omitempty). */
export function statusJson(s: StatefulSetStatus): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.observedGeneration) out.observedGeneration = s.observedGeneration;
  out.replicas = s.replicas;
  if (s.readyReplicas) out.readyReplicas = s.readyReplicas;
  if (s.currentReplicas) out.currentReplicas = s.currentReplicas;
  if (s.updatedReplicas) out.updatedReplicas = s.updatedReplicas;
  if (s.currentRevision) out.currentRevision = s.currentRevision;
  if (s.updateRevision) out.updateRevision = s.updateRevision;
  if (s.collisionCount !== undefined) out.collisionCount = s.collisionCount;
  if (s.conditions?.length) out.conditions = s.conditions;
  out.availableReplicas = s.availableReplicas;
  return out;
}
