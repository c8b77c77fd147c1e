// VolumeZone (pkg/scheduler/framework/plugins/volumezone/volume_zone.go, v1.32):
// the zone/region labels of the PVs bound to the pod's claims must match the
// node's. PreFilter collects, per bound PV, each topology label (GA and the
// deprecated failure-domain.beta ones) with its value set ("a__b" lists zones);
// Filter passes nodes with no topology label at all (single-zone clusters) and
// otherwise needs each PV label's value on the node (a beta PV label may match
// the node's GA label). Unbound WaitForFirstConsumer claims are skipped.
import { registerClass } from '../../sim/serial';
import type { KObject } from '../../apimachinery/types';
import type { Pod } from '../framework/api';
import { stateKey, type CycleState } from '../framework/cycleState';
import type { ClusterEvent, EnqueueExtensions, FilterPlugin, Handle, PluginDefinition, PreFilterPlugin, PreFilterResult, QueueingHint } from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import { errorStatus, SKIP, unresolvable, type MaybeStatus, type Status } from '../framework/status';
import { getPersistentVolumeClaimClass, getPV, getPVC, getStorageClass } from './volumeBinding/helpers';
import {
  LABEL_FAILURE_DOMAIN_BETA_REGION,
  LABEL_FAILURE_DOMAIN_BETA_ZONE,
  LABEL_TOPOLOGY_REGION,
  LABEL_TOPOLOGY_ZONE,
  type PersistentVolume,
  type StorageClass,
} from './volumeBinding/types';

export const VOLUME_ZONE = 'VolumeZone';

/** ErrReasonConflict */
export const ERR_REASON_CONFLICT = 'node(s) had no available volume zone';
const CONFLICT: Status = Object.freeze({ code: 'UnschedulableAndUnresolvable', reasons: Object.freeze([ERR_REASON_CONFLICT]) }) as Status;

/** Upstream's order: beta zone, beta region, GA zone, GA region. */
const TOPOLOGY_LABELS: readonly string[] = [LABEL_FAILURE_DOMAIN_BETA_ZONE, LABEL_FAILURE_DOMAIN_BETA_REGION, LABEL_TOPOLOGY_ZONE, LABEL_TOPOLOGY_REGION];

/** pvTopology: one topology label of one PV. */
export interface PVTopology {
  pvName: string;
  key: string;
  values: Set<string>;
}

interface VolumeZoneState {
  podPVTopologies: PVTopology[];
}

const stateKeyZone = stateKey<VolumeZoneState>(`PreFilter${VOLUME_ZONE}`);

function translateToGALabel(label: string): string {
  if (label === LABEL_FAILURE_DOMAIN_BETA_REGION) return LABEL_TOPOLOGY_REGION;
  if (label === LABEL_FAILURE_DOMAIN_BETA_ZONE) return LABEL_TOPOLOGY_ZONE;
  return label;
}

/** volumehelpers.LabelZonesToSet: "a__b" → {a, b}; an empty element makes the label unparsable. */
export function labelZonesToSet(value: string): Set<string> | null {
  const out = new Set<string>();
  for (const z of value.split('__')) {
    const t = z.trim();
    if (t === '') return null;
    out.add(t);
  }
  return out;
}

/** getPVTopologies: the PV's parsable topology labels (unparsable ones are ignored). */
export function getPVTopologies(pv: PersistentVolume): PVTopology[] {
  const out: PVTopology[] = [];
  const labels = pv.metadata.labels;
  if (!labels) return out;
  for (const key of TOPOLOGY_LABELS) {
    if (!Object.prototype.hasOwnProperty.call(labels, key)) continue;
    const values = labelZonesToSet(labels[key]!);
    if (values) out.push({ pvName: pv.metadata.name ?? '', key, values });
  }
  return out;
}

function sameTopologies(a: PVTopology[], b: PVTopology[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.pvName !== y.pvName || x.key !== y.key || x.values.size !== y.values.size) return false;
    for (const v of x.values) if (!y.values.has(v)) return false;
  }
  return true;
}

function claimNames(pod: Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec.volumes ?? []) if (v.persistentVolumeClaim) out.push(v.persistentVolumeClaim.claimName ?? '');
  return out;
}

export class VolumeZone implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = VOLUME_ZONE;

  constructor(private readonly handle: Handle) {}

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    const r = this.getPVbyPod(pod);
    if (!Array.isArray(r)) return { status: r };
    if (r.length === 0) return { status: SKIP };
    state.write(stateKeyZone, { podPVTopologies: r });
    return { status: null };
  }

  preFilterExtensions(): null {
    return null;
  }

  /** getPVbyPod: the topologies of the PVs bound to the pod's claims, or why they can't be known. */
  getPVbyPod(pod: Pod): PVTopology[] | Status {
    const out: PVTopology[] = [];
    const ns = pod.metadata.namespace ?? '';
    for (const pvcName of claimNames(pod)) {
      if (pvcName === '') return unresolvable('PersistentVolumeClaim had no name');
      const pvc = getPVC(this.handle, ns, pvcName);
      if (!pvc.ok) return unresolvable(pvc.error);
      const pvName = pvc.obj.spec?.volumeName ?? '';
      if (pvName === '') {
        const scName = getPersistentVolumeClaimClass(pvc.obj);
        if (scName.length === 0) return unresolvable('PersistentVolumeClaim had no pv name and storageClass name');
        const sc = getStorageClass(this.handle, scName);
        if (!sc.ok) return unresolvable(sc.error);
        const mode = sc.obj.volumeBindingMode;
        if (mode === undefined || mode === null) return unresolvable(`VolumeBindingMode not set for StorageClass ${JSON.stringify(scName)}`);
        // Unbound WaitForFirstConsumer claims are VolumeBinding's business.
        if (mode === 'WaitForFirstConsumer') continue;
        return unresolvable('PersistentVolume had no name');
      }
      const pv = getPV(this.handle, pvName);
      if (!pv.ok) return unresolvable(pv.error);
      out.push(...getPVTopologies(pv.obj));
    }
    return out;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    // No volumes: always fits (the fast path).
    if (!pod.spec.volumes || pod.spec.volumes.length === 0) return null;
    let topologies: PVTopology[];
    const s = state.read(stateKeyZone);
    if (s) topologies = s.podPVTopologies;
    else {
      // PreFilter didn't run (or skipped): compute here, as upstream falls back to.
      const r = this.getPVbyPod(pod);
      if (!Array.isArray(r)) return r;
      topologies = r;
    }
    const node = nodeInfo.node;
    if (!node) return errorStatus('node not found');
    const labels = node.metadata.labels;
    let hasAnyNodeConstraint = false;
    if (labels) {
      for (let i = 0; i < TOPOLOGY_LABELS.length; i++) {
        if (Object.prototype.hasOwnProperty.call(labels, TOPOLOGY_LABELS[i]!)) {
          hasAnyNodeConstraint = true;
          break;
        }
      }
    }
    // A node without zone labels (single-zone clusters) takes any volume.
    if (!hasAnyNodeConstraint) return null;
    for (let i = 0; i < topologies.length; i++) {
      const t = topologies[i]!;
      let v = labels![t.key];
      // A PV's beta label may match the node's GA label.
      if (v === undefined) v = labels![translateToGALabel(t.key)];
      if (v === undefined || !t.values.has(v)) return CONFLICT;
    }
    return null;
  }

  eventsToRegister(): ClusterEvent[] {
    return [
      // A new WaitForFirstConsumer class; volumeBindingMode is immutable, so updates don't matter.
      { resource: 'StorageClass', actions: ['Add'] },
      // A new node or new zone labels (no preCheck with queueing hints, so no UpdateNodeTaint).
      { resource: 'Node', actions: ['Add', 'UpdateNodeLabel'] },
      // A new claim, or one that got its volumeName.
      { resource: 'PersistentVolumeClaim', actions: ['Add', 'Update'] },
      // A new PV or changed zone labels.
      { resource: 'PersistentVolume', actions: ['Add', 'Update'] },
    ];
  }

  isSchedulableAfter(event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint {
    switch (event.resource) {
      case 'StorageClass':
        return this.isSchedulableAfterStorageClassAdded(newObj as StorageClass | undefined);
      case 'PersistentVolumeClaim':
        return this.isSchedulableAfterPersistentVolumeClaimChange(pod, newObj);
      case 'PersistentVolume':
        return this.isSchedulableAfterPersistentVolumeChange(oldObj as PersistentVolume | undefined, newObj as PersistentVolume | undefined);
      default:
        return 'Queue';
    }
  }

  /** isSchedulableAfterPersistentVolumeClaimChange: the claim is one of the pod's. */
  isSchedulableAfterPersistentVolumeClaimChange(pod: Pod, pvc: KObject | undefined): QueueingHint {
    if (!pvc) return 'Queue';
    if (pod.metadata.namespace !== pvc.metadata.namespace) return 'QueueSkip';
    return claimNames(pod).includes(pvc.metadata.name ?? '') ? 'Queue' : 'QueueSkip';
  }

  /** isSchedulableAfterStorageClassAdded: only a WaitForFirstConsumer class helps. */
  isSchedulableAfterStorageClassAdded(sc: StorageClass | undefined): QueueingHint {
    if (!sc) return 'Queue';
    return sc.volumeBindingMode === 'WaitForFirstConsumer' ? 'Queue' : 'QueueSkip';
  }

  /** isSchedulableAfterPersistentVolumeChange: a new PV, or changed topology labels. */
  isSchedulableAfterPersistentVolumeChange(oldPV: PersistentVolume | undefined, newPV: PersistentVolume | undefined): QueueingHint {
    if (!newPV) return 'Queue';
    if (!oldPV) return 'Queue';
    return sameTopologies(getPVTopologies(oldPV), getPVTopologies(newPV)) ? 'QueueSkip' : 'Queue';
  }
}

export const volumeZoneDefinition: PluginDefinition<undefined> = {
  name: VOLUME_ZONE,
  factory: (_args, handle) => new VolumeZone(handle),
};

registerClass('PluginVolumeZone', VolumeZone);
