// Builders for the volume plugins' tests: pods with volumes, PVs, PVCs,
// StorageClasses and CSINodes as plain JSON, in the shapes of upstream's
// test helpers (volumebinding/test_utils.go, binder_test.go makeTestPV/PVC).
import type { LabelSelector } from '../../../apimachinery/selectors/labels';
import type { Pod, Volume } from '../../framework/api';
import { makePod } from '../../testing/fixtures';
import type { CSINode, PersistentVolume, PersistentVolumeClaim, StorageClass, TopologySelectorTerm, VolumeBindingMode } from './types';

/** A pod with the given volumes (claims by name when given strings). */
export function podWithVolumes(name: string, volumes: (string | Volume)[], o: { namespace?: string; nodeName?: string; uid?: string } = {}): Pod {
  const vols: Volume[] = volumes.map((v, i) => (typeof v === 'string' ? { name: `vol-${i}`, persistentVolumeClaim: { claimName: v } } : v));
  return makePod(name, { namespace: o.namespace ?? 'default', nodeName: o.nodeName, uid: o.uid, spec: { volumes: vols } });
}

export interface PVCOpts {
  namespace?: string;
  storageClassName?: string | null;
  volumeName?: string;
  request?: string;
  accessModes?: string[];
  annotations?: Record<string, string>;
  resourceVersion?: string;
  uid?: string;
  phase?: string;
  /** Sets volumeName and the bind-completed annotation. */
  boundTo?: string;
  ownerPod?: Pod;
  labels?: Record<string, string>;
  selector?: LabelSelector;
  volumeMode?: string;
}

export function makePVC(name: string, o: PVCOpts = {}): PersistentVolumeClaim {
  const annotations: Record<string, string> = { ...o.annotations };
  if (o.boundTo !== undefined) annotations['pv.kubernetes.io/bind-completed'] = 'yes';
  const pvc: PersistentVolumeClaim = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: o.uid ?? 'pvc-uid',
      resourceVersion: o.resourceVersion ?? '1',
      ...(Object.keys(annotations).length ? { annotations } : {}),
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.ownerPod ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: o.ownerPod.metadata.name!, uid: o.ownerPod.metadata.uid!, controller: true }] } : {}),
    },
    spec: {
      ...(o.accessModes ? { accessModes: o.accessModes } : {}),
      ...(o.request ? { resources: { requests: { storage: o.request } } } : {}),
      ...(o.storageClassName !== undefined ? { storageClassName: o.storageClassName } : {}),
      ...(o.volumeName !== undefined || o.boundTo !== undefined ? { volumeName: o.boundTo ?? o.volumeName } : {}),
      ...(o.selector ? { selector: o.selector } : {}),
      ...(o.volumeMode ? { volumeMode: o.volumeMode } : {}),
    },
    status: { phase: o.phase ?? (o.boundTo !== undefined ? 'Bound' : 'Pending') },
  };
  return pvc;
}

export interface PVOpts {
  storageClassName?: string;
  capacity?: string;
  phase?: string;
  /** Node affinity: label key → allowed values (one term, ANDed requirements). */
  nodeAffinity?: Record<string, string[]>;
  claim?: PersistentVolumeClaim;
  labels?: Record<string, string>;
  accessModes?: string[];
  resourceVersion?: string;
  csi?: { driver: string; volumeHandle: string };
  source?: Record<string, unknown>;
  annotations?: Record<string, string>;
  volumeMode?: string;
}

export function makePV(name: string, o: PVOpts = {}): PersistentVolume {
  const annotations: Record<string, string> = { ...o.annotations };
  if (o.claim) annotations['pv.kubernetes.io/bound-by-controller'] = 'yes';
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name,
      resourceVersion: o.resourceVersion ?? '1',
      ...(o.labels ? { labels: o.labels } : {}),
      ...(Object.keys(annotations).length ? { annotations } : {}),
    },
    spec: {
      ...(o.capacity ? { capacity: { storage: o.capacity } } : {}),
      ...(o.accessModes ? { accessModes: o.accessModes } : {}),
      ...(o.storageClassName !== undefined ? { storageClassName: o.storageClassName } : {}),
      ...(o.volumeMode ? { volumeMode: o.volumeMode } : {}),
      ...(o.nodeAffinity
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  { matchExpressions: Object.entries(o.nodeAffinity).map(([key, values]) => ({ key, operator: 'In' as const, values })) },
                ],
              },
            },
          }
        : {}),
      ...(o.claim
        ? {
            claimRef: {
              kind: 'PersistentVolumeClaim',
              apiVersion: 'v1',
              resourceVersion: o.claim.metadata.resourceVersion,
              name: o.claim.metadata.name,
              namespace: o.claim.metadata.namespace,
              uid: o.claim.metadata.uid,
            },
          }
        : {}),
      ...(o.csi ? { csi: o.csi } : {}),
      ...o.source,
    },
    status: { phase: o.phase ?? 'Available' },
  };
}

export function makeStorageClass(name: string, o: { mode?: VolumeBindingMode | null; provisioner?: string; allowedTopologies?: TopologySelectorTerm[] } = {}): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    ...(o.provisioner !== undefined ? { provisioner: o.provisioner } : {}),
    ...(o.mode !== null ? { volumeBindingMode: o.mode ?? 'Immediate' } : {}),
    ...(o.allowedTopologies ? { allowedTopologies: o.allowedTopologies } : {}),
  };
}

export function makeCSINode(name: string, drivers: { name: string; count?: number }[], migratedPlugins?: string): CSINode {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: { name, ...(migratedPlugins !== undefined ? { annotations: { 'storage.alpha.kubernetes.io/migrated-plugins': migratedPlugins } } : {}) },
    spec: { drivers: drivers.map((d) => ({ name: d.name, nodeID: name, ...(d.count !== undefined ? { allocatable: { count: d.count } } : {}) })) },
  };
}
