// framework.Resource and the pod request arithmetic the scheduler uses:
// k8s.io/component-helpers/resource/helpers.go PodRequests (v1.32) and
// pkg/scheduler/framework/types.go calculateResource / Resource.Add.
//
// Upstream sums resource.Quantity values exactly and converts once at the
// end (MilliValue for cpu, Value for the rest, both rounding up). We keep the
// sums exact the same way, in nano-units (bigint), so a pod of two "0.5"
// memory containers requests 1 byte, not 2.
import { isQualifiedName } from '../../apimachinery/validation/names';
import { parseQuantity } from '../../apiserver/validation/quantity';
import type { Container, Pod, ResourceList } from './api';

export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  /** Pods a node allows (allocatable "pods"). */
  allowedPodNumber: number;
  /** Extended resources, hugepages, attachable volumes and *kubernetes.io/ names. */
  scalar: Record<string, number>;
}

/** schedutil.DefaultMilliCPURequest / DefaultMemoryRequest (pkg/scheduler/util/pod_resources.go). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

const NANO = 1_000_000_000n;
const DEFAULT_CPU_NANOS = BigInt(DEFAULT_MILLI_CPU_REQUEST) * 1_000_000n;
const DEFAULT_MEMORY_NANOS = BigInt(DEFAULT_MEMORY_REQUEST) * NANO;

export function emptyResource(): Resource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, allowedPodNumber: 0, scalar: {} };
}

export function cloneResource(r: Resource): Resource {
  return { milliCPU: r.milliCPU, memory: r.memory, ephemeralStorage: r.ephemeralStorage, allowedPodNumber: r.allowedPodNumber, scalar: { ...r.scalar } };
}

// Caches of immutable functions of their input (not engine state): parsing is
// the expensive part, and the same few quantity strings recur in every pod.
const nanosCache = new Map<string | number, bigint>();
const numberCache = new Map<string, number>();
const CACHE_LIMIT = 10_000;

/** A quantity as exact nano-units; 0 when it does not parse (API validation rejects those). */
export function quantityNanos(v: string | number | undefined): bigint {
  if (v === undefined) return 0n;
  const hit = nanosCache.get(v);
  if (hit !== undefined) return hit;
  const q = parseQuantity(v);
  const n = q.ok ? q.quantity.nanos : 0n;
  if (nanosCache.size < CACHE_LIMIT) nanosCache.set(v, n);
  return n;
}

const MILLI_UNIT = 1_000_000n;

/** Quantity.MilliValue() (milli) or Value(): scaled down, rounding away from zero. */
function nanosToNumber(nanos: bigint, milli: boolean): number {
  const unit = milli ? MILLI_UNIT : NANO;
  if (nanos >= 0n) return Number((nanos + unit - 1n) / unit);
  return -Number((-nanos + unit - 1n) / unit);
}

/** Quantity → number: milli-units for cpu, whole units (rounded up) for the rest, as MilliValue()/Value(). */
export function quantityNumber(v: string | number | undefined, milli: boolean): number {
  if (v === undefined) return 0;
  const key = `${milli ? 'm' : 'u'}${v}`;
  const hit = numberCache.get(key);
  if (hit !== undefined) return hit;
  const n = nanosToNumber(quantityNanos(v), milli);
  if (numberCache.size < CACHE_LIMIT) numberCache.set(key, n);
  return n;
}

/** v1helper.IsNativeResource: unprefixed, or in the *kubernetes.io/ namespace. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || isPrefixedNativeResource(name);
}

/** v1helper.IsPrefixedNativeResource */
export function isPrefixedNativeResource(name: string): boolean {
  return name.includes('kubernetes.io/');
}

/** v1helper.IsExtendedResourceName: not native, not "requests."-prefixed, and a qualified name as a quota key. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** v1helper.IsHugePageResourceName */
export function isHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** v1helper.IsAttachableVolumeResourceName */
export function isAttachableVolumeResourceName(name: string): boolean {
  return name.startsWith('attachable-volumes-');
}

/** schedutil.IsScalarResourceName: extended, hugepages, prefixed native, attachable volumes. */
export function isScalarResourceName(name: string): boolean {
  return isExtendedResourceName(name) || isHugePageResourceName(name) || isPrefixedNativeResource(name) || isAttachableVolumeResourceName(name);
}

/** Adds a ResourceList into a Resource (framework.Resource.Add): each quantity converted on its own. */
export function addList(r: Resource, list: ResourceList | undefined): void {
  if (!list) return;
  for (const name in list) {
    const v = list[name];
    switch (name) {
      case 'cpu':
        r.milliCPU += quantityNumber(v, true);
        break;
      case 'memory':
        r.memory += quantityNumber(v, false);
        break;
      case 'ephemeral-storage':
        r.ephemeralStorage += quantityNumber(v, false);
        break;
      case 'pods':
        r.allowedPodNumber += quantityNumber(v, false);
        break;
      default:
        if (isScalarResourceName(name)) r.scalar[name] = (r.scalar[name] ?? 0) + quantityNumber(v, false);
    }
  }
}

/** framework.NewResource(list). */
export function resourceOf(list: ResourceList | undefined): Resource {
  const r = emptyResource();
  addList(r, list);
  return r;
}

/** A v1.ResourceList held exactly: resource name → nano-units. */
export type ExactList = Map<string, bigint>;

/** addResourceList */
function addExact(dst: ExactList, src: ExactList): void {
  for (const [k, v] of src) dst.set(k, (dst.get(k) ?? 0n) + v);
}

/** maxResourceList: a key absent from dst, or larger in src, takes src's value. */
function maxExact(dst: ExactList, src: ExactList): void {
  for (const [k, v] of src) {
    const d = dst.get(k);
    if (d === undefined || v > d) dst.set(k, v);
  }
}

/**
 * A container's requests, with applyNonMissing when `nonMissing`: cpu and
 * memory the container does not list get the scheduler's defaults; a listed
 * request, even "0", is kept.
 */
function addContainer(dst: ExactList, c: Container, nonMissing: boolean): void {
  const requests = c.resources?.requests;
  if (requests) for (const k in requests) dst.set(k, (dst.get(k) ?? 0n) + quantityNanos(requests[k]));
  if (nonMissing) {
    if (!requests || !Object.hasOwn(requests, 'cpu')) dst.set('cpu', (dst.get('cpu') ?? 0n) + DEFAULT_CPU_NANOS);
    if (!requests || !Object.hasOwn(requests, 'memory')) dst.set('memory', (dst.get('memory') ?? 0n) + DEFAULT_MEMORY_NANOS);
  }
}

function containerExact(c: Container, nonMissing: boolean): ExactList {
  const out: ExactList = new Map();
  addContainer(out, c, nonMissing);
  return out;
}

/**
 * resourcehelper.PodRequests (pod-level resources skipped: PodLevelResources
 * is alpha and off in v1.32). Regular containers are summed; each init
 * container is a peak of its own requests plus the sidecars (restartPolicy
 * Always) started before it; a sidecar's peak is the sidecars so far, and
 * sidecars also add to the running sum. The larger of sum and peaks wins per
 * resource, then overhead is added (never defaulted).
 */
export function podRequestList(pod: Pod, nonMissing = false): ExactList {
  const reqs: ExactList = new Map();
  for (const c of pod.spec.containers ?? []) addContainer(reqs, c, nonMissing);
  const inits = pod.spec.initContainers;
  if (!inits || inits.length === 0) return addOverhead(reqs, pod);
  const sidecars: ExactList = new Map();
  const initPeak: ExactList = new Map();
  for (const c of inits) {
    const creq = containerExact(c, nonMissing);
    if (c.restartPolicy === 'Always') {
      addExact(reqs, creq);
      addExact(sidecars, creq);
      maxExact(initPeak, sidecars);
    } else {
      addExact(creq, sidecars);
      maxExact(initPeak, creq);
    }
  }
  maxExact(reqs, initPeak);
  return addOverhead(reqs, pod);
}

function addOverhead(reqs: ExactList, pod: Pod): ExactList {
  const overhead = pod.spec.overhead;
  if (overhead) for (const k in overhead) reqs.set(k, (reqs.get(k) ?? 0n) + quantityNanos(overhead[k]));
  return reqs;
}

/** framework.Resource.Add over an exact list: each total converted once, rounding up. */
export function resourceOfExact(list: ExactList): Resource {
  const r = emptyResource();
  for (const [name, nanos] of list) {
    switch (name) {
      case 'cpu':
        r.milliCPU += nanosToNumber(nanos, true);
        break;
      case 'memory':
        r.memory += nanosToNumber(nanos, false);
        break;
      case 'ephemeral-storage':
        r.ephemeralStorage += nanosToNumber(nanos, false);
        break;
      case 'pods':
        r.allowedPodNumber += nanosToNumber(nanos, false);
        break;
      default:
        if (isScalarResourceName(name)) r.scalar[name] = (r.scalar[name] ?? 0) + nanosToNumber(nanos, false);
    }
  }
  return r;
}

/**
 * The pod's requests as a framework.Resource. `nonMissing` gives containers
 * without a cpu or memory request the scheduler's defaults: the "non-zero"
 * requests of calculateResource (NodeInfo.NonZeroRequested) and of the
 * NodeResourcesFit scorers. Only milliCPU and memory differ between the two.
 */
export function podRequests(pod: Pod, nonMissing = false): Resource {
  return resourceOfExact(podRequestList(pod, nonMissing));
}
