// What a CoreDNS container answers, from what its kubernetes plugin's caches
// hold (CorednsView): DNS queries on port 53 through kubeadm's Corefile chain
// — kubernetes for cluster.local and the reverse zones, then forward — and the
// health (8080 /health), ready (8181 /ready) and prometheus (9153) endpoints.
import type { DnsQuestion, DnsRecord, DnsResponse } from '../dns/message';
import { epochMs } from '../apiserver/http/time';
import { answerKubernetes, KUBEADM_KUBERNETES, loadbalance, type KubeDnsView } from '../dns/kubernetes';

/** The caches the process has handed its container, and whether they have synced. */
export interface CorednsState {
  view: KubeDnsView;
  synced: boolean;
}

export const COREDNS_PORTS = { dns: 53, health: 8080, ready: 8181, metrics: 9153 } as const;

/**
 * Top-level domains the root zone delegates (the common ones): a name under
 * one would need the internet to resolve. Any other name ends in a TLD that
 * does not exist, and the root's NXDOMAIN says so.
 */
const DELEGATED_TLDS = new Set(['com', 'org', 'net', 'io', 'dev', 'app', 'edu', 'gov', 'info', 'co', 'ai', 'cloud', 'sh', 'me', 'us', 'uk', 'de', 'fr', 'nl', 'eu', 'jp', 'cn', 'in', 'arpa']);

/** The root zone's SOA, as an NXDOMAIN from it carries (its serial is the date, YYYYMMDDnn). */
function rootSoa(at: number): DnsRecord {
  const d = new Date(epochMs() + at);
  const serial = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}00`;
  return { name: '.', type: 'SOA', ttl: 86400, data: `a.root-servers.net. nstld.verisign-grs.com. ${serial} 1800 900 604800 86400` };
}

/**
 * `forward . /etc/resolv.conf`: the node's resolver (NODE_RESOLV, the
 * network's). The playground's nodes have no way out to the internet, so a
 * name under a real TLD gets no answer upstream and the forward plugin
 * answers SERVFAIL; a name whose TLD does not exist (`kubernetes.default.`,
 * a bare `web.`) is NXDOMAIN, as the root answers it anywhere.
 */
function forwardUpstream(q: DnsQuestion, at: number): DnsResponse {
  const labels = q.name.replace(/\.$/, '').split('.');
  const tld = labels[labels.length - 1] ?? '';
  if (tld === '' || DELEGATED_TLDS.has(tld)) return { rcode: 'SERVFAIL', authoritative: false, answer: [], authority: [], additional: [] };
  return { rcode: 'NXDOMAIN', authoritative: false, answer: [], authority: [rootSoa(at)], additional: [] };
}

/**
 * The response to `q` at `at`. Before the kubernetes plugin has synced,
 * CoreDNS serves with empty caches (it starts anyway after waiting 5 s for
 * the API). A name outside its zones goes to the forward plugin. `podIP`:
 * the container's own address, by which the plugin finds its Service for NS
 * answers (ns.go).
 */
export function corednsDns(state: CorednsState | undefined, q: DnsQuestion, rng: () => number, podIP: string, at: number): DnsResponse {
  const view = state?.view ?? { services: [], namespaces: [] };
  const r = answerKubernetes(view, q, { ...KUBEADM_KUBERNETES, localIPs: [podIP] });
  if (r === null || r === 'fallthrough') return forwardUpstream(q, at);
  // The loadbalance plugin shuffles A/AAAA answers of every response.
  return loadbalance(r, rng);
}

/** An HTTP GET on one of the container's ports: status and body, or null when nothing there speaks HTTP. */
export function corednsHttp(state: CorednsState | undefined, port: number, path: string): { status: number; body: string } | null {
  const p = path.split('?')[0];
  if (port === COREDNS_PORTS.health) return p === '/health' ? { status: 200, body: 'OK' } : { status: 404, body: '404 page not found\n' };
  if (port === COREDNS_PORTS.ready) {
    if (p !== '/ready') return { status: 404, body: '404 page not found\n' };
    // plugin/ready: 200 "OK" once every plugin that reports readiness is ready; else 503 naming those that are not.
    return state?.synced ? { status: 200, body: 'OK' } : { status: 503, body: 'kubernetes' };
  }
  if (port === COREDNS_PORTS.metrics) return p === '/metrics' ? { status: 200, body: '# HELP coredns_build_info A metric with a constant \'1\' value labeled by version, revision, and goversion from which CoreDNS was built.\n# TYPE coredns_build_info gauge\ncoredns_build_info{goversion="go1.21.11",revision="a6338e9",version="1.11.3"} 1\n' } : { status: 404, body: '404 page not found\n' };
  return null;
}
