// StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection):
// every new PersistentVolume gets the kubernetes.io/pv-protection finalizer and
// every new PersistentVolumeClaim kubernetes.io/pvc-protection, so neither is
// removed while in use; the pv- and pvc-protection controllers take them off.
import type { AdmissionPlugin } from '../types';
import { allow, isResource } from './errors';

export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';

export const storageObjectInUseProtection: AdmissionPlugin = {
  name: 'StorageObjectInUseProtection',
  handles: (a) => a.operation === 'CREATE',
  // Only new PersistentVolumes and PersistentVolumeClaims get a finalizer.
  mayMutate: (a) => a.subresource === '' && (isResource(a, '', 'persistentvolumes') || isResource(a, '', 'persistentvolumeclaims')),
  admit(a) {
    if (a.subresource !== '' || !a.object) return allow();
    const finalizer = isResource(a, '', 'persistentvolumes') ? PV_PROTECTION_FINALIZER : isResource(a, '', 'persistentvolumeclaims') ? PVC_PROTECTION_FINALIZER : null;
    if (!finalizer) return allow();
    const finalizers = a.object.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) a.object.metadata.finalizers = [...finalizers, finalizer];
    return allow();
  },
};
