// Resource names and quantities in ResourceRequirements, quotas and limit ranges
// (pkg/apis/core/validation/validation.go: validateResourceRequirements,
// validateContainerResourceName, ValidateResourceQuantityValue; pkg/apis/core/helper/helpers.go).
import { isQualifiedName } from '../../../apimachinery/validation/names';
import { formatQuantity, parseQuantity, type Quantity } from '../quantity';
import { fieldErr, FieldPath, IS_NEGATIVE_ERROR, msgs, sortedKeys, type Errs } from '../util';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);
const INTEGER_RESOURCES = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

export const isHugePageResourceName = (n: string): boolean => n.startsWith('hugepages-');
/** kubernetes.io/ prefixed or unprefixed names are native. */
export const isNativeResource = (n: string): boolean => !n.includes('/') || n.includes('kubernetes.io/');
export const isExtendedResourceName = (n: string): boolean =>
  !isNativeResource(n) && !n.startsWith('requests.') && isQualifiedName(`requests.${n}`).length === 0;
export function isOvercommitAllowed(n: string): boolean {
  return isNativeResource(n) && !isHugePageResourceName(n);
}
function isStandardResourceName(n: string): boolean {
  return STANDARD_RESOURCES.has(n) || isHugePageResourceName(n) || n.startsWith('count/');
}
function isIntegerResourceName(n: string): boolean {
  return INTEGER_RESOURCES.has(n) || isExtendedResourceName(n);
}

function validateResourceName(name: string, p: FieldPath): Errs {
  const errs = msgs(p, name, isQualifiedName(name));
  if (errs.length) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) errs.push(fieldErr.invalid(p, name, 'must be a standard resource type or fully qualified'));
  return errs;
}

export function validateContainerResourceName(name: string, p: FieldPath): Errs {
  const errs = validateResourceName(name, p);
  if (!name.includes('/')) {
    if (!(STANDARD_CONTAINER_RESOURCES.has(name) || isHugePageResourceName(name))) errs.push(fieldErr.invalid(p, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(fieldErr.invalid(p, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** A quantity from the (already canonicalised) object; unparsable ones were rejected at decode. */
export function q(v: unknown): Quantity | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const r = parseQuantity(v);
  return r.ok ? r.quantity : null;
}

export function validateResourceQuantityValue(resource: string, value: Quantity, p: FieldPath): Errs {
  const errs: Errs = [];
  if (value.nanos < 0n) errs.push(fieldErr.invalid(p, formatQuantity(value), IS_NEGATIVE_ERROR));
  if (isIntegerResourceName(resource) && value.nanos % 1_000_000_000n !== 0n) errs.push(fieldErr.invalid(p, formatQuantity(value), 'must be an integer'));
  return errs;
}

/** ValidateResourceRequirements for a container (limits, then requests against limits). */
export function validateResourceRequirements(req: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  const r = (typeof req === 'object' && req !== null ? req : {}) as Record<string, Record<string, unknown> | undefined>;
  const limPath = p.child('limits');
  const reqPath = p.child('requests');
  const limits = r.limits ?? {};
  const requests = r.requests ?? {};
  let limCpuMem = false;
  let reqCpuMem = false;
  let hugePages = false;
  for (const name of sortedKeys(limits)) {
    const fp = limPath.key(name);
    errs.push(...validateContainerResourceName(name, fp));
    const v = q(limits[name]);
    if (v) errs.push(...validateResourceQuantityValue(name, v, fp));
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') limCpuMem = true;
  }
  for (const name of sortedKeys(requests)) {
    const fp = reqPath.key(name);
    errs.push(...validateContainerResourceName(name, fp));
    const v = q(requests[name]);
    if (v) errs.push(...validateResourceQuantityValue(name, v, fp));
    const lim = Object.hasOwn(limits, name) ? q(limits[name]) : null;
    if (v && lim) {
      if (v.nanos !== lim.nanos && !isOvercommitAllowed(name)) {
        errs.push(fieldErr.invalid(reqPath, formatQuantity(v), `must be equal to ${name} limit of ${formatQuantity(lim)}`));
      } else if (v.nanos > lim.nanos) {
        errs.push(fieldErr.invalid(reqPath, formatQuantity(v), `must be less than or equal to ${name} limit of ${formatQuantity(lim)}`));
      }
    } else if (!Object.hasOwn(limits, name) && !isOvercommitAllowed(name)) {
      errs.push(fieldErr.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') reqCpuMem = true;
  }
  if (!limCpuMem && !reqCpuMem && hugePages) errs.push(fieldErr.forbidden(p, 'HugePages require cpu or memory'));
  return errs;
}

/** ValidateResourceQuotaResourceName / LimitRange names: standard or fully qualified. */
export function validateGenericResourceName(name: string, p: FieldPath): Errs {
  return validateResourceName(name, p);
}

export { FieldPath };
