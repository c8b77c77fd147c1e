// What a CoreDNS container answers, from what its kubernetes plugin's caches
// hold (CorednsView): DNS queries on port 53 through kubeadm's Corefile chain
// — kubernetes for cluster.local and the reverse zones, then forward — and the
// health (8080 /health), ready (8181 /ready) and prometheus (9153) endpoints.
import type { DnsQuestion, DnsRecord, DnsResponse } from '../dns/message';
import { epochMs } from '../apiserver/http/time';
import { messageSize, querySize } from '../dns/wire';
import type { CorednsConfig } from './corefile';
import { answerKubernetes, loadbalance, type KubeDnsView } from '../dns/kubernetes';

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

/** The query as it reached the server: who asked, when. */
export interface QueryFacts {
  clientIP: string;
  /** The container's own address, by which the plugin finds its Service for NS answers (ns.go). */
  podIP: string;
  at: number;
  /** The server's own randomness (loadbalance's shuffle, the log line's port, id and timing). */
  rng: () => number;
}

/** The server's answer to a query, and the log plugin's line for it when `log` is on. */
export interface QueryAnswer {
  response: DnsResponse;
  log?: string;
}

/**
 * The response to `q`, through the Corefile's chain. Before the kubernetes
 * plugin has synced, CoreDNS serves with empty caches (it starts anyway
 * after waiting 5 s for the API). A name outside its zones goes to the
 * forward plugin; without one, no plugin serves it: SERVFAIL.
 */
export function corednsQuery(state: CorednsState | undefined, c: CorednsConfig, q: DnsQuestion, f: QueryFacts): QueryAnswer {
  const view = state?.view ?? { services: [], namespaces: [] };
  const r = c.kubernetes ? answerKubernetes(view, q, { ...c.kubernetes, localIPs: [f.podIP] }) : null;
  let response: DnsResponse;
  if (r !== null && r !== 'fallthrough') response = c.loadbalance ? loadbalance(r, f.rng) : r;
  else response = c.forward ? forwardUpstream(q, f.at) : { rcode: 'SERVFAIL', authoritative: false, answer: [], authority: [], additional: [] };
  return { response, ...(c.log ? { log: logLine(q, response, f, r !== null && r !== 'fallthrough') } : {}) };
}

/**
 * plugin/log's default format: `{remote}:{port} - {>id} "{type} {class} {name} {proto} {size} {>do} {>bufsize}"
 * {rcode} {>rflags} {rsize} {duration}`. The client's ephemeral port, its query id and the time the server took
 * are the server's draws here (the simulated network carries no ports or ids, and takes no CPU time).
 */
function logLine(q: DnsQuestion, res: DnsResponse, f: QueryFacts, local: boolean): string {
  const port = 32768 + (f.rng() % 28232);
  const id = f.rng() & 0xffff;
  const ns = 40_000 + (f.rng() % 160_000);
  // Answers the kubernetes plugin wrote are authoritative; forwarded ones carry the upstream's RA; a SERVFAIL of no upstream neither.
  const flags = ['qr', ...(res.authoritative ? ['aa'] : []), 'rd', ...(!local && res.rcode !== 'SERVFAIL' ? ['ra'] : [])].join(',');
  return `[INFO] ${f.clientIP}:${port} - ${id} "${q.type} IN ${q.name} udp ${querySize(q, false)} false 512" ${res.rcode} ${flags} ${messageSize(q, res, false)} ${ns / 1e9}s\n`;
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
