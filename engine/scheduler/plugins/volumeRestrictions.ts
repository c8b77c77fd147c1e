// VolumeRestrictions (pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go, v1.32):
// - disk conflicts with pods already on the node: the same GCE PD unless every
//   mount is read-only, the same AWS EBS volume ID at all, the same RBD image
//   (a shared monitor, same pool and image) unless all read-only, the same
//   ISCSI IQN unless all read-only;
// - ReadWriteOncePod claims: PreFilter finds the pod's RWOP claims and counts
//   the scheduled pods already using them; any use rejects every node (the
//   count follows preemption's what-ifs through AddPod/RemovePod).
import type { KObject } from '../../apimachinery/types';
import { registerClass } from '../../sim/serial';
import type { Pod, Volume } from '../framework/api';
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
  QueueingHint,
} from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import type { PodInfo } from '../framework/podInfo';
import { errorStatus, SKIP, unresolvable, type MaybeStatus, type Status } from '../framework/status';
import { getPVC } from './volumeBinding/helpers';

export const VOLUME_RESTRICTIONS = 'VolumeRestrictions';
const PRE_FILTER_STATE_KEY = `PreFilter${VOLUME_RESTRICTIONS}`;

/** ErrReasonDiskConflict */
export const ERR_REASON_DISK_CONFLICT = 'node(s) had no available disk';
/** ErrReasonReadWriteOncePodConflict */
export const ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT = 'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';

const DISK_CONFLICT: Status = Object.freeze({ code: 'Unschedulable', reasons: Object.freeze([ERR_REASON_DISK_CONFLICT]) }) as Status;
const RWOP_CONFLICT: Status = Object.freeze({ code: 'Unschedulable', reasons: Object.freeze([ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT]) }) as Status;

/** preFilterState: the pod's ReadWriteOncePod claim names and how many scheduled pods use them. */
export class VolumeRestrictionsState {
  constructor(
    readonly readWriteOncePodPVCs: Set<string>,
    public conflictingPVCRefCount: number,
  ) {}

  updateWithPod(podInfo: PodInfo, multiplier: 1 | -1): void {
    this.conflictingPVCRefCount += multiplier * this.conflictingPVCRefCountForPod(podInfo.pod);
  }

  conflictingPVCRefCountForPod(pod: Pod): number {
    let conflicts = 0;
    for (const v of pod.spec.volumes ?? []) {
      if (v.persistentVolumeClaim && this.readWriteOncePodPVCs.has(v.persistentVolumeClaim.claimName)) conflicts++;
    }
    return conflicts;
  }

  /** Clone shares the (read-only) claim set, as upstream does. */
  clone(): VolumeRestrictionsState {
    return new VolumeRestrictionsState(this.readWriteOncePodPVCs, this.conflictingPVCRefCount);
  }
}

const stateKeyRestrictions = stateKey<VolumeRestrictionsState>(PRE_FILTER_STATE_KEY);

/** haveOverlap: the two monitor lists share an element. */
function haveOverlap(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) if (b.includes(a[i]!)) return true;
  return false;
}

/** isVolumeConflict: `volume` clashes with one of `pod`'s volumes. */
export function isVolumeConflict(volume: Volume, pod: Pod): boolean {
  const existing = pod.spec.volumes;
  if (!existing) return false;
  for (let i = 0; i < existing.length; i++) {
    const ev = existing[i]!;
    if (volume.gcePersistentDisk && ev.gcePersistentDisk) {
      const d = volume.gcePersistentDisk;
      const e = ev.gcePersistentDisk;
      if (d.pdName === e.pdName && !(d.readOnly && e.readOnly)) return true;
    }
    if (volume.awsElasticBlockStore && ev.awsElasticBlockStore) {
      if (volume.awsElasticBlockStore.volumeID === ev.awsElasticBlockStore.volumeID) return true;
    }
    if (volume.iscsi && ev.iscsi) {
      // Same IQN is the same volume; RWO/ROX lets only read-only mounts share it.
      if (volume.iscsi.iqn === ev.iscsi.iqn && !(volume.iscsi.readOnly && ev.iscsi.readOnly)) return true;
    }
    if (volume.rbd && ev.rbd) {
      const r = volume.rbd;
      const e = ev.rbd;
      if (haveOverlap(r.monitors ?? [], e.monitors ?? []) && (r.pool ?? '') === (e.pool ?? '') && r.image === e.image && !(r.readOnly && e.readOnly)) return true;
    }
  }
  return false;
}

/** needsRestrictionsCheck: a volume type with conflict rules. */
export function needsRestrictionsCheck(v: Volume): boolean {
  return !!(v.gcePersistentDisk || v.awsElasticBlockStore || v.rbd || v.iscsi);
}

/** satisfyVolumeConflicts: no volume of `pod` clashes with any of `pods`. */
function satisfyVolumeConflicts(pod: Pod, pods: readonly Pod[] | readonly PodInfo[], infos: boolean): boolean {
  const volumes = pod.spec.volumes;
  if (!volumes) return true;
  for (let i = 0; i < volumes.length; i++) {
    const v = volumes[i]!;
    if (!needsRestrictionsCheck(v)) continue;
    for (let j = 0; j < pods.length; j++) {
      const other = infos ? (pods[j] as PodInfo).pod : (pods[j] as Pod);
      if (isVolumeConflict(v, other)) return false;
    }
  }
  return true;
}

export class VolumeRestrictions implements PreFilterPlugin, FilterPlugin, PreFilterExtensions, EnqueueExtensions {
  readonly name = VOLUME_RESTRICTIONS;

  constructor(private readonly handle: Handle) {}

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    let needsCheck = false;
    for (const v of pod.spec.volumes ?? []) {
      if (needsRestrictionsCheck(v)) {
        needsCheck = true;
        break;
      }
    }
    const pvcs = this.readWriteOncePodPVCsForPod(pod);
    if (typeof pvcs === 'string') return { status: unresolvable(pvcs) };
    const s = this.calPreFilterState(pod, pvcs);
    if (!needsCheck && s.conflictingPVCRefCount === 0) return { status: SKIP };
    state.write(stateKeyRestrictions, s);
    return { status: null };
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(state: CycleState, _podToSchedule: Pod, toAdd: PodInfo): MaybeStatus {
    const s = state.read(stateKeyRestrictions);
    if (!s) return errorStatus(`cannot read ${JSON.stringify(PRE_FILTER_STATE_KEY)} from cycleState`);
    s.updateWithPod(toAdd, 1);
    return null;
  }

  removePod(state: CycleState, _podToSchedule: Pod, toRemove: PodInfo): MaybeStatus {
    const s = state.read(stateKeyRestrictions);
    if (!s) return errorStatus(`cannot read ${JSON.stringify(PRE_FILTER_STATE_KEY)} from cycleState`);
    s.updateWithPod(toRemove, -1);
    return null;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    if (!satisfyVolumeConflicts(pod, nodeInfo.pods, true)) return DISK_CONFLICT;
    const s = state.read(stateKeyRestrictions);
    if (!s) return errorStatus(`cannot read ${JSON.stringify(PRE_FILTER_STATE_KEY)} from cycleState`);
    return s.conflictingPVCRefCount > 0 ? RWOP_CONFLICT : null;
  }

  /** The pod's claims with the ReadWriteOncePod access mode, or a lookup's NotFound text. */
  private readWriteOncePodPVCsForPod(pod: Pod): Set<string> | string {
    const out = new Set<string>();
    const ns = pod.metadata.namespace ?? '';
    for (const v of pod.spec.volumes ?? []) {
      if (!v.persistentVolumeClaim) continue;
      const r = getPVC(this.handle, ns, v.persistentVolumeClaim.claimName);
      if (!r.ok) return r.error;
      if (!(r.obj.spec?.accessModes ?? []).includes('ReadWriteOncePod')) continue;
      out.add(r.obj.metadata.name ?? '');
    }
    return out;
  }

  private calPreFilterState(pod: Pod, pvcs: Set<string>): VolumeRestrictionsState {
    let conflicting = 0;
    const ns = pod.metadata.namespace ?? '';
    // At most one pod may use a ReadWriteOncePod claim, so each used claim counts once.
    for (const pvc of pvcs) if (this.handle.nodes.isPVCUsedByPods(`${ns}/${pvc}`)) conflicting++;
    return new VolumeRestrictionsState(pvcs, conflicting);
  }

  eventsToRegister(): ClusterEvent[] {
    return [
      // Volumes are released when pods using them go; spec.volumes is immutable, so pod updates don't matter.
      { resource: 'Pod', actions: ['Delete'] },
      // With queueing hints on there is no preCheck, so Node/Add is enough.
      { resource: 'Node', actions: ['Add'] },
      // A missing claim may be created.
      { resource: 'PersistentVolumeClaim', actions: ['Add'] },
    ];
  }

  isSchedulableAfter(event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint {
    switch (event.resource) {
      case 'Pod':
        return this.isSchedulableAfterPodDeleted(pod, oldObj as Pod | undefined);
      case 'PersistentVolumeClaim':
        return this.isSchedulableAfterPersistentVolumeClaimAdded(pod, newObj);
      default:
        return 'Queue';
    }
  }

  /** isSchedulableAfterPersistentVolumeClaimAdded */
  isSchedulableAfterPersistentVolumeClaimAdded(pod: Pod, pvc: KObject | undefined): QueueingHint {
    if (!pvc) return 'Queue';
    if (pvc.metadata.namespace !== pod.metadata.namespace) return 'QueueSkip';
    for (const v of pod.spec.volumes ?? []) {
      if (v.persistentVolumeClaim && v.persistentVolumeClaim.claimName === pvc.metadata.name) return 'Queue';
    }
    return 'QueueSkip';
  }

  /** isSchedulableAfterPodDeleted: the deleted pod held a conflicting disk or one of our claims. */
  isSchedulableAfterPodDeleted(pod: Pod, deleted: Pod | undefined): QueueingHint {
    if (!deleted) return 'Queue';
    if (deleted.metadata.namespace !== pod.metadata.namespace) return 'QueueSkip';
    if (!satisfyVolumeConflicts(pod, [deleted], false)) return 'Queue';
    // The claim's access mode is not looked up (kubernetes#124566): any shared claim may be RWOP.
    const claims = new Set<string>();
    for (const v of pod.spec.volumes ?? []) if (v.persistentVolumeClaim) claims.add(v.persistentVolumeClaim.claimName);
    for (const v of deleted.spec.volumes ?? []) if (v.persistentVolumeClaim && claims.has(v.persistentVolumeClaim.claimName)) return 'Queue';
    return 'QueueSkip';
  }
}

export const volumeRestrictionsDefinition: PluginDefinition<undefined> = {
  name: VOLUME_RESTRICTIONS,
  factory: (_args, handle) => new VolumeRestrictions(handle),
};

registerClass('VolumeRestrictionsPreFilterState', VolumeRestrictionsState);
registerClass('PluginVolumeRestrictions', VolumeRestrictions);
