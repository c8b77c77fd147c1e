import { describe, expect, it } from 'vitest';
import { podDns, resolvConf } from './resolvConf';

describe("a pod's /etc/resolv.conf (dnsPolicy, dnsConfig)", () => {
  it('ClusterFirst: the cluster DNS, its search path for the namespace, ndots:5', () => {
    expect(resolvConf({}, 'shop')).toBe('search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
  });
  it("Default, and ClusterFirst on the host network: the node's resolver; ClusterFirstWithHostNet: the cluster's", () => {
    expect(resolvConf({ dnsPolicy: 'Default' }, 'default')).toBe('nameserver 10.0.0.2\n');
    expect(resolvConf({ dnsPolicy: 'ClusterFirst', hostNetwork: true }, 'default')).toBe('nameserver 10.0.0.2\n');
    expect(resolvConf({ dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true }, 'default')).toContain('nameserver 10.96.0.10\n');
  });
  it('dnsConfig appends nameservers and searches without duplicates, and its options replace by name', () => {
    const spec = { dnsConfig: { nameservers: ['1.1.1.1', '10.96.0.10'], searches: ['corp.example', 'cluster.local'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] } };
    expect(resolvConf(spec, 'default')).toBe('search default.svc.cluster.local svc.cluster.local cluster.local corp.example\nnameserver 10.96.0.10\nnameserver 1.1.1.1\noptions ndots:2 edns0\n');
  });
  it('None: dnsConfig alone, at most three nameservers', () => {
    expect(resolvConf({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9', '8.8.4.4'], options: [{ name: 'timeout', value: '1' }] } }, 'default')).toBe('nameserver 1.1.1.1\nnameserver 8.8.8.8\nnameserver 9.9.9.9\noptions timeout:1\n');
  });
  it('cuts what does not fit, with the DNSConfigForming warning the kubelet records on the pod', () => {
    const d = podDns({ dnsConfig: { nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9'] } }, 'default');
    expect(d.text).toContain('nameserver 10.96.0.10\nnameserver 1.1.1.1\nnameserver 8.8.8.8\n');
    expect(d.text).not.toContain('9.9.9.9');
    expect(d.warnings).toEqual(['Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 10.96.0.10 1.1.1.1 8.8.8.8']);
    expect(podDns({}, 'default').warnings).toEqual([]);
  });
});
