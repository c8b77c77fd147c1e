// The PersistentVolume controller, "persistentvolume-binder" in
// kube-controller-manager (pkg/controller/volume/persistentvolume/pv_controller.go
// and pv_controller_base.go, v1.32), in upstream's "space shuttle" shape:
// syncClaim (unbound: find the best PV or provision; bound: check the PV is
// still there and ours) and syncVolume (Available, Bound, Released and the
// reclaim policy), binding as upstream does — PV claimRef, PV phase, claim
// volumeName with the bind annotations, claim phase — and the events of
// pkg/controller/volume/events under source "persistentvolume-controller".
// Claims whose class waits for the first consumer are left to the scheduler,
// which chooses a node (volume.kubernetes.io/selected-node); provisioning is
// external (a CSI driver's external-provisioner watches for the
// volume.kubernetes.io/storage-provisioner annotation); the controller deletes
// only what it can (hostPath volumes under /tmp, as the in-tree plugin does).
//
// Upstream writes the four objects of a binding one after another within one
// sync; here each sync makes the next write and its answer (kept in the
// controller's own caches, as storeObjectUpdate does) requeues the key, so the
// same decisions are taken on the newest objects.
import type { KObject } from '../../../apimachinery/types';
import type { ReflectorEvent } from '../../../client/reflector';
import { RateLimitingQueue } from '../../../client/workqueue';
import { cmpQuantity } from '../../../apiserver/validation/quantity';
import { getDefaultClass } from '../../../apiserver/admission/defaultStorageClass';
import type { ClusterReader } from '../../../apiserver/types';
import { registerClass } from '../../../sim/serial';
import { PeriodicLoops } from '../../framework/loops';
import { jsonRoundTrip } from '../../../sim/jsonClone';
import { getBindVolumeToClaim, isVolumeBoundToClaim } from '../../../scheduler/plugins/volumeBinding/binder';
import { claimKey, claimStorageRequest, getPersistentVolumeClaimClass, getPersistentVolumeClass, quantityOf, volumeCapacity } from '../../../scheduler/plugins/volumeBinding/helpers';
import {
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  BETA_STORAGE_CLASS_ANNOTATION,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from '../../../scheduler/plugins/volumeBinding/types';
import type { Controller, ControllerContext, EventSpec, SyncResult } from '../../framework/types';
import { pushRecent } from '../../endpoint/podutil';
import { isPodTerminated, podsUsingClaim, rvOf, VolumeEvents } from '../util';
import { findBestMatchForClaim } from './index';

export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
/** --pvclaimbinder-sync-period. */
export const PV_CONTROLLER_SYNC_PERIOD_MS = 15_000;
export const PV_CONTROLLER_COMPONENT = 'persistentvolume-controller';

const CLAIM = 'claim:';
const VOLUME = 'volume:';
const RESYNC = 'resync';

type Phase = 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed' | 'Lost';

interface After {
  /** Emitted once the write succeeded (the …WithEvent helpers). */
  event?: { type: 'Normal' | 'Warning'; reason: string; message: string };
  /** The key to sync next (the claim whose binding goes on). */
  requeue: string;
}

type Tag =
  | { type: 'write'; key: string; kind: 'claim' | 'volume'; after: After }
  | { type: 'delete'; key: string }
  | { type: 'liveClaim'; volume: string; claimKey: string };

const ref = (kind: 'PersistentVolume' | 'PersistentVolumeClaim', o: KObject): KObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { name: o.metadata.name, ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}), uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion },
});

const hasAnn = (o: KObject, k: string): boolean => Object.prototype.hasOwnProperty.call(o.metadata.annotations ?? {}, k);
const phaseOf = (o: { status?: { phase?: string } }): string => o.status?.phase ?? '';
const claimRefKey = (pv: PersistentVolume): string => `${pv.spec?.claimRef?.namespace ?? ''}/${pv.spec?.claimRef?.name ?? ''}`;

/** ClusterReader over the StorageClass informer (for util.GetDefaultClass). */
function classReader(classes: ReadonlyMap<string, KObject>): ClusterReader {
  return { get: (_g, _r, _ns, name) => classes.get(name), list: () => [...classes.values()] };
}

/** How the in-tree plugins the controller hosts delete a volume: hostPath under /tmp only; CSI volumes externally. */
type DeleteResult = { type: 'external' } | { type: 'deleted' } | { type: 'error'; message: string };

/** In-tree sources whose plugins exist but cannot delete (FindDeletablePluginBySpec). */
const IN_TREE_SOURCES = ['nfs', 'local', 'iscsi', 'fc', 'cephfs', 'rbd', 'portworxVolume', 'flexVolume'];

export function doDeleteVolume(pv: PersistentVolume): DeleteResult {
  const provisionedBy = pv.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED];
  if (provisionedBy) {
    // An external provisioner deletes what it provisioned.
    if (!provisionedBy.startsWith('kubernetes.io/')) return { type: 'external' };
    if (provisionedBy !== 'kubernetes.io/host-path') return { type: 'error', message: `no volume plugin matched name: ${provisionedBy}` };
  }
  // HonorPVReclaimPolicy (beta, on): a CSI volume is deleted by its external provisioner.
  if (pv.spec?.csi) return { type: 'external' };
  const hostPath = pv.spec?.hostPath as { path?: string } | undefined;
  if (hostPath) {
    const path = hostPath.path ?? '';
    // The host_path deleter refuses anything outside /tmp.
    if (!/^\/tmp\/.+/.test(path)) return { type: 'error', message: `host_path deleter only supports /tmp/.+ but received provided ${path}` };
    return { type: 'deleted' };
  }
  const known = IN_TREE_SOURCES.some((k) => pv.spec?.[k] !== undefined);
  return { type: 'error', message: `error getting deleter volume plugin for volume ${JSON.stringify(pv.metadata.name ?? '')}: ${known ? 'no deletable volume plugin matched' : 'no volume plugin matched'}` };
}

export class PersistentVolumeController implements Controller {
  readonly name = 'persistent-volume-binder';
  readonly informers = ['persistentvolumes', 'persistentvolumeclaims', 'storageclasses', 'pods', 'nodes'] as const;
  readonly queue = new RateLimitingQueue<string>('persistentvolume');
  readonly loops = new PeriodicLoops();
  readonly recent: { t: number; key: string; what: string }[] = [];
  /** The controller's own caches of the newest versions it knows (informer events and its writes' answers). */
  readonly volumes = new Map<string, PersistentVolume>();
  readonly claims = new Map<string, PersistentVolumeClaim>();
  /** Keys ("claim:ns/name", "volume:name") with a write in flight. */
  readonly inFlight = new Set<string>();
  /** Keys to sync again once the write in flight on an object is answered (they wanted to write it too). */
  readonly waiting = new Map<string, Set<string>>();
  /** A volume's claim as a live GET found it (null: not found), consumed by the next syncVolume. */
  readonly liveClaims = new Map<string, PersistentVolumeClaim | null>();
  private started = false;

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (!this.started) {
      this.started = true;
      this.loops.schedule(RESYNC, ctx.now + PV_CONTROLLER_SYNC_PERIOD_MS);
    }
    if (resource === 'persistentvolumes') this.queue.add(VOLUME + ev.object.metadata.name, ctx.now);
    else if (resource === 'persistentvolumeclaims') this.queue.add(CLAIM + claimKey(ev.object as PersistentVolumeClaim), ctx.now);
  }

  /** RESYNC: resync(), the periodic pass over every claim and volume. */
  runPass(_pass: string, ctx: ControllerContext): number {
    for (const c of ctx.store('persistentvolumeclaims').values()) this.queue.add(CLAIM + claimKey(c as PersistentVolumeClaim), ctx.now);
    for (const v of ctx.store('persistentvolumes').values()) this.queue.add(VOLUME + v.metadata.name, ctx.now);
    return PV_CONTROLLER_SYNC_PERIOD_MS;
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (this.inFlight.has(key)) return { type: 'done' }; // its answer requeues it
    if (key.startsWith(CLAIM)) this.claimWorker(key.slice(CLAIM.length), ctx);
    else this.volumeWorker(key.slice(VOLUME.length), ctx);
    return { type: 'done' };
  }

  // ---- workers and caches (pv_controller_base.go) ---------------------------------------

  /** storeObjectUpdate: keep the newer of the cached and the given version. */
  private newest<T extends KObject>(cache: Map<string, T>, key: string, obj: T): T {
    const cached = cache.get(key);
    if (cached && rvOf(cached) > rvOf(obj)) return cached;
    cache.set(key, obj);
    return obj;
  }

  private claimWorker(key: string, ctx: ControllerContext): void {
    const informer = ctx.store('persistentvolumeclaims').get(key) as PersistentVolumeClaim | undefined;
    if (informer) return this.syncClaim(this.newest(this.claims, key, informer), ctx);
    // deleteClaim: the volume it was bound to is synced at once, not at the next resync.
    const gone = this.claims.get(key);
    if (!gone) return;
    this.claims.delete(key);
    if (gone.spec?.volumeName) this.queue.add(VOLUME + gone.spec.volumeName, ctx.now);
  }

  private volumeWorker(name: string, ctx: ControllerContext): void {
    const informer = ctx.store('persistentvolumes').get(name) as PersistentVolume | undefined;
    if (informer) return this.syncVolume(this.newest(this.volumes, name, informer), ctx);
    // deleteVolume: its claim goes Lost without waiting for the resync.
    const gone = this.volumes.get(name);
    if (!gone) return;
    this.volumes.delete(name);
    this.liveClaims.delete(name);
    if (gone.spec?.claimRef) this.queue.add(CLAIM + claimRefKey(gone), ctx.now);
  }

  // ---- claims --------------------------------------------------------------------------

  private syncClaim(claim: PersistentVolumeClaim, ctx: ControllerContext): void {
    if (!hasAnn(claim, ANN_BIND_COMPLETED)) this.syncUnboundClaim(claim, ctx);
    else this.syncBoundClaim(claim, ctx);
  }

  /** storagehelpers.IsDelayBindingMode: the claim's class waits for its first consumer (an unknown class does not). */
  private isDelayBindingMode(claim: PersistentVolumeClaim, ctx: ControllerContext): boolean | string {
    const className = getPersistentVolumeClaimClass(claim);
    if (className === '') return false;
    const sc = ctx.store('storageclasses').get(className) as StorageClass | undefined;
    if (!sc) return false;
    if (!sc.volumeBindingMode) return `VolumeBindingMode not set for StorageClass ${JSON.stringify(className)}`;
    return sc.volumeBindingMode === 'WaitForFirstConsumer';
  }

  private syncUnboundClaim(claim: PersistentVolumeClaim, ctx: ControllerContext): void {
    const key = claimKey(claim);
    if (!claim.spec?.volumeName) {
      // The user did not care which PV they get.
      const delayBinding = this.isDelayBindingMode(claim, ctx);
      if (typeof delayBinding === 'string') return;
      const found = findBestMatchForClaim(claim, this.volumes.values(), delayBinding);
      if (!found.ok) return;
      const volume = found.value;
      if (volume) return void this.bind(volume, claim, ctx);
      // No PV: assign the default class if the claim has none, or provision, or wait.
      if (this.assignDefaultStorageClass(claim, ctx)) return;
      if (delayBinding && !hasAnn(claim, ANN_SELECTED_NODE)) {
        // The scheduler has not picked a node for any pod using it.
        this.emitEventForUnboundDelayBindingClaim(claim, ctx);
      } else if (getPersistentVolumeClaimClass(claim) !== '') {
        return this.provisionClaim(claim, ctx);
      } else {
        this.event(ctx, ref('PersistentVolumeClaim', claim), 'Normal', VolumeEvents.FailedBinding, 'no persistent volumes available for this claim and no storage class is set');
      }
      this.updateClaimStatus(claim, 'Pending', null, ctx, { requeue: CLAIM + key });
      return;
    }
    // The user asked for a specific PV.
    const volume = this.volumes.get(claim.spec.volumeName);
    if (!volume) {
      // It does not exist (yet): retry later.
      this.updateClaimStatus(claim, 'Pending', null, ctx, { requeue: CLAIM + key });
      return;
    }
    if (!volume.spec?.claimRef) {
      const mismatch = checkVolumeSatisfyClaim(volume, claim);
      if (mismatch) {
        this.event(ctx, ref('PersistentVolumeClaim', claim), 'Warning', VolumeEvents.VolumeMismatch, `Cannot bind to requested volume ${JSON.stringify(volume.metadata.name)}: ${mismatch}`);
        this.updateClaimStatus(claim, 'Pending', null, ctx, { requeue: CLAIM + key });
        return;
      }
      return void this.bind(volume, claim, ctx);
    }
    if (isVolumeBoundToClaim(volume, claim)) return void this.bind(volume, claim, ctx); // finish the binding with the claim's uid
    // Claimed by someone else.
    this.event(ctx, ref('PersistentVolumeClaim', claim), 'Warning', VolumeEvents.FailedBinding, `volume ${JSON.stringify(volume.metadata.name)} already bound to a different claim.`);
    if (!hasAnn(claim, ANN_BOUND_BY_CONTROLLER)) this.updateClaimStatus(claim, 'Pending', null, ctx, { requeue: CLAIM + key });
  }

  private syncBoundClaim(claim: PersistentVolumeClaim, ctx: ControllerContext): void {
    const after = { requeue: CLAIM + claimKey(claim) };
    if (!claim.spec?.volumeName) {
      this.updateClaimStatusWithEvent(claim, 'Lost', null, 'Warning', 'ClaimLost', 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!', ctx, after);
      return;
    }
    const volume = this.volumes.get(claim.spec.volumeName);
    if (!volume) {
      this.updateClaimStatusWithEvent(claim, 'Lost', null, 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!', ctx, after);
      return;
    }
    if (!volume.spec?.claimRef || volume.spec.claimRef.uid === claim.metadata.uid) {
      // Unbound volume (or not seen bound yet), or all is well: bind() fixes or confirms.
      this.bind(volume, claim, ctx);
      return;
    }
    this.updateClaimStatusWithEvent(claim, 'Lost', null, 'Warning', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly', ctx, after);
  }

  /** emitEventForUnboundDelayBindingClaim. */
  private emitEventForUnboundDelayBindingClaim(claim: PersistentVolumeClaim, ctx: ControllerContext): void {
    const pods = podsUsingClaim(ctx.store('pods'), claimKey(claim)).filter((p) => !isPodTerminated(p) && !p.spec?.nodeName);
    const names = pods.map((p) => p.metadata.name as string);
    let reason: string = VolumeEvents.WaitForFirstConsumer;
    let message = 'waiting for first consumer to be created before binding';
    if (names.length > 0) {
      reason = VolumeEvents.WaitForPodScheduled;
      message = names.length > 1 ? `waiting for pods ${names.join(',')} to be scheduled` : `waiting for pod ${names[0]} to be scheduled`;
    }
    this.event(ctx, ref('PersistentVolumeClaim', claim), 'Normal', reason, message);
  }

  /** assignDefaultStorageClass: a class-less claim gets the default class (retroactively). True when a write went out. */
  private assignDefaultStorageClass(claim: PersistentVolumeClaim, ctx: ControllerContext): boolean {
    // PersistentVolumeClaimHasClass: any storageClassName, even "", or the beta annotation.
    if ((claim.spec?.storageClassName !== undefined && claim.spec.storageClassName !== null) || hasAnn(claim, BETA_STORAGE_CLASS_ANNOTATION)) return false;
    const def = getDefaultClass(classReader(ctx.store('storageclasses')));
    if (!def) return false;
    const clone = jsonRoundTrip(claim);
    clone.spec = { ...clone.spec, storageClassName: def.metadata.name ?? '' };
    this.write(ctx, 'claim', clone, false, { requeue: CLAIM + claimKey(claim) });
    return true;
  }

  /** provisionClaim + provisionClaimOperationExternal: no in-tree provisioners, so the claim is annotated for an external one. */
  private provisionClaim(claim: PersistentVolumeClaim, ctx: ControllerContext): void {
    const className = getPersistentVolumeClaimClass(claim);
    const sc = ctx.store('storageclasses').get(className) as StorageClass | undefined;
    const r = ref('PersistentVolumeClaim', claim);
    if (!sc) return this.event(ctx, r, 'Warning', VolumeEvents.ProvisioningFailed, `storageclass.storage.k8s.io ${JSON.stringify(className)} not found`);
    const provisioner = sc.provisioner ?? '';
    // kubernetes.io/ names in-tree plugins; none can provision here (the cloud ones moved to CSI).
    if (provisioner.startsWith('kubernetes.io/')) return this.event(ctx, r, 'Warning', VolumeEvents.ProvisioningFailed, `no volume plugin matched name: ${provisioner}`);
    const event = {
      type: 'Normal' as const,
      reason: VolumeEvents.ExternalProvisioning,
      message: `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
    };
    // setClaimProvisioner: the annotations tell the external provisioner to start.
    if (claim.metadata.annotations?.[ANN_STORAGE_PROVISIONER] !== provisioner) {
      const clone = jsonRoundTrip(claim);
      clone.metadata.annotations = { ...clone.metadata.annotations, [ANN_BETA_STORAGE_PROVISIONER]: provisioner, [ANN_STORAGE_PROVISIONER]: provisioner };
      this.write(ctx, 'claim', clone, false, { requeue: '', event });
      return;
    }
    this.event(ctx, r, event.type, event.reason, event.message);
  }

  /** updateClaimStatus: phase, and accessModes and capacity from the volume (reset without one). */
  private updateClaimStatus(claim: PersistentVolumeClaim, phase: Phase, volume: PersistentVolume | null, ctx: ControllerContext, after: After): boolean {
    const clone = jsonRoundTrip(claim);
    const st = (clone.status ??= {}) as { phase?: string; accessModes?: string[]; capacity?: Record<string, string> };
    let dirty = false;
    if (phaseOf(claim) !== phase) {
      st.phase = phase;
      dirty = true;
    }
    if (!volume) {
      if (st.accessModes !== undefined) {
        delete st.accessModes;
        dirty = true;
      }
      if (st.capacity !== undefined) {
        delete st.capacity;
        dirty = true;
      }
    } else {
      const modes = volume.spec?.accessModes;
      if (JSON.stringify(st.accessModes ?? null) !== JSON.stringify(modes ?? null)) {
        if (modes) st.accessModes = [...modes];
        else delete st.accessModes;
        dirty = true;
      }
      // Capacity only as the claim becomes Bound (a later difference may be deliberate).
      if (phaseOf(claim) !== phase) {
        const cap = volume.spec?.capacity?.storage;
        if (cap === undefined) return false; // "PersistentVolume %q is without a storage capacity"
        const claimCap = claim.status && (claim.status as { capacity?: Record<string, string> }).capacity?.storage;
        if (claimCap === undefined || cmpQuantity(volumeCapacity(volume), quantityOf(claimCap)) !== 0) {
          st.capacity = { ...(volume.spec?.capacity as Record<string, string>) };
          dirty = true;
        }
      }
    }
    if (!dirty) return false;
    this.write(ctx, 'claim', clone, true, after);
    return true;
  }

  /** updateClaimStatusWithEvent: only on a phase change, with the event after the write. */
  private updateClaimStatusWithEvent(claim: PersistentVolumeClaim, phase: Phase, volume: PersistentVolume | null, type: 'Normal' | 'Warning', reason: string, message: string, ctx: ControllerContext, after: After): void {
    if (phaseOf(claim) === phase) return;
    this.updateClaimStatus(claim, phase, volume, ctx, { ...after, event: { type, reason, message } });
  }

  // ---- binding ---------------------------------------------------------------------------

  /**
   * bind: volume first (claimRef, then phase Bound), then the claim
   * (volumeName and the annotations, then phase Bound). One write per call;
   * false when everything is already bound.
   */
  private bind(volume: PersistentVolume, claim: PersistentVolumeClaim, ctx: ControllerContext): boolean {
    const after = { requeue: CLAIM + claimKey(claim) };
    const { pv, dirty } = getBindVolumeToClaim(volume, claim);
    if (dirty) {
      pushRecent(this.recent, ctx.now, claimKey(claim), `binding to volume ${volume.metadata.name}`);
      this.write(ctx, 'volume', pv, false, after);
      return true;
    }
    if (this.updateVolumePhase(volume, 'Bound', '', ctx, after)) return true;
    // bindClaimToVolume
    const clone = jsonRoundTrip(claim);
    let claimDirty = false;
    if (claim.spec?.volumeName !== volume.metadata.name) {
      clone.spec = { ...clone.spec, volumeName: volume.metadata.name };
      if (!hasAnn(clone, ANN_BOUND_BY_CONTROLLER)) clone.metadata.annotations = { ...clone.metadata.annotations, [ANN_BOUND_BY_CONTROLLER]: 'yes' };
      claimDirty = true;
    }
    if (!hasAnn(clone, ANN_BIND_COMPLETED)) {
      clone.metadata.annotations = { ...clone.metadata.annotations, [ANN_BIND_COMPLETED]: 'yes' };
      claimDirty = true;
    }
    if (claimDirty) {
      this.write(ctx, 'claim', clone, false, after);
      return true;
    }
    if (this.updateClaimStatus(claim, 'Bound', volume, ctx, after)) {
      pushRecent(this.recent, ctx.now, claimKey(claim), `bound to volume ${volume.metadata.name}`);
      return true;
    }
    return false;
  }

  /** unbindVolume: roll back a binding the controller made (or clear the uid of a user's pre-binding). */
  private unbindVolume(volume: PersistentVolume, ctx: ControllerContext): void {
    const clone = jsonRoundTrip(volume);
    if (hasAnn(volume, ANN_BOUND_BY_CONTROLLER)) {
      clone.spec = { ...clone.spec, claimRef: null };
      delete clone.spec.claimRef;
      const ann = { ...clone.metadata.annotations };
      delete ann[ANN_BOUND_BY_CONTROLLER];
      if (Object.keys(ann).length) clone.metadata.annotations = ann;
      else delete clone.metadata.annotations;
    } else {
      clone.spec = { ...clone.spec, claimRef: { ...clone.spec!.claimRef!, uid: '' } };
      delete clone.spec.claimRef!.uid;
    }
    this.write(ctx, 'volume', clone, false, { requeue: VOLUME + volume.metadata.name });
  }

  // ---- volumes -------------------------------------------------------------------------

  private updateVolumePhase(volume: PersistentVolume, phase: Phase, message: string, ctx: ControllerContext, after: After): boolean {
    if (phaseOf(volume) === phase) return false;
    const clone = jsonRoundTrip(volume);
    clone.status = { ...clone.status, phase };
    if (message) (clone.status as { message?: string }).message = message;
    else delete (clone.status as { message?: string }).message;
    this.write(ctx, 'volume', clone, true, after);
    return true;
  }

  private updateVolumePhaseWithEvent(volume: PersistentVolume, phase: Phase, type: 'Normal' | 'Warning', reason: string, message: string, ctx: ControllerContext): void {
    if (phaseOf(volume) === phase) return;
    this.updateVolumePhase(volume, phase, message, ctx, { requeue: VOLUME + volume.metadata.name, event: { type, reason, message } });
  }

  private syncVolume(volume: PersistentVolume, ctx: ControllerContext): void {
    const name = volume.metadata.name!;
    const after = { requeue: VOLUME + name };
    const claimRef = volume.spec?.claimRef;
    if (!claimRef || !claimRef.uid) {
      // Unused, or reserved for a claim that has not bound yet (its sync does that).
      this.updateVolumePhase(volume, 'Available', '', ctx, after);
      return;
    }
    const cKey = claimRefKey(volume);
    if (this.inFlight.has(CLAIM + cKey)) return; // the claim's binding is under way
    let claim: PersistentVolumeClaim | null = this.claims.get(cKey) ?? (ctx.store('persistentvolumeclaims').get(cKey) as PersistentVolumeClaim | undefined) ?? null;
    const live = this.liveClaims.get(name);
    this.liveClaims.delete(name);
    const released = phaseOf(volume) === 'Released' || phaseOf(volume) === 'Failed';
    if (!claim && !released) {
      // Provisioned or bound by another component: ask the API server before reclaiming anything.
      if (live === undefined) return this.getLiveClaim(name, cKey, ctx);
      claim = live;
    }
    if (claim && claim.metadata.uid !== claimRef.uid) {
      // Maybe our copy is old: the newest decides.
      if (live === undefined) return this.getLiveClaim(name, cKey, ctx);
      claim = live && live.metadata.uid === claimRef.uid ? live : null;
    }
    if (!claim) {
      // The claim is gone: Released, then the reclaim policy. A Failed volume stays Failed.
      if (!released) {
        this.updateVolumePhase(volume, 'Released', '', ctx, after);
        return;
      }
      this.reclaimVolume(volume, ctx);
      return;
    }
    if (!claim.spec?.volumeName) {
      if ((claim.spec?.volumeMode || 'Filesystem') !== (volume.spec?.volumeMode || 'Filesystem')) {
        this.event(ctx, ref('PersistentVolume', volume), 'Warning', VolumeEvents.VolumeMismatch, `Cannot bind PersistentVolume to requested PersistentVolumeClaim ${JSON.stringify(claim.metadata.name)} due to incompatible volumeMode.`);
        this.event(ctx, ref('PersistentVolumeClaim', claim), 'Warning', VolumeEvents.VolumeMismatch, `Cannot bind PersistentVolume ${JSON.stringify(name)} to requested PersistentVolumeClaim due to incompatible volumeMode.`);
        return;
      }
      // Bound on the volume's side only (just provisioned, or unbound by a user): the claim's sync binds it.
      this.queue.add(CLAIM + cKey, ctx.now);
      return;
    }
    if (claim.spec.volumeName === name) {
      this.updateVolumePhase(volume, 'Bound', '', ctx, after);
      return;
    }
    // The claim is bound to another volume.
    if (hasAnn(volume, ANN_DYNAMICALLY_PROVISIONED) && volume.spec?.persistentVolumeReclaimPolicy === 'Delete') {
      // Provisioned for this claim in vain: release and delete it.
      if (!released) {
        this.updateVolumePhase(volume, 'Released', '', ctx, after);
        return;
      }
      this.reclaimVolume(volume, ctx);
      return;
    }
    this.unbindVolume(volume, ctx);
  }

  private getLiveClaim(volume: string, cKey: string, ctx: ControllerContext): void {
    const [ns, name] = cKey.split('/') as [string, string];
    this.inFlight.add(VOLUME + volume);
    ctx.request({ method: 'GET', path: `/api/v1/namespaces/${ns}/persistentvolumeclaims/${name}` }, { type: 'liveClaim', volume, claimKey: cKey } satisfies Tag);
  }

  /** isVolumeReleased: bound to a claim that is gone, or that is bound to another volume. */
  private isVolumeReleased(volume: PersistentVolume): boolean {
    const claimRef = volume.spec?.claimRef;
    if (!claimRef || !claimRef.uid) return false;
    const claim = this.claims.get(claimRefKey(volume));
    if (claim && claim.metadata.uid === claimRef.uid) return !!claim.spec?.volumeName && claim.spec.volumeName !== volume.metadata.name;
    return true;
  }

  /** reclaimVolume: the volume's persistentVolumeReclaimPolicy. */
  private reclaimVolume(volume: PersistentVolume, ctx: ControllerContext): void {
    switch (volume.spec?.persistentVolumeReclaimPolicy) {
      case 'Retain':
        return;
      case 'Recycle': {
        if (!this.isVolumeReleased(volume)) return;
        const used = podsUsingClaim(ctx.store('pods'), claimRefKey(volume)).filter((p) => !isPodTerminated(p));
        if (used.length > 0 && !this.claims.has(claimRefKey(volume))) {
          this.event(ctx, ref('PersistentVolume', volume), 'Normal', VolumeEvents.VolumeFailedRecycle, `Volume is used by pods: ${used.map((p) => `${p.metadata.namespace}/${p.metadata.name}`).join(',')}`);
          return;
        }
        // No recycler plugin runs here (Recycle is deprecated upstream too).
        this.updateVolumePhaseWithEvent(volume, 'Failed', 'Warning', VolumeEvents.VolumeFailedRecycle, 'No recycler plugin found for the volume!', ctx);
        return;
      }
      case 'Delete': {
        if (!this.isVolumeReleased(volume)) return;
        const r = doDeleteVolume(volume);
        if (r.type === 'external') return; // the external provisioner deletes it
        if (r.type === 'error') return this.updateVolumePhaseWithEvent(volume, 'Failed', 'Warning', VolumeEvents.VolumeFailedDelete, r.message, ctx);
        const name = volume.metadata.name!;
        this.inFlight.add(VOLUME + name);
        pushRecent(this.recent, ctx.now, name, 'volume deleted (reclaim policy Delete)');
        ctx.request({ method: 'DELETE', path: `/api/v1/persistentvolumes/${name}` }, { type: 'delete', key: VOLUME + name } satisfies Tag);
        return;
      }
      default:
        this.updateVolumePhaseWithEvent(volume, 'Failed', 'Warning', 'VolumeUnknownReclaimPolicy', 'Volume has unrecognized PersistentVolumeReclaimPolicy', ctx);
    }
  }

  // ---- API calls --------------------------------------------------------------------------

  private write(ctx: ControllerContext, kind: 'claim' | 'volume', obj: KObject, status: boolean, after: After): void {
    const key = kind === 'claim' ? CLAIM + claimKey(obj as PersistentVolumeClaim) : VOLUME + obj.metadata.name;
    if (this.inFlight.has(key)) {
      // Another write on this object is under way: its answer is the version to work on.
      if (after.requeue) {
        let w = this.waiting.get(key);
        if (!w) this.waiting.set(key, (w = new Set()));
        w.add(after.requeue);
      }
      return;
    }
    const path = kind === 'claim' ? `/api/v1/namespaces/${obj.metadata.namespace}/persistentvolumeclaims/${obj.metadata.name}` : `/api/v1/persistentvolumes/${obj.metadata.name}`;
    this.inFlight.add(key);
    const body = { ...obj, apiVersion: 'v1', kind: kind === 'claim' ? 'PersistentVolumeClaim' : 'PersistentVolume' };
    ctx.request({ method: 'PUT', path: status ? `${path}/status` : path, body }, { type: 'write', key, kind, after } satisfies Tag);
  }

  private event(ctx: ControllerContext, regarding: KObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const e: EventSpec = { regarding, type, reason, message, component: PV_CONTROLLER_COMPONENT };
    ctx.event(e);
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    const key = t.type === 'liveClaim' ? VOLUME + t.volume : t.key;
    this.inFlight.delete(key);
    const waiting = this.waiting.get(key);
    this.waiting.delete(key);
    for (const k of waiting ?? []) this.queue.add(k, ctx.now);
    if (t.type === 'liveClaim') {
      if (status === 200) {
        const claim = JSON.parse(body) as PersistentVolumeClaim;
        this.liveClaims.set(t.volume, this.newest(this.claims, t.claimKey, claim));
      } else if (status === 404) this.liveClaims.set(t.volume, null);
      else return; // try again at the next sync
      this.queue.add(VOLUME + t.volume, ctx.now);
      return;
    }
    if (t.type === 'delete') return;
    if (status !== 200) return; // the informer's next event or the resync brings the key back
    const obj = JSON.parse(body) as KObject;
    if (t.kind === 'claim') this.newest(this.claims as Map<string, KObject>, claimKey(obj as PersistentVolumeClaim), obj);
    else this.newest(this.volumes as Map<string, KObject>, obj.metadata.name!, obj);
    if (t.after.event) this.event(ctx, ref(t.kind === 'claim' ? 'PersistentVolumeClaim' : 'PersistentVolume', obj), t.after.event.type, t.after.event.reason, t.after.event.message);
    if (t.after.requeue) this.queue.add(t.after.requeue, ctx.now);
  }
}

/** checkVolumeSatisfyClaim: why a requested volume does not suit the claim, or null. */
export function checkVolumeSatisfyClaim(volume: PersistentVolume, claim: PersistentVolumeClaim): string | null {
  if (volume.metadata.deletionTimestamp) return `the volume is marked for deletion ${JSON.stringify(volume.metadata.name)}`;
  if (cmpQuantity(volumeCapacity(volume), claimStorageRequest(claim)) < 0) return 'requested PV is too small';
  if (getPersistentVolumeClass(volume) !== getPersistentVolumeClaimClass(claim)) return 'storageClassName does not match';
  if ((claim.spec?.volumeMode || 'Filesystem') !== (volume.spec?.volumeMode || 'Filesystem')) return 'incompatible volumeMode';
  const modes = volume.spec?.accessModes ?? [];
  if (!(claim.spec?.accessModes ?? []).every((m) => modes.includes(m))) return 'incompatible accessMode';
  return null;
}

registerClass('PersistentVolumeController', PersistentVolumeController);
