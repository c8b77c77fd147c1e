// VolumeBinding (pkg/scheduler/framework/plugins/volumebinding/volume_binding.go, v1.32).
// PreFilter sorts the pod's claims (missing ones and unbound Immediate ones
// make it unresolvable); Filter asks the binder whether each node suits the
// bound PVs' node affinity and can bind or provision the WaitForFirstConsumer
// ones; Reserve assumes the chosen bindings; PreBind returns the PUTs that
// pre-bind PVs and set volume.kubernetes.io/selected-node on claims to
// provision, and preBindDone waits (bindTimeoutSeconds at most) for the PV
// controller to finish. Scoring needs the VolumeCapacityPriority gate, off in
// v1.32, so PreScore always skips.
import type { FieldError, FieldPath } from '../../../apimachinery/fieldErrors';
import { fieldErr } from '../../../apimachinery/fieldErrors';
import type { KObject } from '../../../apimachinery/types';
import { registerClass } from '../../../sim/serial';
import type { Pod } from '../../framework/api';
import { stateKey, type CycleState } from '../../framework/cycleState';
import type {
  ApiAction,
  ClusterEvent,
  EnqueueExtensions,
  FilterPlugin,
  Handle,
  PluginDefinition,
  PreBindPlugin,
  PreFilterPlugin,
  PreFilterResult,
  PreScorePlugin,
  QueueingHint,
  ReservePlugin,
  ScorePlugin,
} from '../../framework/interface';
import type { NodeInfo } from '../../framework/nodeInfo';
import { errorStatus, SKIP, unresolvable, type MaybeStatus, type Status } from '../../framework/status';
import { cmpQuantity } from '../../../apiserver/validation/quantity';
import {
  assumePodVolumes,
  bindAPIUpdate,
  capacityVolumeLimit,
  checkBindings,
  findPodVolumes,
  getPodVolumeClaims,
  type AffinityCache,
  type PodVolumeClaims,
  type PodVolumes,
} from './binder';
import { getPVC, volumeClaim, volumeIsForPod } from './helpers';
import { MIGRATED_PLUGINS_ANNOTATION, type CSIDriver, type CSINode, type CSIStorageCapacity, type StorageClass } from './types';

export const VOLUME_BINDING = 'VolumeBinding';

/** UtilizationShapePoint (only meaningful with VolumeCapacityPriority). */
export interface UtilizationShapePoint {
  utilization: number;
  score: number;
}

/** VolumeBindingArgs (kubescheduler.config.k8s.io/v1). */
export interface VolumeBindingArgs {
  bindTimeoutSeconds: number;
  shape?: UtilizationShapePoint[] | null;
}

/** SetDefaults_VolumeBindingArgs: 600 s; no shape while VolumeCapacityPriority is off. */
export function defaultVolumeBindingArgs(args: Partial<VolumeBindingArgs> | undefined): VolumeBindingArgs {
  const out: VolumeBindingArgs = { bindTimeoutSeconds: args?.bindTimeoutSeconds ?? 600 };
  if (args?.shape !== undefined) out.shape = args.shape;
  return out;
}

/** ValidateVolumeBindingArgsWithOptions with VolumeCapacityPriority off (v1.32's default). */
export function validateVolumeBindingArgs(args: VolumeBindingArgs, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (args.bindTimeoutSeconds < 0) errs.push(fieldErr.invalid(path.child('bindTimeoutSeconds'), args.bindTimeoutSeconds, 'invalid BindTimeoutSeconds, should not be a negative value'));
  if (args.shape !== undefined && args.shape !== null) {
    // Rejected while the gate is off, so a config can't change meaning when it turns on.
    errs.push(fieldErr.invalid(path.child('shape'), args.shape, 'unexpected field `shape`, remove it or turn on the feature gate VolumeCapacityPriority'));
  }
  return errs;
}

/** stateData: what the cycle learns about the pod's volumes, shared by Filter, Reserve and PreBind. */
export interface VolumeBindingState {
  allBound: boolean;
  /** Per feasible node, what it would take; null when the pod has no claims. */
  podVolumesByNode: Map<string, PodVolumes> | null;
  podVolumeClaims: PodVolumeClaims | null;
  /** Some node would bind a static PV (Score would have something to rank). */
  hasStaticBindings: boolean;
  affinityCache: AffinityCache;
  /** Virtual ms when PreBind issued its calls; the bind timeout counts from here. */
  bindStartMs: number | null;
}

const stateKeyBinding = stateKey<VolumeBindingState>(VOLUME_BINDING);

/** framework.ErrNotFound, as CycleState.Read reports a missing key. */
const STATE_NOT_FOUND = 'not found';

const IMMEDIATE_UNBOUND = 'pod has unbound immediate PersistentVolumeClaims';

function emptyState(): VolumeBindingState {
  return { allBound: false, podVolumesByNode: null, podVolumeClaims: null, hasStaticBindings: false, affinityCache: new Map(), bindStartMs: null };
}

/** Semantic.DeepEqual on JSON values: nil and empty lists/maps are equal. */
function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    return true;
  }
  return a === b;
}

export class VolumeBinding implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ReservePlugin, PreBindPlugin, EnqueueExtensions {
  readonly name = VOLUME_BINDING;

  constructor(
    private readonly handle: Handle,
    readonly args: VolumeBindingArgs,
  ) {}

  /** podHasPVCs: whether the pod uses claims, or why one of them is unusable. */
  private podHasPVCs(pod: Pod): boolean | string {
    let hasPVC = false;
    const ns = pod.metadata.namespace ?? '';
    for (const vol of pod.spec.volumes ?? []) {
      const claim = volumeClaim(pod, vol);
      if (!claim) continue;
      hasPVC = true;
      const pvc = getPVC(this.handle, ns, claim.name);
      if (!pvc.ok) {
        // Normal right after a pod with a generic ephemeral volume is created.
        return claim.ephemeral ? `waiting for ephemeral volume controller to create the persistentvolumeclaim ${JSON.stringify(claim.name)}` : pvc.error;
      }
      const name = pvc.obj.metadata.name ?? '';
      if (pvc.obj.status?.phase === 'Lost') {
        return `persistentvolumeclaim ${JSON.stringify(name)} bound to non-existent persistentvolume ${JSON.stringify(pvc.obj.spec?.volumeName ?? '')}`;
      }
      if (pvc.obj.metadata.deletionTimestamp) return `persistentvolumeclaim ${JSON.stringify(name)} is being deleted`;
      if (claim.ephemeral) {
        const owned = volumeIsForPod(pod, pvc.obj);
        if (owned) return owned;
      }
    }
    return hasPVC;
  }

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    const has = this.podHasPVCs(pod);
    if (typeof has === 'string') return { status: unresolvable(has) };
    if (!has) {
      state.write(stateKeyBinding, emptyState());
      return { status: SKIP };
    }
    const claims = getPodVolumeClaims(this.handle, pod);
    if (!claims.ok) return { status: errorStatus(claims.error) };
    // The PV controller binds these; the claim's update moves the pod back.
    if (claims.value.unboundClaimsImmediate.length > 0) return { status: unresolvable(IMMEDIATE_UNBOUND) };
    const s = emptyState();
    s.podVolumesByNode = new Map();
    s.podVolumeClaims = claims.value;
    state.write(stateKeyBinding, s);
    return { status: null };
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = state.read(stateKeyBinding);
    if (!s) return errorStatus(STATE_NOT_FOUND);
    if (!s.podVolumeClaims || !s.podVolumesByNode) return null;
    const node = nodeInfo.node;
    if (!node) return errorStatus('node not found');
    const r = findPodVolumes(this.handle, pod, s.podVolumeClaims, node, s.affinityCache);
    if (!r.ok) return errorStatus(r.error);
    if (r.value.reasons.length > 0) return unresolvable(...r.value.reasons);
    const pv = r.value.podVolumes;
    s.podVolumesByNode.set(nodeInfo.name, pv);
    s.hasStaticBindings = s.hasStaticBindings || (pv.staticBindings !== null && pv.staticBindings.length > 0);
    return null;
  }

  /** No scorer without VolumeCapacityPriority (alpha, off in v1.32): always skip. */
  preScore(): MaybeStatus {
    return SKIP;
  }

  score(): number | Status {
    return 0;
  }

  scoreExtensions(): null {
    return null;
  }

  reserve(state: CycleState, pod: Pod, nodeName: string): MaybeStatus {
    const s = state.read(stateKeyBinding);
    if (!s) return errorStatus(STATE_NOT_FOUND);
    const podVolumes = s.podVolumesByNode?.get(nodeName);
    // No entry: the pod has no claims.
    s.allBound = podVolumes ? assumePodVolumes(this.handle, pod, nodeName, podVolumes) : true;
    return null;
  }

  /**
   * Upstream restores its assume cache here. The assumed objects live only in
   * this cycle's state, which is dropped with the pod's attempt: nothing to undo.
   */
  unreserve(): void {}

  preBind(state: CycleState, pod: Pod, nodeName: string): ApiAction[] | Status | null {
    const s = state.read(stateKeyBinding);
    if (!s) return errorStatus(STATE_NOT_FOUND);
    if (s.allBound) return null;
    const podVolumes = s.podVolumesByNode?.get(nodeName);
    if (!podVolumes) return errorStatus(`no pod volumes found for node ${JSON.stringify(nodeName)}`);
    const actions = bindAPIUpdate(pod, podVolumes);
    if (!actions.ok) return errorStatus(actions.error);
    s.bindStartMs = this.handle.now();
    return actions.value;
  }

  /** The poll of BindPodVolumes: done, still waiting, or failed (including the bind timeout). */
  preBindDone(state: CycleState, pod: Pod, nodeName: string): MaybeStatus | 'wait' {
    const s = state.read(stateKeyBinding);
    if (!s) return errorStatus(STATE_NOT_FOUND);
    if (s.allBound) return null;
    const podVolumes = s.podVolumesByNode?.get(nodeName);
    if (!podVolumes) return errorStatus(`no pod volumes found for node ${JSON.stringify(nodeName)}`);
    const r = checkBindings(this.handle, pod, nodeName, podVolumes);
    if (typeof r === 'string') return errorStatus(`binding volumes: ${r}`);
    if (r) return null;
    const start = s.bindStartMs ?? this.handle.now();
    if (this.handle.now() - start >= this.args.bindTimeoutSeconds * 1000) return errorStatus('binding volumes: context deadline exceeded');
    return 'wait';
  }

  eventsToRegister(): ClusterEvent[] {
    return [
      // A missing or misconfigured class (allowedTopologies, volumeBindingMode).
      { resource: 'StorageClass', actions: ['Add', 'Update'] },
      // We bind claims to PVs, so any change to either may help.
      { resource: 'PersistentVolumeClaim', actions: ['Add', 'Update'] },
      { resource: 'PersistentVolume', actions: ['Add', 'Update'] },
      // Labels matter to PV node affinity and allowed topologies (no preCheck with hints on).
      { resource: 'Node', actions: ['Add', 'UpdateNodeLabel'] },
      // CSINode decides whether in-tree PVs translate to CSI.
      { resource: 'CSINode', actions: ['Add', 'Update'] },
      // Storage capacity tracking.
      { resource: 'CSIDriver', actions: ['Update'] },
      { resource: 'CSIStorageCapacity', actions: ['Add', 'Update'] },
    ];
  }

  isSchedulableAfter(event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint {
    switch (event.resource) {
      case 'StorageClass':
        return this.isSchedulableAfterStorageClassChange(oldObj as StorageClass | undefined, newObj as StorageClass | undefined);
      case 'PersistentVolumeClaim':
        return this.isSchedulableAfterPersistentVolumeClaimChange(pod, newObj);
      case 'CSINode':
        return this.isSchedulableAfterCSINodeChange(oldObj as CSINode | undefined, newObj as CSINode | undefined);
      case 'CSIDriver':
        return this.isSchedulableAfterCSIDriverChange(pod, oldObj as CSIDriver | undefined, newObj as CSIDriver | undefined);
      case 'CSIStorageCapacity':
        return this.isSchedulableAfterCSIStorageCapacityChange(oldObj as CSIStorageCapacity | undefined, newObj as CSIStorageCapacity | undefined);
      default:
        return 'Queue';
    }
  }

  /** A new class, or changed allowedTopologies (volumeBindingMode is immutable). */
  isSchedulableAfterStorageClassChange(oldSC: StorageClass | undefined, newSC: StorageClass | undefined): QueueingHint {
    if (!newSC || !oldSC) return 'Queue';
    return semanticEqual(oldSC.allowedTopologies, newSC.allowedTopologies) ? 'QueueSkip' : 'Queue';
  }

  /** One of the pod's claims (by name or as its ephemeral claim) was created or updated. */
  isSchedulableAfterPersistentVolumeClaimChange(pod: Pod, pvc: KObject | undefined): QueueingHint {
    if (!pvc) return 'Queue';
    if (pod.metadata.namespace !== pvc.metadata.namespace) return 'QueueSkip';
    for (const v of pod.spec.volumes ?? []) {
      const c = volumeClaim(pod, v);
      if (c && c.name === pvc.metadata.name) return 'Queue';
    }
    return 'QueueSkip';
  }

  /** A new CSINode, or a change to its migrated-plugins annotation. */
  isSchedulableAfterCSINodeChange(oldNode: CSINode | undefined, newNode: CSINode | undefined): QueueingHint {
    if (!oldNode || !newNode) return 'Queue';
    const a = oldNode.metadata.annotations?.[MIGRATED_PLUGINS_ANNOTATION];
    const b = newNode.metadata.annotations?.[MIGRATED_PLUGINS_ANNOTATION];
    return (a ?? '') !== (b ?? '') ? 'Queue' : 'QueueSkip';
  }

  /** A driver of the pod's inline CSI volumes stopped tracking storage capacity. */
  isSchedulableAfterCSIDriverChange(pod: Pod, oldD: CSIDriver | undefined, newD: CSIDriver | undefined): QueueingHint {
    if (!oldD || !newD) return 'Queue';
    for (const v of pod.spec.volumes ?? []) {
      if (!v.csi || v.csi.driver !== newD.metadata.name) continue;
      if (oldD.spec?.storageCapacity === true && newD.spec?.storageCapacity !== true) return 'Queue';
    }
    return 'QueueSkip';
  }

  /** A new capacity, or a larger volume limit. */
  isSchedulableAfterCSIStorageCapacityChange(oldC: CSIStorageCapacity | undefined, newC: CSIStorageCapacity | undefined): QueueingHint {
    if (!newC || !oldC) return 'Queue';
    const oldLimit = capacityVolumeLimit(oldC);
    const newLimit = capacityVolumeLimit(newC);
    if (newLimit !== null && (oldLimit === null || cmpQuantity(newLimit, oldLimit) > 0)) return 'Queue';
    return 'QueueSkip';
  }
}

export const volumeBindingDefinition: PluginDefinition<VolumeBindingArgs> = {
  name: VOLUME_BINDING,
  argsKind: 'VolumeBindingArgs',
  defaultArgs: defaultVolumeBindingArgs,
  validateArgs: validateVolumeBindingArgs,
  factory: (args, handle) => new VolumeBinding(handle, args),
};

registerClass('PluginVolumeBinding', VolumeBinding);

export type { PodVolumes, PodVolumeClaims } from './binder';
