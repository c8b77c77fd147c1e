// What the Service registry fills in at create time (pkg/registry/core/service/storage/alloc.go,
// v1.32), as a hook the REST layer calls with its allocators: IP families and
// policy, cluster IPs, node ports and the health-check node port.
import { arr, isObj, type Loose } from './util';

export interface ServiceAllocators {
  /** The cluster's service CIDR families, primary first (['IPv4'] on a single-stack cluster). */
  families: ('IPv4' | 'IPv6')[];
  /** A free cluster IP of the family, or a specific one (returns null when it is taken or out of range). */
  allocateIP(family: 'IPv4' | 'IPv6', wanted?: string): string | null;
  /** A free node port, or the wanted one (null when taken). */
  allocateNodePort(wanted?: number): number | null;
}

export type AllocateResult = { ok: true } | { ok: false; field: string; value: unknown; detail: string };

const familyOf = (ip: string): 'IPv4' | 'IPv6' => (ip.includes(':') ? 'IPv6' : 'IPv4');

/**
 * Fills ipFamilyPolicy, ipFamilies, clusterIP(s) and node ports the way the service
 * allocator does on create. Headless services get families but no IPs; ExternalName
 * services get none of these.
 */
export function allocateServiceFields(svc: Loose, alloc: ServiceAllocators): AllocateResult {
  const spec = svc.spec;
  if (!isObj(spec) || spec.type === 'ExternalName') return { ok: true };
  const headless = spec.clusterIP === 'None';
  const selectorless = !isObj(spec.selector) || Object.keys(spec.selector).length === 0;
  if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
    spec.ipFamilyPolicy = headless && selectorless ? 'RequireDualStack' : arr(spec.ipFamilies).length === 2 ? 'PreferDualStack' : 'SingleStack';
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack' && alloc.families.length < 2 && !(headless && selectorless)) {
    return { ok: false, field: 'spec.ipFamilyPolicy', value: spec.ipFamilyPolicy, detail: 'this cluster is not configured for dual-stack services' };
  }
  if (arr(spec.ipFamilies).length === 0) {
    const given = arr(spec.clusterIPs).filter((ip) => typeof ip === 'string' && ip !== 'None' && ip !== '');
    const fams = given.length ? given.map(familyOf) : [...alloc.families];
    spec.ipFamilies = spec.ipFamilyPolicy === 'SingleStack' ? fams.slice(0, 1) : headless && selectorless ? [...alloc.families] : fams.slice(0, spec.ipFamilyPolicy === 'SingleStack' ? 1 : 2);
  }
  if (!headless) {
    const ips: string[] = [];
    const wanted = arr(spec.clusterIPs);
    for (let i = 0; i < spec.ipFamilies.length; i++) {
      const fam = spec.ipFamilies[i] as 'IPv4' | 'IPv6';
      const want = typeof wanted[i] === 'string' && wanted[i] !== '' ? (wanted[i] as string) : undefined;
      const ip = alloc.allocateIP(fam, want);
      if (ip === null) {
        const detail = want ? 'provided IP is already allocated' : 'failed to allocate IP';
        return { ok: false, field: `spec.clusterIPs[${i}]`, value: want ?? '', detail };
      }
      ips.push(ip);
    }
    spec.clusterIP = ips[0];
    spec.clusterIPs = ips;
  } else {
    spec.clusterIPs = ['None'];
  }
  const needsNodePorts = spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
  if (needsNodePorts) {
    for (const [i, p] of arr(spec.ports).entries()) {
      if (!isObj(p)) continue;
      const want = typeof p.nodePort === 'number' && p.nodePort !== 0 ? p.nodePort : undefined;
      const np = alloc.allocateNodePort(want);
      if (np === null) return { ok: false, field: `spec.ports[${i}].nodePort`, value: want ?? 0, detail: 'provided port is already allocated' };
      p.nodePort = np;
    }
  }
  if (spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local' && !spec.healthCheckNodePort) {
    const np = alloc.allocateNodePort();
    if (np === null) return { ok: false, field: 'spec.healthCheckNodePort', value: 0, detail: 'failed to allocate port' };
    spec.healthCheckNodePort = np;
  }
  return { ok: true };
}
