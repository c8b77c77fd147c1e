// The pod's /etc/resolv.conf, as the kubelet's DNS configurer builds it
// (pkg/kubelet/network/dns/dns.go, GetPodDNS) and containerd writes it:
// ClusterFirst gives the cluster's DNS (the kube-dns Service) and its search
// path `<ns>.svc.<domain> svc.<domain> <domain>` followed by the node's own
// search domains, with ndots:5; Default gives the node's resolver; a
// hostNetwork pod with ClusterFirst falls back to Default, unless it asks for
// ClusterFirstWithHostNet; None takes dnsConfig alone. dnsConfig's
// nameservers and searches are appended (duplicates dropped), its options
// override by name.

/** The kubelet's --cluster-dns and --cluster-domain (kubeadm's defaults). */
export const CLUSTER_DNS = { nameserver: '10.96.0.10', domain: 'cluster.local' };

/**
 * The node's own /etc/resolv.conf (the kubelet's --resolv-conf): the
 * playground's machines use their network's resolver (the VPC's .2 address),
 * which has no way out to the internet here.
 */
export const NODE_RESOLV = { nameservers: ['10.0.0.2'], searches: [] as string[], options: [] as string[] };

/** validation.MaxDNSNameservers and MaxDNSSearchPaths: what a resolv.conf may carry. */
const MAX_NAMESERVERS = 3;
const MAX_SEARCHES = 32;

interface DnsConfigSpec {
  nameservers?: string[];
  searches?: string[];
  options?: { name?: string; value?: string }[];
}

interface PodDnsSpec {
  dnsPolicy?: string;
  hostNetwork?: boolean;
  dnsConfig?: DnsConfigSpec;
}

const dedupe = (xs: string[]) => xs.filter((x, i) => xs.indexOf(x) === i);

/** The resolver configuration of a pod, and what the kubelet warns about forming it (DNSConfigForming). */
export interface PodDns {
  text: string;
  warnings: string[];
}

export function resolvConf(spec: PodDnsSpec, namespace: string): string {
  return podDns(spec, namespace).text;
}

/**
 * dns.go's GetPodDNS: the merged lines, cut to what a resolv.conf may carry;
 * each cut is a Warning event on the pod ("Nameserver limits were
 * exceeded…", "Search Line limits were exceeded…").
 */
export function podDns(spec: PodDnsSpec, namespace: string): PodDns {
  const policy = spec.dnsPolicy ?? 'ClusterFirst';
  const cluster = policy === 'ClusterFirstWithHostNet' || (policy === 'ClusterFirst' && !spec.hostNetwork);
  let nameservers: string[] = [];
  let searches: string[] = [];
  let options: string[] = [];
  if (cluster) {
    const d = CLUSTER_DNS.domain;
    nameservers = [CLUSTER_DNS.nameserver];
    searches = [`${namespace}.svc.${d}`, `svc.${d}`, d, ...NODE_RESOLV.searches];
    options = ['ndots:5'];
  } else if (policy !== 'None') {
    nameservers = [...NODE_RESOLV.nameservers];
    searches = [...NODE_RESOLV.searches];
    options = [...NODE_RESOLV.options];
  }
  const warnings: string[] = [];
  const c = spec.dnsConfig;
  if (c) {
    nameservers = dedupe([...nameservers, ...(c.nameservers ?? [])]);
    searches = dedupe([...searches, ...(c.searches ?? [])]);
    // mergeDNSOptions: a dnsConfig option replaces the one of the same name.
    const byName = new Map(options.map((o) => [o.split(':')[0]!, o]));
    for (const o of c.options ?? []) if (o.name) byName.set(o.name, o.value !== undefined && o.value !== '' ? `${o.name}:${o.value}` : o.name);
    options = [...byName.values()];
  }
  // formDNSNameserversFitsLimits and formDNSSearchFitsLimits.
  if (nameservers.length > MAX_NAMESERVERS) {
    nameservers = nameservers.slice(0, MAX_NAMESERVERS);
    warnings.push(`Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${nameservers.join(' ')}`);
  }
  if (searches.length > MAX_SEARCHES) {
    searches = searches.slice(0, MAX_SEARCHES);
    warnings.push(`Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${searches.join(' ')}`);
  }
  const text = `${searches.length ? `search ${searches.join(' ')}\n` : ''}${nameservers.map((n) => `nameserver ${n}\n`).join('')}${options.length ? `options ${options.join(' ')}\n` : ''}`;
  return { text, warnings };
}
