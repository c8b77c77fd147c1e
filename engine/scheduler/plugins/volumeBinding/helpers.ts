// Storage helpers the volume plugins share, after
// k8s.io/component-helpers/storage/volume (helpers.go, pv_helpers.go),
// k8s.io/component-helpers/storage/ephemeral and v1helper.MatchTopologySelectorTerms,
// plus typed lookups over the scheduler's informer listers whose NotFound
// messages are client-go's (`persistentvolumeclaim "x" not found`,
// `storageclass.storage.k8s.io "x" not found`).
import { newRequirement, requirementMatches, type Labels } from '../../../apimachinery/selectors/labels';
import { parseQuantity, ZERO, type Quantity } from '../../../apiserver/validation/quantity';
import type { Pod, Volume } from '../../framework/api';
import type { Handle } from '../../framework/interface';
import { matchNodeSelectorTerms, type NodeSelectorMatcher } from '../helper/nodeSelector';
import {
  ANN_BIND_COMPLETED,
  BETA_STORAGE_CLASS_ANNOTATION,
  RESOURCE_STORAGE,
  type CSIDriver,
  type CSINode,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
  type TopologySelectorTerm,
} from './types';

// --- listers -------------------------------------------------------------------

/** A lister lookup: the object, or client-go's NotFound error text. */
export type Lookup<T> = { ok: true; obj: T } | { ok: false; notFound: true; error: string };

/** apierrors.NewNotFound(qualifiedResource, name).Error(). */
export function notFoundMessage(qualifiedResource: string, name: string): string {
  return `${qualifiedResource} ${JSON.stringify(name)} not found`;
}

function lookup<T>(obj: unknown, resource: string, name: string): Lookup<T> {
  return obj === undefined ? { ok: false, notFound: true, error: notFoundMessage(resource, name) } : { ok: true, obj: obj as T };
}

export function getPVC(handle: Handle, namespace: string, name: string): Lookup<PersistentVolumeClaim> {
  return lookup(handle.lister('persistentvolumeclaims').get(`${namespace}/${name}`), 'persistentvolumeclaim', name);
}

export function getPV(handle: Handle, name: string): Lookup<PersistentVolume> {
  return lookup(handle.lister('persistentvolumes').get(name), 'persistentvolume', name);
}

export function getStorageClass(handle: Handle, name: string): Lookup<StorageClass> {
  return lookup(handle.lister('storageclasses').get(name), 'storageclass.storage.k8s.io', name);
}

export function getCSINode(handle: Handle, name: string): CSINode | undefined {
  return handle.lister('csinodes').get(name) as CSINode | undefined;
}

export function getCSIDriver(handle: Handle, name: string): Lookup<CSIDriver> {
  return lookup(handle.lister('csidrivers').get(name), 'csidriver.storage.k8s.io', name);
}

// --- claims and classes ---------------------------------------------------------

/** GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName, else "". */
export function getPersistentVolumeClaimClass(claim: PersistentVolumeClaim): string {
  const ann = claim.metadata.annotations;
  if (ann && Object.prototype.hasOwnProperty.call(ann, BETA_STORAGE_CLASS_ANNOTATION)) return ann[BETA_STORAGE_CLASS_ANNOTATION]!;
  return claim.spec?.storageClassName ?? '';
}

/** GetPersistentVolumeClass: the beta annotation first, then spec.storageClassName. */
export function getPersistentVolumeClass(volume: PersistentVolume): string {
  const ann = volume.metadata.annotations;
  if (ann && Object.prototype.hasOwnProperty.call(ann, BETA_STORAGE_CLASS_ANNOTATION)) return ann[BETA_STORAGE_CLASS_ANNOTATION]!;
  return volume.spec?.storageClassName ?? '';
}

/** "namespace/name", as getPVCName / framework.GetNamespacedName print it. */
export function claimKey(claim: PersistentVolumeClaim): string {
  return `${claim.metadata.namespace ?? ''}/${claim.metadata.name ?? ''}`;
}

/** ephemeral.VolumeClaimName: the PVC a generic ephemeral volume gets. */
export function ephemeralClaimName(pod: Pod, volume: Volume): string {
  return `${pod.metadata.name ?? ''}-${volume.name}`;
}

/** The claim a volume uses: a PVC by name, or a generic ephemeral volume's claim; null otherwise. */
export function volumeClaim(pod: Pod, volume: Volume): { name: string; ephemeral: boolean } | null {
  if (volume.persistentVolumeClaim) return { name: volume.persistentVolumeClaim.claimName ?? '', ephemeral: false };
  if (volume.ephemeral) return { name: ephemeralClaimName(pod, volume), ephemeral: true };
  return null;
}

/** ephemeral.VolumeIsForPod: null when the pod controls the PVC, else the error text. */
export function volumeIsForPod(pod: Pod, pvc: PersistentVolumeClaim): string | null {
  const controller = (pvc.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  const owned = controller !== undefined && controller.uid === pod.metadata.uid;
  if (pvc.metadata.namespace !== pod.metadata.namespace || !owned) {
    return `PVC ${pvc.metadata.namespace ?? ''}/${pvc.metadata.name ?? ''} was not created for pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} (pod is not owner)`;
  }
  return null;
}

/** isPVCFullyBound: a volume name and the bind-completed annotation. */
export function isPVCFullyBound(pvc: PersistentVolumeClaim): boolean {
  const ann = pvc.metadata.annotations;
  return !!pvc.spec?.volumeName && ann !== undefined && Object.prototype.hasOwnProperty.call(ann, ANN_BIND_COMPLETED);
}

// --- quantities -------------------------------------------------------------------

/** A resource.Quantity read from JSON; absent or unparsable is the zero Quantity, as a Go map miss is. */
export function quantityOf(v: string | number | undefined): Quantity {
  if (v === undefined) return ZERO;
  const q = parseQuantity(v);
  return q.ok ? q.quantity : ZERO;
}

export function claimStorageRequest(claim: PersistentVolumeClaim): Quantity {
  return quantityOf(claim.spec?.resources?.requests?.[RESOURCE_STORAGE]);
}

export function volumeCapacity(volume: PersistentVolume): Quantity {
  return quantityOf(volume.spec?.capacity?.[RESOURCE_STORAGE]);
}

// --- topology -------------------------------------------------------------------

/**
 * volume.CheckNodeAffinity: no required terms passes; otherwise some term must
 * match the labels (the node is label-only there, so matchFields never apply).
 * `compiled` is the PV's precompiled selector when the caller has one.
 */
export function checkNodeAffinity(pv: PersistentVolume, nodeLabels: Record<string, string> | undefined, compiled?: NodeSelectorMatcher | null): boolean {
  const required = pv.spec?.nodeAffinity?.required;
  if (!pv.spec?.nodeAffinity || !required) return true;
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { labels: nodeLabels } };
  return compiled ? compiled.match(node) : matchNodeSelectorTerms(node, required);
}

/**
 * v1helper.MatchTopologySelectorTerms: no terms matches everything; a term
 * with no expressions matches nothing; each expression is `key in (values)`,
 * and an invalid one fails its term.
 */
export function matchTopologySelectorTerms(terms: readonly TopologySelectorTerm[] | undefined, labels: Labels): boolean {
  if (!terms || terms.length === 0) return true;
  for (const term of terms) {
    const exprs = term.matchLabelExpressions ?? [];
    if (exprs.length === 0) continue;
    let ok = true;
    for (const e of exprs) {
      const r = newRequirement(e.key, 'in', e.values ?? []);
      if (!r.ok || !requirementMatches(r.requirement, labels)) {
        ok = false;
        break;
      }
    }
    if (ok) return true;
  }
  return false;
}
