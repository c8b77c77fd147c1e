// The EndpointSlice reconciler (staging/src/k8s.io/endpointslice/reconciler.go,
// v1.32) as a pure function: from a Service, its pods, the nodes and the
// slices this controller manages, which slices to create, update and delete.
import type { KObject } from '../../apimachinery/types';
import { findPort, podIPFor, shouldPodBeInEndpoints, shouldSetHostname, isPodReady, type Loose, type ServicePort } from '../endpoint/podutil';

export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const CONTROLLER_MANAGED_BY = 'endpointslice-controller.k8s.io';
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';
export const LABEL_ZONE = 'topology.kubernetes.io/zone';
export const MAX_ENDPOINTS_PER_SLICE = 100;

export type AddressType = 'IPv4' | 'IPv6';

export interface EndpointPort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface Endpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  hostname?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
  nodeName?: string;
  zone?: string;
}

export interface Plan {
  create: KObject[];
  update: KObject[];
  delete: KObject[];
  /** Pods skipped because their node is unknown (upstream requeues the service for them). */
  errors: string[];
}

/** getEndpointPorts: the service's ports resolved against the pod; unresolvable ones are left out. */
export function endpointPorts(svc: Loose, pod: Loose): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of (svc.spec?.ports ?? []) as ServicePort[]) {
    const n = findPort(pod, sp);
    if (n === null) continue;
    out.push({ name: sp.name ?? '', port: n, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}) });
  }
  return out;
}

/** NewPortMapKey: the ports as a set (order does not matter). */
export function portMapKey(ports: readonly Loose[]): string {
  return ports
    .map((p) => JSON.stringify([p?.name ?? '', p?.port ?? 0, p?.protocol ?? 'TCP', p?.appProtocol ?? '']))
    .sort()
    .join('|');
}

/** podToEndpoint: ready = publishNotReadyAddresses || (serving && !terminating). */
export function podToEndpoint(pod: Loose, node: Loose | undefined, svc: Loose, family: AddressType): Endpoint {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata.deletionTimestamp;
  const ready = svc.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const ip = podIPFor(pod, family);
  const ep: Endpoint = {
    addresses: ip ? [ip] : [],
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid ?? '' },
  };
  if (shouldSetHostname(pod, svc)) ep.hostname = pod.spec.hostname;
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata?.labels?.[LABEL_ZONE];
  if (zone) ep.zone = zone;
  return ep;
}

/** hashEndpoint: an endpoint's identity (addresses, hostname, target). */
function endpointKey(ep: Loose): string {
  return JSON.stringify([ep?.addresses ?? [], ep?.hostname ?? '', ep?.targetRef?.namespace ?? '', ep?.targetRef?.name ?? '']);
}

/** endpointsEqualBeyondHash: the rest of what the controller writes. */
function endpointBody(ep: Loose): string {
  const c = ep?.conditions ?? {};
  const t = ep?.targetRef ?? {};
  return JSON.stringify([c.ready ?? null, c.serving ?? null, c.terminating ?? null, ep?.nodeName ?? '', ep?.zone ?? '', t.kind ?? '', t.uid ?? '']);
}

/** setEndpointSliceLabels: the service's labels (bar the reserved ones), headless marker, service name and manager. */
export function sliceLabels(svc: Loose): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((svc.metadata.labels ?? {}) as Record<string, string>)) {
    if (k === LABEL_SERVICE_NAME || k === LABEL_MANAGED_BY) continue;
    out[k] = v;
  }
  if (svc.spec?.clusterIP === 'None') out[LABEL_HEADLESS] = '';
  else delete out[LABEL_HEADLESS];
  out[LABEL_SERVICE_NAME] = svc.metadata.name;
  out[LABEL_MANAGED_BY] = CONTROLLER_MANAGED_BY;
  return out;
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const ak = Object.keys(a ?? {});
  if (ak.length !== Object.keys(b).length) return false;
  return ak.every((k) => a![k] === b[k]);
}

export function ownedBy(slice: KObject, svc: KObject): boolean {
  return (slice.metadata.ownerReferences ?? []).some((r) => r.uid === svc.metadata.uid && r.kind === 'Service' && r.apiVersion === 'v1');
}

/** getEndpointSlicePrefix: "<service>-", cut so generateName's 5 random characters still fit 63. */
export function slicePrefix(svcName: string): string {
  const prefix = `${svcName}-`;
  return prefix.length > 58 ? prefix.slice(0, 58) : prefix;
}

/** newEndpointSlice: owned by the service (controller, blockOwnerDeletion). */
export function newEndpointSlice(svc: Loose, ports: EndpointPort[], addressType: AddressType): KObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: slicePrefix(svc.metadata.name),
      namespace: svc.metadata.namespace,
      labels: sliceLabels(svc),
      ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: svc.metadata.name, uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    addressType,
    endpoints: [],
    ports,
  };
}

/** The address types the service wants (its ipFamilies; IPv4 when unset). */
export function addressTypesOf(svc: Loose): AddressType[] {
  const fams = Array.isArray(svc.spec?.ipFamilies) ? (svc.spec.ipFamilies as string[]) : [];
  const out = fams.filter((f): f is AddressType => f === 'IPv4' || f === 'IPv6');
  return out.length ? out : ['IPv4'];
}

const copy = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;

/** Reconcile: every address type's slices; slices of other types or other owners go. */
export function reconcile(svc: KObject, pods: readonly KObject[], nodes: ReadonlyMap<string, KObject>, existing: readonly KObject[], maxPerSlice = MAX_ENDPOINTS_PER_SLICE): Plan {
  const plan: Plan = { create: [], update: [], delete: [], errors: [] };
  const types = addressTypesOf(svc);
  const byType = new Map<AddressType, KObject[]>();
  for (const s of existing) {
    const at = s.addressType as AddressType;
    if (types.includes(at) && ownedBy(s, svc)) {
      const l = byType.get(at) ?? [];
      l.push(s);
      byType.set(at, l);
    } else plan.delete.push(s);
  }
  for (const at of types) reconcileByAddressType(svc, pods, nodes, byType.get(at) ?? [], at, maxPerSlice, plan);
  // Placeholder: a service whose slices would all go keeps one empty slice.
  if (existing.length === plan.delete.length && plan.create.length === 0) {
    const placeholder = newEndpointSlice(svc, [], types[0]!);
    const only = plan.delete.length === 1 ? plan.delete[0]! : null;
    if (only && isPlaceholderOf(only, placeholder)) plan.delete = [];
    else plan.create.push(placeholder);
  }
  // finalize: recycle the names of slices to delete for slices to create (fewer writes and no gap).
  for (let i = 0; i < plan.delete.length && plan.create.length > 0; ) {
    const gone = plan.delete[i]!;
    const fresh = plan.create[plan.create.length - 1]!;
    if (gone.addressType === fresh.addressType && ownedBy(gone, svc)) {
      fresh.metadata = { ...gone.metadata, labels: fresh.metadata.labels, ownerReferences: fresh.metadata.ownerReferences };
      delete fresh.metadata.generateName;
      plan.create.pop();
      plan.update.push(fresh);
      plan.delete.splice(i, 1);
    } else i++;
  }
  return plan;
}

/** placeholderSliceCompare: same namespace, type, owner, labels, no endpoints or ports. */
function isPlaceholderOf(s: Loose, p: Loose): boolean {
  return (
    s.metadata.namespace === p.metadata.namespace &&
    s.addressType === p.addressType &&
    (s.endpoints ?? []).length === 0 &&
    (s.ports ?? []).length === 0 &&
    sameLabels(s.metadata.labels, p.metadata.labels) &&
    (s.metadata.ownerReferences ?? []).length === 1 &&
    s.metadata.ownerReferences[0].uid === p.metadata.ownerReferences[0].uid
  );
}

function reconcileByAddressType(svc: Loose, pods: readonly KObject[], nodes: ReadonlyMap<string, KObject>, existing: KObject[], at: AddressType, maxPerSlice: number, plan: Plan): void {
  // Desired endpoints grouped by their port set.
  const desired = new Map<string, { ports: EndpointPort[]; endpoints: Map<string, Endpoint> }>();
  for (const pod of pods as Loose[]) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    if (podIPFor(pod, at) === null) continue;
    const ports = endpointPorts(svc, pod);
    const key = portMapKey(ports);
    const node = pod.spec?.nodeName ? nodes.get(pod.spec.nodeName) : undefined;
    if (!node && svc.spec?.publishNotReadyAddresses !== true) {
      plan.errors.push(`skipping Pod ${pod.metadata.name} for Service ${svc.metadata.namespace}/${svc.metadata.name}: Node ${pod.spec?.nodeName ?? ''} Not Found`);
      continue;
    }
    let g = desired.get(key);
    if (!g) desired.set(key, (g = { ports, endpoints: new Map() }));
    const ep = podToEndpoint(pod, node, svc, at);
    g.endpoints.set(endpointKey(ep), ep);
  }
  const existingByKey = new Map<string, KObject[]>();
  for (const s of existing) {
    const k = portMapKey((s.ports as Loose[]) ?? []);
    const l = existingByKey.get(k) ?? [];
    l.push(s);
    existingByKey.set(k, l);
  }
  // Slices whose port set no one wants any more go.
  for (const [k, slices] of existingByKey) if (!desired.has(k)) plan.delete.push(...slices);
  for (const [k, g] of desired) reconcileByPortMapping(svc, existingByKey.get(k) ?? [], g.ports, g.endpoints, at, maxPerSlice, plan);
}

function reconcileByPortMapping(svc: Loose, existing: KObject[], ports: EndpointPort[], want: Map<string, Endpoint>, at: AddressType, maxPerSlice: number, plan: Plan): void {
  const labels = sliceLabels(svc);
  const toUpdate: KObject[] = [];
  const unchanged: KObject[] = [];
  // 1. Drop endpoints no longer wanted, refresh the ones that changed.
  for (const s of existing) {
    const kept: Endpoint[] = [];
    let changed = false;
    for (const ep of ((s.endpoints as Loose[]) ?? []) as Endpoint[]) {
      const k = endpointKey(ep);
      const w = want.get(k);
      if (!w) {
        changed = true;
        continue;
      }
      if (endpointBody(w) !== endpointBody(ep)) {
        changed = true;
        kept.push(w);
      } else kept.push(ep);
      want.delete(k);
    }
    const labelsChanged = !sameLabels(s.metadata.labels, labels);
    if (changed || labelsChanged) {
      if (kept.length === 0) plan.delete.push(s);
      else {
        const c = copy(s);
        c.metadata.labels = labels;
        c.endpoints = kept;
        toUpdate.push(c);
      }
    } else unchanged.push(s);
  }
  // 2. Fill the slices being updated anyway, fullest first.
  if (want.size > 0 && toUpdate.length > 0) {
    const sorted = [...toUpdate].sort((a, b) => (b.endpoints as unknown[]).length - (a.endpoints as unknown[]).length);
    for (const s of sorted) {
      const eps = s.endpoints as Endpoint[];
      for (const [k, ep] of want) {
        if (eps.length >= maxPerSlice) break;
        eps.push(ep);
        want.delete(k);
      }
    }
  }
  // 3. The rest: into one unchanged slice if it fits there, else into new slices.
  while (want.size > 0) {
    let fill: KObject | null = null;
    if (want.size < maxPerSlice && unchanged.length > 0) {
      const i = sliceToFill(unchanged, want.size, maxPerSlice);
      if (i >= 0) {
        fill = copy(unchanged[i]!);
        unchanged.splice(i, 1);
      }
    }
    if (!fill) fill = newEndpointSlice(svc, ports, at);
    const eps = fill.endpoints as Endpoint[];
    for (const [k, ep] of want) {
      if (eps.length >= maxPerSlice) break;
      eps.push(ep);
      want.delete(k);
    }
    if (fill.metadata.name) toUpdate.push(fill);
    else plan.create.push(fill);
  }
  plan.update.push(...toUpdate);
}

/** getSliceToFill: the slice with the fewest free places that still fits n endpoints, or -1. */
function sliceToFill(slices: KObject[], n: number, max: number): number {
  let best = -1;
  let bestFree = Infinity;
  slices.forEach((s, i) => {
    const free = max - ((s.endpoints as unknown[]) ?? []).length;
    if (free >= n && free < bestFree) {
      best = i;
      bestFree = free;
    }
  });
  return best;
}
