// ResourceQuota (admission/plugin/resourcequota/controller.go with the
// evaluators of pkg/quota/v1/evaluator/core). For a create (or an update that
// changes usage) in a namespace with quotas: each quota the object matches
// (by its hard resources and scopes) must hold the object's usage on top of
// what is used already, or the request is refused with upstream's
// `exceeded quota: NAME, requested: ..., used: ..., limited: ...`.
//
// Used is computed from the objects the cluster reader holds, not read from
// status.used (there may be no quota controller keeping it), and the limit is
// spec.hard (upstream reads status.hard, which that controller copies).
import type { KObject } from '../../apimachinery/types';
import type { AdmissionAttributes, AdmissionPlugin, ClusterReader } from '../types';
import { admissionForbidden, allow, deny } from './errors';
import { num, path, rec, recs, str, strs } from './json';
import { containerLimits, containerRequests, containersOf, initContainersOf, podLimits, podRequests } from './podResources';
import { addQuantity, cmpQuantity, formatQuantity, quantityOf, subQuantity, ZERO } from '../validation/quantity';
import { parseResourceList, type ResourceList } from './quantity';

// ---- evaluators ----

interface Evaluator {
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

function rfc3339Ms(t: string | undefined): number | undefined {
  if (!t) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

/** QuotaV1Pod: terminal pods, and pods past their deletion grace, use no compute quota. */
function podCountsForCompute(pod: KObject, now: number): boolean {
  const phase = str(path(pod, 'status', 'phase'));
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const del = rfc3339Ms(pod.metadata.deletionTimestamp);
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (del !== undefined && grace !== undefined && now > del + grace * 1000) return false;
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

export function evaluatorFor(group: string, resource: string): Evaluator {
  if (group === '' && resource === 'pods') return podEvaluator;
  if (group === '' && resource === 'services') return serviceEvaluator;
  if (group === '' && resource === 'persistentvolumeclaims') return pvcEvaluator;
  return objectCountEvaluator(group, resource, group === '' ? LEGACY_COUNTED[resource] : undefined);
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

function quotaMatchesObject(quota: KObject, ev: Evaluator, obj: KObject): boolean {
  const scopes = quotaScopes(quota);
  if (scopes.length === 0) return true;
  if (!ev.supportsScopes) return false;
  return scopes.every((s) => scopeMatches(s.scope, s.operator, s.values, obj));
}

function hardOf(quota: KObject): ResourceList {
  return parseResourceList(path(quota, 'spec', 'hard'));
}

// ---- usage arithmetic ----

function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, q] of b) {
    const cur = out.get(k);
    out.set(k, cur ? addQuantity(cur, q) : q);
  }
  return out;
}

function subtract(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, q] of b) out.set(k, subQuantity(out.get(k) ?? ZERO, q));
  return out;
}

function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${formatQuantity(list.get(k)!)}`)
    .join(',');
}

function mask(list: ResourceList, keys: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const k of keys) {
    const q = list.get(k);
    if (q) out.set(k, q);
  }
  return out;
}

/** What the objects in the namespace that this quota covers use, for each hard resource. */
export function computeUsed(quota: KObject, ev: Evaluator, a: AdmissionAttributes, cluster: ClusterReader): ResourceList {
  const hard = hardOf(quota);
  const used: ResourceList = new Map();
  for (const k of hard.keys()) used.set(k, ZERO);
  for (const obj of cluster.list(ev.group, ev.resource, a.namespace)) {
    if (!quotaMatchesObject(quota, ev, obj)) continue;
    for (const [k, q] of ev.usage(obj, a.now)) {
      if (!hard.has(k)) continue;
      const cur = used.get(k)!;
      used.set(k, cur === ZERO ? q : addQuantity(cur, q));
    }
  }
  return used;
}

export const resourceQuota: AdmissionPlugin = {
  name: 'ResourceQuota',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
  validate(a, cluster) {
    if (a.subresource !== '' || !a.namespace || !a.object) return allow();
    const quotas = cluster.list('', 'resourcequotas', a.namespace);
    if (quotas.length === 0) return allow();
    const ev = evaluatorFor(a.resource.group, a.resource.resource);
    if (!ev.handles(a)) return allow();

    const interesting: KObject[] = [];
    for (const quota of quotas) {
      if (!quotaMatchesObject(quota, ev, a.object)) continue;
      const restricted = [...hardOf(quota).keys()].filter((k) => ev.matchesResourceName(k));
      if (restricted.length === 0) continue;
      const err = ev.constraints?.(restricted, a.object);
      if (err) return deny(admissionForbidden(a, `failed quota: ${quota.metadata.name ?? ''}: ${err}`));
      interesting.push(quota);
    }
    if (interesting.length === 0) return allow();

    let delta = ev.usage(a.object, a.now);
    for (const [k, q] of delta) {
      if (q.nanos < 0n) return deny(admissionForbidden(a, `quota usage is negative for resource(s): ${k}`));
    }
    if (a.operation === 'UPDATE' && a.oldObject) delta = subtract(delta, ev.usage(a.oldObject, a.now));
    for (const [k, q] of [...delta]) if (q.nanos === 0n) delta.delete(k);
    if (delta.size === 0) return allow();

    for (const quota of interesting) {
      const hard = hardOf(quota);
      const used = computeUsed(quota, ev, a, cluster);
      const requested = mask(delta, hard.keys());
      const newUsage = add(used, requested);
      const exceeded = [...requested.keys()].filter((k) => cmpQuantity(newUsage.get(k)!, hard.get(k)!) > 0);
      if (exceeded.length) {
        return deny(
          admissionForbidden(
            a,
            `exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
          ),
        );
      }
    }
    return allow();
  },
};

