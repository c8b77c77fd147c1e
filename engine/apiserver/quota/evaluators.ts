// Quota evaluators, shared by ResourceQuota admission and the resourcequota
// controller (pkg/quota/v1/evaluator/core and pkg/quota/v1/generic, v1.32):
// what an object uses of each quota resource (pods' compute, services'
// node ports and load balancers, claims' storage per class, count/<resource>
// for everything), which quotas' scopes select it, and the quota arithmetic
// of k8s.io/apiserver/pkg/quota/v1/resources.go.
import type { KObject } from '../../apimachinery/types';
import type { AdmissionAttributes } from '../types';
import { num, path, rec, recs, str, strs } from '../admission/json';
import { containerLimits, containerRequests, containersOf, initContainersOf, podLimits, podRequests } from '../admission/podResources';
import { addQuantity, cmpQuantity, formatQuantity, quantityOf, subQuantity, ZERO } from '../validation/quantity';
import { parseResourceList, type ResourceList } from '../admission/quantity';
import { parseRfc3339 } from '../http/time';
import { RESOURCES } from '../registry/resources';

// ---- evaluators ----

export interface Evaluator {
  group: string;
  resource: string;
  handles(a: AdmissionAttributes): boolean;
  /** Whether the evaluator knows the resource name (MatchingResources). */
  matchesResourceName(name: string): boolean;
  usage(obj: KObject, now: number): ResourceList;
  /** Scopes only restrict pods; other kinds match no scoped quota. */
  supportsScopes: boolean;
  constraints?(required: string[], obj: KObject): string | null;
}

function countName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

const createOnly = (a: AdmissionAttributes) => a.operation === 'CREATE';
const createOrUpdate = (a: AdmissionAttributes) => a.operation === 'CREATE' || a.operation === 'UPDATE';

function objectCountEvaluator(group: string, resource: string, legacyName?: string): Evaluator {
  const names = new Set([countName(group, resource), ...(legacyName ? [legacyName] : [])]);
  return {
    group,
    resource,
    handles: createOnly,
    matchesResourceName: (n) => names.has(n),
    usage: () => new Map([...names].map((n) => [n, quantityOf(1)])),
    supportsScopes: false,
  };
}

const POD_COMPUTE = new Set([
  'pods',
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
]);
/** The resources every container must set when a quota limits them (validationSet). */
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

function isExtendedResourceName(name: string): boolean {
  return name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.') && !name.startsWith('limits.') && !name.startsWith('count/');
}

/** podComputeUsageHelper. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', quantityOf(1)]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [r, q] of requests) {
    if (r.startsWith('hugepages-')) {
      out.set(r, q);
      out.set(`requests.${r}`, q);
    }
    if (isExtendedResourceName(r)) out.set(`requests.${r}`, q);
  }
  return out;
}

/** QuotaV1Pod: terminal pods, and pods past their deletion grace, use no compute quota (`now` virtual ms). */
export function podCountsForCompute(pod: KObject, now: number): boolean {
  const phase = str(path(pod, 'status', 'phase'));
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const del = pod.metadata.deletionTimestamp ? parseRfc3339(pod.metadata.deletionTimestamp) : undefined;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (del !== undefined && !Number.isNaN(del) && grace !== undefined && now > del + grace * 1000) return false;
  return true;
}

const podEvaluator: Evaluator = {
  group: '',
  resource: 'pods',
  handles: createOnly,
  matchesResourceName: (n) => POD_COMPUTE.has(n) || n.startsWith('hugepages-') || n.startsWith('requests.hugepages-') || (n.startsWith('requests.') && isExtendedResourceName(n.slice(9))),
  usage(pod, now) {
    const out: ResourceList = new Map([['count/pods', quantityOf(1)]]);
    if (!podCountsForCompute(pod, now)) return out;
    const spec = rec(pod['spec']);
    for (const [k, q] of computeUsage(podRequests(spec), podLimits(spec))) out.set(k, q);
    return out;
  },
  supportsScopes: true,
  constraints(required, pod) {
    const requiredSet = required.filter((r) => VALIDATION_SET.has(r));
    if (requiredSet.length === 0) return null;
    const spec = rec(pod['spec']);
    const missing = new Map<string, Set<string>>();
    for (const c of [...containersOf(spec), ...initContainersOf(spec)]) {
      const have = computeUsage(containerRequests(c), containerLimits(c));
      for (const r of requiredSet) {
        if (have.has(r)) continue;
        let names = missing.get(r);
        if (!names) missing.set(r, (names = new Set()));
        names.add(str(c['name']) ?? '');
      }
    }
    if (missing.size === 0) return null;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
};

const serviceEvaluator: Evaluator = {
  group: '',
  resource: 'services',
  handles: createOrUpdate,
  matchesResourceName: (n) => ['services', 'count/services', 'services.loadbalancers', 'services.nodeports'].includes(n),
  usage(svc) {
    const out: ResourceList = new Map([
      ['services', quantityOf(1)],
      ['count/services', quantityOf(1)],
    ]);
    const type = str(path(svc, 'spec', 'type')) ?? 'ClusterIP';
    const ports = recs(path(svc, 'spec', 'ports'));
    if (type === 'NodePort') out.set('services.nodeports', quantityOf(ports.length));
    if (type === 'LoadBalancer') {
      out.set('services.loadbalancers', quantityOf(1));
      const allocate = path(svc, 'spec', 'allocateLoadBalancerNodePorts') !== false;
      out.set('services.nodeports', quantityOf(allocate ? ports.length : ports.filter((p) => (num(p['nodePort']) ?? 0) > 0).length));
    }
    return out;
  },
  supportsScopes: false,
};

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

const pvcEvaluator: Evaluator = {
  group: '',
  resource: 'persistentvolumeclaims',
  handles: createOrUpdate,
  matchesResourceName: (n) =>
    ['persistentvolumeclaims', 'count/persistentvolumeclaims', 'requests.storage'].includes(n) ||
    (n.includes(STORAGE_CLASS_SUFFIX) && (n.endsWith('/requests.storage') || n.endsWith('/persistentvolumeclaims'))),
  usage(pvc) {
    const out: ResourceList = new Map([
      ['persistentvolumeclaims', quantityOf(1)],
      ['count/persistentvolumeclaims', quantityOf(1)],
    ]);
    const storage = parseResourceList(path(pvc, 'spec', 'resources', 'requests')).get('storage');
    const sc = str(path(pvc, 'spec', 'storageClassName'));
    if (sc) out.set(`${sc}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, quantityOf(1));
    if (storage) {
      out.set('requests.storage', storage);
      if (sc) out.set(`${sc}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return out;
  },
  supportsScopes: false,
};

const LEGACY_COUNTED: Record<string, string> = {
  configmaps: 'configmaps',
  secrets: 'secrets',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
};

/** The evaluator of a resource (admission makes an object count one for any resource). */
export function evaluatorFor(group: string, resource: string): Evaluator {
  if (group === '' && resource === 'pods') return podEvaluator;
  if (group === '' && resource === 'services') return serviceEvaluator;
  if (group === '' && resource === 'persistentvolumeclaims') return pvcEvaluator;
  return objectCountEvaluator(group, resource, group === '' ? LEGACY_COUNTED[resource] : undefined);
}

/**
 * Resources quota never tracks (pkg/quota/v1/install ignoredResources): not
 * stored, or cluster configuration. Both admission and the controller skip them.
 */
export const IGNORED_RESOURCES = new Set(['/events', 'events.k8s.io/events', '/bindings', '/componentstatuses', 'apiregistration.k8s.io/apiservices', 'apiextensions.k8s.io/customresourcedefinitions']);

/**
 * The controller's registry: the core evaluators and an object count evaluator
 * for every other resource it can quota (namespaced, stored, created, listed,
 * watched and deleted), once per group and resource.
 */
export function controllerEvaluators(): Evaluator[] {
  const out: Evaluator[] = [podEvaluator, serviceEvaluator, pvcEvaluator];
  const seen = new Set(['/pods', '/services', '/persistentvolumeclaims']);
  for (const r of RESOURCES) {
    const gr = `${r.group}/${r.resource}`;
    if (seen.has(gr) || IGNORED_RESOURCES.has(gr) || !r.namespaced || !r.storagePrefix) continue;
    if (!['create', 'list', 'watch', 'delete'].every((v) => r.verbs.includes(v as never))) continue;
    seen.add(gr);
    out.push(evaluatorFor(r.group, r.resource));
  }
  return out;
}

// ---- scopes ----

function isBestEffort(pod: KObject): boolean {
  for (const c of [...containersOf(rec(pod['spec'])), ...initContainersOf(rec(pod['spec']))]) {
    for (const list of [containerRequests(c), containerLimits(c)]) {
      if (list.has('cpu') || list.has('memory')) return false;
    }
  }
  return true;
}

function isTerminating(pod: KObject): boolean {
  const ads = num(path(pod, 'spec', 'activeDeadlineSeconds'));
  return ads !== undefined && ads >= 0;
}

function scopeMatches(scope: string, operator: string, values: string[], pod: KObject): boolean {
  switch (scope) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const pc = str(path(pod, 'spec', 'priorityClassName')) ?? '';
      switch (operator) {
        case 'Exists':
          return pc !== '';
        case 'DoesNotExist':
          return pc === '';
        case 'In':
          return values.includes(pc);
        case 'NotIn':
          return !values.includes(pc);
        default:
          return false;
      }
    }
    default:
      // CrossNamespacePodAffinity and unknown scopes: not modelled.
      return false;
  }
}

function quotaScopes(quota: KObject): { scope: string; operator: string; values: string[] }[] {
  const out = strs(path(quota, 'spec', 'scopes')).map((s) => ({ scope: s, operator: 'Exists', values: [] as string[] }));
  for (const e of recs(path(quota, 'spec', 'scopeSelector', 'matchExpressions'))) {
    out.push({ scope: str(e['scopeName']) ?? '', operator: str(e['operator']) ?? '', values: strs(e['values']) });
  }
  return out;
}

export function quotaMatchesObject(quota: KObject, ev: Evaluator, obj: KObject): boolean {
  const scopes = quotaScopes(quota);
  if (scopes.length === 0) return true;
  if (!ev.supportsScopes) return false;
  return scopes.every((s) => scopeMatches(s.scope, s.operator, s.values, obj));
}

/** spec.hard: what the quota asks for. */
export function specHard(quota: KObject): ResourceList {
  return parseResourceList(path(quota, 'spec', 'hard'));
}

/** status.hard and status.used: what the controller has recorded (admission works from these). */
export function statusHard(quota: KObject): ResourceList {
  return parseResourceList(path(quota, 'status', 'hard'));
}
export function statusUsed(quota: KObject): ResourceList {
  return parseResourceList(path(quota, 'status', 'used'));
}

// ---- usage arithmetic ----

/** quota.Add. */
export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, q] of b) {
    const cur = out.get(k);
    out.set(k, cur ? addQuantity(cur, q) : q);
  }
  return out;
}

/** quota.SubtractWithNonNegativeResult: a − b, each key at least zero. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, q] of b) {
    const d = subQuantity(out.get(k) ?? ZERO, q);
    out.set(k, d.nanos < 0n ? { ...d, nanos: 0n } : d);
  }
  return out;
}

/** prettyPrint: `k=v,k=v`, sorted. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${formatQuantity(list.get(k)!)}`)
    .join(',');
}

/** quota.Mask: only the keys given. */
export function mask(list: ResourceList, keys: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const k of keys) {
    const q = list.get(k);
    if (q) out.set(k, q);
  }
  return out;
}

/** A ResourceList as a quota status writes it: quantities in canonical form, keys sorted. */
export function resourceListJson(list: ResourceList): Record<string, string> {
  return Object.fromEntries([...list.keys()].sort().map((k) => [k, formatQuantity(list.get(k)!)]));
}

/** Equal quantities for equal keys (quota.Equals). */
export function equalLists(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, q] of a) {
    const o = b.get(k);
    if (!o || cmpQuantity(o, q) !== 0) return false;
  }
  return true;
}

/**
 * UsageStats of one evaluator for a quota (generic.CalculateUsageStats): each
 * of `resources` from zero, plus the usage of every object the quota's scopes select.
 */
export function usageStats(quota: KObject, ev: Evaluator, resources: readonly string[], objects: readonly KObject[], now: number): ResourceList {
  const used: ResourceList = new Map();
  for (const k of resources) used.set(k, ZERO);
  for (const obj of objects) {
    if (!quotaMatchesObject(quota, ev, obj)) continue;
    for (const [k, q] of ev.usage(obj, now)) {
      if (!used.has(k)) continue;
      used.set(k, addQuantity(used.get(k)!, q));
    }
  }
  return used;
}
