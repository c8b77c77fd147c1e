// The scheduler's volume binder (pkg/scheduler/framework/plugins/volumebinding/binder.go, v1.32)
// with the PV-matching helpers of k8s.io/component-helpers/storage/volume
// (pv_helpers.go FindMatchingVolume, GetBindVolumeToClaim).
//
// Upstream keeps an assume cache of PVs and PVCs across scheduling cycles;
// here plugins hold no mutable state, so the assumed objects live in the
// pod's CycleState (PodVolumes after Reserve) and become visible to other
// pods once the PreBind calls land. Every function reads the informer
// listers through the Handle.
import { labelSelectorAsSelector, matches } from '../../../apimachinery/selectors/labels';
import { cmpQuantity, type Quantity } from '../../../apiserver/validation/quantity';
import { jsonRoundTrip } from '../../../sim/jsonClone';
import type { Node, Pod } from '../../framework/api';
import type { ApiAction, Handle } from '../../framework/interface';
import { newLazyErrorNodeSelector, type NodeSelectorMatcher } from '../helper/nodeSelector';
import {
  checkNodeAffinity,
  claimKey,
  claimStorageRequest,
  getCSIDriver,
  getPersistentVolumeClaimClass,
  getPersistentVolumeClass,
  getPV,
  getPVC,
  getStorageClass,
  isPVCFullyBound,
  matchTopologySelectorTerms,
  quantityOf,
  volumeCapacity,
  volumeClaim,
  volumeIsForPod,
} from './helpers';
import {
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  NOT_SUPPORTED_PROVISIONER,
  RESOURCE_STORAGE,
  type CSIStorageCapacity,
  type ObjectReference,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from './types';

/** ConflictReason: why volume binding is impossible on a node. */
export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_REASON_NOT_ENOUGH_SPACE = 'node(s) did not have enough free storage';
export const ERR_REASON_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

export type ConflictReason = typeof ERR_REASON_BIND_CONFLICT | typeof ERR_REASON_NODE_CONFLICT | typeof ERR_REASON_NOT_ENOUGH_SPACE | typeof ERR_REASON_PV_NOT_EXIST;

/** BindingInfo: a claim and the PV proposed for it. */
export interface BindingInfo {
  pvc: PersistentVolumeClaim;
  pv: PersistentVolume;
}

/** PodVolumes: what a node needs for the pod's unbound claims. */
export interface PodVolumes {
  /** Claims bound to pre-provisioned PVs. */
  staticBindings: BindingInfo[] | null;
  /** Claims to provision dynamically. */
  dynamicProvisions: PersistentVolumeClaim[] | null;
}

/** PodVolumeClaims: the pod's claims by kind, and the candidate PVs per class of the delayed ones. */
export interface PodVolumeClaims {
  boundClaims: PersistentVolumeClaim[];
  unboundClaimsDelayBinding: PersistentVolumeClaim[];
  unboundClaimsImmediate: PersistentVolumeClaim[];
  unboundVolumesDelayBinding: Map<string, PersistentVolume[]>;
}

/** Compiled PV node affinities, by PV name (checked against the PV object they came from). */
export type AffinityCache = Map<string, { pv: PersistentVolume; matcher: NodeSelectorMatcher | null }>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/** assumecache.NotFoundError text. */
function assumeCacheNotFound(typeName: string, key: string): string {
  return `could not find ${typeName} ${JSON.stringify(key)}`;
}

function pvAffinityMatches(pv: PersistentVolume, labels: Record<string, string> | undefined, cache: AffinityCache | null): boolean {
  const required = pv.spec?.nodeAffinity?.required;
  if (!pv.spec?.nodeAffinity || !required) return true;
  if (!cache) return checkNodeAffinity(pv, labels);
  const name = pv.metadata.name ?? '';
  let hit = cache.get(name);
  if (!hit || hit.pv !== pv) {
    hit = { pv, matcher: newLazyErrorNodeSelector(required) };
    cache.set(name, hit);
  }
  return checkNodeAffinity(pv, labels, hit.matcher);
}

// --- claims ------------------------------------------------------------------------

/** isVolumeBound: non-claim volumes are "bound"; otherwise the claim and whether it is fully bound. */
function isVolumeBound(handle: Handle, pod: Pod, vol: NonNullable<Pod['spec']['volumes']>[number]): Result<{ bound: boolean; pvc: PersistentVolumeClaim | null }> {
  const claim = volumeClaim(pod, vol);
  if (!claim) return { ok: true, value: { bound: true, pvc: null } };
  const ns = pod.metadata.namespace ?? '';
  const pvc = getPVC(handle, ns, claim.name);
  if (!pvc.ok) return { ok: false, error: `error getting PVC ${JSON.stringify(`${ns}/${claim.name}`)}: ${assumeCacheNotFound('v1.PersistentVolumeClaim', `${ns}/${claim.name}`)}` };
  if (claim.ephemeral) {
    const owned = volumeIsForPod(pod, pvc.obj);
    if (owned) return { ok: false, error: owned };
  }
  return { ok: true, value: { bound: isPVCFullyBound(pvc.obj), pvc: pvc.obj } };
}

/** volume.IsDelayBindingMode: the claim's class exists and waits for the first consumer. */
function isDelayBindingMode(handle: Handle, claim: PersistentVolumeClaim): Result<boolean> {
  const className = getPersistentVolumeClaimClass(claim);
  if (className === '') return { ok: true, value: false };
  const sc = getStorageClass(handle, className);
  if (!sc.ok) return { ok: true, value: false };
  const mode = sc.obj.volumeBindingMode;
  if (mode === undefined || mode === null) return { ok: false, error: `VolumeBindingMode not set for StorageClass ${JSON.stringify(className)}` };
  return { ok: true, value: mode === 'WaitForFirstConsumer' };
}

/** The PVs of a class (the assume cache's ListPVs). */
function listPVs(handle: Handle, storageClassName: string): PersistentVolume[] {
  const out: PersistentVolume[] = [];
  for (const o of handle.lister('persistentvolumes').list()) {
    const pv = o as PersistentVolume;
    if (getPersistentVolumeClass(pv) === storageClassName) out.push(pv);
  }
  return out;
}

/**
 * GetPodVolumeClaims: bound claims; unbound delayed (WaitForFirstConsumer, no
 * volumeName); unbound immediate (including pre-bound ones); and the PVs of
 * each delayed claim's class.
 */
export function getPodVolumeClaims(handle: Handle, pod: Pod): Result<PodVolumeClaims> {
  const out: PodVolumeClaims = { boundClaims: [], unboundClaimsDelayBinding: [], unboundClaimsImmediate: [], unboundVolumesDelayBinding: new Map() };
  for (const vol of pod.spec.volumes ?? []) {
    const r = isVolumeBound(handle, pod, vol);
    if (!r.ok) return r;
    const pvc = r.value.pvc;
    if (!pvc) continue;
    if (r.value.bound) {
      out.boundClaims.push(pvc);
      continue;
    }
    const delay = isDelayBindingMode(handle, pvc);
    if (!delay.ok) return delay;
    if (delay.value && !pvc.spec?.volumeName) out.unboundClaimsDelayBinding.push(pvc);
    else out.unboundClaimsImmediate.push(pvc);
  }
  for (const pvc of out.unboundClaimsDelayBinding) {
    const cls = getPersistentVolumeClaimClass(pvc);
    out.unboundVolumesDelayBinding.set(cls, listPVs(handle, cls));
  }
  return { ok: true, value: out };
}

// --- FindPodVolumes ------------------------------------------------------------------

/**
 * FindPodVolumes: bound claims' PVs must accept the node; unbound delayed
 * claims need a matching available PV or a provisionable class (with
 * capacity). Reasons, in upstream's order, say why not.
 */
export function findPodVolumes(
  handle: Handle,
  pod: Pod,
  claims: PodVolumeClaims,
  node: Node,
  cache: AffinityCache | null,
): Result<{ podVolumes: PodVolumes; reasons: ConflictReason[] }> {
  let unboundVolumesSatisfied = true;
  let boundVolumesSatisfied = true;
  let sufficientStorage = true;
  let boundPVsFound = true;
  let staticBindings: BindingInfo[] = [];
  let dynamicProvisions: PersistentVolumeClaim[] = [];
  const labels = node.metadata.labels;
  const nodeName = node.metadata.name ?? '';

  const finish = (): Result<{ podVolumes: PodVolumes; reasons: ConflictReason[] }> => {
    const reasons: ConflictReason[] = [];
    if (!boundVolumesSatisfied) reasons.push(ERR_REASON_NODE_CONFLICT);
    if (!unboundVolumesSatisfied) reasons.push(ERR_REASON_BIND_CONFLICT);
    if (!sufficientStorage) reasons.push(ERR_REASON_NOT_ENOUGH_SPACE);
    if (!boundPVsFound) reasons.push(ERR_REASON_PV_NOT_EXIST);
    // Empty is normalised to null, as upstream does for its tests.
    return {
      ok: true,
      value: {
        podVolumes: { staticBindings: staticBindings.length ? staticBindings : null, dynamicProvisions: dynamicProvisions.length ? dynamicProvisions : null },
        reasons,
      },
    };
  };

  if (claims.boundClaims.length > 0) {
    const r = checkBoundClaims(handle, claims.boundClaims, labels, cache);
    boundVolumesSatisfied = r.satisfied;
    boundPVsFound = r.found;
  }

  if (claims.unboundClaimsDelayBinding.length > 0) {
    const toFindMatching: PersistentVolumeClaim[] = [];
    let toProvision: PersistentVolumeClaim[] = [];
    for (const claim of claims.unboundClaimsDelayBinding) {
      const selected = claim.metadata.annotations?.[ANN_SELECTED_NODE];
      if (selected !== undefined) {
        // Already being provisioned for a node: only that node will do.
        if (selected !== nodeName) {
          unboundVolumesSatisfied = false;
          return finish();
        }
        toProvision.push(claim);
      } else toFindMatching.push(claim);
    }
    if (toFindMatching.length > 0) {
      const m = findMatchingVolumes(toFindMatching, claims.unboundVolumesDelayBinding, labels, cache);
      if (!m.ok) return m;
      unboundVolumesSatisfied = m.value.foundMatches;
      staticBindings = m.value.bindings;
      toProvision = toProvision.concat(m.value.unboundClaims);
    }
    if (toProvision.length > 0) {
      const p = checkVolumeProvisions(handle, toProvision, node);
      if (!p.ok) return p;
      unboundVolumesSatisfied = p.value.provisionSatisfied;
      sufficientStorage = p.value.sufficientStorage;
      dynamicProvisions = p.value.dynamicProvisions;
    }
  }
  return finish();
}

/** checkBoundClaims: every bound PV exists and its node affinity accepts the node. */
function checkBoundClaims(handle: Handle, claims: PersistentVolumeClaim[], labels: Record<string, string> | undefined, cache: AffinityCache | null): { satisfied: boolean; found: boolean } {
  for (const pvc of claims) {
    const pv = getPV(handle, pvc.spec?.volumeName ?? '');
    if (!pv.ok) return { satisfied: true, found: false };
    if (!pvAffinityMatches(pv.obj, labels, cache)) return { satisfied: false, found: true };
  }
  return { satisfied: true, found: true };
}

/** findMatchingVolumes: the smallest fitting PV per claim (claims by increasing request), each PV used once. */
function findMatchingVolumes(
  claimsToBind: PersistentVolumeClaim[],
  unboundVolumes: Map<string, PersistentVolume[]>,
  labels: Record<string, string> | undefined,
  cache: AffinityCache | null,
): Result<{ foundMatches: boolean; bindings: BindingInfo[]; unboundClaims: PersistentVolumeClaim[] }> {
  // Stable, like Go's insertion sort on the few claims a pod has.
  const sorted = claimsToBind
    .map((c, i) => ({ c, i, q: claimStorageRequest(c) }))
    .sort((a, b) => cmpQuantity(a.q, b.q) || a.i - b.i)
    .map((x) => x.c);
  const chosen = new Set<string>();
  const bindings: BindingInfo[] = [];
  const unboundClaims: PersistentVolumeClaim[] = [];
  let foundMatches = true;
  for (const pvc of sorted) {
    const pvs = unboundVolumes.get(getPersistentVolumeClaimClass(pvc)) ?? [];
    const r = findMatchingVolume(pvc, pvs, labels, chosen, cache);
    if (!r.ok) return r;
    if (r.value === null) {
      unboundClaims.push(pvc);
      foundMatches = false;
      continue;
    }
    chosen.add(r.value.metadata.name ?? '');
    bindings.push({ pv: r.value, pvc });
  }
  return { ok: true, value: { foundMatches, bindings, unboundClaims } };
}

/** IsVolumeBoundToClaim: pre-bound or bound to this claim (uid checked when the claimRef has one). */
export function isVolumeBoundToClaim(volume: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if ((claim.metadata.name ?? '') !== (ref.name ?? '') || (claim.metadata.namespace ?? '') !== (ref.namespace ?? '')) return false;
  if (ref.uid && claim.metadata.uid !== ref.uid) return false;
  return true;
}

/** CheckAccessModes: the PV offers every mode the claim asks for. */
function checkAccessModes(claim: PersistentVolumeClaim, volume: PersistentVolume): boolean {
  const pvModes = volume.spec?.accessModes ?? [];
  for (const m of claim.spec?.accessModes ?? []) if (!pvModes.includes(m)) return false;
  return true;
}

/** CheckVolumeModeMismatches: Filesystem when unset. */
function volumeModeMismatch(claim: PersistentVolumeClaim, volume: PersistentVolume): boolean {
  return (claim.spec?.volumeMode || 'Filesystem') !== (volume.spec?.volumeMode || 'Filesystem');
}

/**
 * volume.FindMatchingVolume. In the scheduler path (node given, delayed binding) a PV
 * pre-bound to the claim wins (or fails the node if its affinity doesn't
 * fit); otherwise the smallest Available PV of the claim's class with enough
 * capacity, the same volume mode, matching labels, node affinity and access
 * modes. The PV controller's path (`withoutNode`: no node, so no affinity and
 * no access-mode check, which its index did) leaves claims that wait for their
 * first consumer to the scheduler, apart from pre-bound PVs. VolumeAttributesClass
 * is off in v1.32: claims naming one are an error, PVs naming one never match.
 */
export function findMatchingVolume(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  labels: Record<string, string> | undefined,
  excluded: ReadonlySet<string>,
  cache: AffinityCache | null,
  withoutNode?: { delayBinding: boolean },
): Result<PersistentVolume | null> {
  const key = claimKey(claim);
  if (claim.spec?.volumeAttributesClassName) {
    return { ok: false, error: `unsupported volumeAttributesClassName is set on claim ${key} when the feature-gate VolumeAttributesClass is disabled` };
  }
  const requested = claimStorageRequest(claim);
  const requestedClass = getPersistentVolumeClaimClass(claim);
  let selector = null;
  if (claim.spec?.selector) {
    const s = labelSelectorAsSelector(claim.spec.selector);
    if (!s.ok) return { ok: false, error: `error creating internal label selector for claim: ${key}: ${s.error}` };
    selector = s.selector;
  }
  let smallest: PersistentVolume | null = null;
  let smallestQty: Quantity | null = null;
  for (const volume of volumes) {
    if (excluded.has(volume.metadata.name ?? '')) continue;
    if (volume.spec?.claimRef && !isVolumeBoundToClaim(volume, claim)) continue;
    const qty = volumeCapacity(volume);
    if (cmpQuantity(qty, requested) < 0) continue;
    if (volumeModeMismatch(claim, volume)) continue;
    if (volume.spec?.volumeAttributesClassName) continue;
    if (volume.metadata.deletionTimestamp) continue;
    // The most expensive check; upstream computes it here all the same.
    const nodeAffinityValid = withoutNode ? true : pvAffinityMatches(volume, labels, cache);
    if (isVolumeBoundToClaim(volume, claim)) {
      // A pre-bound PV that doesn't fit the node means no match on this node.
      return { ok: true, value: nodeAffinityValid ? volume : null };
    }
    // The PV controller does not bind delayed claims: the scheduler does, with a node.
    if (withoutNode?.delayBinding) continue;
    if (volume.status?.phase !== 'Available') continue;
    if (selector !== null && !matches(selector, volume.metadata.labels ?? {})) continue;
    if (getPersistentVolumeClass(volume) !== requestedClass) continue;
    if (!nodeAffinityValid) continue;
    if (!withoutNode && !checkAccessModes(claim, volume)) continue;
    if (smallest === null || cmpQuantity(smallestQty!, qty) > 0) {
      smallest = volume;
      smallestQty = qty;
    }
  }
  return { ok: true, value: smallest };
}

/** checkVolumeProvisions: every claim's class can provision on this node, with capacity. */
function checkVolumeProvisions(
  handle: Handle,
  claims: PersistentVolumeClaim[],
  node: Node,
): Result<{ provisionSatisfied: boolean; sufficientStorage: boolean; dynamicProvisions: PersistentVolumeClaim[] }> {
  const dynamicProvisions: PersistentVolumeClaim[] = [];
  const no = (provisionSatisfied: boolean, sufficientStorage: boolean) => ({ ok: true as const, value: { provisionSatisfied, sufficientStorage, dynamicProvisions: [] } });
  for (const claim of claims) {
    const className = getPersistentVolumeClaimClass(claim);
    if (className === '') return { ok: false, error: `no class for claim ${JSON.stringify(claimKey(claim))}` };
    const sc = getStorageClass(handle, className);
    if (!sc.ok) return { ok: false, error: `failed to find storage class ${JSON.stringify(className)}` };
    const provisioner = sc.obj.provisioner ?? '';
    if (provisioner === '' || provisioner === NOT_SUPPORTED_PROVISIONER) return no(false, true);
    if (!matchTopologySelectorTerms(sc.obj.allowedTopologies, node.metadata.labels ?? {})) return no(false, true);
    const enough = hasEnoughCapacity(handle, provisioner, claim, sc.obj, node);
    if (!enough.ok) return enough;
    if (!enough.value) return no(true, false);
    dynamicProvisions.push(claim);
  }
  return { ok: true, value: { provisionSatisfied: true, sufficientStorage: true, dynamicProvisions } };
}

/** The CSIStorageCapacity objects the scheduler's informer holds. */
function storageCapacities(handle: Handle): CSIStorageCapacity[] {
  return [...handle.lister('csistoragecapacities').list()] as unknown as CSIStorageCapacity[];
}

/** volumeLimit: maximumVolumeSize when given, else capacity. */
export function capacityVolumeLimit(c: CSIStorageCapacity): Quantity | null {
  if (c.maximumVolumeSize !== undefined && c.maximumVolumeSize !== null) return quantityOf(c.maximumVolumeSize);
  if (c.capacity !== undefined && c.capacity !== null) return quantityOf(c.capacity);
  return null;
}

/** hasEnoughCapacity: only for CSI drivers with storageCapacity: some accessible pool fits the request. */
function hasEnoughCapacity(handle: Handle, provisioner: string, claim: PersistentVolumeClaim, sc: StorageClass, node: Node): Result<boolean> {
  const requests = claim.spec?.resources?.requests;
  if (!requests || !Object.prototype.hasOwnProperty.call(requests, RESOURCE_STORAGE)) return { ok: true, value: true };
  const driver = getCSIDriver(handle, provisioner);
  // Not a CSI driver, or one that doesn't track capacity: nothing to check.
  if (!driver.ok) return { ok: true, value: true };
  if (driver.obj.spec?.storageCapacity !== true) return { ok: true, value: true };
  const size = quantityOf(requests[RESOURCE_STORAGE]);
  for (const c of storageCapacities(handle)) {
    if (c.storageClassName !== sc.metadata.name) continue;
    const limit = capacityVolumeLimit(c);
    if (limit === null || cmpQuantity(limit, size) < 0) continue;
    if (!c.nodeTopology) continue;
    const sel = labelSelectorAsSelector(c.nodeTopology);
    if (sel.ok && matches(sel.selector, node.metadata.labels ?? {})) return { ok: true, value: true };
  }
  return { ok: true, value: false };
}

// --- Reserve and PreBind -----------------------------------------------------------------

/** arePodVolumesBound: every claim of the pod is fully bound. */
export function arePodVolumesBound(handle: Handle, pod: Pod): boolean {
  for (const vol of pod.spec.volumes ?? []) {
    const r = isVolumeBound(handle, pod, vol);
    if (!r.ok || !r.value.bound) return false;
  }
  return true;
}

/** reference.GetReference for a claim (omitempty fields left out). */
function claimReference(claim: PersistentVolumeClaim): ObjectReference {
  const m = claim.metadata;
  const ref: ObjectReference = { kind: 'PersistentVolumeClaim' };
  if (m.namespace) ref.namespace = m.namespace;
  if (m.name) ref.name = m.name;
  if (m.uid) ref.uid = m.uid;
  ref.apiVersion = 'v1';
  if (m.resourceVersion) ref.resourceVersion = m.resourceVersion;
  return ref;
}

/** volume.GetBindVolumeToClaim: a copy of the PV with claimRef and bound-by-controller set. */
export function getBindVolumeToClaim(volume: PersistentVolume, claim: PersistentVolumeClaim): { pv: PersistentVolume; dirty: boolean } {
  let dirty = false;
  const shouldSetBoundByController = !isVolumeBoundToClaim(volume, claim);
  const clone = jsonRoundTrip(volume);
  clone.spec ??= {};
  const ref = volume.spec?.claimRef;
  if (!ref || ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace || (ref.uid ?? '') !== (claim.metadata.uid ?? '')) {
    clone.spec.claimRef = claimReference(claim);
    dirty = true;
  }
  const ann = clone.metadata.annotations;
  if (shouldSetBoundByController && !(ann && Object.prototype.hasOwnProperty.call(ann, ANN_BOUND_BY_CONTROLLER))) {
    clone.metadata.annotations = { ...ann, [ANN_BOUND_BY_CONTROLLER]: 'yes' };
    dirty = true;
  }
  return { pv: clone, dirty };
}

/**
 * AssumePodVolumes: nothing to do when every claim is already bound (true);
 * otherwise the PVs become pre-bound copies and the claims to provision get
 * the selected-node annotation (false).
 */
export function assumePodVolumes(handle: Handle, pod: Pod, nodeName: string, podVolumes: PodVolumes): boolean {
  if (arePodVolumesBound(handle, pod)) return true;
  const bindings: BindingInfo[] = [];
  for (const b of podVolumes.staticBindings ?? []) bindings.push({ pv: getBindVolumeToClaim(b.pv, b.pvc).pv, pvc: b.pvc });
  const provisions: PersistentVolumeClaim[] = [];
  for (const claim of podVolumes.dynamicProvisions ?? []) {
    const clone = jsonRoundTrip(claim);
    clone.metadata.annotations = { ...clone.metadata.annotations, [ANN_SELECTED_NODE]: nodeName };
    provisions.push(clone);
  }
  podVolumes.staticBindings = bindings;
  podVolumes.dynamicProvisions = provisions;
  return false;
}

function podName(pod: Pod): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}

/** bindAPIUpdate as calls: PUT each pre-bound PV, then PUT each claim to provision. */
export function bindAPIUpdate(pod: Pod, podVolumes: PodVolumes): Result<ApiAction[]> {
  if (podVolumes.staticBindings === null) return { ok: false, error: `failed to get cached bindings for pod ${JSON.stringify(podName(pod))}` };
  if (podVolumes.dynamicProvisions === null) return { ok: false, error: `failed to get cached claims to provision for pod ${JSON.stringify(podName(pod))}` };
  const actions: ApiAction[] = [];
  for (const b of podVolumes.staticBindings) {
    const name = b.pv.metadata.name ?? '';
    actions.push({
      method: 'PUT',
      path: `/api/v1/persistentvolumes/${name}`,
      body: b.pv,
      description: `bind PersistentVolume ${name} to claim ${claimKey(b.pvc)}`,
    });
  }
  for (const claim of podVolumes.dynamicProvisions) {
    const ns = claim.metadata.namespace ?? '';
    const name = claim.metadata.name ?? '';
    actions.push({
      method: 'PUT',
      path: `/api/v1/namespaces/${ns}/persistentvolumeclaims/${name}`,
      body: claim,
      description: `provision PersistentVolumeClaim ${ns}/${name} on node ${claim.metadata.annotations?.[ANN_SELECTED_NODE] ?? ''}`,
    });
  }
  return { ok: true, value: actions };
}

/** resourceVersion as a number (etcd revisions); NaN when absent or odd. */
function rv(o: { metadata: { resourceVersion?: string } }): number {
  const v = o.metadata.resourceVersion;
  return v && /^[0-9]+$/.test(v) ? Number(v) : NaN;
}

/**
 * Whether the informer's copy predates our update. Upstream compares with the
 * object the PUT returned; we know only what we sent, so an older version is
 * stale, and the same version is stale unless it already shows our change
 * (a PUT that changed nothing keeps its version).
 */
function isStale(api: { metadata: { resourceVersion?: string } }, sent: { metadata: { resourceVersion?: string } }, showsChange: boolean): boolean {
  const a = rv(api);
  const s = rv(sent);
  if (Number.isNaN(a) || Number.isNaN(s)) return false;
  return a < s || (a === s && !showsChange);
}

/**
 * checkBindings: true once every PV we bound and every claim we provisioned
 * is fully bound (by the PV controller); false to keep waiting; a string when
 * binding failed and the pod must be retried.
 */
export function checkBindings(handle: Handle, pod: Pod, nodeName: string, podVolumes: PodVolumes): boolean | string {
  const bindings = podVolumes.staticBindings;
  const provisions = podVolumes.dynamicProvisions;
  if (bindings === null) return `failed to get cached bindings for pod ${JSON.stringify(podName(pod))}`;
  if (provisions === null) return `failed to get cached claims to provision for pod ${JSON.stringify(podName(pod))}`;
  const node = handle.nodes.get(nodeName)?.node;
  if (!node) return `failed to get node ${JSON.stringify(nodeName)}: node ${JSON.stringify(nodeName)} not found`;
  const labels = node.metadata.labels;

  for (const b of bindings) {
    const pvName = b.pv.metadata.name ?? '';
    const pv = getPV(handle, pvName);
    if (!pv.ok) return `failed to check binding: ${assumeCacheNotFound('v1.PersistentVolume', pvName)}`;
    const pvc = getPVC(handle, b.pvc.metadata.namespace ?? '', b.pvc.metadata.name ?? '');
    if (!pvc.ok) return `failed to check binding: ${assumeCacheNotFound('v1.PersistentVolumeClaim', claimKey(b.pvc))}`;
    if (isStale(pv.obj, b.pv, isVolumeBoundToClaim(pv.obj, b.pvc))) return false;
    if (!checkNodeAffinity(pv.obj, labels)) return `pv ${JSON.stringify(pvName)} node affinity doesn't match node ${JSON.stringify(nodeName)}: no matching NodeSelectorTerms`;
    // unbindVolume() dropped the claimRef.
    const ref = pv.obj.spec?.claimRef;
    if (!ref || !ref.uid) return `ClaimRef got reset for pv ${JSON.stringify(pvName)}`;
    if (!isPVCFullyBound(pvc.obj)) return false;
  }

  for (const claim of provisions) {
    const pvc = getPVC(handle, claim.metadata.namespace ?? '', claim.metadata.name ?? '');
    if (!pvc.ok) return `failed to check provisioning pvc: ${assumeCacheNotFound('v1.PersistentVolumeClaim', claimKey(claim))}`;
    const ann = pvc.obj.metadata.annotations;
    if (isStale(pvc.obj, claim, ann?.[ANN_SELECTED_NODE] === nodeName)) return false;
    if (!ann) return `selectedNode annotation reset for PVC ${JSON.stringify(pvc.obj.metadata.name ?? '')}`;
    // A provisioner that fails removes the annotation to ask for a retry.
    if (ann[ANN_SELECTED_NODE] !== nodeName) return `provisioning failed for PVC ${JSON.stringify(pvc.obj.metadata.name ?? '')}`;
    const volumeName = pvc.obj.spec?.volumeName;
    if (volumeName) {
      const pv = getPV(handle, volumeName);
      // The PV may not have reached the informer yet.
      if (!pv.ok) return false;
      if (!checkNodeAffinity(pv.obj, labels)) return `pv ${JSON.stringify(volumeName)} node affinity doesn't match node ${JSON.stringify(nodeName)}: no matching NodeSelectorTerms`;
    }
    if (!isPVCFullyBound(pvc.obj)) return false;
  }
  return true;
}
