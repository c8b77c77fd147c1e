// LimitRanger (plugin/pkg/admission/limitranger/admission.go). Admit fills in
// container requests and limits from the namespace's LimitRange defaults and
// records what it set in the kubernetes.io/limit-ranger annotation; Validate
// enforces min, max and maxLimitRequestRatio for Container, Pod and
// PersistentVolumeClaim limit items. Values are compared at milli precision,
// rounded up, as requestLimitEnforcedValues does.
import type { KObject } from '../../apimachinery/types';
import { aggregateMessage } from '../../apimachinery/fieldErrors';
import type { AdmissionAttributes, AdmissionPlugin, ClusterReader } from '../types';
import { admissionForbidden, allow, deny, isCoreKind } from './errors';
import { ensureRec, isRec, path, rec, recs, str, type Rec } from './json';
import { containersOf, initContainersOf, podLimits, podRequests } from './podResources';
import { formatQuantity, intValue, milliValue, type Quantity } from '../validation/quantity';
import { parseResourceList, type ResourceList } from './quantity';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

/** int64 MaxMilliValue: above it upstream compares whole units instead of millis. */
const MAX_MILLI_VALUE = 9223372036854775807n / 1000n;

interface LimitItem {
  type: string;
  max: ResourceList;
  min: ResourceList;
  default: ResourceList;
  defaultRequest: ResourceList;
  maxLimitRequestRatio: ResourceList;
}

/** A LimitRange's items with the API's own defaulting applied (SetDefaults_LimitRangeItem), in case storage did not. */
export function limitItems(lr: KObject): LimitItem[] {
  return recs(path(lr, 'spec', 'limits')).map((raw) => {
    const item: LimitItem = {
      type: str(raw['type']) ?? '',
      max: parseResourceList(raw['max']),
      min: parseResourceList(raw['min']),
      default: parseResourceList(raw['default']),
      defaultRequest: parseResourceList(raw['defaultRequest']),
      maxLimitRequestRatio: parseResourceList(raw['maxLimitRequestRatio']),
    };
    if (item.type === 'Container') {
      for (const [k, q] of item.max) if (!item.default.has(k)) item.default.set(k, q);
      for (const [k, q] of item.default) if (!item.defaultRequest.has(k)) item.defaultRequest.set(k, q);
      for (const [k, q] of item.min) if (!item.defaultRequest.has(k)) item.defaultRequest.set(k, q);
    }
    return item;
  });
}

function supportsAttributes(a: AdmissionAttributes): boolean {
  if (a.subresource !== '') return false;
  // Containers cannot change after creation, so pod updates are not checked.
  if (isCoreKind(a, 'Pod') && a.operation === 'UPDATE') return false;
  return isCoreKind(a, 'Pod') || isCoreKind(a, 'PersistentVolumeClaim');
}

function markedForDeletion(a: AdmissionAttributes): boolean {
  return !!a.oldObject?.metadata.deletionTimestamp;
}

// ---- defaulting (Admit) ----

function mergeContainerResources(container: Rec, defaults: { requests: ResourceList; limits: ResourceList }, prefix: string, annotations: string[]): void {
  const had = { resources: isRec(container['resources']), limits: isRec(path(container, 'resources', 'limits')), requests: isRec(path(container, 'resources', 'requests')) };
  const resources = ensureRec(container, 'resources');
  const limits = ensureRec(resources, 'limits');
  const requests = ensureRec(resources, 'requests');
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const k of [...defaults.limits.keys()].sort()) {
    if (!(k in limits)) {
      limits[k] = formatQuantity(defaults.limits.get(k)!);
      setLimits.push(k);
    }
  }
  for (const k of [...defaults.requests.keys()].sort()) {
    if (!(k in requests)) {
      requests[k] = formatQuantity(defaults.requests.get(k)!);
      setRequests.push(k);
    }
  }
  // Upstream leaves empty maps behind, which JSON omits: drop the ones made here.
  if (!had.limits && Object.keys(limits).length === 0) delete resources['limits'];
  if (!had.requests && Object.keys(requests).length === 0) delete resources['requests'];
  if (!had.resources && Object.keys(resources).length === 0) delete container['resources'];
  const name = str(container['name']) ?? '';
  if (setRequests.length) annotations.push(`${setRequests.join(', ')} request for ${prefix} ${name}`);
  if (setLimits.length) annotations.push(`${setLimits.join(', ')} limit for ${prefix} ${name}`);
}

function podMutateLimit(lr: KObject, pod: KObject): void {
  const requests: ResourceList = new Map();
  const limits: ResourceList = new Map();
  for (const item of limitItems(lr)) {
    if (item.type !== 'Container') continue;
    for (const [k, q] of item.defaultRequest) requests.set(k, q);
    for (const [k, q] of item.default) limits.set(k, q);
  }
  const spec = rec(pod['spec']);
  const annotations: string[] = [];
  for (const c of containersOf(spec)) mergeContainerResources(c, { requests, limits }, 'container', annotations);
  for (const c of initContainersOf(spec)) mergeContainerResources(c, { requests, limits }, 'init container', annotations);
  if (annotations.length) {
    const meta = pod.metadata as unknown as Rec;
    ensureRec(meta, 'annotations')[LIMIT_RANGER_ANNOTATION] = `LimitRanger plugin set: ${annotations.join('; ')}`;
  }
}

// ---- constraints (Validate) ----

function enforcedValues(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity): [bigint, bigint, bigint] {
  const r = req ? intValue(req) : 0n;
  const l = lim ? intValue(lim) : 0n;
  const e = intValue(enforced);
  if (r <= MAX_MILLI_VALUE && l <= MAX_MILLI_VALUE && e <= MAX_MILLI_VALUE) {
    return [req ? milliValue(req) : 0n, lim ? milliValue(lim) : 0n, milliValue(enforced)];
  }
  return [r, l, e];
}

function minConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | null {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = enforcedValues(req, lim, enforced);
  const en = formatQuantity(enforced);
  if (!req) return `minimum ${name} usage per ${type} is ${en}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${en}, but request is ${formatQuantity(req)}`;
  if (lim && l < e) return `minimum ${name} usage per ${type} is ${en}, but limit is ${formatQuantity(lim)}`;
  return null;
}

function maxRequestConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList): string | null {
  const req = requests.get(name);
  const [r, , e] = enforcedValues(req, undefined, enforced);
  const en = formatQuantity(enforced);
  if (!req) return `maximum ${name} usage per ${type} is ${en}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${type} is ${en}, but request is ${formatQuantity(req)}`;
  return null;
}

function maxConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | null {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = enforcedValues(req, lim, enforced);
  const en = formatQuantity(enforced);
  if (!lim) return `maximum ${name} usage per ${type} is ${en}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${en}, but limit is ${formatQuantity(lim)}`;
  if (req && r > e) return `maximum ${name} usage per ${type} is ${en}, but request is ${formatQuantity(req)}`;
  return null;
}

function ratioConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | null {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = enforcedValues(req, lim, enforced);
  const en = formatQuantity(enforced);
  if (!req || r === 0n) return `${name} max limit to request ratio per ${type} is ${en}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${name} max limit to request ratio per ${type} is ${en}, but no limit is specified or limit is 0`;
  const observed = Number(l) / Number(r);
  let observedCmp = observed;
  let max = Number(intValue(enforced));
  if (intValue(enforced) <= MAX_MILLI_VALUE) {
    observedCmp = observed * 1000;
    max = Number(milliValue(enforced));
  }
  if (observedCmp > max) return `${name} max limit to request ratio per ${type} is ${en}, but provided ratio is ${observed.toFixed(6)}`;
  return null;
}

function checkItem(item: LimitItem, requests: ResourceList, limits: ResourceList, errs: string[]): void {
  const push = (m: string | null) => {
    if (m) errs.push(m);
  };
  for (const [k, q] of item.min) push(minConstraint(item.type, k, q, requests, limits));
  for (const [k, q] of item.max) push(maxConstraint(item.type, k, q, requests, limits));
  for (const [k, q] of item.maxLimitRequestRatio) push(ratioConstraint(item.type, k, q, requests, limits));
}

export function podValidateLimit(lr: KObject, pod: KObject): string[] {
  const errs: string[] = [];
  const spec = rec(pod['spec']);
  for (const item of limitItems(lr)) {
    if (item.type === 'Container') {
      for (const c of [...containersOf(spec), ...initContainersOf(spec)]) {
        checkItem(item, parseResourceList(path(c, 'resources', 'requests')), parseResourceList(path(c, 'resources', 'limits')), errs);
      }
    } else if (item.type === 'Pod') {
      checkItem(item, podRequests(spec, false), podLimits(spec, false), errs);
    }
  }
  return errs;
}

export function pvcValidateLimit(lr: KObject, pvc: KObject): string[] {
  const errs: string[] = [];
  const requests = parseResourceList(path(pvc, 'spec', 'resources', 'requests'));
  for (const item of limitItems(lr)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, q] of item.min) {
      const m = minConstraint(item.type, k, q, requests, new Map());
      if (m) errs.push(m);
    }
    for (const [k, q] of item.max) {
      const m = maxRequestConstraint(item.type, k, q, requests);
      if (m) errs.push(m);
    }
  }
  return errs;
}

function limitRanges(a: AdmissionAttributes, cluster: ClusterReader): readonly KObject[] {
  return cluster.list('', 'limitranges', a.namespace);
}

export const limitRanger: AdmissionPlugin = {
  name: 'LimitRanger',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
  mayMutate: (a) => supportsAttributes(a) && a.resource.resource === 'pods',
  admit(a, cluster) {
    if (!supportsAttributes(a) || markedForDeletion(a) || !a.object) return allow();
    if (a.resource.resource !== 'pods') return allow(); // PVCs are only validated
    for (const lr of limitRanges(a, cluster)) podMutateLimit(lr, a.object);
    return allow();
  },
  validate(a, cluster) {
    if (!supportsAttributes(a) || markedForDeletion(a) || !a.object) return allow();
    for (const lr of limitRanges(a, cluster)) {
      const errs =
        a.resource.resource === 'pods'
          ? podValidateLimit(lr, a.object)
          : a.resource.resource === 'persistentvolumeclaims'
            ? pvcValidateLimit(lr, a.object)
            : [];
      if (errs.length) return deny(admissionForbidden(a, aggregateMessage(errs)));
    }
    return allow();
  },
};
