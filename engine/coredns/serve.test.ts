import { describe, expect, it } from 'vitest';
import { corednsDns, corednsHttp, type CorednsState } from './serve';
import type { KubeDnsView } from '../dns/kubernetes';

const view: KubeDnsView = {
  services: [{ namespace: 'default', name: 'web', type: 'ClusterIP', clusterIPs: ['10.96.7.7'], ports: [{ name: 'http', protocol: 'TCP', port: 80 }], endpoints: [] }],
  namespaces: ['default', 'kube-system'],
};
const synced: CorednsState = { view, synced: true };
const rng = () => 0;

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
    const a = corednsDns(synced, { name: 'web.default.svc.cluster.local.', type: 'A' }, rng, '10.244.1.2', 0);
    expect(a.rcode).toBe('NOERROR');
    expect(a.answer).toEqual([{ name: 'web.default.svc.cluster.local.', type: 'A', ttl: 30, data: '10.96.7.7' }]);
    // No internet upstream: a name under a real TLD gets SERVFAIL; one under a TLD that does not exist, the root's NXDOMAIN.
    expect(corednsDns(synced, { name: 'example.com.', type: 'A' }, rng, '10.244.1.2', 0).rcode).toBe('SERVFAIL');
    const nx = corednsDns(synced, { name: 'kubernetes.default.', type: 'A' }, rng, '10.244.1.2', 0);
    expect(nx.rcode).toBe('NXDOMAIN');
    expect(nx.authority[0]).toMatchObject({ name: '.', type: 'SOA', data: expect.stringMatching(/^a\.root-servers\.net\. nstld\.verisign-grs\.com\. \d{10} 1800 900 604800 86400$/) });
  });

  it('serves empty caches before it has synced: every cluster name is NXDOMAIN', () => {
    expect(corednsDns(undefined, { name: 'web.default.svc.cluster.local.', type: 'A' }, rng, '10.244.1.2', 0).rcode).toBe('NXDOMAIN');
  });
});
