// DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault/admission.go
// and pkg/volume/util GetDefaultClass): a new PersistentVolumeClaim that names
// no class gets the class annotated storageclass.kubernetes.io/is-default-class:
// "true" (or the beta annotation); with several, the newest, then the first by name.
import type { KObject } from '../../apimachinery/types';
import type { AdmissionPlugin, ClusterReader } from '../types';
import { allow, isResource } from './errors';
import { ensureRec, stringMap } from './json';

export const IS_DEFAULT_STORAGE_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
export const BETA_IS_DEFAULT_STORAGE_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

export function isDefaultClass(sc: KObject): boolean {
  const ann = stringMap(sc.metadata.annotations);
  return ann[IS_DEFAULT_STORAGE_CLASS_ANNOTATION] === 'true' || ann[BETA_IS_DEFAULT_STORAGE_CLASS_ANNOTATION] === 'true';
}

export function getDefaultClass(cluster: ClusterReader): KObject | undefined {
  const defaults = cluster.list('storage.k8s.io', 'storageclasses').filter(isDefaultClass);
  // RFC 3339 timestamps in one format order as text; newest first, then name.
  defaults.sort((x, y) => {
    const tx = x.metadata.creationTimestamp ?? '';
    const ty = y.metadata.creationTimestamp ?? '';
    if (tx !== ty) return tx > ty ? -1 : 1;
    const nx = x.metadata.name ?? '';
    const ny = y.metadata.name ?? '';
    return nx < ny ? -1 : nx > ny ? 1 : 0;
  });
  return defaults[0];
}

export const defaultStorageClass: AdmissionPlugin = {
  name: 'DefaultStorageClass',
  handles: (a) => a.operation === 'CREATE',
  mayMutate: (a) => isResource(a, '', 'persistentvolumeclaims') && a.subresource === '',
  admit(a, cluster) {
    if (!isResource(a, '', 'persistentvolumeclaims') || a.subresource !== '' || !a.object) return allow();
    const pvc = a.object;
    const spec = ensureRec(pvc, 'spec');
    // PersistentVolumeClaimHasClass: any storageClassName (even "") or the beta annotation.
    if (spec['storageClassName'] !== undefined && spec['storageClassName'] !== null) return allow();
    if (BETA_STORAGE_CLASS_ANNOTATION in stringMap(pvc.metadata.annotations)) return allow();
    const def = getDefaultClass(cluster);
    if (!def) return allow();
    spec['storageClassName'] = def.metadata.name ?? '';
    return allow();
  },
};
