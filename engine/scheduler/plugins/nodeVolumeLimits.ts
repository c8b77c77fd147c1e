// NodeVolumeLimits, the CSI volume limits (pkg/scheduler/framework/plugins/nodevolumelimits/csi.go, v1.32):
// count the unique CSI volumes per driver that the node's pods already use plus
// the new pod's, and reject the node when a driver's count would exceed its
// limit (CSINode spec.drivers[].allocatable.count, or a legacy
// `attachable-volumes-*` node allocatable). A claim resolves to its PV's CSI
// driver and handle; an unbound claim to its StorageClass provisioner and a
// per-claim placeholder handle; in-tree PVs and inline volumes count under
// their CSI driver when migration is on for the node.
import type { KObject } from '../../apimachinery/types';
import { registerClass } from '../../sim/serial';
import type { Pod, Volume } from '../framework/api';
import type { CycleState } from '../framework/cycleState';
import type { ClusterEvent, EnqueueExtensions, FilterPlugin, Handle, PluginDefinition, PreFilterPlugin, PreFilterResult, QueueingHint } from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import { errorStatus, SKIP, unresolvable, type MaybeStatus, type Status } from '../framework/status';
import {
  csiAttachLimitKey,
  csiNameFromInTreeName,
  inTreePluginName,
  isAttachableVolumeResourceName,
  isCSIMigrationOn,
  isInlineMigratable,
  isMigratableInTreePluginByName,
  isPVMigratable,
  translateInTreeInline,
  translateInTreePV,
} from './volumeBinding/csi';
import { getCSINode, getPersistentVolumeClaimClass, getPV, getPVC, getStorageClass, volumeClaim, volumeIsForPod } from './volumeBinding/helpers';
import type { CSINode, PersistentVolumeClaim } from './volumeBinding/types';

export const NODE_VOLUME_LIMITS = 'NodeVolumeLimits';

/** ErrReasonMaxVolumeCountExceeded */
export const ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED = 'node(s) exceed max volume count';
const EXCEEDED: Status = Object.freeze({ code: 'Unschedulable', reasons: Object.freeze([ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED]) }) as Status;

/** An error while collecting volumes; notFound errors make the pod unresolvable. */
interface CollectError {
  message: string;
  notFound: boolean;
}

/** A volume the pod needs CSI attach capacity for. */
function countsTowardsLimits(vol: Volume): boolean {
  return !!(vol.persistentVolumeClaim || vol.ephemeral || isInlineMigratable(vol));
}

export class CSILimits implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = NODE_VOLUME_LIMITS;

  constructor(
    private readonly handle: Handle,
    /** Upstream's random 32-character prefix for placeholder handles of unbound claims. */
    readonly randomVolumeIDPrefix: string,
  ) {}

  /** Skip Filter for pods with no claim, ephemeral or migratable inline volume. */
  preFilter(_state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    for (const v of pod.spec.volumes ?? []) if (countsTowardsLimits(v)) return { status: null };
    return { status: SKIP };
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    if (!pod.spec.volumes || pod.spec.volumes.length === 0) return null;
    const node = nodeInfo.node;
    if (!node) return errorStatus('node not found');
    // A node without a CSINode may still have legacy limits on the Node object.
    const csiNode = getCSINode(this.handle, node.metadata.name ?? '');

    const newVolumes = new Map<string, string>();
    const err = this.filterAttachableVolumes(pod, csiNode, true, newVolumes);
    if (err) return err.notFound ? unresolvable(err.message) : errorStatus(err.message);
    if (newVolumes.size === 0) return null;

    const limits = getVolumeLimits(nodeInfo, csiNode);
    if (limits.size === 0) return null;

    const attached = new Map<string, string>();
    for (const existing of nodeInfo.pods) {
      const e = this.filterAttachableVolumes(existing.pod, csiNode, false, attached);
      if (e) return errorStatus(e.message);
    }
    const attachedCount = new Map<string, number>();
    for (const [unique, key] of attached) {
      // A volume already attached for another pod doesn't count again.
      newVolumes.delete(unique);
      attachedCount.set(key, (attachedCount.get(key) ?? 0) + 1);
    }
    const newCount = new Map<string, number>();
    for (const key of newVolumes.values()) newCount.set(key, (newCount.get(key) ?? 0) + 1);
    for (const [key, count] of newCount) {
      const max = limits.get(key);
      if (max !== undefined && (attachedCount.get(key) ?? 0) + count > max) return EXCEEDED;
    }
    return null;
  }

  /** filterAttachableVolumes: adds "driver/handle" → limit key for each of the pod's countable volumes. */
  filterAttachableVolumes(pod: Pod, csiNode: CSINode | undefined, newPod: boolean, result: Map<string, string>): CollectError | null {
    const ns = pod.metadata.namespace ?? '';
    for (const vol of pod.spec.volumes ?? []) {
      const claim = volumeClaim(pod, vol);
      if (!claim) {
        // An inline volume counts only when it migrates to CSI on this node.
        const e = this.checkAttachableInlineVolume(vol, csiNode, result);
        if (e) return e;
        continue;
      }
      if (claim.name === '') return { message: 'PersistentVolumeClaim had no name', notFound: false };
      const pvc = getPVC(this.handle, ns, claim.name);
      if (!pvc.ok) {
        // A new pod can't run without its claim; an existing pod's missing claim is not counted.
        if (newPod) return { message: `looking up PVC ${ns}/${claim.name}: ${pvc.error}`, notFound: true };
        continue;
      }
      if (claim.ephemeral) {
        const owned = volumeIsForPod(pod, pvc.obj);
        if (owned) return { message: owned, notFound: false };
      }
      const [driverName, volumeHandle] = this.getCSIDriverInfo(csiNode, pvc.obj);
      if (driverName === '' || volumeHandle === '') continue;
      result.set(`${driverName}/${volumeHandle}`, csiAttachLimitKey(driverName));
    }
    return null;
  }

  /** checkAttachableInlineVolume: a migratable in-tree inline volume, when migration is on for the node. */
  private checkAttachableInlineVolume(vol: Volume, csiNode: CSINode | undefined, result: Map<string, string>): CollectError | null {
    if (!isInlineMigratable(vol)) return null;
    const inTree = inTreePluginName(null, vol);
    if (inTree === undefined) return { message: `looking up provisioner name for volume ${vol.name}: no in-tree plugin`, notFound: false };
    if (!isCSIMigrationOn(csiNode, inTree)) return null;
    const translated = translateInTreeInline(vol);
    if (!translated.ok) return { message: `converting volume(${vol.name}) from inline to csi: ${translated.error}`, notFound: false };
    const driverName = csiNameFromInTreeName(inTree);
    if (driverName === undefined) return { message: `looking up CSI driver name for provisioner ${inTree}: no CSI driver`, notFound: false };
    result.set(`${driverName}/${translated.volumeHandle}`, csiAttachLimitKey(driverName));
    return null;
  }

  /** getCSIDriverInfo: the claim's CSI driver and volume handle (["", ""] when it doesn't count). */
  getCSIDriverInfo(csiNode: CSINode | undefined, pvc: PersistentVolumeClaim): [string, string] {
    const pvName = pvc.spec?.volumeName ?? '';
    if (pvName === '') return this.getCSIDriverInfoFromSC(csiNode, pvc);
    const pv = getPV(this.handle, pvName);
    // A deleted PV, or a claim pre-bound to a PV not yet created: count by class.
    if (!pv.ok) return this.getCSIDriverInfoFromSC(csiNode, pvc);
    const csi = pv.obj.spec?.csi;
    if (csi) return [csi.driver ?? '', csi.volumeHandle ?? ''];
    if (!isPVMigratable(pv.obj)) return ['', ''];
    const plugin = inTreePluginName(pv.obj, null);
    if (plugin === undefined || !isCSIMigrationOn(csiNode, plugin)) return ['', ''];
    const translated = translateInTreePV(pv.obj);
    if (!translated.ok) return ['', ''];
    return [translated.driver, translated.volumeHandle];
  }

  /** getCSIDriverInfoFromSC: the class's provisioner and a placeholder handle unique to the claim. */
  getCSIDriverInfoFromSC(csiNode: CSINode | undefined, pvc: PersistentVolumeClaim): [string, string] {
    const scName = getPersistentVolumeClaimClass(pvc);
    // No class: an immediate-binding claim, bound before scheduling; safe not to count.
    if (scName === '') return ['', ''];
    const sc = getStorageClass(this.handle, scName);
    if (!sc.ok) return ['', ''];
    // The random prefix keeps placeholders from colliding with real handles.
    const volumeHandle = `${this.randomVolumeIDPrefix}-${pvc.metadata.namespace ?? ''}/${pvc.metadata.name ?? ''}`;
    const provisioner = sc.obj.provisioner ?? '';
    if (isMigratableInTreePluginByName(provisioner)) {
      if (!isCSIMigrationOn(csiNode, provisioner)) return ['', ''];
      const driverName = csiNameFromInTreeName(provisioner);
      if (driverName === undefined) return ['', ''];
      return [driverName, volumeHandle];
    }
    return [provisioner, volumeHandle];
  }

  eventsToRegister(): ClusterEvent[] {
    return [
      // No hint: any new CSINode may bring limits or drivers.
      { resource: 'CSINode', actions: ['Add'] },
      { resource: 'Pod', actions: ['Delete'] },
      { resource: 'PersistentVolumeClaim', actions: ['Add'] },
    ];
  }

  isSchedulableAfter(event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint {
    switch (event.resource) {
      case 'Pod':
        return this.isSchedulableAfterPodDeleted(oldObj as Pod | undefined);
      case 'PersistentVolumeClaim':
        return this.isSchedulableAfterPVCAdded(pod, newObj);
      default:
        return 'Queue';
    }
  }

  /** isSchedulableAfterPodDeleted: a scheduled pod that used countable volumes went away. */
  isSchedulableAfterPodDeleted(deleted: Pod | undefined): QueueingHint {
    if (!deleted) return 'Queue';
    const volumes = deleted.spec.volumes ?? [];
    if (volumes.length === 0) return 'QueueSkip';
    if (!deleted.spec.nodeName) return 'QueueSkip';
    for (const v of volumes) if (countsTowardsLimits(v)) return 'Queue';
    return 'QueueSkip';
  }

  /** isSchedulableAfterPVCAdded: the new claim is one of the pod's (by name or as its ephemeral claim). */
  isSchedulableAfterPVCAdded(pod: Pod, pvc: KObject | undefined): QueueingHint {
    if (!pvc) return 'Queue';
    if (pvc.metadata.namespace !== pod.metadata.namespace) return 'QueueSkip';
    for (const v of pod.spec.volumes ?? []) {
      const c = volumeClaim(pod, v);
      if (c && c.name === pvc.metadata.name) return 'Queue';
    }
    return 'QueueSkip';
  }
}

/** getVolumeLimits: legacy `attachable-volumes-*` allocatable, overridden by CSINode driver counts. */
export function getVolumeLimits(nodeInfo: NodeInfo, csiNode: CSINode | undefined): Map<string, number> {
  const out = new Map<string, number>();
  const scalar = nodeInfo.allocatable.scalar;
  for (const k in scalar) if (isAttachableVolumeResourceName(k)) out.set(k, scalar[k]!);
  for (const d of csiNode?.spec?.drivers ?? []) {
    const count = d.allocatable?.count;
    if (count !== undefined && count !== null) out.set(csiAttachLimitKey(d.name), count);
  }
  return out;
}

const ALPHANUMERIC = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.String(32) from the scheduler's seeded stream (a fork, so other draws are unaffected). */
function randomPrefix(handle: Handle): string {
  const rng = handle.rng().fork(NODE_VOLUME_LIMITS);
  let s = '';
  for (let i = 0; i < 32; i++) s += ALPHANUMERIC[rng.int(0, ALPHANUMERIC.length)];
  return s;
}

export const nodeVolumeLimitsDefinition: PluginDefinition<undefined> = {
  name: NODE_VOLUME_LIMITS,
  factory: (_args, handle) => new CSILimits(handle, randomPrefix(handle)),
};

registerClass('PluginNodeVolumeLimits', CSILimits);
