// Endpoints subsets as the endpoint controller builds them
// (pkg/controller/endpoint/endpoints_controller.go and pkg/api/v1/endpoints
// RepackSubsets, v1.32): one subset per address and port set, then repacked so
// addresses offering the same ports share a subset; truncated at 1000 addresses.
import type { KObject } from '../../apimachinery/types';
import { findPort, isPodReady, podIPFor, shouldPodBeInEndpoints, shouldSetHostname, type Loose, type ServicePort } from './podutil';

export const MAX_CAPACITY = 1000;
export const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: { kind: string; namespace: string; name: string; uid: string };
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

/** podToEndpointAddressForService: the pod's IP of the service's (first) family. */
export function podToEndpointAddress(svc: Loose, pod: Loose): EndpointAddress | null {
  const fams = Array.isArray(svc.spec?.ipFamilies) && svc.spec.ipFamilies.length ? svc.spec.ipFamilies : [typeof svc.spec?.clusterIP === 'string' && svc.spec.clusterIP.includes(':') ? 'IPv6' : 'IPv4'];
  const ip = podIPFor(pod, fams[0] === 'IPv6' ? 'IPv6' : 'IPv4');
  if (!ip) return null;
  const a: EndpointAddress = { ip };
  if (shouldSetHostname(pod, svc)) a.hostname = pod.spec.hostname;
  a.nodeName = pod.spec?.nodeName ?? '';
  a.targetRef = { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid ?? '' };
  return a;
}

/** The subsets for a service and its (selected) pods, repacked and sorted. */
export function computeSubsets(svc: Loose, pods: readonly KObject[]): EndpointSubset[] {
  const tolerateUnready = svc.spec?.publishNotReadyAddresses === true;
  const out: EndpointSubset[] = [];
  const add = (pod: Loose, a: EndpointAddress, ports: EndpointPort[] | undefined) => {
    if (tolerateUnready || isPodReady(pod)) out.push({ addresses: [a], ...(ports ? { ports } : {}) });
    else out.push({ notReadyAddresses: [a], ...(ports ? { ports } : {}) });
  };
  const svcPorts = (svc.spec?.ports ?? []) as ServicePort[];
  for (const pod of pods as Loose[]) {
    if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
    const a = podToEndpointAddress(svc, pod);
    if (!a) continue;
    if (svcPorts.length === 0) {
      // A headless service may have no ports.
      if (svc.spec?.clusterIP === 'None') add(pod, a, undefined);
      continue;
    }
    for (const sp of svcPorts) {
      const n = findPort(pod, sp);
      if (n === null) continue;
      add(pod, a, [{ ...(sp.name ? { name: sp.name } : {}), port: n, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}) }]);
    }
  }
  return repackSubsets(out);
}

const portKey = (p: EndpointPort) => JSON.stringify([p.name ?? '', p.port, p.protocol, p.appProtocol ?? '']);
const addrKey = (a: EndpointAddress) => `${a.ip}\x00${a.targetRef?.uid ?? ''}`;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** LessEndpointAddress: by IP, then target uid. */
function lessAddress(a: EndpointAddress, b: EndpointAddress): number {
  return cmp(a.ip, b.ip) || cmp(a.targetRef?.uid ?? '', b.targetRef?.uid ?? '');
}

/**
 * RepackSubsets: map each port to the addresses offering it (ready wins over
 * not ready), then group ports by identical address sets. Upstream orders
 * ports and subsets by an MD5 of their contents; here by their contents.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addrs = new Map<string, EndpointAddress>();
  const portToAddrs = new Map<string, { port: EndpointPort | null; ready: Map<string, boolean> }>();
  const map = (port: EndpointPort | null, s: EndpointSubset) => {
    const k = port ? portKey(port) : '-1';
    let e = portToAddrs.get(k);
    if (!e) portToAddrs.set(k, (e = { port, ready: new Map() }));
    for (const a of s.addresses ?? []) {
      addrs.set(addrKey(a), a);
      e.ready.set(addrKey(a), true);
    }
    for (const a of s.notReadyAddresses ?? []) {
      addrs.set(addrKey(a), a);
      if (!e.ready.has(addrKey(a))) e.ready.set(addrKey(a), false);
    }
  };
  for (const s of subsets) {
    if (!s.ports || s.ports.length === 0) map(null, s);
    else for (const p of s.ports) map(p, s);
  }
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, ready } of portToAddrs.values()) {
    const k = [...ready].map(([a, r]) => `${a}\x01${r}`).sort().join('\x02');
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { ready, ports: [] }));
    if (port) g.ports.push(port);
  }
  const final: EndpointSubset[] = [];
  for (const g of groups.values()) {
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [k, r] of g.ready) (r ? ready : notReady).push(addrs.get(k)!);
    const s: EndpointSubset = {};
    if (ready.length) s.addresses = ready.sort(lessAddress);
    if (notReady.length) s.notReadyAddresses = notReady.sort(lessAddress);
    if (g.ports.length) s.ports = g.ports.sort((a, b) => cmp(portKey(a), portKey(b)));
    final.push(s);
  }
  return final.sort((a, b) => cmp(JSON.stringify(a), JSON.stringify(b)));
}

/** truncateEndpoints: cut to 1000 addresses, proportionally per subset; ready ones are kept first. */
export function truncateSubsets(subsets: EndpointSubset[]): boolean {
  let totalReady = 0;
  let totalNotReady = 0;
  for (const s of subsets) {
    totalReady += (s.addresses ?? []).length;
    totalNotReady += (s.notReadyAddresses ?? []).length;
  }
  if (totalReady + totalNotReady <= MAX_CAPACITY) return false;
  const truncateReady = totalReady > MAX_CAPACITY;
  const max = truncateReady ? MAX_CAPACITY : MAX_CAPACITY - totalReady;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  for (const s of subsets) {
    const inSubset = truncateReady ? (s.addresses ?? []).length : (s.notReadyAddresses ?? []).length;
    const toBeAdded = Math.min(Math.ceil((inSubset / numTotal) * max), canBeAdded);
    if (truncateReady) {
      if (s.addresses) s.addresses = s.addresses.slice(0, toBeAdded);
      delete s.notReadyAddresses;
      canBeAdded -= (s.addresses ?? []).length;
    } else {
      if (s.notReadyAddresses) s.notReadyAddresses = s.notReadyAddresses.slice(0, toBeAdded);
      canBeAdded -= (s.notReadyAddresses ?? []).length;
    }
  }
  return true;
}

/** The subsets in a fixed shape, to compare what the store holds with what is wanted (resourceVersions ignored). */
export function canonicalSubsets(subsets: unknown): string {
  const addr = (a: Loose) => [a?.ip ?? '', a?.hostname ?? '', a?.nodeName ?? '', a?.targetRef?.kind ?? '', a?.targetRef?.namespace ?? '', a?.targetRef?.name ?? '', a?.targetRef?.uid ?? ''];
  const port = (p: Loose) => [p?.name ?? '', p?.port ?? 0, p?.protocol ?? 'TCP', p?.appProtocol ?? ''];
  const list = Array.isArray(subsets) ? subsets : [];
  return JSON.stringify(list.map((s: Loose) => [(s?.addresses ?? []).map(addr), (s?.notReadyAddresses ?? []).map(addr), (s?.ports ?? []).map(port)]));
}
