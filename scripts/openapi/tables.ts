// The few facts about the Kubernetes v1.32 types that openapi-generator erased
// when it turned the spec into @kubernetes/client-node, written down here so
// the generator can put them back. Each table names its upstream source; keep
// them small. Everything else in the generated definitions comes from the
// package itself.

/**
 * Kinds defined in k8s.io/apimachinery/pkg/apis/meta/v1 (types.go), named
 * `io.k8s.apimachinery.pkg.apis.meta.v1.<Name>` upstream. client-node names
 * them like any other v1 model (V1ObjectMeta), so their package is not
 * recoverable from the package alone.
 */
export const META_V1_TYPES: ReadonlySet<string> = new Set([
  'APIGroup',
  'APIGroupList',
  'APIResource',
  'APIResourceList',
  'APIVersions',
  'Condition',
  'DeleteOptions',
  'FieldSelectorRequirement',
  'GroupVersionForDiscovery',
  'LabelSelector',
  'LabelSelectorRequirement',
  'ListMeta',
  'ManagedFieldsEntry',
  'ObjectMeta',
  'OwnerReference',
  'Preconditions',
  'ServerAddressByClientCIDR',
  'Status',
  'StatusCause',
  'StatusDetails',
  'WatchEvent',
]);

/**
 * core/v1 types (k8s.io/api/core/v1/types.go) that no core/v1 endpoint reaches:
 * only storage/v1 StorageClass.allowedTopologies uses them, so reachability
 * alone would file them under storage.
 */
export const CORE_V1_TYPES_USED_ELSEWHERE: ReadonlySet<string> = new Set(['TopologySelectorTerm', 'TopologySelectorLabelRequirement']);

/**
 * Fields whose Go type is resource.Quantity (or a map of it, e.g. v1.ResourceList):
 * client-node flattens Quantity to `string`. Sources: k8s.io/api core/v1,
 * autoscaling/v2, node/v1, storage/v1(beta1), resource/v1alpha3+v1beta1 types.go.
 * Keyed by client-node class; the generator fails if an entry stops matching.
 */
export const QUANTITY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  V1ResourceRequirements: ['limits', 'requests'],
  V1VolumeResourceRequirements: ['limits', 'requests'],
  V1ContainerStatus: ['allocatedResources'],
  V1EmptyDirVolumeSource: ['sizeLimit'],
  V1ResourceFieldSelector: ['divisor'],
  V1LimitRangeItem: ['default', 'defaultRequest', 'max', 'maxLimitRequestRatio', 'min'],
  V1ResourceQuotaSpec: ['hard'],
  V1ResourceQuotaStatus: ['hard', 'used'],
  V1NodeStatus: ['allocatable', 'capacity'],
  V1PersistentVolumeSpec: ['capacity'],
  V1PersistentVolumeClaimStatus: ['allocatedResources', 'capacity'],
  V1PodSpec: ['overhead'],
  V1Overhead: ['podFixed'],
  V2MetricTarget: ['averageValue', 'value'],
  V2MetricValueStatus: ['averageValue', 'value'],
  V1CSIStorageCapacity: ['capacity', 'maximumVolumeSize'],
  V1beta1CSIStorageCapacity: ['capacity', 'maximumVolumeSize'],
  V1beta1DeviceCapacity: ['value'],
  V1alpha3BasicDevice: ['capacity'],
};

/**
 * `any`-typed fields: which upstream definition they referenced. Unlisted `any`
 * fields are runtime.RawExtension (the common case: opaque parameters).
 * Sources: meta/v1 types.go (FieldsV1), apiextensions/v1 types_jsonschema.go.
 */
export const ANY_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  V1ManagedFieldsEntry: { fieldsV1: 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1' },
  V1CustomResourceSubresources: { status: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus' },
  V1JSONSchemaProps: {
    additionalItems: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
    additionalProperties: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
    default: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
    dependencies: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
    enum: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
    example: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
    items: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  },
};

export interface PatchMeta {
  patchStrategy?: string;
  patchMergeKey?: string;
  listType?: 'atomic' | 'map' | 'set';
  listMapKeys?: string[];
}

/**
 * Strategic-merge and list-type markers (`patchStrategy`/`patchMergeKey` struct
 * tags, `+listType`/`+listMapKey` comments) from k8s.io/api v1.32 types.go
 * files, keyed by upstream definition name. A SUBSET: the lists kubectl's
 * client-side apply merges by key, plus the listType=map/set lists of served
 * kinds. Lists not named here are atomic, which is also what structured-merge
 * -diff assumes for a list without markers. generate.ts then lays the fuller
 * table of engine/apimachinery/patch/patchMeta.ts over these (it wins).
 */
export const PATCH_META: Readonly<Record<string, Readonly<Record<string, PatchMeta>>>> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
    finalizers: { patchStrategy: 'merge', listType: 'set' },
    ownerReferences: { patchStrategy: 'merge', patchMergeKey: 'uid', listType: 'map', listMapKeys: ['uid'] },
  },
  'io.k8s.api.core.v1.PodSpec': {
    containers: { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] },
    initContainers: { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] },
    ephemeralContainers: { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] },
    volumes: { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] },
    imagePullSecrets: { patchStrategy: 'merge', patchMergeKey: 'name' },
    hostAliases: { patchStrategy: 'merge', patchMergeKey: 'ip' },
    topologySpreadConstraints: { patchStrategy: 'merge', patchMergeKey: 'topologyKey', listType: 'map', listMapKeys: ['topologyKey', 'whenUnsatisfiable'] },
    resourceClaims: { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] },
    schedulingGates: { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] },
  },
  'io.k8s.api.core.v1.Container': {
    ports: { patchStrategy: 'merge', patchMergeKey: 'containerPort', listType: 'map', listMapKeys: ['containerPort', 'protocol'] },
    env: { patchStrategy: 'merge', patchMergeKey: 'name' },
    volumeMounts: { patchStrategy: 'merge', patchMergeKey: 'mountPath' },
    volumeDevices: { patchStrategy: 'merge', patchMergeKey: 'devicePath' },
  },
  'io.k8s.api.core.v1.EphemeralContainer': {
    ports: { patchStrategy: 'merge', patchMergeKey: 'containerPort', listType: 'map', listMapKeys: ['containerPort', 'protocol'] },
    env: { patchStrategy: 'merge', patchMergeKey: 'name' },
    volumeMounts: { patchStrategy: 'merge', patchMergeKey: 'mountPath' },
    volumeDevices: { patchStrategy: 'merge', patchMergeKey: 'devicePath' },
  },
  'io.k8s.api.core.v1.PodStatus': {
    conditions: { patchStrategy: 'merge', patchMergeKey: 'type' },
    podIPs: { patchStrategy: 'merge', patchMergeKey: 'ip' },
    hostIPs: { patchStrategy: 'merge', patchMergeKey: 'ip' },
    resourceClaimStatuses: { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] },
  },
  'io.k8s.api.core.v1.NodeSpec': { podCIDRs: { patchStrategy: 'merge', listType: 'set' } },
  'io.k8s.api.core.v1.NodeStatus': {
    conditions: { patchStrategy: 'merge', patchMergeKey: 'type' },
    addresses: { patchStrategy: 'merge', patchMergeKey: 'type' },
  },
  'io.k8s.api.core.v1.ServiceSpec': {
    ports: { patchStrategy: 'merge', patchMergeKey: 'port', listType: 'map', listMapKeys: ['port', 'protocol'] },
  },
  'io.k8s.api.core.v1.ServiceStatus': { conditions: { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] } },
  'io.k8s.api.core.v1.ServiceAccount': { secrets: { patchStrategy: 'merge', patchMergeKey: 'name' } },
  'io.k8s.api.core.v1.NamespaceStatus': { conditions: { patchStrategy: 'merge', patchMergeKey: 'type' } },
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': { conditions: { patchStrategy: 'merge', patchMergeKey: 'type' } },
  'io.k8s.api.core.v1.ReplicationControllerStatus': { conditions: { patchStrategy: 'merge', patchMergeKey: 'type' } },
  'io.k8s.api.apps.v1.DeploymentStatus': { conditions: { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] } },
  'io.k8s.api.apps.v1.ReplicaSetStatus': { conditions: { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] } },
  'io.k8s.api.apps.v1.StatefulSetStatus': { conditions: { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] } },
  'io.k8s.api.apps.v1.DaemonSetStatus': { conditions: { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] } },
  'io.k8s.api.batch.v1.JobStatus': { conditions: { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'atomic' } },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus': {
    conditions: { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] },
  },
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus': {
    conditions: { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] },
  },
  'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration': {
    webhooks: { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration': {
    webhooks: { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] },
  },
};
