// The resources this API server serves, as discovery describes them
// (kubectl api-resources against a v1.32 cluster), and where each is kept in
// etcd (the storage prefixes of pkg/registry/*/storage and
// pkg/kubeapiserver/default_storage_factory_builder.go).

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface SubresourceInfo {
  name: string; // status, scale, binding, eviction, log, token, ephemeralcontainers, resize, proxy
  kind: string; // the kind its body is (Pod, Scale, Binding, Eviction, TokenRequest...)
  group?: string; // the kind's group when it differs (autoscaling/v1 Scale, policy/v1 Eviction)
  version?: string;
  verbs: Verb[];
}

export interface ResourceInfo {
  group: string;
  version: string;
  /** Plural lower-case name used in URLs and RBAC: `pods`. */
  resource: string;
  singularName: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  verbs: Verb[];
  categories: string[];
  subresources: SubresourceInfo[];
  /** etcd key prefix without trailing slash: `/registry/pods`. Virtual resources (reviews) have none. */
  storagePrefix?: string;
  /** Another resource whose storage this one shares (events.k8s.io/v1 events → core events). */
  sharesStorageWith?: { group: string; resource: string };
}

const STD = ALL_VERBS as Verb[];
const CREATE_ONLY: Verb[] = ['create'];
const status = (kind: string): SubresourceInfo => ({ name: 'status', kind, verbs: ['get', 'patch', 'update'] });
const scale: SubresourceInfo = { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] };

interface Spec {
  g?: string;
  v?: string;
  r: string;
  k: string;
  ns: boolean;
  short?: string[];
  verbs?: Verb[];
  cat?: string[];
  sub?: SubresourceInfo[];
  /** etcd prefix below /registry when it differs from the resource name; null for virtual resources. */
  key?: string | null;
  shares?: { group: string; resource: string };
}

const SPECS: Spec[] = [
  // core/v1
  { r: 'bindings', k: 'Binding', ns: true, verbs: CREATE_ONLY, key: null },
  { r: 'componentstatuses', k: 'ComponentStatus', ns: false, short: ['cs'], verbs: ['get', 'list'], key: null },
  { r: 'configmaps', k: 'ConfigMap', ns: true, short: ['cm'] },
  { r: 'endpoints', k: 'Endpoints', ns: true, short: ['ep'], key: 'services/endpoints' },
  { r: 'events', k: 'Event', ns: true, short: ['ev'] },
  { r: 'limitranges', k: 'LimitRange', ns: true, short: ['limits'] },
  { r: 'namespaces', k: 'Namespace', ns: false, short: ['ns'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], sub: [status('Namespace'), { name: 'finalize', kind: 'Namespace', verbs: ['update'] }] },
  { r: 'nodes', k: 'Node', ns: false, short: ['no'], key: 'minions', sub: [status('Node'), { name: 'proxy', kind: 'NodeProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] }] },
  { r: 'persistentvolumeclaims', k: 'PersistentVolumeClaim', ns: true, short: ['pvc'], sub: [status('PersistentVolumeClaim')] },
  { r: 'persistentvolumes', k: 'PersistentVolume', ns: false, short: ['pv'], sub: [status('PersistentVolume')] },
  {
    r: 'pods',
    k: 'Pod',
    ns: true,
    short: ['po'],
    cat: ['all'],
    sub: [
      status('Pod'),
      { name: 'attach', kind: 'PodAttachOptions', verbs: ['create', 'get'] },
      { name: 'binding', kind: 'Binding', verbs: ['create'] },
      { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
      { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] },
      { name: 'log', kind: 'Pod', verbs: ['get'] },
      { name: 'ephemeralcontainers', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
      { name: 'resize', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
    ],
  },
  { r: 'podtemplates', k: 'PodTemplate', ns: true },
  { r: 'replicationcontrollers', k: 'ReplicationController', ns: true, short: ['rc'], cat: ['all'], sub: [status('ReplicationController'), scale] },
  { r: 'resourcequotas', k: 'ResourceQuota', ns: true, short: ['quota'], sub: [status('ResourceQuota')] },
  { r: 'secrets', k: 'Secret', ns: true },
  { r: 'serviceaccounts', k: 'ServiceAccount', ns: true, short: ['sa'], sub: [{ name: 'token', kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] }] },
  { r: 'services', k: 'Service', ns: true, short: ['svc'], cat: ['all'], key: 'services/specs', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], sub: [status('Service')] },
  // admissionregistration.k8s.io/v1
  { g: 'admissionregistration.k8s.io', r: 'mutatingwebhookconfigurations', k: 'MutatingWebhookConfiguration', ns: false, cat: ['api-extensions'] },
  { g: 'admissionregistration.k8s.io', r: 'validatingadmissionpolicies', k: 'ValidatingAdmissionPolicy', ns: false, cat: ['api-extensions'], sub: [status('ValidatingAdmissionPolicy')] },
  { g: 'admissionregistration.k8s.io', r: 'validatingadmissionpolicybindings', k: 'ValidatingAdmissionPolicyBinding', ns: false, cat: ['api-extensions'] },
  { g: 'admissionregistration.k8s.io', r: 'validatingwebhookconfigurations', k: 'ValidatingWebhookConfiguration', ns: false, cat: ['api-extensions'] },
  // apiregistration.k8s.io/v1 (the aggregator's)
  { g: 'apiregistration.k8s.io', r: 'apiservices', k: 'APIService', ns: false, cat: ['api-extensions'], sub: [status('APIService')] },
  // apps/v1
  { g: 'apps', r: 'controllerrevisions', k: 'ControllerRevision', ns: true },
  { g: 'apps', r: 'daemonsets', k: 'DaemonSet', ns: true, short: ['ds'], cat: ['all'], sub: [status('DaemonSet')] },
  { g: 'apps', r: 'deployments', k: 'Deployment', ns: true, short: ['deploy'], cat: ['all'], sub: [status('Deployment'), scale] },
  { g: 'apps', r: 'replicasets', k: 'ReplicaSet', ns: true, short: ['rs'], cat: ['all'], sub: [status('ReplicaSet'), scale] },
  { g: 'apps', r: 'statefulsets', k: 'StatefulSet', ns: true, short: ['sts'], cat: ['all'], sub: [status('StatefulSet'), scale] },
  // authentication.k8s.io/v1
  { g: 'authentication.k8s.io', r: 'selfsubjectreviews', k: 'SelfSubjectReview', ns: false, verbs: CREATE_ONLY, key: null },
  { g: 'authentication.k8s.io', r: 'tokenreviews', k: 'TokenReview', ns: false, verbs: CREATE_ONLY, key: null },
  // authorization.k8s.io/v1
  { g: 'authorization.k8s.io', r: 'localsubjectaccessreviews', k: 'LocalSubjectAccessReview', ns: true, verbs: CREATE_ONLY, key: null },
  { g: 'authorization.k8s.io', r: 'selfsubjectaccessreviews', k: 'SelfSubjectAccessReview', ns: false, verbs: CREATE_ONLY, key: null },
  { g: 'authorization.k8s.io', r: 'selfsubjectrulesreviews', k: 'SelfSubjectRulesReview', ns: false, verbs: CREATE_ONLY, key: null },
  { g: 'authorization.k8s.io', r: 'subjectaccessreviews', k: 'SubjectAccessReview', ns: false, verbs: CREATE_ONLY, key: null },
  // autoscaling/v2
  { g: 'autoscaling', v: 'v2', r: 'horizontalpodautoscalers', k: 'HorizontalPodAutoscaler', ns: true, short: ['hpa'], cat: ['all'], sub: [status('HorizontalPodAutoscaler')] },
  // autoscaling/v1: the same objects, converted (registry/autoscalingConversion.ts); v2 is preferred.
  { g: 'autoscaling', v: 'v1', r: 'horizontalpodautoscalers', k: 'HorizontalPodAutoscaler', ns: true, short: ['hpa'], cat: ['all'], sub: [status('HorizontalPodAutoscaler')], shares: { group: 'autoscaling', resource: 'horizontalpodautoscalers' } },
  // batch/v1
  { g: 'batch', r: 'cronjobs', k: 'CronJob', ns: true, short: ['cj'], cat: ['all'], sub: [status('CronJob')] },
  { g: 'batch', r: 'jobs', k: 'Job', ns: true, cat: ['all'], sub: [status('Job')] },
  // coordination.k8s.io/v1
  { g: 'coordination.k8s.io', r: 'leases', k: 'Lease', ns: true },
  // discovery.k8s.io/v1
  { g: 'discovery.k8s.io', r: 'endpointslices', k: 'EndpointSlice', ns: true },
  // events.k8s.io/v1 (the same objects as core/v1 events, another shape)
  { g: 'events.k8s.io', r: 'events', k: 'Event', ns: true, short: ['ev'], key: 'events', shares: { group: '', resource: 'events' } },
  // networking.k8s.io/v1
  { g: 'networking.k8s.io', r: 'ingressclasses', k: 'IngressClass', ns: false },
  { g: 'networking.k8s.io', r: 'ingresses', k: 'Ingress', ns: true, short: ['ing'], key: 'ingress', sub: [status('Ingress')] },
  { g: 'networking.k8s.io', r: 'networkpolicies', k: 'NetworkPolicy', ns: true, short: ['netpol'] },
  // policy/v1
  { g: 'policy', r: 'poddisruptionbudgets', k: 'PodDisruptionBudget', ns: true, short: ['pdb'], sub: [status('PodDisruptionBudget')] },
  // rbac.authorization.k8s.io/v1
  { g: 'rbac.authorization.k8s.io', r: 'clusterrolebindings', k: 'ClusterRoleBinding', ns: false },
  { g: 'rbac.authorization.k8s.io', r: 'clusterroles', k: 'ClusterRole', ns: false },
  { g: 'rbac.authorization.k8s.io', r: 'rolebindings', k: 'RoleBinding', ns: true },
  { g: 'rbac.authorization.k8s.io', r: 'roles', k: 'Role', ns: true },
  // scheduling.k8s.io/v1
  { g: 'scheduling.k8s.io', r: 'priorityclasses', k: 'PriorityClass', ns: false, short: ['pc'] },
  // storage.k8s.io/v1
  { g: 'storage.k8s.io', r: 'csidrivers', k: 'CSIDriver', ns: false },
  { g: 'storage.k8s.io', r: 'csinodes', k: 'CSINode', ns: false },
  { g: 'storage.k8s.io', r: 'csistoragecapacities', k: 'CSIStorageCapacity', ns: true },
  { g: 'storage.k8s.io', r: 'storageclasses', k: 'StorageClass', ns: false, short: ['sc'] },
];

function singular(kind: string): string {
  return kind.toLowerCase();
}

export const RESOURCES: readonly ResourceInfo[] = SPECS.map((s) => {
  const group = s.g ?? '';
  const info: ResourceInfo = {
    group,
    version: s.v ?? 'v1',
    resource: s.r,
    singularName: singular(s.k),
    kind: s.k,
    listKind: `${s.k}List`,
    namespaced: s.ns,
    shortNames: s.short ?? [],
    verbs: s.verbs ?? STD,
    categories: s.cat ?? [],
    subresources: s.sub ?? [],
  };
  if (s.key !== null) info.storagePrefix = `/registry/${s.key ?? s.r}`;
  if (s.shares) info.sharesStorageWith = s.shares;
  return info;
});

/**
 * First entry wins: a resource served in several versions is found in its
 * preferred (stored) one. Keyed by group, then name: a lookup per request
 * builds no key string.
 */
function index(name: (r: ResourceInfo) => string, rs: readonly ResourceInfo[] = RESOURCES): Map<string, Map<string, ResourceInfo>> {
  const m = new Map<string, Map<string, ResourceInfo>>();
  for (const r of rs) {
    let inner = m.get(r.group);
    if (!inner) m.set(r.group, (inner = new Map()));
    if (!inner.has(name(r))) inner.set(name(r), r);
  }
  return m;
}
const byGroupResource = index((r) => r.resource);
const byGroupKind = index((r) => r.kind);
/** By version, then group and name. */
const byVersionGroupResource = new Map<string, Map<string, Map<string, ResourceInfo>>>();
for (const v of new Set(RESOURCES.map((r) => r.version))) byVersionGroupResource.set(v, index((r) => r.resource, RESOURCES.filter((r) => r.version === v)));

/** The resource in its preferred version. */
export function resourceFor(group: string, resource: string): ResourceInfo | undefined {
  return byGroupResource.get(group)?.get(resource);
}

/** The resource as one group-version serves it (what a URL names). */
export function resourceForVersion(group: string, version: string, resource: string): ResourceInfo | undefined {
  return byVersionGroupResource.get(version)?.get(group)?.get(resource);
}

/**
 * `group/Kind`, the key of the per-kind tables (defaulting, validation,
 * strategies): the same string for every request of a kind, not a new one each
 * time. Kinds are the served ones; past the limit the memo starts again.
 */
const groupKindKeys = new Map<string, Map<string, string>>();
let groupKindKeyCount = 0;

export function groupKindKey(group: string, kind: string): string {
  let byKind = groupKindKeys.get(group);
  let key = byKind?.get(kind);
  if (key !== undefined) return key;
  if (++groupKindKeyCount > 4096) {
    groupKindKeys.clear();
    groupKindKeyCount = 1;
    byKind = undefined;
  }
  if (!byKind) groupKindKeys.set(group, (byKind = new Map()));
  byKind.set(kind, (key = `${group}/${kind}`));
  return key;
}

/** The resource a kind is served as (for events, the group decides which shape). */
export function resourceForKind(group: string, kind: string): ResourceInfo | undefined {
  return byGroupKind.get(group)?.get(kind);
}

/**
 * Group order in discovery, as a v1.32 kube-apiserver lists them (by the
 * priority of their APIServices: pkg/controlplane/apiserver/.../apiservice priorities).
 */
const GROUP_ORDER = [
  '',
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
];

/** Groups in discovery order (legacy core first, then as upstream lists them). */
export function servedGroups(): { group: string; versions: string[] }[] {
  const out: { group: string; versions: string[] }[] = [];
  for (const r of RESOURCES) {
    let g = out.find((x) => x.group === r.group);
    if (!g) out.push((g = { group: r.group, versions: [] }));
    if (!g.versions.includes(r.version)) g.versions.push(r.version);
  }
  const rank = (g: string) => {
    const i = GROUP_ORDER.indexOf(g);
    return i < 0 ? GROUP_ORDER.length : i;
  };
  return out.sort((a, b) => rank(a.group) - rank(b.group));
}

/** etcd key of one object: `/registry/pods/default/web-0`, `/registry/namespaces/kube-system`. */
export function storageKey(r: ResourceInfo, namespace: string | undefined, name: string): string {
  if (!r.storagePrefix) throw new Error(`${r.resource} has no storage`);
  return r.namespaced ? `${r.storagePrefix}/${namespace}/${name}` : `${r.storagePrefix}/${name}`;
}
