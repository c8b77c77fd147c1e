// The storage objects the volume plugins read (core/v1 PersistentVolume and
// PersistentVolumeClaim, storage/v1 StorageClass, CSINode, CSIDriver,
// CSIStorageCapacity), typed for the fields we use. They arrive from
// handle.lister(...) as plain JSON, so every field is optional here exactly
// where the API lets it be absent (k8s.io/api/core/v1/types.go,
// k8s.io/api/storage/v1/types.go).
import type { LabelSelector } from '../../../apimachinery/selectors/labels';
import type { KObject } from '../../../apimachinery/types';
import type { NodeSelector, ResourceList } from '../../framework/api';

/** v1.ObjectReference (a PV's claimRef). */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/** The in-tree and CSI sources the volume plugins look at (PV spec or pod volume). */
export interface AWSElasticBlockStoreSource {
  volumeID: string;
  readOnly?: boolean;
}
export interface GCEPersistentDiskSource {
  pdName: string;
  readOnly?: boolean;
}
export interface AzureDiskSource {
  diskName: string;
  diskURI: string;
}
export interface CinderSource {
  volumeID: string;
}
export interface PortworxSource {
  volumeID: string;
}
export interface CSIPersistentVolumeSource {
  driver: string;
  volumeHandle: string;
  fsType?: string;
  volumeAttributes?: Record<string, string>;
}

export interface PersistentVolumeSpec {
  capacity?: ResourceList;
  accessModes?: string[];
  claimRef?: ObjectReference | null;
  persistentVolumeReclaimPolicy?: string;
  storageClassName?: string;
  nodeAffinity?: { required?: NodeSelector | null } | null;
  volumeMode?: string;
  volumeAttributesClassName?: string | null;
  csi?: CSIPersistentVolumeSource;
  awsElasticBlockStore?: AWSElasticBlockStoreSource;
  gcePersistentDisk?: GCEPersistentDiskSource;
  azureDisk?: AzureDiskSource;
  azureFile?: unknown;
  cinder?: CinderSource;
  vsphereVolume?: unknown;
  portworxVolume?: PortworxSource;
  rbd?: unknown;
  hostPath?: unknown;
  local?: unknown;
  [other: string]: unknown;
}

export interface PersistentVolume extends KObject {
  spec?: PersistentVolumeSpec;
  status?: { phase?: 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed' | string };
}

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  selector?: LabelSelector | null;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  volumeName?: string;
  storageClassName?: string | null;
  volumeMode?: string;
  volumeAttributesClassName?: string | null;
}

export interface PersistentVolumeClaim extends KObject {
  spec?: PersistentVolumeClaimSpec;
  status?: { phase?: 'Pending' | 'Bound' | 'Lost' | string };
}

/** v1.TopologySelectorTerm */
export interface TopologySelectorTerm {
  matchLabelExpressions?: { key: string; values: string[] }[];
}

export type VolumeBindingMode = 'Immediate' | 'WaitForFirstConsumer';

/** storage/v1 StorageClass: its fields sit at the top level, not under spec. */
export interface StorageClass extends KObject {
  provisioner?: string;
  volumeBindingMode?: VolumeBindingMode | null;
  allowedTopologies?: TopologySelectorTerm[];
  parameters?: Record<string, string>;
}

export interface CSINodeDriver {
  name: string;
  nodeID?: string;
  topologyKeys?: string[];
  allocatable?: { count?: number | null } | null;
}

export interface CSINode extends KObject {
  spec?: { drivers?: CSINodeDriver[] };
}

export interface CSIDriver extends KObject {
  spec?: { storageCapacity?: boolean | null; attachRequired?: boolean };
}

/** storage/v1 CSIStorageCapacity (fields at the top level). */
export interface CSIStorageCapacity extends KObject {
  storageClassName?: string;
  nodeTopology?: LabelSelector | null;
  capacity?: string | number;
  maximumVolumeSize?: string | number;
}

// --- well-known names (k8s.io/api/core/v1/well_known_labels.go, annotation_key_constants.go,
// k8s.io/component-helpers/storage/volume/pv_helpers.go) ---

export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';
export const LABEL_FAILURE_DOMAIN_BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
export const LABEL_FAILURE_DOMAIN_BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';

/** v1.BetaStorageClassAnnotation: wins over spec.storageClassName. */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
/** v1.MigratedPluginsAnnotationKey on CSINode: in-tree plugins migrated to CSI on the node. */
export const MIGRATED_PLUGINS_ANNOTATION = 'storage.alpha.kubernetes.io/migrated-plugins';

export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const NOT_SUPPORTED_PROVISIONER = 'kubernetes.io/no-provisioner';

export const RESOURCE_STORAGE = 'storage';
