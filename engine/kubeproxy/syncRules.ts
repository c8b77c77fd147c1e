// syncProxyRules (pkg/proxy/iptables/proxier.go, v1.32): the whole filter and
// nat state of kube-proxy's chains as one iptables-restore input (run with
// --noflush: other chains stay), and the jumps from the built-in chains it
// ensures first. Arguments are written in upstream's order; iptables-save
// prints its own canonical order.
import {
  KUBE_EXTERNAL_SERVICES, KUBE_FIREWALL, KUBE_FORWARD, KUBE_MARK_MASQ, KUBE_NODEPORTS, KUBE_POSTROUTING, KUBE_PROXY_FIREWALL, KUBE_SERVICES,
  clusterPolicyChain, endpointChain, externalChain, firewallChain, isServiceChainName, localPolicyChain,
} from './chains';
import { categorize, externallyAccessible, usesClusterEndpoints, usesLocalEndpoints, type Endpoint, type ServicePort } from './serviceMap';
import { inCidr } from '../sim/ipv4';

/** EnsureRule: a rule in a built-in chain, added (prepended) unless present. */
export interface EnsureRule {
  table: 'filter' | 'nat';
  chain: string;
  position: 'prepend' | 'append';
  args: string[];
}

export interface ProxierConfig {
  nodeIP: string;
  /** --cluster-cidr: the local-traffic detector's pod range (kubeadm's podSubnet). */
  clusterCIDR: string;
  /** --iptables-masquerade-bit (14: mark 0x4000). */
  masqueradeBit: number;
}

export interface SyncOutput {
  ensure: EnsureRule[];
  restore: string;
  /** The nat chains this sync wrote, to tell stale ones next time. */
  activeNat: string[];
  rules: { filter: number; nat: number };
}

/** iptablesJumpChains: (table, kube-proxy's chain, built-in chain, comment, extra args), each prepended in turn. */
const NEW = ['-m', 'conntrack', '--ctstate', 'NEW'];
const JUMPS: [EnsureRule['table'], string, string, string, string[]][] = [
  ['filter', KUBE_EXTERNAL_SERVICES, 'INPUT', 'kubernetes externally-visible service portals', NEW],
  ['filter', KUBE_EXTERNAL_SERVICES, 'FORWARD', 'kubernetes externally-visible service portals', NEW],
  ['filter', KUBE_NODEPORTS, 'INPUT', 'kubernetes health check service ports', []],
  ['filter', KUBE_SERVICES, 'FORWARD', 'kubernetes service portals', NEW],
  ['filter', KUBE_SERVICES, 'OUTPUT', 'kubernetes service portals', NEW],
  ['filter', KUBE_FORWARD, 'FORWARD', 'kubernetes forwarding rules', []],
  ['filter', KUBE_PROXY_FIREWALL, 'INPUT', 'kubernetes load balancer firewall', NEW],
  ['filter', KUBE_PROXY_FIREWALL, 'OUTPUT', 'kubernetes load balancer firewall', NEW],
  ['filter', KUBE_PROXY_FIREWALL, 'FORWARD', 'kubernetes load balancer firewall', NEW],
  ['nat', KUBE_SERVICES, 'OUTPUT', 'kubernetes service portals', []],
  ['nat', KUBE_SERVICES, 'PREROUTING', 'kubernetes service portals', []],
  ['nat', KUBE_POSTROUTING, 'POSTROUTING', 'kubernetes postrouting rules', []],
  // iptablesKubeletJumpChains: the kubelet's own, which kube-proxy ensures too.
  ['filter', KUBE_FIREWALL, 'INPUT', '', []],
  ['filter', KUBE_FIREWALL, 'OUTPUT', '', []],
];

export function jumpRules(): EnsureRule[] {
  return JUMPS.map(([table, dst, src, comment, extra]) => ({ table, chain: src, position: 'prepend', args: [...extra, ...(comment ? ['-m', 'comment', '--comment', comment] : []), '-j', dst] }));
}

/** The chains the jumps lead to, each once, in order: EnsureChain'd before the jumps. */
export function jumpTargets(rules: readonly EnsureRule[]): { table: EnsureRule['table']; chain: string }[] {
  const seen = new Set<string>();
  const out: { table: EnsureRule['table']; chain: string }[] = [];
  for (const r of rules) {
    const chain = r.args[r.args.length - 1]!;
    if (!seen.has(`${r.table}/${chain}`)) {
      seen.add(`${r.table}/${chain}`);
      out.push({ table: r.table, chain });
    }
  }
  return out;
}

/** The kubelet's KUBE-FIREWALL (kubelet_network_linux.go): no connections from outside to 127.0.0.0/8 (route_localnet is on for NodePorts). */
export const LOCALNET_RULE = ['-m', 'comment', '--comment', 'block incoming localnet connections', '-d', '127.0.0.0/8', '!', '-s', '127.0.0.0/8', '-m', 'conntrack', '!', '--ctstate', 'RELATED,ESTABLISHED,DNAT', '-j', 'DROP'];

/** A word for iptables-restore: quoted when it holds a space. */
function restoreWord(w: string): string {
  return /[\s"]/.test(w) ? `"${w.replace(/"/g, '\\"')}"` : w;
}

class Lines {
  readonly lines: string[] = [];
  write(...args: (string | string[])[]): void {
    this.lines.push(args.flat().map(restoreWord).join(' '));
  }
  chain(name: string): void {
    this.lines.push(`:${name} - [0:0]`);
  }
}

/** proxier.probability: 1/n with ten decimals. */
function probability(n: number): string {
  return (1 / n).toFixed(10);
}

export function syncProxyRules(services: ServicePort[], endpoints: ReadonlyMap<string, Endpoint[]>, cfg: ProxierConfig, existingNat: readonly string[]): SyncOutput {
  const mark = `0x${(1 << cfg.masqueradeBit).toString(16).padStart(4, '0')}`;
  const filterChains = new Lines();
  const filterRules = new Lines();
  const natChains = new Lines();
  const natRules = new Lines();
  for (const c of [KUBE_SERVICES, KUBE_EXTERNAL_SERVICES, KUBE_FORWARD, KUBE_NODEPORTS, KUBE_PROXY_FIREWALL]) filterChains.chain(c);
  for (const c of [KUBE_SERVICES, KUBE_NODEPORTS, KUBE_POSTROUTING, KUBE_MARK_MASQ]) natChains.chain(c);
  natRules.write('-A', KUBE_POSTROUTING, '-m', 'mark', '!', '--mark', `${mark}/${mark}`, '-j', 'RETURN');
  natRules.write('-A', KUBE_POSTROUTING, '-j', 'MARK', '--xor-mark', mark);
  natRules.write('-A', KUBE_POSTROUTING, '-m', 'comment', '--comment', 'kubernetes service traffic requiring SNAT', '-j', 'MASQUERADE', '--random-fully');
  natRules.write('-A', KUBE_MARK_MASQ, '-j', 'MARK', '--or-mark', mark);
  // localhostNodePorts (IPv4, the default): the localnet guard.
  filterChains.chain(KUBE_FIREWALL);
  filterRules.write('-A', KUBE_FIREWALL, LOCALNET_RULE);

  const active = new Set<string>();
  const notLocal = ['!', '-s', cfg.clusterCIDR];
  // Go ranges over a map here (a random order on every sync); sorted by name, the same on every node.
  const ordered = [...services].sort((a, b) => (a.name + a.protocol < b.name + b.protocol ? -1 : 1));
  for (const svc of ordered) {
    const proto = svc.protocol;
    const name = svc.name;
    const eps = endpoints.get(name) ?? [];
    const { cluster, local, reachable, hasAny } = categorize(svc, eps);
    const svcChain = clusterPolicyChain(name, proto);
    const svlChain = localPolicyChain(name, proto);
    const extChain = externalChain(name, proto);
    const fwChain = firewallChain(name, proto);
    const usesCluster = cluster.length > 0 && usesClusterEndpoints(svc);
    const usesLocal = local.length > 0 && usesLocalEndpoints(svc);
    let internalChain = svcChain;
    let hasInternal = hasAny;
    if (svc.internalPolicyLocal) {
      internalChain = svlChain;
      if (local.length === 0) hasInternal = false;
    }
    let externalPolicyChain = svcChain;
    let hasExternal = hasAny;
    if (svc.externalPolicyLocal) {
      externalPolicyChain = svlChain;
      if (local.length === 0) hasExternal = false;
    }
    const usesExt = hasAny && externallyAccessible(svc);
    const usesFw = hasAny && svc.loadBalancerIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
    const lbChain = usesFw ? fwChain : extChain;
    let internalTarget = '';
    let internalComment = '';
    let externalTarget = '';
    let externalComment = '';
    if (!hasAny) {
      internalTarget = externalTarget = 'REJECT';
      internalComment = externalComment = `${name} has no endpoints`;
    } else {
      if (!hasInternal) {
        internalTarget = 'DROP';
        internalComment = `${name} has no local endpoints`;
      }
      if (!hasExternal) {
        externalTarget = 'DROP';
        externalComment = `${name} has no local endpoints`;
      }
    }
    const port = String(svc.port);
    const dest = (ip: string, p = port) => ['-m', proto, '-p', proto, '-d', ip, '--dport', p];

    if (hasInternal) natRules.write('-A', KUBE_SERVICES, '-m', 'comment', '--comment', `${name} cluster IP`, dest(svc.clusterIP), '-j', internalChain);
    else filterRules.write('-A', KUBE_SERVICES, '-m', 'comment', '--comment', internalComment, dest(svc.clusterIP), '-j', internalTarget);

    for (const ip of svc.externalIPs) {
      if (hasAny) natRules.write('-A', KUBE_SERVICES, '-m', 'comment', '--comment', `${name} external IP`, dest(ip), '-j', extChain);
      if (!hasExternal) filterRules.write('-A', KUBE_EXTERNAL_SERVICES, '-m', 'comment', '--comment', externalComment, dest(ip), '-j', externalTarget);
    }
    for (const ip of svc.loadBalancerIPs) {
      if (hasAny) natRules.write('-A', KUBE_SERVICES, '-m', 'comment', '--comment', `${name} loadbalancer IP`, dest(ip), '-j', lbChain);
      if (usesFw) filterRules.write('-A', KUBE_PROXY_FIREWALL, '-m', 'comment', '--comment', `${name} traffic not accepted by ${fwChain}`, dest(ip), '-j', 'DROP');
    }
    if (!hasExternal) for (const ip of svc.loadBalancerIPs) filterRules.write('-A', KUBE_EXTERNAL_SERVICES, '-m', 'comment', '--comment', externalComment, dest(ip), '-j', externalTarget);

    if (svc.nodePort !== 0) {
      const np = ['-m', proto, '-p', proto, '--dport', String(svc.nodePort)];
      if (hasAny) natRules.write('-A', KUBE_NODEPORTS, '-m', 'comment', '--comment', name, np, '-j', extChain);
      if (!hasExternal) filterRules.write('-A', KUBE_EXTERNAL_SERVICES, '-m', 'comment', '--comment', externalComment, '-m', 'addrtype', '--dst-type', 'LOCAL', np, '-j', externalTarget);
    }
    if (svc.healthCheckNodePort !== 0) {
      filterRules.write('-A', KUBE_NODEPORTS, '-m', 'comment', '--comment', `${name} health check node port`, '-m', 'tcp', '-p', 'tcp', '--dport', String(svc.healthCheckNodePort), '-j', 'ACCEPT');
    }

    if (hasInternal) {
      // The local-traffic detector (ClusterCIDR): traffic from outside the pod network is masqueraded.
      natRules.write('-A', internalChain, '-m', 'comment', '--comment', `${name} cluster IP`, dest(svc.clusterIP), notLocal, '-j', KUBE_MARK_MASQ);
    }
    if (usesExt) {
      natChains.chain(extChain);
      active.add(extChain);
      if (!svc.externalPolicyLocal) {
        natRules.write('-A', extChain, '-m', 'comment', '--comment', `masquerade traffic for ${name} external destinations`, '-j', KUBE_MARK_MASQ);
      } else {
        natRules.write('-A', extChain, '-m', 'comment', '--comment', `pod traffic for ${name} external destinations`, '-s', cfg.clusterCIDR, '-j', svcChain);
        natRules.write('-A', extChain, '-m', 'comment', '--comment', `masquerade LOCAL traffic for ${name} external destinations`, '-m', 'addrtype', '--src-type', 'LOCAL', '-j', KUBE_MARK_MASQ);
        natRules.write('-A', extChain, '-m', 'comment', '--comment', `route LOCAL traffic for ${name} external destinations`, '-m', 'addrtype', '--src-type', 'LOCAL', '-j', svcChain);
      }
      if (hasExternal) natRules.write('-A', extChain, '-j', externalPolicyChain);
    }
    if (usesFw) {
      natChains.chain(fwChain);
      active.add(fwChain);
      const head = ['-A', fwChain, '-m', 'comment', '--comment', `${name} loadbalancer IP`];
      let allowFromNode = false;
      for (const cidr of svc.loadBalancerSourceRanges) {
        natRules.write(head, '-s', cidr, '-j', extChain);
        if (inCidr(cfg.nodeIP, cidr)) allowFromNode = true;
      }
      if (allowFromNode) for (const ip of svc.loadBalancerIPs) natRules.write(head, '-s', ip, '-j', extChain);
      natRules.write('-A', fwChain, '-m', 'comment', '--comment', `other traffic to ${name} will be dropped by KUBE-PROXY-FIREWALL`);
    }
    if (usesCluster) {
      natChains.chain(svcChain);
      active.add(svcChain);
      toEndpoints(natRules, name, proto, svc, svcChain, cluster);
    }
    if (usesLocal) {
      natChains.chain(svlChain);
      active.add(svlChain);
      toEndpoints(natRules, name, proto, svc, svlChain, local);
    }
    for (const ep of reachable) {
      const sep = endpointChain(name, proto, ep.str);
      natChains.chain(sep);
      active.add(sep);
      const head = ['-A', sep, '-m', 'comment', '--comment', name];
      // Hairpin: an endpoint reaching itself through the service is masqueraded.
      natRules.write(head, '-s', ep.ip, '-j', KUBE_MARK_MASQ);
      const affinity = svc.sessionAffinityClientIP ? ['-m', 'recent', '--name', sep, '--set'] : [];
      natRules.write(head, affinity, '-m', proto, '-p', proto, '-j', 'DNAT', '--to-destination', ep.str);
    }
  }

  // Chains of services and endpoints that are gone: declared (which flushes them), then deleted.
  for (const chain of existingNat) {
    if (active.has(chain) || !isServiceChainName(chain)) continue;
    natChains.chain(chain);
    natRules.write('-X', chain);
  }
  // nodePortAddresses matches every address (the default): NodePorts on every local address, 127.0.0.1 included.
  natRules.write('-A', KUBE_SERVICES, '-m', 'comment', '--comment', 'kubernetes service nodeports; NOTE: this must be the last rule in this chain', '-m', 'addrtype', '--dst-type', 'LOCAL', '-j', KUBE_NODEPORTS);
  // nf_conntrack_tcp_be_liberal is off: INVALID packets are dropped.
  filterRules.write('-A', KUBE_FORWARD, '-m', 'conntrack', '--ctstate', 'INVALID', '-j', 'DROP');
  filterRules.write('-A', KUBE_FORWARD, '-m', 'comment', '--comment', 'kubernetes forwarding rules', '-m', 'mark', '--mark', `${mark}/${mark}`, '-j', 'ACCEPT');
  filterRules.write('-A', KUBE_FORWARD, '-m', 'comment', '--comment', 'kubernetes forwarding conntrack rule', '-m', 'conntrack', '--ctstate', 'RELATED,ESTABLISHED', '-j', 'ACCEPT');

  const restore = ['*filter', ...filterChains.lines, ...filterRules.lines, 'COMMIT', '*nat', ...natChains.lines, ...natRules.lines, 'COMMIT', ''].join('\n');
  return { ensure: jumpRules(), restore, activeNat: [...active], rules: { filter: filterRules.lines.length, nat: natRules.lines.length } };
}

/** writeServiceToEndpointRules: affinity checks first, then each endpoint with probability 1/(n−i), the last one always. */
function toEndpoints(rules: Lines, name: string, proto: string, svc: ServicePort, chain: string, eps: Endpoint[]): void {
  if (svc.sessionAffinityClientIP) {
    for (const ep of eps) {
      const sep = endpointChain(name, proto, ep.str);
      rules.write('-A', chain, '-m', 'comment', '--comment', `${name} -> ${ep.str}`, '-m', 'recent', '--name', sep, '--rcheck', '--seconds', String(svc.stickyMaxAgeSeconds), '--reap', '-j', sep);
    }
  }
  eps.forEach((ep, i) => {
    const sep = endpointChain(name, proto, ep.str);
    const stat = i < eps.length - 1 ? ['-m', 'statistic', '--mode', 'random', '--probability', probability(eps.length - i)] : [];
    rules.write('-A', chain, '-m', 'comment', '--comment', `${name} -> ${ep.str}`, stat, '-j', sep);
  });
}
