// What installing the driver puts in the cluster: csi-driver-host-path's
// CSIDriver object and the external-provisioner's ServiceAccount and RBAC
// (kubernetes-csi/external-provisioner deploy/kubernetes/rbac.yaml), and the
// default StorageClass a kind cluster ships with — named `standard`, marked
// default, WaitForFirstConsumer, reclaim Delete — provisioned here by this
// CSI driver (kind's is rancher.io/local-path; ours is a real CSI path:
// PV controller → external-provisioner → CreateVolume).
import type { KObject } from '../../apimachinery/types';

export const HOSTPATH_DRIVER = 'hostpath.csi.k8s.io';
export const PROVISIONER_SA = { namespace: 'kube-system', name: 'csi-provisioner' };
export const DEFAULT_STORAGE_CLASS = 'standard';

const rule = (apiGroups: string[], resources: string[], verbs: string[]) => ({ apiGroups, resources, verbs });

export function hostpathManifests(): KObject[] {
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: PROVISIONER_SA.name, namespace: PROVISIONER_SA.namespace } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'external-provisioner-runner' },
      rules: [
        rule([''], ['persistentvolumes'], ['get', 'list', 'watch', 'create', 'patch', 'delete']),
        rule([''], ['persistentvolumeclaims'], ['get', 'list', 'watch', 'update']),
        rule(['storage.k8s.io'], ['storageclasses'], ['get', 'list', 'watch']),
        rule([''], ['events'], ['list', 'watch', 'create', 'update', 'patch']),
        rule(['snapshot.storage.k8s.io'], ['volumesnapshots'], ['get', 'list']),
        rule(['snapshot.storage.k8s.io'], ['volumesnapshotcontents'], ['get', 'list']),
        rule(['storage.k8s.io'], ['csinodes'], ['get', 'list', 'watch']),
        rule([''], ['nodes'], ['get', 'list', 'watch']),
        rule(['storage.k8s.io'], ['volumeattachments'], ['get', 'list', 'watch']),
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'csi-provisioner-role' },
      subjects: [{ kind: 'ServiceAccount', name: PROVISIONER_SA.name, namespace: PROVISIONER_SA.namespace }],
      roleRef: { kind: 'ClusterRole', name: 'external-provisioner-runner', apiGroup: 'rbac.authorization.k8s.io' },
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: {
        name: HOSTPATH_DRIVER,
        labels: { 'app.kubernetes.io/instance': HOSTPATH_DRIVER, 'app.kubernetes.io/part-of': 'csi-driver-host-path', 'app.kubernetes.io/name': HOSTPATH_DRIVER, 'app.kubernetes.io/component': 'csi-driver' },
      },
      spec: { volumeLifecycleModes: ['Persistent', 'Ephemeral'], podInfoOnMount: true, attachRequired: false, storageCapacity: false, fsGroupPolicy: 'File' },
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: DEFAULT_STORAGE_CLASS, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' }, labels: { 'addonmanager.kubernetes.io/mode': 'EnsureExists' } },
      provisioner: HOSTPATH_DRIVER,
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    },
  ];
}
