// Patch metadata of the built-in types of Kubernetes v1.32: which list fields
// merge by key, which structs use retainKeys, which fields replace. Read off
// the `patchStrategy:"..." patchMergeKey:"..."` struct tags and `+listType` /
// `+listMapKey` markers of staging/src/k8s.io/api/{core,apps,batch,policy,
// autoscaling,admissionregistration}/v1*/types.go and
// apimachinery/pkg/apis/meta/v1/types.go. Only the paths that lead to a
// tagged field are listed; every other field is untagged, which is what
// strategic merge patch assumes for a field it finds no tag on.
import { fail, other } from './errors';

/** The patchStrategy struct tag, verbatim ("merge", "retainKeys", "merge,retainKeys", "replace"). */
export type PatchStrategyTag = 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys';

export interface FieldPatchMeta {
  /** patchStrategy tag; absent when the field has none. */
  readonly strategy?: PatchStrategyTag;
  /** patchMergeKey tag. */
  readonly mergeKey?: string;
  /** The struct the field holds, or for a list the struct of its elements; absent for scalars and untyped data. */
  readonly elem?: StructPatchMeta;
  /** Go kind of list elements when they are not structs (used in one error text); "string" if absent. */
  readonly elemKind?: string;
  /** +listType marker, when known. */
  readonly listType?: 'atomic' | 'set' | 'map';
  /** +listMapKey markers, when listType is map. */
  readonly listMapKeys?: readonly string[];
}

export interface StructPatchMeta {
  /** Go type name, for error texts. */
  readonly name: string;
  /** Go kind: structs hold fields; a map type (map[string]T) answers lookups with an error, as upstream. */
  readonly kind?: 'struct' | 'map';
  readonly fields: Readonly<Record<string, FieldPatchMeta>>;
  /**
   * True when `fields` lists every field of the Go struct, so an unknown key
   * is an error as with upstream's struct lookup. The built-in table lists
   * only tagged paths and leaves this off: unknown keys are then untagged.
   */
  readonly complete?: boolean;
}

/** What a lookup answers: the sub-schema to descend with and the field's tags. */
export interface LookupResult {
  schema: StructPatchMeta | undefined;
  strategies: string[];
  mergeKey: string;
  /** reflect Kind name of the element type, used in "cannot merge lists without merge key for %s". */
  elemName: string;
}

function lookupField(schema: StructPatchMeta | undefined, key: string): FieldPatchMeta | undefined {
  if (schema === undefined) return undefined;
  if (schema.kind === 'map') fail(other('merging an object in json but data type is not struct, instead is: map'));
  const f = Object.hasOwn(schema.fields, key) ? schema.fields[key] : undefined;
  if (f === undefined && schema.complete) fail(other(`unable to find api field in struct ${schema.name} for the json field ${JSON.stringify(key)}`));
  return f;
}

/** PatchMetaFromStruct.LookupPatchMetadataForStruct: the field's type and tags (strategies split on ","). */
export function lookupPatchMetadataForStruct(schema: StructPatchMeta | undefined, key: string): LookupResult {
  const f = lookupField(schema, key);
  if (schema === undefined) return { schema: undefined, strategies: [], mergeKey: '', elemName: 'string' };
  return {
    schema: f?.elem,
    // strings.Split("", ",") is [""]: an untagged struct field has one empty strategy.
    strategies: (f?.strategy ?? '').split(','),
    mergeKey: f?.mergeKey ?? '',
    elemName: f?.elem ? (f.elem.kind ?? 'struct') : (f?.elemKind ?? 'string'),
  };
}

/** LookupPatchMetadataForSlice: like the struct lookup, the sub-schema being the element type. */
export function lookupPatchMetadataForSlice(schema: StructPatchMeta | undefined, key: string): LookupResult {
  return lookupPatchMetadataForStruct(schema, key);
}

// ---- the table -------------------------------------------------------------

type Fields = Record<string, FieldPatchMeta>;
const struct = (name: string, fields: Fields): StructPatchMeta => Object.freeze({ name, fields: Object.freeze(fields) });
const mergeBy = (mergeKey: string, elem?: StructPatchMeta, listMapKeys: readonly string[] = [mergeKey]): FieldPatchMeta =>
  elem ? { strategy: 'merge', mergeKey, elem, listType: 'map', listMapKeys } : { strategy: 'merge', mergeKey, listType: 'map', listMapKeys };
const conditionsByType: FieldPatchMeta = mergeBy('type');
const atomic: FieldPatchMeta = { listType: 'atomic' };

// meta/v1
const ObjectMeta = struct('ObjectMeta', {
  ownerReferences: mergeBy('uid'),
  finalizers: { strategy: 'merge', listType: 'set' },
  managedFields: atomic,
});
const withMeta = (name: string, fields: Fields): StructPatchMeta => struct(name, { metadata: { elem: ObjectMeta }, ...fields });

// core/v1: containers
const containerFields: Fields = {
  ports: mergeBy('containerPort', undefined, ['containerPort', 'protocol']),
  env: mergeBy('name'),
  envFrom: atomic,
  volumeMounts: mergeBy('mountPath'),
  volumeDevices: mergeBy('devicePath'),
  command: atomic,
  args: atomic,
  resizePolicy: atomic,
};
const Container = struct('Container', containerFields);
// EphemeralContainerCommon is inlined into EphemeralContainer and copies Container's tags.
const EphemeralContainer = struct('EphemeralContainer', containerFields);
const Volume = struct('Volume', {});
const PodResourceClaim = struct('PodResourceClaim', {});
const PodResourceClaimStatus = struct('PodResourceClaimStatus', {});

const PodSpec = struct('PodSpec', {
  volumes: { strategy: 'merge,retainKeys', mergeKey: 'name', elem: Volume, listType: 'map', listMapKeys: ['name'] },
  initContainers: mergeBy('name', Container),
  containers: mergeBy('name', Container),
  ephemeralContainers: mergeBy('name', EphemeralContainer),
  imagePullSecrets: mergeBy('name'),
  tolerations: atomic,
  hostAliases: mergeBy('ip'),
  readinessGates: atomic,
  topologySpreadConstraints: mergeBy('topologyKey', undefined, ['topologyKey', 'whenUnsatisfiable']),
  schedulingGates: mergeBy('name'),
  resourceClaims: { strategy: 'merge,retainKeys', mergeKey: 'name', elem: PodResourceClaim, listType: 'map', listMapKeys: ['name'] },
});
const PodStatus = struct('PodStatus', {
  conditions: conditionsByType,
  // hostIPs keeps its merge tags although its list type is atomic.
  hostIPs: { strategy: 'merge', mergeKey: 'ip', listType: 'atomic' },
  podIPs: mergeBy('ip'),
  initContainerStatuses: atomic,
  containerStatuses: atomic,
  ephemeralContainerStatuses: atomic,
  resourceClaimStatuses: {
    strategy: 'merge,retainKeys',
    mergeKey: 'name',
    elem: PodResourceClaimStatus,
    listType: 'map',
    listMapKeys: ['name'],
  },
});
const Pod = withMeta('Pod', { spec: { elem: PodSpec }, status: { elem: PodStatus } });
const PodTemplateSpec = withMeta('PodTemplateSpec', { spec: { elem: PodSpec } });
const PodTemplate = withMeta('PodTemplate', { template: { elem: PodTemplateSpec } });
const templated = (name: string, statusFields: Fields, specFields: Fields = {}): StructPatchMeta =>
  withMeta(name, {
    spec: { elem: struct(`${name}Spec`, { template: { elem: PodTemplateSpec }, ...specFields }) },
    status: { elem: struct(`${name}Status`, statusFields) },
  });

const ReplicationController = templated('ReplicationController', { conditions: conditionsByType });
const Service = withMeta('Service', {
  spec: { elem: struct('ServiceSpec', { ports: mergeBy('port', undefined, ['port', 'protocol']), clusterIPs: atomic, ipFamilies: atomic }) },
  status: { elem: struct('ServiceStatus', { conditions: conditionsByType }) },
});
const Node = withMeta('Node', {
  spec: { elem: struct('NodeSpec', { podCIDRs: { strategy: 'merge', listType: 'set' }, taints: atomic }) },
  status: { elem: struct('NodeStatus', { conditions: conditionsByType, addresses: mergeBy('type'), images: atomic, volumesInUse: atomic, volumesAttached: atomic }) },
});
const Namespace = withMeta('Namespace', {
  spec: { elem: struct('NamespaceSpec', { finalizers: atomic }) },
  status: { elem: struct('NamespaceStatus', { conditions: conditionsByType }) },
});
const ServiceAccount = withMeta('ServiceAccount', { secrets: mergeBy('name'), imagePullSecrets: atomic });
const PersistentVolumeClaim = withMeta('PersistentVolumeClaim', {
  spec: { elem: struct('PersistentVolumeClaimSpec', { accessModes: atomic }) },
  status: { elem: struct('PersistentVolumeClaimStatus', { accessModes: atomic, conditions: conditionsByType }) },
});
const PersistentVolume = withMeta('PersistentVolume', { spec: { elem: struct('PersistentVolumeSpec', { accessModes: atomic, mountOptions: atomic }) } });
const Endpoints = withMeta('Endpoints', { subsets: atomic });
const ComponentStatus = withMeta('ComponentStatus', { conditions: conditionsByType });
const LimitRange = withMeta('LimitRange', { spec: { elem: struct('LimitRangeSpec', { limits: atomic }) } });

// apps/v1
const Deployment = templated(
  'Deployment',
  { conditions: conditionsByType },
  { strategy: { strategy: 'retainKeys', elem: struct('DeploymentStrategy', {}) } },
);
const StatefulSet = templated('StatefulSet', { conditions: conditionsByType }, { volumeClaimTemplates: atomic });
const DaemonSet = templated('DaemonSet', { conditions: conditionsByType });
const ReplicaSet = templated('ReplicaSet', { conditions: conditionsByType });

// batch/v1
const jobSpec = struct('JobSpec', { template: { elem: PodTemplateSpec } });
const Job = withMeta('Job', {
  spec: { elem: jobSpec },
  // Job conditions keep their merge tags although the list type is atomic.
  status: { elem: struct('JobStatus', { conditions: { strategy: 'merge', mergeKey: 'type', listType: 'atomic' } }) },
});
const CronJob = withMeta('CronJob', {
  spec: { elem: struct('CronJobSpec', { jobTemplate: { elem: withMeta('JobTemplateSpec', { spec: { elem: jobSpec } }) } }) },
  status: { elem: struct('CronJobStatus', { active: atomic }) },
});

// autoscaling/v2, policy/v1
const HorizontalPodAutoscalerV2 = withMeta('HorizontalPodAutoscaler', {
  status: { elem: struct('HorizontalPodAutoscalerStatus', { conditions: conditionsByType, currentMetrics: atomic }) },
});
const PodDisruptionBudget = withMeta('PodDisruptionBudget', {
  spec: { elem: struct('PodDisruptionBudgetSpec', { selector: { strategy: 'replace', elem: struct('LabelSelector', {}) } }) },
  status: { elem: struct('PodDisruptionBudgetStatus', { conditions: conditionsByType }) },
});

// admissionregistration.k8s.io/v1
const webhook = (name: string): StructPatchMeta => struct(name, { matchConditions: mergeBy('name'), rules: atomic, admissionReviewVersions: atomic });
const ValidatingWebhookConfiguration = withMeta('ValidatingWebhookConfiguration', { webhooks: mergeBy('name', webhook('ValidatingWebhook')) });
const MutatingWebhookConfiguration = withMeta('MutatingWebhookConfiguration', { webhooks: mergeBy('name', webhook('MutatingWebhook')) });
const ValidatingAdmissionPolicy = withMeta('ValidatingAdmissionPolicy', {
  spec: { elem: struct('ValidatingAdmissionPolicySpec', { matchConditions: mergeBy('name'), variables: mergeBy('name'), validations: atomic, auditAnnotations: atomic }) },
  // status conditions are a map list without patch tags.
  status: { elem: struct('ValidatingAdmissionPolicyStatus', { conditions: { listType: 'map', listMapKeys: ['type'] } }) },
});

const plain = (name: string): StructPatchMeta => withMeta(name, {});

/** `group/version/kind` → patch metadata of the kind's top-level struct. */
const TABLE: Readonly<Record<string, StructPatchMeta>> = Object.freeze(Object.fromEntries<StructPatchMeta>([
  ['/v1/Pod', Pod],
  ['/v1/PodTemplate', PodTemplate],
  ['/v1/ReplicationController', ReplicationController],
  ['/v1/Service', Service],
  ['/v1/Node', Node],
  ['/v1/Namespace', Namespace],
  ['/v1/ConfigMap', plain('ConfigMap')],
  ['/v1/Secret', plain('Secret')],
  ['/v1/ServiceAccount', ServiceAccount],
  ['/v1/PersistentVolume', PersistentVolume],
  ['/v1/PersistentVolumeClaim', PersistentVolumeClaim],
  ['/v1/Endpoints', Endpoints],
  ['/v1/Event', plain('Event')],
  ['/v1/LimitRange', LimitRange],
  ['/v1/ResourceQuota', plain('ResourceQuota')],
  ['/v1/ComponentStatus', ComponentStatus],
  ['/v1/Binding', plain('Binding')],
  ['apps/v1/Deployment', Deployment],
  ['apps/v1/ReplicaSet', ReplicaSet],
  ['apps/v1/StatefulSet', StatefulSet],
  ['apps/v1/DaemonSet', DaemonSet],
  ['apps/v1/ControllerRevision', plain('ControllerRevision')],
  ['batch/v1/Job', Job],
  ['batch/v1/CronJob', CronJob],
  ['autoscaling/v1/HorizontalPodAutoscaler', plain('HorizontalPodAutoscaler')],
  ['autoscaling/v1/Scale', plain('Scale')],
  ['autoscaling/v2/HorizontalPodAutoscaler', HorizontalPodAutoscalerV2],
  ['policy/v1/PodDisruptionBudget', PodDisruptionBudget],
  ['policy/v1/Eviction', plain('Eviction')],
  ['networking.k8s.io/v1/Ingress', plain('Ingress')],
  ['networking.k8s.io/v1/IngressClass', plain('IngressClass')],
  ['networking.k8s.io/v1/NetworkPolicy', plain('NetworkPolicy')],
  ['rbac.authorization.k8s.io/v1/Role', plain('Role')],
  ['rbac.authorization.k8s.io/v1/ClusterRole', plain('ClusterRole')],
  ['rbac.authorization.k8s.io/v1/RoleBinding', plain('RoleBinding')],
  ['rbac.authorization.k8s.io/v1/ClusterRoleBinding', plain('ClusterRoleBinding')],
  ['coordination.k8s.io/v1/Lease', plain('Lease')],
  ['discovery.k8s.io/v1/EndpointSlice', plain('EndpointSlice')],
  ['events.k8s.io/v1/Event', plain('Event')],
  ['scheduling.k8s.io/v1/PriorityClass', plain('PriorityClass')],
  ['storage.k8s.io/v1/StorageClass', plain('StorageClass')],
  ['admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration', ValidatingWebhookConfiguration],
  ['admissionregistration.k8s.io/v1/MutatingWebhookConfiguration', MutatingWebhookConfiguration],
  ['admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy', ValidatingAdmissionPolicy],
  ['admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding', plain('ValidatingAdmissionPolicyBinding')],
]));

/**
 * The patch metadata of a built-in kind, or undefined for kinds the table
 * does not know (custom resources: upstream refuses strategic merge patch for them).
 */
export function patchMetaFor(group: string, version: string, kind: string): StructPatchMeta | undefined {
  const key = `${group}/${version}/${kind}`;
  return Object.hasOwn(TABLE, key) ? TABLE[key] : undefined;
}

/** Shared sub-structures, for callers that patch a part of an object (a pod template, metadata). */
export const builtinPatchMeta = { ObjectMeta, PodSpec, PodTemplateSpec, Container } as const;
