// Helpers the Endpoints and EndpointSlice controllers share, after upstream's
// pkg/api/v1/pod (FindPort, IsPodReady), pkg/controller/util/endpoint and
// staging endpointslice/util (ShouldPodBeInEndpoints, ShouldSetHostname,
// GetPodServiceMemberships), v1.32.
import type { KObject } from '../../apimachinery/types';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export interface ServicePort {
  name?: string;
  protocol?: string;
  port: number;
  targetPort?: number | string;
  appProtocol?: string;
}

export const isPodReady = (pod: Loose): boolean =>
  Array.isArray(pod?.status?.conditions) && pod.status.conditions.some((c: Loose) => c?.type === 'Ready' && c?.status === 'True');

const isPodTerminal = (pod: Loose): boolean => pod?.status?.phase === 'Succeeded' || pod?.status?.phase === 'Failed';

/** ShouldPodBeInEndpoints: not terminal, has an IP, and (unless includeTerminating) not being deleted. */
export function shouldPodBeInEndpoints(pod: Loose, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  const ips = pod?.status?.podIPs;
  if (!pod?.status?.podIP && !(Array.isArray(ips) && ips.length > 0)) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  return true;
}

/** ShouldSetHostname: the pod names this service as its subdomain. */
export const shouldSetHostname = (pod: Loose, svc: KObject): boolean =>
  !!pod?.spec?.hostname && pod?.spec?.subdomain === svc.metadata.name && pod.metadata.namespace === svc.metadata.namespace;

/**
 * FindPort: a numeric targetPort is the port; a named one is looked up in the
 * containers' ports with the same protocol (and restartable init containers,
 * the sidecars). Null when a name matches nothing.
 */
export function findPort(pod: Loose, sp: ServicePort): number | null {
  const tp = sp.targetPort ?? sp.port;
  if (typeof tp === 'number') return tp;
  if (/^[0-9]+$/.test(tp)) return Number(tp);
  const proto = sp.protocol ?? 'TCP';
  const sidecars = (pod?.spec?.initContainers ?? []).filter((c: Loose) => c?.restartPolicy === 'Always');
  for (const c of [...(pod?.spec?.containers ?? []), ...sidecars]) {
    for (const p of c?.ports ?? []) {
      if (p?.name === tp && (p?.protocol ?? 'TCP') === proto) return p.containerPort;
    }
  }
  return null;
}

/** A Service's selector as Kubernetes applies it: every key equal; none (or empty) selects nothing here. */
export function serviceSelector(svc: Loose): Record<string, string> | null {
  const sel = svc?.spec?.selector;
  if (!sel || typeof sel !== 'object') return null;
  return sel as Record<string, string>;
}

export function selectorMatches(sel: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  for (const k in sel) if ((labels ?? {})[k] !== sel[k]) return false;
  return true;
}

/** The pods of the service's namespace its selector matches, by name (a stable order for the simulation). */
export function podsForService(pods: ReadonlyMap<string, KObject>, svc: KObject, sel: Record<string, string>): KObject[] {
  const ns = svc.metadata.namespace;
  const out: KObject[] = [];
  for (const p of pods.values()) {
    if (p.metadata.namespace === ns && selectorMatches(sel, p.metadata.labels)) out.push(p);
  }
  return out.sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
}

/** GetPodServiceMemberships: keys of the services (with selectors) in the pod's namespace that select it. */
export function servicesForPod(services: ReadonlyMap<string, KObject>, pod: KObject): string[] {
  const out: string[] = [];
  for (const [key, svc] of services) {
    if (svc.metadata.namespace !== pod.metadata.namespace) continue;
    const sel = serviceSelector(svc);
    if (sel && Object.keys(sel).length > 0 && selectorMatches(sel, pod.metadata.labels)) out.push(key);
  }
  return out;
}

/** The pod's IP of the family (podIPs first, podIP as fallback). */
export function podIPFor(pod: Loose, family: 'IPv4' | 'IPv6'): string | null {
  const ips: string[] = Array.isArray(pod?.status?.podIPs) ? pod.status.podIPs.map((x: Loose) => x?.ip).filter((x: unknown) => typeof x === 'string') : [];
  if (ips.length === 0 && typeof pod?.status?.podIP === 'string') ips.push(pod.status.podIP);
  return ips.find((ip) => ip.includes(':') === (family === 'IPv6')) ?? null;
}

export function keyOfObject(o: KObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!;
}

/** Bounded list of recent reconciles for the controllers panel. */
export function pushRecent(recent: { t: number; key: string; what: string }[], t: number, key: string, what: string): void {
  recent.push({ t, key, what });
  if (recent.length > 50) recent.splice(0, recent.length - 50);
}
