import { describe, expect, it } from 'vitest';
import { corednsHttp, corednsQuery, type CorednsState, type QueryFacts } from './serve';
import { parseCorefile } from './corefile';
import { COREFILE } from './manifests';
import type { KubeDnsView } from '../dns/kubernetes';

const view: KubeDnsView = {
  services: [{ namespace: 'default', name: 'web', type: 'ClusterIP', clusterIPs: ['10.96.7.7'], ports: [{ name: 'http', protocol: 'TCP', port: 80 }], endpoints: [] }],
  namespaces: ['default', 'kube-system'],
};
const synced: CorednsState = { view, synced: true };
const rng = () => 0;
const facts: QueryFacts = { clientIP: '10.244.2.5', podIP: '10.244.1.2', at: 0, rng };
const parsed = parseCorefile(COREFILE, '/etc/coredns/Corefile');
if ('error' in parsed) throw new Error(parsed.error);
/** What a kubeadm CoreDNS answers. */
const corednsDns = (st: CorednsState | undefined, q: { name: string; type: 'A' }) => corednsQuery(st, parsed, q, facts).response;

describe('what a CoreDNS container answers', () => {
  it('/ready is 503 naming the kubernetes plugin until its informers have synced, then 200; /health is 200 throughout', () => {
    expect(corednsHttp(undefined, 8181, '/ready')).toEqual({ status: 503, body: 'kubernetes' });
    expect(corednsHttp({ view, synced: false }, 8181, '/ready')).toEqual({ status: 503, body: 'kubernetes' });
    expect(corednsHttp(synced, 8181, '/ready')).toEqual({ status: 200, body: 'OK' });
    expect(corednsHttp(undefined, 8080, '/health')).toEqual({ status: 200, body: 'OK' });
    expect(corednsHttp(synced, 8080, '/other')?.status).toBe(404);
    expect(corednsHttp(synced, 53, '/')).toBeNull();
  });

  it('answers cluster names from its caches, and sends the rest to the forward plugin', () => {
    const a = corednsDns(synced, { name: 'web.default.svc.cluster.local.', type: 'A' });
    expect(a.rcode).toBe('NOERROR');
    expect(a.answer).toEqual([{ name: 'web.default.svc.cluster.local.', type: 'A', ttl: 30, data: '10.96.7.7' }]);
    // No internet upstream: a name under a real TLD gets SERVFAIL; one under a TLD that does not exist, the root's NXDOMAIN.
    expect(corednsDns(synced, { name: 'example.com.', type: 'A' }).rcode).toBe('SERVFAIL');
    const nx = corednsDns(synced, { name: 'kubernetes.default.', type: 'A' });
    expect(nx.rcode).toBe('NXDOMAIN');
    expect(nx.authority[0]).toMatchObject({ name: '.', type: 'SOA', data: expect.stringMatching(/^a\.root-servers\.net\. nstld\.verisign-grs\.com\. \d{10} 1800 900 604800 86400$/) });
  });

  it('serves empty caches before it has synced: every cluster name is NXDOMAIN', () => {
    expect(corednsDns(undefined, { name: 'web.default.svc.cluster.local.', type: 'A' }).rcode).toBe('NXDOMAIN');
  });

  it("follows its Corefile: kubeadm's answers as they are; `log` logs each query in the log plugin's format; the kubernetes plugin's ttl", () => {
    const kubeadm = parseCorefile(COREFILE, '/etc/coredns/Corefile');
    if ('error' in kubeadm) throw new Error(kubeadm.error);
    expect(kubeadm).toMatchObject({ keys: ['.:53'], log: false, loadbalance: true, forward: true, kubernetes: { zones: ['cluster.local.', 'in-addr.arpa.', 'ip6.arpa.'], ttl: 30, pods: 'insecure', fallthrough: ['in-addr.arpa.', 'ip6.arpa.'] } });
    const logged = parseCorefile(COREFILE.replace('    errors\n', '    errors\n    log\n').replace('ttl 30', 'ttl 5'), 'Corefile');
    if ('error' in logged) throw new Error(logged.error);
    const a = corednsQuery(synced, logged, { name: 'web.default.svc.cluster.local.', type: 'A' }, facts);
    expect(a.response.answer[0]).toMatchObject({ ttl: 5, data: '10.96.7.7' });
    expect(a.log).toMatch(/^\[INFO\] 10\.244\.2\.5:\d+ - \d+ "A IN web\.default\.svc\.cluster\.local\. udp 47 false 512" NOERROR qr,aa,rd 92 0\.\d+s\n$/);
    expect(corednsQuery(synced, kubeadm, { name: 'web.default.svc.cluster.local.', type: 'A' }, facts).log).toBeUndefined();
  });

  it('refuses a Corefile with a directive CoreDNS does not have, or a bad option, as caddy reports it', () => {
    expect(parseCorefile('.:53 {\n    errors\n    logg\n}\n', '/etc/coredns/Corefile')).toEqual({ error: "/etc/coredns/Corefile:3 - Error during parsing: Unknown directive 'logg'" });
    expect(parseCorefile('.:53 {\n  kubernetes cluster.local {\n    pods sometimes\n  }\n}\n', 'Corefile')).toEqual({ error: 'Corefile:3 - Error during parsing: could not parse pod mode: sometimes' });
    expect(parseCorefile('.:53 {\n  errors\n', 'Corefile')).toEqual({ error: 'Corefile:2 - Error during parsing: Unexpected EOF' });
  });
});
