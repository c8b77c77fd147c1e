// What kube-proxy makes of the Services and EndpointSlices its informers hold
// (pkg/proxy/servicechangetracker.go, endpointslicecache.go, topology.go): one
// ServicePort per port of each Service with a cluster IP, and its endpoints,
// sorted as upstream sorts them (by "ip:port").
import type { KObject } from '../apimachinery/types';
import type { Loose } from '../controllers/endpoint/podutil';

/** Service ports kube-proxy programs (IPv4, single stack). */
export interface ServicePort {
  /** ServicePortName.String(): "ns/name:port", or "ns/name" for an unnamed port. */
  name: string;
  namespace: string;
  service: string;
  portName: string;
  /** Lower case, as the chain hashes and -p take it. */
  protocol: 'tcp' | 'udp' | 'sctp';
  clusterIP: string;
  port: number;
  nodePort: number;
  externalIPs: string[];
  loadBalancerIPs: string[];
  loadBalancerSourceRanges: string[];
  healthCheckNodePort: number;
  sessionAffinityClientIP: boolean;
  /** sessionAffinityConfig.clientIP.timeoutSeconds (default 10800). */
  stickyMaxAgeSeconds: number;
  internalPolicyLocal: boolean;
  externalPolicyLocal: boolean;
}

export interface Endpoint {
  ip: string;
  port: number;
  /** "ip:port" */
  str: string;
  isLocal: boolean;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
}

const DEFAULT_STICKY_SECONDS = 10_800;

export function servicePortName(namespace: string, name: string, port: string): string {
  return `${namespace}/${name}${port ? `:${port}` : ''}`;
}

/** The Service's ports kube-proxy proxies (none for headless and ExternalName Services). */
export function servicePorts(svc: KObject): ServicePort[] {
  const spec = ((svc as Loose).spec ?? {}) as Loose;
  const clusterIP: string = spec.clusterIP ?? '';
  if (!clusterIP || clusterIP === 'None' || spec.type === 'ExternalName') return [];
  const ns = svc.metadata.namespace ?? 'default';
  const svcName = svc.metadata.name ?? '';
  const lbIPs = ((((svc as Loose).status ?? {}).loadBalancer ?? {}).ingress ?? []).map((i: Loose) => i.ip).filter((ip: unknown): ip is string => typeof ip === 'string' && ip !== '');
  const externallyAccessible = (p: Loose) => (p.nodePort ?? 0) > 0 || lbIPs.length > 0 || (spec.externalIPs ?? []).length > 0;
  return ((spec.ports ?? []) as Loose[]).map((p) => ({
    name: servicePortName(ns, svcName, p.name ?? ''),
    namespace: ns,
    service: svcName,
    portName: p.name ?? '',
    protocol: String(p.protocol ?? 'TCP').toLowerCase() as ServicePort['protocol'],
    clusterIP,
    port: p.port,
    nodePort: p.nodePort ?? 0,
    externalIPs: [...(spec.externalIPs ?? [])],
    loadBalancerIPs: lbIPs,
    loadBalancerSourceRanges: [...(spec.loadBalancerSourceRanges ?? [])],
    healthCheckNodePort: spec.healthCheckNodePort ?? 0,
    sessionAffinityClientIP: spec.sessionAffinity === 'ClientIP',
    stickyMaxAgeSeconds: spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? DEFAULT_STICKY_SECONDS,
    internalPolicyLocal: spec.internalTrafficPolicy === 'Local',
    externalPolicyLocal: externallyAccessible(p) && spec.externalTrafficPolicy === 'Local',
  }));
}

export function externallyAccessible(sp: ServicePort): boolean {
  return sp.nodePort > 0 || sp.loadBalancerIPs.length > 0 || sp.externalIPs.length > 0;
}

export function usesClusterEndpoints(sp: ServicePort): boolean {
  return !sp.internalPolicyLocal || (externallyAccessible(sp) && !sp.externalPolicyLocal);
}

export function usesLocalEndpoints(sp: ServicePort): boolean {
  return sp.internalPolicyLocal || (externallyAccessible(sp) && sp.externalPolicyLocal);
}

/**
 * Every service port's endpoints, by ServicePortName, from the slices
 * (labelled kubernetes.io/service-name; IPv4 only; endpoints without an
 * address skipped). A nil ready counts as ready, a nil serving as ready.
 */
export function endpointsByServicePort(slices: Iterable<KObject>, nodeName: string): Map<string, Endpoint[]> {
  const out = new Map<string, Map<string, Endpoint>>();
  for (const s of slices) {
    const sl = s as Loose;
    const svc = s.metadata.labels?.['kubernetes.io/service-name'];
    if (!svc || sl.addressType !== 'IPv4') continue;
    for (const port of (sl.ports ?? []) as Loose[]) {
      if (typeof port.port !== 'number') continue;
      const key = servicePortName(s.metadata.namespace ?? 'default', svc, port.name ?? '');
      let eps = out.get(key);
      if (!eps) out.set(key, (eps = new Map()));
      for (const e of (sl.endpoints ?? []) as Loose[]) {
        const ip = e.addresses?.[0];
        if (!ip) continue;
        const c = (e.conditions ?? {}) as Loose;
        const ready = c.ready !== false;
        const ep: Endpoint = { ip, port: port.port, str: `${ip}:${port.port}`, isLocal: e.nodeName === nodeName, ready, serving: c.serving ?? ready, terminating: c.terminating === true };
        // One endpoint per address and port, even when slices overlap during their controller's updates.
        if (!eps.has(ep.str)) eps.set(ep.str, ep);
      }
    }
  }
  const sorted = new Map<string, Endpoint[]>();
  for (const [k, eps] of out) sorted.set(k, [...eps.values()].sort((a, b) => (a.str < b.str ? -1 : a.str > b.str ? 1 : 0)));
  return sorted;
}

export interface Categorized {
  cluster: Endpoint[];
  local: Endpoint[];
  /** Endpoints this node may send to, each with its own chain. */
  reachable: Endpoint[];
  hasAny: boolean;
}

/**
 * CategorizeEndpoints (topology.go) without topology hints: ready endpoints,
 * or, when none is ready, the serving ones that are terminating.
 */
export function categorize(sp: ServicePort, eps: Endpoint[]): Categorized {
  let cluster: Endpoint[] = [];
  let local: Endpoint[] = [];
  let hasAny = false;
  const servingTerminating = (e: Endpoint) => e.serving && e.terminating;
  if (usesClusterEndpoints(sp)) {
    cluster = eps.filter((e) => e.ready);
    if (cluster.length === 0) cluster = eps.filter(servingTerminating);
    hasAny = cluster.length > 0;
  }
  if (!usesLocalEndpoints(sp)) return { cluster, local, reachable: cluster, hasAny };
  let localReady = false;
  let localServingTerminating = false;
  for (const e of eps) {
    if (e.ready) {
      hasAny = true;
      if (e.isLocal) localReady = true;
    } else if (servingTerminating(e)) {
      hasAny = true;
      if (e.isLocal) localServingTerminating = true;
    }
  }
  if (localReady) local = eps.filter((e) => e.isLocal && e.ready);
  else if (localServingTerminating) local = eps.filter((e) => e.isLocal && servingTerminating(e));
  if (!usesClusterEndpoints(sp)) return { cluster, local, reachable: local, hasAny };
  const reachable = [...cluster];
  for (const e of local) if (!reachable.includes(e)) reachable.push(e);
  return { cluster, local, reachable, hasAny };
}
