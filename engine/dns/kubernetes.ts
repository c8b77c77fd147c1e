// CoreDNS v1.11.3's kubernetes plugin as a pure function: what the plugin's
// informers hold (KubeDnsView, after plugin/kubernetes/object/{service,
// endpoint,pod}.go) and the response ServeDNS writes for one question
// (plugin/kubernetes/{handler,kubernetes,parse,reverse,ns}.go, through the
// record builders of plugin/backend_lookup.go). Also the loadbalance plugin's
// shuffle (plugin/loadbalance/loadbalance.go), with the randomness passed in.
import type { KObject } from '../apimachinery/types';
import { fqdn, type DnsQuestion, type DnsRecord, type DnsResponse, type RRType } from './message';

// ---------------------------------------------------------------------------
// The informers' contents

/** One address of an EndpointSlice endpoint (object.EndpointAddress), with its slice's ports. */
export interface DnsEndpoint {
  ip: string;
  hostname?: string;
  /**
   * conditions.ready, nil counting as ready. CoreDNS drops the others when it
   * converts the slice; v1.11.3 reads neither serving nor terminating (the
   * controller sets ready = serving && !terminating, or true under
   * publishNotReadyAddresses).
   */
  ready: boolean;
  /** The slice's ports; a nil name or protocol is "", a nil port -1. */
  ports: { name: string; protocol: string; port: number }[];
}

/** A Service as object.ToService keeps it, with the endpoints of its EndpointSlices. */
export interface DnsService {
  namespace: string;
  name: string;
  type: string;
  /** spec.clusterIPs (or [spec.clusterIP]); [] for ExternalName, ['None'] for headless. */
  clusterIPs: string[];
  externalName?: string;
  ports: { name: string; protocol: string; port: number }[];
  endpoints: DnsEndpoint[];
  /**
   * spec.publishNotReadyAddresses. CoreDNS never reads it: the EndpointSlice
   * controller already marks every endpoint of such a Service ready.
   */
  publishNotReadyAddresses?: boolean;
  /** spec.externalIPs then status.loadBalancer.ingress (ip, else hostname): the service IP index answers PTR for them too. */
  externalIPs?: string[];
}

/** A pod as the pod informer of `pods verified` holds it (object.ToPod). */
export interface DnsPod {
  namespace: string;
  ip: string;
}

export interface KubeDnsView {
  services: DnsService[];
  namespaces: string[];
  /** Running pods; only `pods verified` reads them. */
  pods?: DnsPod[];
  /** dnsControl.modified: the unix second of the caches' last change, the SOA serial. 0 when absent. */
  modified?: number;
}

type Loose = Record<string, unknown>;
const rec = (v: unknown): Loose => (typeof v === 'object' && v !== null ? (v as Loose) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/**
 * The plugin's caches, from the objects its informers list and watch. An
 * EndpointSlice belongs to the Service its kubernetes.io/service-name label
 * names in its namespace; FQDN slices carry no addresses DNS can serve.
 */
export function dnsViewOf(
  services: Iterable<KObject>,
  endpointSlices: Iterable<KObject>,
  namespaces: Iterable<KObject>,
  extra: { pods?: Iterable<KObject>; modified?: number } = {},
): KubeDnsView {
  const endpointsByService = new Map<string, DnsEndpoint[]>();
  for (const es of endpointSlices) {
    const svcName = es.metadata.labels?.[SERVICE_NAME_LABEL];
    if (!svcName || es.addressType === 'FQDN') continue;
    // object/endpoint.go EndpointSliceToEndpoints: nil port fields become -1 / "".
    const ports = arr(es.ports).map((p) => {
      const port = rec(p);
      return { name: str(port.name) ?? '', protocol: str(port.protocol) ?? '', port: typeof port.port === 'number' ? port.port : -1 };
    });
    const key = `${es.metadata.namespace ?? 'default'}/${svcName}`;
    const list = endpointsByService.get(key) ?? [];
    for (const e of arr(es.endpoints)) {
      const end = rec(e);
      const ready = rec(end.conditions).ready;
      const hostname = str(end.hostname);
      for (const a of arr(end.addresses)) {
        if (typeof a !== 'string') continue;
        list.push({ ip: a, ...(hostname ? { hostname } : {}), ready: ready !== false, ports: ports.map((p) => ({ ...p })) });
      }
    }
    endpointsByService.set(key, list);
  }

  const out: DnsService[] = [];
  for (const s of services) {
    const spec = rec(s.spec);
    const namespace = s.metadata.namespace ?? 'default';
    const name = s.metadata.name ?? '';
    const type = str(spec.type) ?? 'ClusterIP';
    const ips = arr(spec.clusterIPs).filter((ip): ip is string => typeof ip === 'string' && ip !== '');
    const clusterIP = str(spec.clusterIP);
    const clusterIPs = type === 'ExternalName' ? [] : ips.length > 0 ? ips : clusterIP ? [clusterIP] : [];
    const ports = arr(spec.ports).map((p) => {
      const port = rec(p);
      return { name: str(port.name) ?? '', protocol: str(port.protocol) ?? 'TCP', port: typeof port.port === 'number' ? port.port : 0 };
    });
    const externalIPs = [
      ...arr(spec.externalIPs).filter((ip): ip is string => typeof ip === 'string'),
      ...arr(rec(rec(s.status).loadBalancer).ingress).map((i) => str(rec(i).ip) || str(rec(i).hostname) || ''),
    ].filter((ip) => ip !== '');
    const endpoints = (endpointsByService.get(`${namespace}/${name}`) ?? []).sort(compareEndpoints);
    const externalName = str(spec.externalName);
    out.push({
      namespace,
      name,
      type,
      clusterIPs,
      ...(type === 'ExternalName' && externalName ? { externalName } : {}),
      ports,
      endpoints,
      ...(spec.publishNotReadyAddresses === true ? { publishNotReadyAddresses: true } : {}),
      ...(externalIPs.length > 0 ? { externalIPs } : {}),
    });
  }
  out.sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name));

  const nsNames = [...namespaces].map((n) => n.metadata.name ?? '').filter((n) => n !== '');
  nsNames.sort(cmp);

  const view: KubeDnsView = { services: out, namespaces: [...new Set(nsNames)] };
  if (extra.pods) {
    // controller.go podListFunc: status.phase!=Succeeded,status.phase!=Failed,status.phase!=Unknown.
    const pods: DnsPod[] = [];
    for (const p of extra.pods) {
      const status = rec(p.status);
      const phase = str(status.phase);
      const ip = str(status.podIP);
      if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Unknown' || !ip) continue;
      pods.push({ namespace: p.metadata.namespace ?? 'default', ip });
    }
    pods.sort((a, b) => cmp(a.namespace, b.namespace) || compareIPs(a.ip, b.ip));
    view.pods = pods;
  }
  if (extra.modified !== undefined) view.modified = extra.modified;
  return view;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** IPv4 addresses in numeric order, then anything else as text. */
function compareIPs(a: string, b: string): number {
  const pa = parseIP(a);
  const pb = parseIP(b);
  if (pa?.v === 4 && pb?.v === 4) {
    const na = pa.s.split('.').map(Number);
    const nb = pb.s.split('.').map(Number);
    for (let i = 0; i < 4; i++) if (na[i] !== nb[i]) return (na[i] ?? 0) - (nb[i] ?? 0);
    return 0;
  }
  if (pa?.v === 4) return -1;
  if (pb?.v === 4) return 1;
  return cmp(a, b);
}

function compareEndpoints(a: DnsEndpoint, b: DnsEndpoint): number {
  return compareIPs(a.ip, b.ip) || cmp(a.hostname ?? '', b.hostname ?? '') || Number(b.ready) - Number(a.ready);
}

// ---------------------------------------------------------------------------
// Configuration

export interface KubernetesPluginConfig {
  zones: string[];
  ttl: number;
  pods: 'disabled' | 'insecure' | 'verified';
  /** The zones of `fallthrough [ZONES...]`; `['.']` for a bare `fallthrough`, [] for none. */
  fallthrough: string[];
  /**
   * The addresses the server is bound to (setup.go boundIPs; in a pod, its pod
   * IP). ns.go finds CoreDNS's own Service through them for NS and ns.dns.<zone>.
   */
  localIPs?: string[];
}

/** kubeadm's Corefile: `kubernetes cluster.local in-addr.arpa ip6.arpa { pods insecure; fallthrough in-addr.arpa ip6.arpa; ttl 30 }` */
export const KUBEADM_KUBERNETES: KubernetesPluginConfig = {
  zones: ['cluster.local.', 'in-addr.arpa.', 'ip6.arpa.'],
  ttl: 30,
  pods: 'insecure',
  fallthrough: ['in-addr.arpa.', 'ip6.arpa.'],
};

/**
 * Resolves a CNAME target outside the plugin's zones, as plugin/pkg/upstream
 * does by sending it back through the server's plugin chain; null when the
 * lookup failed (the CNAME is then left out).
 */
export type Upstream = (name: string, type: RRType) => DnsResponse | null;

// ---------------------------------------------------------------------------
// Names and addresses

/** The labels of a name, without the root (dns.SplitDomainName). */
function labelsOf(name: string): string[] {
  const n = name.endsWith('.') ? name.slice(0, -1) : name;
  return n === '' ? [] : n.split('.');
}

/** dns.IsSubDomain: child is parent or below it. */
function isSubDomain(parent: string, child: string): boolean {
  if (parent === '.') return true;
  return child === parent || child.endsWith(`.${parent}`);
}

/** plugin.Zones.Matches: the longest zone name is in, or "". */
function matchZone(zones: string[], name: string): string {
  let zone = '';
  for (const z of zones) if (isSubDomain(z, name) && z.length > zone.length) zone = z;
  return zone;
}

/** dnsutil.Join: labels joined below zone, fully qualified. */
function join(zone: string, ...labels: string[]): string {
  return zone === '.' ? `${labels.join('.')}.` : `${labels.join('.')}.${zone}`;
}

/** dnsutil.TrimZone: the part of name in front of zone ("" at the apex). */
function trimZone(name: string, zone: string): string {
  const keep = labelsOf(name).length - labelsOf(zone).length;
  return keep <= 0 ? '' : labelsOf(name).slice(0, keep).join('.');
}

interface IP {
  v: 4 | 6;
  /** net.IP.String(): dotted quad, or RFC 5952 text. */
  s: string;
}

const V4 = /^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/;

/** net.ParseIP, and To4(): an IPv4-mapped IPv6 address is an IPv4 address. */
function parseIP(s: string): IP | null {
  if (V4.test(s)) return { v: 4, s };
  if (!s.includes(':')) return null;
  let body = s;
  const tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = s.slice(lastColon + 1);
    if (!V4.test(v4)) return null;
    const o = v4.split('.').map(Number);
    tail.push(((o[0] ?? 0) << 8) | (o[1] ?? 0), ((o[2] ?? 0) << 8) | (o[3] ?? 0));
    // Keep a "::" that ends right before the IPv4 part; drop a single ":".
    body = s.slice(0, lastColon + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0] ?? '');
  const rest = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (!head || !rest) return null;
  const known = head.length + rest.length + tail.length;
  let words: number[];
  if (halves.length === 2) {
    if (known > 7) return null;
    words = [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
  } else {
    if (known !== 8) return null;
    words = [...head, ...tail];
  }
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) {
    const w6 = words[6] ?? 0;
    const w7 = words[7] ?? 0;
    return { v: 4, s: `${w6 >> 8}.${w6 & 0xff}.${w7 >> 8}.${w7 & 0xff}` };
  }
  // The longest run of two or more zero words becomes "::" (the first of equal runs).
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(':');
  const text = best < 0 ? hex(words) : `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
  return { v: 6, s: text };
}

const IP4_ARPA = '.in-addr.arpa.';
const IP6_ARPA = '.ip6.arpa.';

/** dnsutil.IsReverse: 1 for names below in-addr.arpa., 2 below ip6.arpa., else 0 (the apexes themselves are 0). */
function isReverse(name: string): number {
  if (name.endsWith(IP4_ARPA)) return 1;
  if (name.endsWith(IP6_ARPA)) return 2;
  return 0;
}

/** dnsutil.ExtractAddressFromReverse: "1.0.96.10.in-addr.arpa." → "10.96.0.1"; "" when it is no address. */
function addressFromReverse(name: string): string {
  if (name.endsWith(IP4_ARPA)) {
    const ip = parseIP(name.slice(0, -IP4_ARPA.length).split('.').reverse().join('.'));
    return ip?.v === 4 ? ip.s : '';
  }
  if (name.endsWith(IP6_ARPA)) {
    const nibbles = name.slice(0, -IP6_ARPA.length).split('.').reverse();
    const words: string[] = [];
    for (let i = 0; i + 4 <= nibbles.length; i += 4) words.push(nibbles.slice(i, i + 4).join(''));
    return parseIP(words.join(':'))?.s ?? '';
  }
  return '';
}

// ---------------------------------------------------------------------------
// The backend: kubernetes.go Services/Records/findServices/findPods, reverse.go

/** msg.Service: what the backend hands the record builders. */
interface Entry {
  /** An IP address, or a name (a CNAME target). */
  host: string;
  port: number;
  ttl: number;
  /** msg.Domain(Key): the name an SRV or NS record points at. */
  domain: string;
  text?: string;
}

/** errNoItems, errNsNotExposed, errInvalidRequest: every one of them is a name error (IsNameError). */
type NameError = 'errNoItems' | 'errNsNotExposed' | 'errInvalidRequest';

interface Found {
  entries: Entry[];
  err: NameError | null;
}

const found = (entries: Entry[]): Found => ({ entries, err: null });
const nameError = (err: NameError): Found => ({ entries: [], err });

/** parse.go recordRequest. */
interface RecordRequest {
  port: string;
  protocol: string;
  endpoint: string;
  service: string;
  namespace: string;
  podOrSvc: '' | 'svc' | 'pod';
}

/** parse.go parseRequest: [[_port._protocol.]|[endpoint.]]service.namespace.(svc|pod).zone */
function parseRequest(name: string, zone: string): { r: RecordRequest; err: NameError | null } {
  const r: RecordRequest = { port: '', protocol: '', endpoint: '', service: '', namespace: '', podOrSvc: '' };
  const base = trimZone(name, zone);
  if (base === '' || base === 'svc' || base === 'pod') return { r, err: null };
  const segs = base.split('.');
  let last = segs.length - 1;
  const kind = segs[last] ?? '';
  if (kind !== 'svc' && kind !== 'pod') return { r, err: 'errInvalidRequest' };
  r.podOrSvc = kind;
  if (--last < 0) return { r, err: null };
  r.namespace = segs[last] ?? '';
  if (--last < 0) return { r, err: null };
  r.service = segs[last] ?? '';
  if (--last < 0) return { r, err: null };
  if (last === 0) r.endpoint = segs[0] ?? '';
  else if (last === 1) {
    r.protocol = stripUnderscore(segs[1] ?? '');
    r.port = stripUnderscore(segs[0] ?? '');
  } else return { r, err: 'errInvalidRequest' };
  return { r, err: null };
}

const stripUnderscore = (s: string): string => (s.startsWith('_') ? s.slice(1) : s);

/** kubernetes.go match: names compare case-insensitively; no wildcards (removed upstream). */
const match = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
const matchPortAndProtocol = (aPort: string, bPort: string, aProto: string, bProto: string): boolean =>
  (aPort === '' || match(aPort, bPort)) && (aProto === '' || match(aProto, bProto));

/** The sentinel port object/{service,endpoint}.go add when there are none: A records, but no SRV. */
const NO_PORTS = [{ name: '', protocol: '', port: -1 }];
const portsOf = (ports: { name: string; protocol: string; port: number }[]) => (ports.length === 0 ? NO_PORTS : ports);

const isHeadless = (s: DnsService): boolean => s.clusterIPs[0] === 'None';

/** kubernetes.go endpointHostname: the hostname, else the address with dashes (endpoint_pod_names is not modelled). */
function endpointHostname(e: DnsEndpoint): string {
  if (e.hostname) return e.hostname;
  if (e.ip.includes('.')) return e.ip.replaceAll('.', '-');
  if (e.ip.includes(':')) return e.ip.replaceAll(':', '-');
  return '';
}

class Backend {
  readonly ttl: number;
  readonly zones: string[];
  readonly primaryZone: string;
  private readonly view: KubeDnsView;
  private readonly cfg: KubernetesPluginConfig;
  private readonly namespaces: Set<string>;

  constructor(view: KubeDnsView, cfg: KubernetesPluginConfig) {
    this.view = view;
    this.cfg = cfg;
    this.ttl = cfg.ttl;
    this.zones = cfg.zones.map(fqdn);
    // setup.go: the primary zone is the first that is not a reverse zone.
    this.primaryZone = this.zones.find((z) => isReverse(z) === 0) ?? this.zones[0] ?? '.';
    this.namespaces = new Set(view.namespaces);
  }

  /** namespace.go namespaceExposed (no `namespaces` or `namespace_labels` options): the Namespace exists. */
  private namespaceExposed(ns: string): boolean {
    return this.namespaces.has(ns);
  }

  /** kubernetes.go Services: the entries a name holds for the record type asked. */
  services(name: string, qtype: RRType, zone: string): Found {
    switch (qtype) {
      case 'TXT': {
        // One label below the zone, and it must be dns-version; anything else is NODATA.
        const segs = labelsOf(trimZone(name, zone));
        if (segs.length !== 1 || segs[0] !== 'dns-version') return found([]);
        return found([{ host: '', port: 0, ttl: 28800, domain: name, text: DNS_SCHEMA_VERSION }]);
      }
      case 'NS':
        // Only reached at the apex (handler.go).
        return found(this.nsAddrs(zone).map((a) => ({ host: a.ip, port: 0, ttl: this.ttl, domain: a.name })));
      default:
        break;
    }
    if (isDefaultNS(name, zone)) {
      return found(
        this.nsAddrs(zone)
          .filter((a) => (qtype === 'A' && parseIP(a.ip)?.v === 4) || (qtype === 'AAAA' && parseIP(a.ip)?.v === 6))
          .map((a) => ({ host: a.ip, port: 0, ttl: this.ttl, domain: name })),
      );
    }
    const res = this.records(name, zone);
    // SRV for external services is not implemented upstream: their CNAMEs are dropped.
    if (qtype === 'SRV') return { entries: res.entries.filter((e) => hostType(e) !== 'CNAME'), err: res.err };
    return res;
  }

  /** kubernetes.go Records. */
  records(name: string, zone: string): Found {
    const { r, err } = parseRequest(name, zone);
    if (err) return nameError(err);
    if (r.podOrSvc === '') return found([]);
    if (isReverse(name) > 0) return nameError('errNoItems');
    if (!this.namespaceExposed(r.namespace)) return nameError('errNsNotExposed');
    return r.podOrSvc === 'pod' ? this.findPods(r, zone) : this.findServices(r, zone);
  }

  /** kubernetes.go findPods: <a-b-c-d>.<namespace>.pod.<zone>. */
  private findPods(r: RecordRequest, zone: string): Found {
    if (this.cfg.pods === 'disabled') return nameError('errNoItems');
    if (!this.namespaceExposed(r.namespace)) return nameError('errNoItems');
    const podname = r.service;
    if (podname === '') return found([]);
    const dashes = podname.split('-').length - 1;
    const ip = dashes === 3 && !podname.includes('--') ? podname.replaceAll('-', '.') : podname.replaceAll('-', ':');
    const entry: Entry = { host: ip, port: 0, ttl: this.ttl, domain: join(zone, podname, r.namespace, 'pod') };
    if (this.cfg.pods === 'insecure') return parseIP(ip) ? found([entry]) : nameError('errNoItems');
    const pods = (this.view.pods ?? []).filter((p) => p.ip === ip && match(r.namespace, p.namespace));
    return pods.length > 0 ? found(pods.map(() => ({ ...entry }))) : nameError('errNoItems');
  }

  /** kubernetes.go findServices. */
  private findServices(r: RecordRequest, zone: string): Found {
    if (!this.namespaceExposed(r.namespace)) return nameError('errNoItems');
    if (r.service === '') return found([]);
    let err: NameError | null = 'errNoItems';
    const entries: Entry[] = [];
    for (const svc of this.view.services) {
      if (!match(r.namespace, svc.namespace) || !match(r.service, svc.name)) continue;
      const svcDomain = join(zone, svc.name, svc.namespace, 'svc');

      if (svc.type === 'ExternalName') {
        // External services have no endpoints; a name that points at an IP is not answered.
        if (r.endpoint !== '') continue;
        const e: Entry = { host: svc.externalName ?? '', port: 0, ttl: this.ttl, domain: svcDomain };
        if (hostType(e) === 'CNAME') {
          entries.push(e);
          err = null;
        }
        continue;
      }

      // An endpoint query, or a headless service: the ready endpoints.
      if (isHeadless(svc) || r.endpoint !== '') {
        for (const ep of svc.endpoints) {
          if (!ep.ready) continue;
          if (r.endpoint !== '' && !match(r.endpoint, endpointHostname(ep))) continue;
          for (const p of portsOf(ep.ports)) {
            if (!matchPortAndProtocol(r.port, p.name, r.protocol, p.protocol)) continue;
            entries.push({ host: ep.ip, port: p.port, ttl: this.ttl, domain: join(zone, endpointHostname(ep), svc.name, svc.namespace, 'svc') });
            err = null;
          }
        }
        continue;
      }

      // A service with cluster IPs.
      for (const p of portsOf(svc.ports)) {
        if (!matchPortAndProtocol(r.port, p.name, r.protocol, p.protocol)) continue;
        err = null;
        for (const ip of svc.clusterIPs) entries.push({ host: ip, port: p.port, ttl: this.ttl, domain: svcDomain });
      }
    }
    return { entries, err };
  }

  /** reverse.go Reverse: the names an address in a reverse zone belongs to. */
  reverse(name: string, zone: string): Found {
    const ip = addressFromReverse(name);
    if (ip === '') {
      const { err } = this.records(name, zone);
      return { entries: [], err };
    }
    const hosts = this.serviceRecordForIP(ip);
    return hosts.length === 0 ? nameError('errNoItems') : found(hosts.map((host) => ({ host, port: 0, ttl: this.ttl, domain: host })));
  }

  /** reverse.go serviceRecordForIP: a Service's cluster (or external) IP first, else every endpoint with the address. */
  private serviceRecordForIP(ip: string): string[] {
    const same = (a: string) => parseIP(a)?.s === ip;
    for (const svc of this.view.services) {
      if ([...svc.clusterIPs, ...(svc.externalIPs ?? [])].some(same)) return [join(this.primaryZone, svc.name, svc.namespace, 'svc')];
    }
    const hosts: string[] = [];
    for (const svc of this.view.services) {
      for (const ep of svc.endpoints) {
        if (ep.ready && same(ep.ip)) hosts.push(join(this.primaryZone, endpointHostname(ep), svc.name, svc.namespace, 'svc'));
      }
    }
    return hosts;
  }

  /**
   * ns.go nsAddrs: the Services whose endpoints hold one of the server's own
   * addresses (the cluster IPs, or for a headless Service the endpoints), else
   * the server's addresses under ns.dns.<zone>.
   */
  nsAddrs(zone: string): { name: string; ip: string }[] {
    const out: { name: string; ip: string }[] = [];
    let foundEndpoint = false;
    for (const local of this.cfg.localIPs ?? []) {
      const localIP = parseIP(local)?.s ?? local;
      for (const svc of this.view.services) {
        // EpIndexReverse then SvcIndex: every EndpointSlice of the Service with the address (one per slice upstream; one here).
        if (!svc.endpoints.some((ep) => ep.ready && parseIP(ep.ip)?.s === localIP)) continue;
        foundEndpoint = true;
        const svcName = join(zone, svc.name, svc.namespace, 'svc');
        if (isHeadless(svc)) {
          for (const ep of svc.endpoints) if (ep.ready) out.push({ name: `${endpointHostname(ep)}.${svcName}`, ip: ep.ip });
        } else {
          for (const ip of svc.clusterIPs) out.push({ name: svcName, ip });
        }
      }
    }
    if (!foundEndpoint) for (const ip of this.cfg.localIPs ?? []) out.push({ name: `${DEFAULT_NS_NAME}${zone}`, ip });
    return out;
  }

  /** kubernetes.go Serial: the caches' last modification, as a uint32. */
  serial(): number {
    return (this.view.modified ?? 0) >>> 0;
  }
}

/** kubernetes.go DNSSchemaVersion (github.com/kubernetes/dns docs/specification.md). */
const DNS_SCHEMA_VERSION = '1.1.0';
const DEFAULT_NS_NAME = 'ns.dns.';

/** ns.go isDefaultNS: ns.dns.<zone>. */
function isDefaultNS(name: string, zone: string): boolean {
  return name.startsWith(DEFAULT_NS_NAME) && name.indexOf(zone) === DEFAULT_NS_NAME.length;
}

/** msg.Service.HostType. */
function hostType(e: Entry): 'A' | 'AAAA' | 'CNAME' | 'TXT' {
  const ip = parseIP(e.host);
  if (!ip) return e.text ? 'TXT' : 'CNAME';
  return ip.v === 4 ? 'A' : 'AAAA';
}

// ---------------------------------------------------------------------------
// The record builders: plugin/backend_lookup.go

interface Built {
  records: DnsRecord[];
  extra: DnsRecord[];
  err: NameError | null;
}

const rr = (name: string, type: RRType, ttl: number, data: string): DnsRecord => ({ name, type, ttl, data });

/** dnsutil.DuplicateCNAME: the chain already holds a CNAME to the same target. */
const duplicateCNAME = (r: DnsRecord, previous: DnsRecord[]): boolean => previous.some((p) => p.type === 'CNAME' && p.data === r.data);

/** backend_lookup.go A and AAAA, with checkForApex. */
function address(
  b: Backend,
  zone: string,
  name: string,
  family: 'A' | 'AAAA',
  previous: DnsRecord[],
  upstream: Upstream | undefined,
): { records: DnsRecord[]; err: NameError | null } {
  let res: Found;
  if (name === zone) {
    // The apex: a special apex.dns.<zone> entry, which this backend never has.
    const apex = b.services(join(zone, 'apex', 'dns'), family, zone);
    res = apex.err ? b.services(name, family, zone) : apex;
  } else res = b.services(name, family, zone);
  if (res.err) return { records: [], err: res.err };

  const records: DnsRecord[] = [];
  const dup = new Set<string>();
  for (const e of res.entries) {
    const what = hostType(e);
    if (what === 'CNAME') {
      const target = fqdn(e.host);
      // x CNAME x is a direct loop.
      if (isSubDomain(name, target)) continue;
      const cname = rr(name, 'CNAME', e.ttl, target);
      if (previous.length > 7 || duplicateCNAME(cname, previous)) continue;
      if (isSubDomain(zone, target)) {
        const next = address(b, zone, target, family, [...previous, cname], upstream);
        if (next.err === null && next.records.length > 0) records.push(cname, ...next.records);
        continue;
      }
      // Outside the zone: upstream completes the chain.
      const m = upstream ? upstream(target, family) : ({ rcode: 'NOERROR', authoritative: false, answer: [], authority: [], additional: [] } satisfies DnsResponse);
      if (m === null) continue;
      records.push(cname, ...m.answer);
      continue;
    }
    if (what !== family || dup.has(e.host)) continue;
    dup.add(e.host);
    records.push(rr(name, family, e.ttl, parseIP(e.host)?.s ?? e.host));
  }
  return { records, err: null };
}

/** backend_lookup.go SRV: targets are the entries' names, their addresses go in the additional section. */
function srv(b: Backend, zone: string, name: string): Built {
  const res = b.services(name, 'SRV', zone);
  if (res.err) return { records: [], extra: [], err: res.err };
  // Every entry has priority 0 and weight 0 (counted as 100): the weights split 100 evenly.
  const total = 100 * res.entries.length;
  const records: DnsRecord[] = [];
  const extra: DnsRecord[] = [];
  const dup = new Set<string>();
  for (const e of res.entries) {
    if (e.port === -1) continue;
    const weight = Math.max(1, Math.floor((100 / total) * 100));
    const what = hostType(e);
    if (what !== 'A' && what !== 'AAAA') continue;
    const target = fqdn(e.domain);
    const srvKey = `${target}|${e.port}|`;
    if (!dup.has(srvKey)) {
      dup.add(srvKey);
      records.push(rr(name, 'SRV', e.ttl, `0 ${weight} ${e.port & 0xffff} ${target}`));
    }
    const addrKey = `${target}|0|${e.host}`;
    if (!dup.has(addrKey)) {
      dup.add(addrKey);
      extra.push(rr(target, what, e.ttl, parseIP(e.host)?.s ?? e.host));
    }
  }
  return { records, extra, err: null };
}

/** backend_lookup.go PTR. */
function ptr(b: Backend, zone: string, name: string): Built {
  const res = b.reverse(name, zone);
  if (res.err) return { records: [], extra: [], err: res.err };
  const records: DnsRecord[] = [];
  const dup = new Set<string>();
  for (const e of res.entries) {
    if (parseIP(e.host) || dup.has(e.host)) continue;
    dup.add(e.host);
    records.push(rr(name, 'PTR', e.ttl, fqdn(e.host)));
  }
  return { records, extra: [], err: null };
}

/** backend_lookup.go TXT: only dns-version.<zone> has one. */
function txt(b: Backend, zone: string, name: string): Built {
  const res = b.services(name, 'TXT', zone);
  if (res.err) return { records: [], extra: [], err: res.err };
  const records: DnsRecord[] = [];
  const dup = new Set<string>();
  for (const e of res.entries) {
    if (hostType(e) !== 'TXT' || dup.has(e.text ?? '')) continue;
    dup.add(e.text ?? '');
    records.push(rr(name, 'TXT', e.ttl, JSON.stringify(e.text ?? '')));
  }
  return { records, extra: [], err: null };
}

/** backend_lookup.go CNAME: the first entry, when it is a name. */
function cname(b: Backend, zone: string, name: string): Built {
  const res = b.services(name, 'CNAME', zone);
  if (res.err) return { records: [], extra: [], err: res.err };
  const first = res.entries[0];
  const records = first && !parseIP(first.host) ? [rr(name, 'CNAME', first.ttl, fqdn(first.host))] : [];
  return { records, extra: [], err: null };
}

/** backend_lookup.go NS: ns.dns.<zone>'s addresses, named after the Service they came from. */
function ns(b: Backend, zone: string, name: string): Built {
  const res = b.services(join(zone, 'ns', 'dns'), 'NS', zone);
  const records: DnsRecord[] = [];
  const extra: DnsRecord[] = [];
  const seen = new Set<string>();
  for (const e of res.entries) {
    const ip = parseIP(e.host);
    if (!ip) continue;
    const target = fqdn(e.domain);
    extra.push(rr(target, ip.v === 4 ? 'A' : 'AAAA', e.ttl, ip.s));
    if (seen.has(target)) continue;
    seen.add(target);
    records.push(rr(name, 'NS', e.ttl, target));
  }
  return { records, extra, err: null };
}

/** backend_lookup.go SOA: ns.dns.<zone> hostmaster.<zone>, serial from the caches; its TTL is the minimum TTL capped at 300. */
function soa(b: Backend, zone: string): DnsRecord {
  const minTTL = b.ttl;
  const data = `${join(zone, 'ns', 'dns')} ${join(zone, 'hostmaster')} ${b.serial()} 7200 1800 86400 ${minTTL}`;
  return rr(zone, 'SOA', Math.min(minTTL, 300), data);
}

/** backend_lookup.go BackendError: an authoritative error (NXDOMAIN) or NODATA, with the zone's SOA. */
function backendError(b: Backend, zone: string, rcode: 'NXDOMAIN' | 'NOERROR'): DnsResponse {
  return { rcode, authoritative: true, answer: [], authority: [soa(b, zone)], additional: [] };
}

// ---------------------------------------------------------------------------
// The handler: plugin/kubernetes/handler.go ServeDNS

/**
 * The kubernetes plugin's answer to `q`: null when the name is in none of its
 * zones (the next plugin, forward, takes it); 'fallthrough' when the plugin
 * found no such name in a zone listed under `fallthrough` (the next plugin
 * takes it too). Records come in the caches' order; `loadbalance` shuffles.
 *
 * An ExternalName Service pointing outside the zones answers its CNAME,
 * followed by what `upstream` resolves the target to (plugin/pkg/upstream);
 * without `upstream`, the CNAME alone.
 */
export function answerKubernetes(view: KubeDnsView, q: DnsQuestion, cfg: KubernetesPluginConfig = KUBEADM_KUBERNETES, upstream?: Upstream): DnsResponse | 'fallthrough' | null {
  const b = new Backend(view, cfg);
  const qname = fqdn(q.name);
  const zone = matchZone(b.zones, qname);
  if (zone === '') return null;

  let built: Built;
  switch (q.type) {
    case 'A':
    case 'AAAA': {
      const r = address(b, zone, qname, q.type, [], upstream);
      built = { records: r.records, extra: [], err: r.err };
      break;
    }
    case 'TXT':
      built = txt(b, zone, qname);
      break;
    case 'CNAME':
      built = cname(b, zone, qname);
      break;
    case 'PTR':
      built = ptr(b, zone, qname);
      break;
    case 'MX': {
      // backend_lookup.go MX: no entry of this backend is a mail exchanger.
      const res = b.services(qname, 'MX', zone);
      built = { records: [], extra: [], err: res.err };
      break;
    }
    case 'SRV':
      built = srv(b, zone, qname);
      break;
    case 'SOA':
      built = { records: qname === zone ? [soa(b, zone)] : [], extra: [], err: null };
      break;
    case 'NS':
      if (qname === zone) {
        built = ns(b, zone, qname);
        break;
      }
      built = fakeA(b, zone, qname);
      break;
    case 'ANY':
      built = fakeA(b, zone, qname);
      break;
    default:
      return assertNever(q.type);
  }

  if (built.err) {
    if (matchZone(cfg.fallthrough.map(fqdn), qname) !== '') return 'fallthrough';
    return backendError(b, zone, 'NXDOMAIN');
  }
  if (built.records.length === 0) return backendError(b, zone, 'NOERROR');
  return { rcode: 'NOERROR', authoritative: true, answer: built.records, authority: [], additional: built.extra };
}

/** handler.go default case: an A lookup that only tells NODATA from NXDOMAIN. */
function fakeA(b: Backend, zone: string, qname: string): Built {
  const r = address(b, zone, qname, 'A', [], undefined);
  return { records: [], extra: [], err: r.err };
}

function assertNever(x: never): never {
  throw new Error(`unexpected record type ${String(x)}`);
}

// ---------------------------------------------------------------------------
// plugin/loadbalance: round_robin

/**
 * The loadbalance plugin's round_robin policy on a written response: in each
 * section CNAMEs first, then other records, then A/AAAA shuffled, then MX
 * shuffled. Error responses pass untouched. `rng` returns a uint32; its low 16
 * bits stand for dns.Id(), the random message id the shuffle draws.
 */
export function loadbalance(response: DnsResponse, rng: () => number): DnsResponse {
  if (response.rcode !== 'NOERROR') return response;
  const id = () => (rng() >>> 0) & 0xffff;
  return {
    ...response,
    answer: roundRobin(response.answer, id),
    authority: roundRobin(response.authority, id),
    additional: roundRobin(response.additional, id),
  };
}

function roundRobin(records: DnsRecord[], id: () => number): DnsRecord[] {
  if (records.length <= 1) return [...records];
  const cnames: DnsRecord[] = [];
  const addresses: DnsRecord[] = [];
  const mx: DnsRecord[] = [];
  const rest: DnsRecord[] = [];
  for (const r of records) {
    if (r.type === 'CNAME') cnames.push(r);
    else if (r.type === 'A' || r.type === 'AAAA') addresses.push(r);
    else if (r.type === 'MX') mx.push(r);
    else rest.push(r);
  }
  shuffle(addresses, id);
  shuffle(mx, id);
  return [...cnames, ...rest, ...addresses, ...mx];
}

/** loadbalance.go roundRobinShuffle: two records swap on an even id; more, each place swaps with a random later one. */
function shuffle(records: DnsRecord[], id: () => number): void {
  const l = records.length;
  if (l <= 1) return;
  if (l === 2) {
    if (id() % 2 === 0) [records[0], records[1]] = [records[1]!, records[0]!];
    return;
  }
  for (let j = 0; j < l; j++) {
    const p = j + (id() % (l - j));
    if (p === j) continue;
    [records[j], records[p]] = [records[p]!, records[j]!];
  }
}
