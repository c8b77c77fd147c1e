// The kubernetes plugin's answers as CoreDNS v1.11.3 gives them to kubeadm's
// Corefile (`pods insecure`, `fallthrough in-addr.arpa ip6.arpa`, `ttl 30`),
// one behaviour a test, over a small cluster held the way the informers hold it.
import { describe, expect, it } from 'vitest';
import type { KObject } from '../apimachinery/types';
import { answerKubernetes, dnsViewOf, KUBEADM_KUBERNETES, loadbalance, type KubeDnsView, type KubernetesPluginConfig } from './kubernetes';
import type { DnsRecord, DnsResponse, RRType } from './message';

const SERIAL = 1_700_000_000;
const SOA = `ns.dns.cluster.local. hostmaster.cluster.local. ${SERIAL} 7200 1800 86400 30`;
const soa: DnsRecord = { name: 'cluster.local.', type: 'SOA', ttl: 30, data: SOA };

const ns = (name: string): KObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

function svc(namespace: string, name: string, spec: Record<string, unknown>, status: Record<string, unknown> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec: { type: 'ClusterIP', ...spec }, status };
}

function slice(namespace: string, service: string, name: string, ports: unknown[], endpoints: unknown[], addressType = 'IPv4'): KObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name, namespace, labels: { 'kubernetes.io/service-name': service } },
    addressType,
    ports,
    endpoints,
  };
}

const tcp = (name: string, port: number) => ({ name, port, protocol: 'TCP' });
const ep = (ip: string, ready: boolean | undefined, hostname?: string) => ({ addresses: [ip], conditions: ready === undefined ? {} : { ready }, ...(hostname ? { hostname } : {}) });

const SERVICES = [
  svc('default', 'kubernetes', { clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [tcp('https', 443)] }),
  svc('kube-system', 'kube-dns', { clusterIP: '10.96.0.10', ports: [{ name: 'dns', port: 53, protocol: 'UDP' }, tcp('dns-tcp', 53), tcp('metrics', 9153)] }),
  svc('shop', 'web', { clusterIP: '10.96.7.7', ports: [tcp('http', 80), tcp('metrics', 9090)] }),
  svc('shop', 'web-admin', { clusterIP: '10.96.7.8', ports: [tcp('admin', 8081)] }),
  svc('shop', 'db', { clusterIP: 'None', clusterIPs: ['None'], ports: [tcp('pg', 5432)] }),
  svc('shop', 'cache', { clusterIP: 'None' }),
  svc('shop', 'pending', { clusterIP: 'None', ports: [tcp('http', 80)] }),
  svc('shop', 'peers', { clusterIP: 'None', publishNotReadyAddresses: true, ports: [tcp('gossip', 7946)] }),
  svc('shop', 'ext', { type: 'ExternalName', externalName: 'api.example.com' }),
  svc('shop', 'alias', { type: 'ExternalName', externalName: 'web.shop.svc.cluster.local' }),
  svc('shop', 'np', { type: 'NodePort', clusterIP: '10.96.8.8', ports: [{ ...tcp('http', 80), nodePort: 30080 }] }),
  svc('shop', 'lb', { type: 'LoadBalancer', clusterIP: '10.96.9.9', ports: [tcp('http', 80)] }, { loadBalancer: { ingress: [{ ip: '203.0.113.5' }] } }),
  svc('shop', 'dual', { clusterIP: '10.96.10.10', clusterIPs: ['10.96.10.10', 'fd00:10:96::a'], ipFamilies: ['IPv4', 'IPv6'], ports: [tcp('http', 80)] }),
];

const SLICES = [
  slice('kube-system', 'kube-dns', 'kube-dns-abc', [{ name: 'dns', port: 53, protocol: 'UDP' }, tcp('dns-tcp', 53), tcp('metrics', 9153)], [ep('10.244.0.3', true), ep('10.244.0.2', true)]),
  slice('shop', 'web', 'web-abc', [tcp('http', 8080), tcp('metrics', 9090)], [ep('10.244.2.9', true), ep('10.244.1.5', true), ep('10.244.2.10', false)]),
  slice('shop', 'web-admin', 'web-admin-abc', [tcp('admin', 8081)], [ep('10.244.1.5', true)]),
  slice('shop', 'db', 'db-abc', [tcp('pg', 5432)], [ep('10.244.2.21', true, 'db-1'), ep('10.244.1.20', true, 'db-0'), ep('10.244.1.22', false, 'db-2')]),
  slice('shop', 'cache', 'cache-abc', [], [ep('10.244.1.30', undefined)]),
  // publishNotReadyAddresses: the EndpointSlice controller writes ready=true for a pod that is not ready.
  slice('shop', 'peers', 'peers-abc', [tcp('gossip', 7946)], [{ ...ep('10.244.1.40', true, 'peers-0'), conditions: { ready: true, serving: false, terminating: false } }]),
];

const VIEW: KubeDnsView = dnsViewOf(SERVICES, SLICES, [ns('default'), ns('kube-system'), ns('shop')], { modified: SERIAL });

const ask = (name: string, type: RRType, cfg: KubernetesPluginConfig = KUBEADM_KUBERNETES, view: KubeDnsView = VIEW) => answerKubernetes(view, { name, type }, cfg);

const ok = (answer: DnsRecord[], additional: DnsRecord[] = []): DnsResponse => ({ rcode: 'NOERROR', authoritative: true, answer, authority: [], additional });
const nodata = (authority: DnsRecord = soa): DnsResponse => ({ rcode: 'NOERROR', authoritative: true, answer: [], authority: [authority], additional: [] });
const nxdomain = (authority: DnsRecord = soa): DnsResponse => ({ rcode: 'NXDOMAIN', authoritative: true, answer: [], authority: [authority], additional: [] });
const a = (name: string, data: string, ttl = 30): DnsRecord => ({ name, type: 'A', ttl, data });
const r = (name: string, type: RRType, data: string, ttl = 30): DnsRecord => ({ name, type, ttl, data });

describe('dnsViewOf', () => {
  it('keeps what the informers hold, sorted: services by namespace/name, endpoints by address', () => {
    const view = dnsViewOf(
      [
        svc('b', 'z', { clusterIP: '10.96.0.20', ports: [{ name: 'http', port: 80 }] }),
        svc('a', 'hl', { clusterIP: 'None', ports: [tcp('pg', 5432)] }),
        svc('a', 'ext', { type: 'ExternalName', externalName: 'example.com' }),
      ],
      [
        slice('a', 'hl', 'hl-2', [tcp('pg', 5432)], [ep('10.244.1.10', undefined, 'hl-1')]),
        slice('a', 'hl', 'hl-1', [{ port: 5432 }], [ep('10.244.1.9', false), { addresses: ['10.244.1.2'], conditions: { ready: true } }]),
        // Another namespace's Service of the same name, and an FQDN slice: not this Service's.
        slice('b', 'hl', 'hl-x', [tcp('pg', 5432)], [ep('10.244.3.3', true)]),
        slice('a', 'hl', 'hl-fqdn', [tcp('pg', 5432)], [{ addresses: ['db.example.com'] }], 'FQDN'),
      ],
      [ns('b'), ns('a')],
    );
    expect(view).toEqual({
      namespaces: ['a', 'b'],
      services: [
        { namespace: 'a', name: 'ext', type: 'ExternalName', clusterIPs: [], externalName: 'example.com', ports: [], endpoints: [] },
        {
          namespace: 'a',
          name: 'hl',
          type: 'ClusterIP',
          clusterIPs: ['None'],
          ports: [{ name: 'pg', protocol: 'TCP', port: 5432 }],
          endpoints: [
            { ip: '10.244.1.2', ready: true, ports: [{ name: '', protocol: '', port: 5432 }] },
            { ip: '10.244.1.9', ready: false, ports: [{ name: '', protocol: '', port: 5432 }] },
            { ip: '10.244.1.10', hostname: 'hl-1', ready: true, ports: [{ name: 'pg', protocol: 'TCP', port: 5432 }] },
          ],
        },
        { namespace: 'b', name: 'z', type: 'ClusterIP', clusterIPs: ['10.96.0.20'], ports: [{ name: 'http', protocol: 'TCP', port: 80 }], endpoints: [] },
      ],
    });
  });

  it('records external and load-balancer addresses, and publishNotReadyAddresses', () => {
    const lb = VIEW.services.find((s) => s.name === 'lb');
    expect(lb?.externalIPs).toEqual(['203.0.113.5']);
    expect(VIEW.services.find((s) => s.name === 'peers')?.publishNotReadyAddresses).toBe(true);
    expect(VIEW.modified).toBe(SERIAL);
  });

  it('is plain data', () => {
    expect(JSON.parse(JSON.stringify(VIEW))).toEqual(VIEW);
  });
});

describe('services', () => {
  it('answers a ClusterIP Service with its cluster IP', () => {
    expect(ask('web.shop.svc.cluster.local.', 'A')).toEqual(ok([a('web.shop.svc.cluster.local.', '10.96.7.7')]));
    expect(ask('kubernetes.default.svc.cluster.local.', 'A')).toEqual(ok([a('kubernetes.default.svc.cluster.local.', '10.96.0.1')]));
  });

  it('answers NodePort and LoadBalancer Services with their cluster IPs', () => {
    expect(ask('np.shop.svc.cluster.local.', 'A')).toEqual(ok([a('np.shop.svc.cluster.local.', '10.96.8.8')]));
    expect(ask('lb.shop.svc.cluster.local.', 'A')).toEqual(ok([a('lb.shop.svc.cluster.local.', '10.96.9.9')]));
  });

  it('matches names case-insensitively and takes them without the trailing dot', () => {
    expect(ask('WEB.Shop.svc.Cluster.Local', 'A')).toEqual(ok([a('web.shop.svc.cluster.local.', '10.96.7.7')]));
  });

  it('answers AAAA for an IPv4-only Service with NODATA and the zone SOA', () => {
    expect(ask('web.shop.svc.cluster.local.', 'AAAA')).toEqual({
      rcode: 'NOERROR',
      authoritative: true,
      answer: [],
      authority: [{ name: 'cluster.local.', type: 'SOA', ttl: 30, data: 'ns.dns.cluster.local. hostmaster.cluster.local. 1700000000 7200 1800 86400 30' }],
      additional: [],
    });
  });

  it('answers each family of a dual-stack Service', () => {
    expect(ask('dual.shop.svc.cluster.local.', 'A')).toEqual(ok([a('dual.shop.svc.cluster.local.', '10.96.10.10')]));
    expect(ask('dual.shop.svc.cluster.local.', 'AAAA')).toEqual(ok([r('dual.shop.svc.cluster.local.', 'AAAA', 'fd00:10:96::a')]));
  });

  it('answers a headless Service with its ready endpoints only', () => {
    expect(ask('db.shop.svc.cluster.local.', 'A')).toEqual(ok([a('db.shop.svc.cluster.local.', '10.244.1.20'), a('db.shop.svc.cluster.local.', '10.244.2.21')]));
    // An endpoint with conditions.ready unset counts as ready.
    expect(ask('cache.shop.svc.cluster.local.', 'A')).toEqual(ok([a('cache.shop.svc.cluster.local.', '10.244.1.30')]));
  });

  it('answers not-ready pods of a publishNotReadyAddresses Service, which its EndpointSlice marks ready', () => {
    expect(ask('peers.shop.svc.cluster.local.', 'A')).toEqual(ok([a('peers.shop.svc.cluster.local.', '10.244.1.40')]));
    // The Service's flag itself is never read: a slice that says not ready is not served.
    const view = dnsViewOf(SERVICES, [slice('shop', 'peers', 'peers-abc', [tcp('gossip', 7946)], [ep('10.244.1.40', false, 'peers-0')])], [ns('shop')], { modified: SERIAL });
    expect(ask('peers.shop.svc.cluster.local.', 'A', KUBEADM_KUBERNETES, view)).toEqual(nxdomain());
  });

  it('answers NXDOMAIN for a headless Service without ready endpoints, but keeps a ClusterIP Service without any', () => {
    expect(ask('pending.shop.svc.cluster.local.', 'A')).toEqual(nxdomain());
    expect(ask('np.shop.svc.cluster.local.', 'A')).toEqual(ok([a('np.shop.svc.cluster.local.', '10.96.8.8')]));
  });

  it('answers an ExternalName Service with a CNAME to its external name', () => {
    expect(ask('ext.shop.svc.cluster.local.', 'A')).toEqual(ok([r('ext.shop.svc.cluster.local.', 'CNAME', 'api.example.com.')]));
    expect(ask('ext.shop.svc.cluster.local.', 'CNAME')).toEqual(ok([r('ext.shop.svc.cluster.local.', 'CNAME', 'api.example.com.')]));
    // An external name that is an address is not answered at all.
    const byIP = dnsViewOf([svc('shop', 'ip', { type: 'ExternalName', externalName: '192.0.2.1' })], [], [ns('shop')], { modified: SERIAL });
    expect(ask('ip.shop.svc.cluster.local.', 'A', KUBEADM_KUBERNETES, byIP)).toEqual(nxdomain());
    // A CNAME query for a Service with an address has no CNAME to give.
    expect(ask('web.shop.svc.cluster.local.', 'CNAME')).toEqual(nodata());
  });

  it('follows an ExternalName target out of the zone through upstream', () => {
    const upstream = (name: string, type: RRType): DnsResponse => ({ rcode: 'NOERROR', authoritative: false, answer: [{ name, type, ttl: 300, data: '93.184.216.34' }], authority: [], additional: [] });
    expect(answerKubernetes(VIEW, { name: 'ext.shop.svc.cluster.local.', type: 'A' }, KUBEADM_KUBERNETES, upstream)).toEqual(
      ok([r('ext.shop.svc.cluster.local.', 'CNAME', 'api.example.com.'), { name: 'api.example.com.', type: 'A', ttl: 300, data: '93.184.216.34' }]),
    );
    // A failed upstream lookup leaves the CNAME out: NODATA.
    expect(answerKubernetes(VIEW, { name: 'ext.shop.svc.cluster.local.', type: 'A' }, KUBEADM_KUBERNETES, () => null)).toEqual(nodata());
  });

  it('resolves an ExternalName target inside the zone itself', () => {
    expect(ask('alias.shop.svc.cluster.local.', 'A')).toEqual(ok([r('alias.shop.svc.cluster.local.', 'CNAME', 'web.shop.svc.cluster.local.'), a('web.shop.svc.cluster.local.', '10.96.7.7')]));
    // The target has no AAAA: the CNAME is dropped too.
    expect(ask('alias.shop.svc.cluster.local.', 'AAAA')).toEqual(nodata());
  });
});

describe('endpoints', () => {
  it('answers <hostname>.<svc> for a StatefulSet pod behind a headless Service', () => {
    expect(ask('db-0.db.shop.svc.cluster.local.', 'A')).toEqual(ok([a('db-0.db.shop.svc.cluster.local.', '10.244.1.20')]));
    expect(ask('db-2.db.shop.svc.cluster.local.', 'A')).toEqual(nxdomain());
  });

  it('answers the dashed-IP name of an endpoint without a hostname, for ClusterIP Services too', () => {
    expect(ask('10-244-1-30.cache.shop.svc.cluster.local.', 'A')).toEqual(ok([a('10-244-1-30.cache.shop.svc.cluster.local.', '10.244.1.30')]));
    expect(ask('10-244-1-5.web.shop.svc.cluster.local.', 'A')).toEqual(ok([a('10-244-1-5.web.shop.svc.cluster.local.', '10.244.1.5')]));
    // Not ready: not in the cache.
    expect(ask('10-244-2-10.web.shop.svc.cluster.local.', 'A')).toEqual(nxdomain());
    // An endpoint with a hostname goes by its hostname only.
    expect(ask('10-244-1-20.db.shop.svc.cluster.local.', 'A')).toEqual(nxdomain());
    // ExternalName Services have no endpoints.
    expect(ask('x.ext.shop.svc.cluster.local.', 'A')).toEqual(nxdomain());
  });
});

describe('SRV', () => {
  it('answers _port._proto.<svc> with the Service name as target and its address as additional', () => {
    expect(ask('_http._tcp.web.shop.svc.cluster.local.', 'SRV')).toEqual(
      ok([r('_http._tcp.web.shop.svc.cluster.local.', 'SRV', '0 100 80 web.shop.svc.cluster.local.')], [a('web.shop.svc.cluster.local.', '10.96.7.7')]),
    );
    expect(ask('_dns._udp.kube-dns.kube-system.svc.cluster.local.', 'SRV')).toEqual(
      ok([r('_dns._udp.kube-dns.kube-system.svc.cluster.local.', 'SRV', '0 100 53 kube-dns.kube-system.svc.cluster.local.')], [a('kube-dns.kube-system.svc.cluster.local.', '10.96.0.10')]),
    );
  });

  it('answers the plain Service name with every port, the weights splitting 100', () => {
    expect(ask('web.shop.svc.cluster.local.', 'SRV')).toEqual(
      ok(
        [r('web.shop.svc.cluster.local.', 'SRV', '0 50 80 web.shop.svc.cluster.local.'), r('web.shop.svc.cluster.local.', 'SRV', '0 50 9090 web.shop.svc.cluster.local.')],
        [a('web.shop.svc.cluster.local.', '10.96.7.7')],
      ),
    );
    expect(ask('kube-dns.kube-system.svc.cluster.local.', 'SRV')).toEqual(
      ok(
        [
          r('kube-dns.kube-system.svc.cluster.local.', 'SRV', '0 33 53 kube-dns.kube-system.svc.cluster.local.'),
          r('kube-dns.kube-system.svc.cluster.local.', 'SRV', '0 33 9153 kube-dns.kube-system.svc.cluster.local.'),
        ],
        [a('kube-dns.kube-system.svc.cluster.local.', '10.96.0.10')],
      ),
    );
  });

  it('answers a headless Service with one target per endpoint', () => {
    expect(ask('_pg._tcp.db.shop.svc.cluster.local.', 'SRV')).toEqual(
      ok(
        [r('_pg._tcp.db.shop.svc.cluster.local.', 'SRV', '0 50 5432 db-0.db.shop.svc.cluster.local.'), r('_pg._tcp.db.shop.svc.cluster.local.', 'SRV', '0 50 5432 db-1.db.shop.svc.cluster.local.')],
        [a('db-0.db.shop.svc.cluster.local.', '10.244.1.20'), a('db-1.db.shop.svc.cluster.local.', '10.244.2.21')],
      ),
    );
  });

  it('answers NXDOMAIN for a port the Service lacks, NODATA where there is no port or no address', () => {
    expect(ask('_https._tcp.web.shop.svc.cluster.local.', 'SRV')).toEqual(nxdomain());
    expect(ask('_http._udp.web.shop.svc.cluster.local.', 'SRV')).toEqual(nxdomain());
    expect(ask('cache.shop.svc.cluster.local.', 'SRV')).toEqual(nodata());
    expect(ask('ext.shop.svc.cluster.local.', 'SRV')).toEqual(nodata());
  });
});

describe('pods', () => {
  it('answers <a-b-c-d>.<ns>.pod under pods insecure, for any address in an existing namespace', () => {
    expect(ask('10-244-1-5.shop.pod.cluster.local.', 'A')).toEqual(ok([a('10-244-1-5.shop.pod.cluster.local.', '10.244.1.5')]));
    expect(ask('10-1-2-3.default.pod.cluster.local.', 'A')).toEqual(ok([a('10-1-2-3.default.pod.cluster.local.', '10.1.2.3')]));
    expect(ask('10-1-2-3.default.pod.cluster.local.', 'AAAA')).toEqual(nodata());
    expect(ask('10-1-2-3.nope.pod.cluster.local.', 'A')).toEqual(nxdomain());
    expect(ask('not-an-ip.default.pod.cluster.local.', 'A')).toEqual(nxdomain());
    expect(ask('default.pod.cluster.local.', 'A')).toEqual(nodata());
  });

  it('answers NXDOMAIN for pod names under pods disabled', () => {
    expect(ask('10-244-1-5.shop.pod.cluster.local.', 'A', { ...KUBEADM_KUBERNETES, pods: 'disabled' })).toEqual(nxdomain());
    const withPods: KubeDnsView = { ...VIEW, pods: [{ namespace: 'shop', ip: '10.244.1.5' }] };
    expect(ask('10-244-1-5.shop.pod.cluster.local.', 'A', { ...KUBEADM_KUBERNETES, pods: 'disabled' }, withPods)).toEqual(nxdomain());
  });

  it('answers only running pods under pods verified', () => {
    const pod = (namespace: string, ip: string, phase: string): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${ip}`, namespace }, status: { phase, podIP: ip } });
    const view = dnsViewOf(SERVICES, SLICES, [ns('shop'), ns('default')], { modified: SERIAL, pods: [pod('shop', '10.244.1.5', 'Running'), pod('shop', '10.244.1.6', 'Succeeded')] });
    const verified = { ...KUBEADM_KUBERNETES, pods: 'verified' as const };
    expect(ask('10-244-1-5.shop.pod.cluster.local.', 'A', verified, view)).toEqual(ok([a('10-244-1-5.shop.pod.cluster.local.', '10.244.1.5')]));
    expect(ask('10-244-1-5.default.pod.cluster.local.', 'A', verified, view)).toEqual(nxdomain());
    expect(ask('10-244-1-6.shop.pod.cluster.local.', 'A', verified, view)).toEqual(nxdomain());
  });
});

describe('reverse lookups', () => {
  it('answers PTR for a cluster IP and a load balancer IP with the Service name', () => {
    expect(ask('7.7.96.10.in-addr.arpa.', 'PTR')).toEqual(ok([r('7.7.96.10.in-addr.arpa.', 'PTR', 'web.shop.svc.cluster.local.')]));
    expect(ask('10.0.96.10.in-addr.arpa.', 'PTR')).toEqual(ok([r('10.0.96.10.in-addr.arpa.', 'PTR', 'kube-dns.kube-system.svc.cluster.local.')]));
    expect(ask('5.113.0.203.in-addr.arpa.', 'PTR')).toEqual(ok([r('5.113.0.203.in-addr.arpa.', 'PTR', 'lb.shop.svc.cluster.local.')]));
    expect(ask('a.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa.', 'PTR')).toEqual(
      ok([r('a.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa.', 'PTR', 'dual.shop.svc.cluster.local.')]),
    );
  });

  it('answers PTR for an endpoint IP with its hostname or dashed name, once per Service', () => {
    expect(ask('20.1.244.10.in-addr.arpa.', 'PTR')).toEqual(ok([r('20.1.244.10.in-addr.arpa.', 'PTR', 'db-0.db.shop.svc.cluster.local.')]));
    expect(ask('5.1.244.10.in-addr.arpa.', 'PTR')).toEqual(
      ok([r('5.1.244.10.in-addr.arpa.', 'PTR', '10-244-1-5.web.shop.svc.cluster.local.'), r('5.1.244.10.in-addr.arpa.', 'PTR', '10-244-1-5.web-admin.shop.svc.cluster.local.')]),
    );
  });

  it('falls through for addresses it does not know, and for other types in the reverse zones', () => {
    expect(ask('9.9.9.9.in-addr.arpa.', 'PTR')).toBe('fallthrough');
    // Not ready: not indexed.
    expect(ask('10.2.244.10.in-addr.arpa.', 'PTR')).toBe('fallthrough');
    expect(ask('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa.', 'PTR')).toBe('fallthrough');
    expect(ask('7.7.96.10.in-addr.arpa.', 'A')).toBe('fallthrough');
    // Service-shaped names below a reverse zone are not looked up.
    expect(ask('web.shop.svc.in-addr.arpa.', 'A')).toBe('fallthrough');
  });

  it('answers NXDOMAIN with the reverse zone SOA when that zone does not fall through', () => {
    const revSoa: DnsRecord = { name: 'in-addr.arpa.', type: 'SOA', ttl: 30, data: `ns.dns.in-addr.arpa. hostmaster.in-addr.arpa. ${SERIAL} 7200 1800 86400 30` };
    expect(ask('9.9.9.9.in-addr.arpa.', 'PTR', { ...KUBEADM_KUBERNETES, fallthrough: [] })).toEqual(nxdomain(revSoa));
    // The apex of a reverse zone is no address: NODATA.
    expect(ask('in-addr.arpa.', 'PTR')).toEqual(nodata(revSoa));
  });

  it('falls through everywhere on a bare fallthrough', () => {
    expect(ask('missing.shop.svc.cluster.local.', 'A', { ...KUBEADM_KUBERNETES, fallthrough: ['.'] })).toBe('fallthrough');
    expect(ask('web.shop.svc.cluster.local.', 'AAAA', { ...KUBEADM_KUBERNETES, fallthrough: ['.'] })).toEqual(nodata());
  });
});

describe('zone apex', () => {
  const withLocal = { ...KUBEADM_KUBERNETES, localIPs: ['10.244.0.2'] };

  it('answers NS with the Service whose endpoints hold the server, and its address as additional', () => {
    expect(ask('cluster.local.', 'NS', withLocal)).toEqual(ok([r('cluster.local.', 'NS', 'kube-dns.kube-system.svc.cluster.local.')], [a('kube-dns.kube-system.svc.cluster.local.', '10.96.0.10')]));
    expect(ask('ns.dns.cluster.local.', 'A', withLocal)).toEqual(ok([a('ns.dns.cluster.local.', '10.96.0.10')]));
  });

  it('answers one NS per Service name, with an address for every match of every server address', () => {
    const view = dnsViewOf(
      [svc('kube-system', 'kube-dns', { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10', 'fd00:96::a'], ports: [{ name: 'dns', port: 53, protocol: 'UDP' }] })],
      [
        slice('kube-system', 'kube-dns', 'kube-dns-v4', [{ name: 'dns', port: 53, protocol: 'UDP' }], [ep('10.244.0.2', true)]),
        slice('kube-system', 'kube-dns', 'kube-dns-v6', [{ name: 'dns', port: 53, protocol: 'UDP' }], [ep('fd00:244::2', true)], 'IPv6'),
      ],
      [ns('kube-system')],
      { modified: SERIAL },
    );
    const target = 'kube-dns.kube-system.svc.cluster.local.';
    expect(ask('cluster.local.', 'NS', { ...KUBEADM_KUBERNETES, localIPs: ['10.244.0.2', 'fd00:244::2'] }, view)).toEqual(
      ok([r('cluster.local.', 'NS', target)], [a(target, '10.96.0.10'), r(target, 'AAAA', 'fd00:96::a'), a(target, '10.96.0.10'), r(target, 'AAAA', 'fd00:96::a')]),
    );
  });

  it('answers NS with ns.dns.<zone> and the server address when no Service holds it', () => {
    const lone = { ...KUBEADM_KUBERNETES, localIPs: ['172.17.0.2'] };
    expect(ask('cluster.local.', 'NS', lone)).toEqual(ok([r('cluster.local.', 'NS', 'ns.dns.cluster.local.')], [a('ns.dns.cluster.local.', '172.17.0.2')]));
    expect(ask('ns.dns.cluster.local.', 'A', lone)).toEqual(ok([a('ns.dns.cluster.local.', '172.17.0.2')]));
    expect(ask('ns.dns.cluster.local.', 'AAAA', lone)).toEqual(nodata());
  });

  it('answers SOA at the apex only', () => {
    expect(ask('cluster.local.', 'SOA')).toEqual(ok([soa]));
    expect(ask('web.shop.svc.cluster.local.', 'SOA')).toEqual(nodata());
  });

  it('caps the SOA TTL at 300 while its minimum stays the plugin TTL', () => {
    expect(ask('cluster.local.', 'SOA', { ...KUBEADM_KUBERNETES, ttl: 3600 })).toEqual(
      ok([{ name: 'cluster.local.', type: 'SOA', ttl: 300, data: `ns.dns.cluster.local. hostmaster.cluster.local. ${SERIAL} 7200 1800 86400 3600` }]),
    );
  });

  it('answers NODATA for addresses of the apex and of svc and pod', () => {
    expect(ask('cluster.local.', 'A')).toEqual(nodata());
    expect(ask('svc.cluster.local.', 'A')).toEqual(nodata());
    expect(ask('pod.cluster.local.', 'A')).toEqual(nodata());
  });

  it('answers dns-version.<zone> TXT with the schema version, and no other TXT', () => {
    expect(ask('dns-version.cluster.local.', 'TXT')).toEqual(ok([{ name: 'dns-version.cluster.local.', type: 'TXT', ttl: 28800, data: '"1.1.0"' }]));
    expect(ask('web.shop.svc.cluster.local.', 'TXT')).toEqual(nodata());
    // TXT never reaches the caches, so a missing name is NODATA too.
    expect(ask('missing.shop.svc.cluster.local.', 'TXT')).toEqual(nodata());
  });
});

describe('names that do not exist', () => {
  it('answers NXDOMAIN for a namespace that does not exist, NODATA for one that does', () => {
    expect(ask('web.nope.svc.cluster.local.', 'A')).toEqual(nxdomain());
    expect(ask('nope.svc.cluster.local.', 'A')).toEqual(nxdomain());
    expect(ask('shop.svc.cluster.local.', 'A')).toEqual(nodata());
  });

  it('answers NXDOMAIN for a Service that does not exist and for malformed names', () => {
    expect(ask('missing.shop.svc.cluster.local.', 'A')).toEqual(nxdomain());
    expect(ask('web.shop.cluster.local.', 'A')).toEqual(nxdomain());
    expect(ask('x.y.z.web.shop.svc.cluster.local.', 'A')).toEqual(nxdomain());
    expect(ask('foo.cluster.local.', 'A')).toEqual(nxdomain());
  });

  it('has no wildcards', () => {
    expect(ask('*.shop.svc.cluster.local.', 'A')).toEqual(nxdomain());
    expect(ask('web.*.svc.cluster.local.', 'A')).toEqual(nxdomain());
  });

  it('tells NODATA from NXDOMAIN for types it holds nothing of', () => {
    for (const type of ['MX', 'ANY', 'NS'] as const) {
      expect(ask('web.shop.svc.cluster.local.', type)).toEqual(nodata());
      expect(ask('missing.shop.svc.cluster.local.', type)).toEqual(nxdomain());
    }
  });

  it('leaves names outside its zones to the next plugin', () => {
    expect(ask('example.com.', 'A')).toBeNull();
    expect(ask('cluster.local.example.com.', 'A')).toBeNull();
  });
});

describe('loadbalance', () => {
  const draws = (...ids: number[]) => {
    const queue = [...ids];
    return () => {
      const v = queue.shift();
      if (v === undefined) throw new Error('too many draws');
      return v;
    };
  };
  const A1 = a('x.', '10.0.0.1');
  const A2 = a('x.', '10.0.0.2');
  const A3 = a('x.', '10.0.0.3');

  it('swaps two addresses on an even id, of its low 16 bits', () => {
    expect(loadbalance(ok([A1, A2]), draws(0x10000)).answer).toEqual([A2, A1]);
    expect(loadbalance(ok([A1, A2]), draws(0x10001)).answer).toEqual([A1, A2]);
  });

  it('swaps each place with a random later one', () => {
    // j=0: 0 + 1%3 = 1; j=1: 1 + 1%2 = 2; j=2: 2 + 0%1 = 2.
    expect(loadbalance(ok([A1, A2, A3]), draws(1, 1, 0)).answer).toEqual([A2, A3, A1]);
    expect(loadbalance(ok([A1, A2, A3]), draws(0, 0, 7)).answer).toEqual([A1, A2, A3]);
  });

  it('puts CNAMEs first and other records before the addresses, in every section', () => {
    const cnameRR = r('y.', 'CNAME', 'x.');
    const srvRR = r('s.', 'SRV', '0 100 80 x.');
    const out = loadbalance(ok([A1, cnameRR, A2], [A1, srvRR, A2]), draws(0, 1));
    expect(out.answer).toEqual([cnameRR, A2, A1]);
    expect(out.additional).toEqual([srvRR, A1, A2]);
  });

  it('orders CNAME, other, address records within one section', () => {
    const cnameRR = r('y.', 'CNAME', 'x.');
    const txtRR = r('t.', 'TXT', '"v"');
    expect(loadbalance(ok([A1, txtRR, cnameRR]), draws()).answer).toEqual([cnameRR, txtRR, A1]);
  });

  it('leaves error responses alone', () => {
    const nx = nxdomain();
    expect(loadbalance(nx, draws())).toBe(nx);
  });

  it('shuffles a headless Service answer without losing records', () => {
    const res = ask('db.shop.svc.cluster.local.', 'A');
    if (res === null || res === 'fallthrough') throw new Error('expected a response');
    const out = loadbalance(res, draws(0));
    expect(out.answer).toEqual([a('db.shop.svc.cluster.local.', '10.244.2.21'), a('db.shop.svc.cluster.local.', '10.244.1.20')]);
    expect(res.answer[0]?.data).toBe('10.244.1.20');
  });
});
