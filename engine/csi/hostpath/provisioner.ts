// The external-provisioner's decisions (kubernetes-csi/external-provisioner
// v5 on sig-storage-lib-external-provisioner v10): which claims to provision
// (shouldProvision), the PersistentVolume it creates for one (CreateVolume's
// answer turned into a PV), and which volumes to delete (shouldDelete).
// Pure functions over API objects.
import type { KObject } from '../../apimachinery/types';
import { formatQuantity, quantityOf as quantityOfBytes } from '../../apiserver/validation/quantity';
import { claimStorageRequest, getPersistentVolumeClaimClass } from '../../scheduler/plugins/volumeBinding/helpers';
import { ANN_SELECTED_NODE, LABEL_HOSTNAME, type PersistentVolume, type PersistentVolumeClaim, type StorageClass } from '../../scheduler/plugins/volumeBinding/types';
import { ANN_BETA_STORAGE_PROVISIONER, ANN_DYNAMICALLY_PROVISIONED, ANN_STORAGE_PROVISIONER } from '../../controllers/volume/persistentvolume/controller';

/** The finalizer the external-provisioner puts on the PVs it creates (HonorPVReclaimPolicy). */
export const PV_DELETION_PROTECTION_FINALIZER = 'external-provisioner.volume.kubernetes.io/finalizer';
export const ANN_DELETION_SECRET_NAME = 'volume.kubernetes.io/provisioner-deletion-secret-name';
export const ANN_DELETION_SECRET_NAMESPACE = 'volume.kubernetes.io/provisioner-deletion-secret-namespace';
export const ANN_PROVISIONER_IDENTITY = 'storage.kubernetes.io/csiProvisionerIdentity';
/** The driver's topology: one node per volume, told by the node's hostname label. */
export const TOPOLOGY_KEY = LABEL_HOSTNAME;

/** shouldProvision: unbound, meant for us, and (for WaitForFirstConsumer) with a node chosen. */
export function shouldProvision(claim: PersistentVolumeClaim, classes: ReadonlyMap<string, KObject>, provisionerName: string): boolean {
  if (claim.spec?.volumeName) return false;
  if (claim.metadata.deletionTimestamp) return false;
  const ann = claim.metadata.annotations ?? {};
  const provisioner = ann[ANN_STORAGE_PROVISIONER] ?? ann[ANN_BETA_STORAGE_PROVISIONER];
  if (provisioner !== provisionerName) return false;
  const sc = classes.get(getPersistentVolumeClaimClass(claim)) as StorageClass | undefined;
  if (!sc) return false;
  // The PV controller sets the annotation only once a node is chosen, but a
  // provisioner that failed removes the node to ask the scheduler again.
  if (sc.volumeBindingMode === 'WaitForFirstConsumer') return !!ann[ANN_SELECTED_NODE];
  return true;
}

/** The PV for a created volume, bound to its claim (the library's claimRef, annotations and finalizer). */
export function persistentVolumeFor(claim: PersistentVolumeClaim, sc: StorageClass, o: { driver: string; volumeHandle: string; identity: string; node: string }): PersistentVolume {
  const params = Object.fromEntries(Object.entries(sc.parameters ?? {}).filter(([k]) => !k.startsWith('csi.storage.k8s.io/')));
  // CreateVolume's required_bytes is the request's Value() (rounded up); the driver gives exactly that.
  const bytes = (claimStorageRequest(claim).nanos + 999_999_999n) / 1_000_000_000n;
  const capacity = formatQuantity(quantityOfBytes(bytes, 'BinarySI'));
  const m = claim.metadata;
  const reclaimPolicy = (sc as { reclaimPolicy?: string }).reclaimPolicy ?? 'Delete';
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name: `pvc-${m.uid}`,
      annotations: { [ANN_DYNAMICALLY_PROVISIONED]: o.driver, [ANN_DELETION_SECRET_NAME]: '', [ANN_DELETION_SECRET_NAMESPACE]: '' },
      // Only a volume to be deleted with its PV needs our say before the PV goes.
      ...(reclaimPolicy === 'Delete' ? { finalizers: [PV_DELETION_PROTECTION_FINALIZER] } : {}),
    },
    spec: {
      accessModes: [...(claim.spec?.accessModes ?? [])],
      capacity: { storage: capacity },
      claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: m.name, namespace: m.namespace, resourceVersion: m.resourceVersion, uid: m.uid },
      csi: { driver: o.driver, volumeAttributes: { ...params, [ANN_PROVISIONER_IDENTITY]: o.identity }, volumeHandle: o.volumeHandle },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: TOPOLOGY_KEY, operator: 'In', values: [o.node] }] }] } },
      persistentVolumeReclaimPolicy: reclaimPolicy,
      storageClassName: getPersistentVolumeClaimClass(claim),
      volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
    },
  };
}

/** shouldDelete: a Released volume of ours whose policy is Delete. */
export function shouldDelete(pv: PersistentVolume, provisionerName: string): boolean {
  if (pv.status?.phase !== 'Released') return false;
  if (pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') return false;
  return pv.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED] === provisionerName;
}
