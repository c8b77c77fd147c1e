import { describe, it, expect } from 'vitest';
import { pod, service } from './fixtures';
import { computeSubsets, repackSubsets, truncateSubsets, type EndpointSubset } from './subsets';

const addr = (ip: string, name: string) => ({ ip, nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name, uid: `uid-pod-${name}` } });

describe('Endpoints subsets (endpoints_controller_test.go, endpoints/util_test.go)', () => {
  it('ready pods in addresses, unready in notReadyAddresses, sharing one port set', () => {
    const svc = service('web', { selector: { app: 'web' } });
    const s = computeSubsets(svc, [pod('b', { ip: '10.0.0.2', ready: false }), pod('a', { ip: '10.0.0.1' }), pod('c', { ip: '10.0.0.3' })]);
    expect(s).toEqual([{ addresses: [addr('10.0.0.1', 'a'), addr('10.0.0.3', 'c')], notReadyAddresses: [addr('10.0.0.2', 'b')], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }]);
  });

  it('publishNotReadyAddresses lists unready and terminating pods as ready', () => {
    const svc = service('web', { selector: { app: 'web' }, publishNotReadyAddresses: true });
    const s = computeSubsets(svc, [pod('a', { ip: '10.0.0.1', ready: false }), pod('b', { ip: '10.0.0.2', deleting: true })]);
    expect(s).toHaveLength(1);
    expect(s[0]!.addresses!.map((a) => a.ip)).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(s[0]!.notReadyAddresses).toBeUndefined();
  });

  it('leaves out terminating (without publishNotReadyAddresses), terminal and IP-less pods', () => {
    const svc = service('web', { selector: { app: 'web' } });
    expect(computeSubsets(svc, [pod('a', { deleting: true, ip: '10.0.0.1' }), pod('b', { phase: 'Failed', ip: '10.0.0.2' }), pod('c', { ip: null })])).toEqual([]);
  });

  it('pods with different resolved named ports get different subsets', () => {
    const svc = service('web', { selector: { app: 'web' }, ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 'web' }] });
    const s = computeSubsets(svc, [
      pod('a', { ip: '10.0.0.1', ports: [{ name: 'web', containerPort: 8080 }] }),
      pod('b', { ip: '10.0.0.2', ports: [{ name: 'web', containerPort: 9090 }] }),
      pod('c', { ip: '10.0.0.3' }), // no port named web: not listed
    ]);
    expect(s.map((x) => [x.addresses!.map((a) => a.ip), x.ports!.map((p) => p.port)])).toEqual([[['10.0.0.1'], [8080]], [['10.0.0.2'], [9090]]]);
  });

  it('a headless service without ports still lists its pods; a ClusterIP one without ports does not', () => {
    const pods = [pod('a', { ip: '10.0.0.1' })];
    expect(computeSubsets(service('h', { selector: { app: 'web' }, ports: [], clusterIP: 'None' }), pods)).toEqual([{ addresses: [addr('10.0.0.1', 'a')] }]);
    expect(computeSubsets(service('h', { selector: { app: 'web' }, ports: [] }), pods)).toEqual([]);
  });

  it('sets hostname for pods whose subdomain is the service', () => {
    const s = computeSubsets(service('web', { selector: { app: 'web' } }), [pod('a', { ip: '10.0.0.1', hostname: 'a0', subdomain: 'web' })]);
    expect(s[0]!.addresses![0]!.hostname).toBe('a0');
  });

  it('RepackSubsets merges addresses sharing ports and ports sharing addresses; ready wins', () => {
    const p1 = { name: 'a', port: 1, protocol: 'TCP' };
    const p2 = { name: 'b', port: 2, protocol: 'TCP' };
    const x = addr('10.0.0.1', 'x');
    const y = addr('10.0.0.2', 'y');
    const got = repackSubsets([{ addresses: [y], ports: [p1] }, { addresses: [x], ports: [p2] }, { addresses: [x], ports: [p1] }, { addresses: [y], ports: [p2] }, { notReadyAddresses: [x], ports: [p1] }]);
    expect(got).toEqual([{ addresses: [x, y], ports: [p1, p2] }]);
  });

  it('truncates to 1000 addresses, ready first, proportionally per subset', () => {
    const many = (n: number, base: string) => Array.from({ length: n }, (_, i) => addr(`${base}.${Math.floor(i / 250)}.${i % 250}`, `${base}-${i}`));
    const s: EndpointSubset[] = [
      { addresses: many(900, '10.1'), notReadyAddresses: many(100, '10.2'), ports: [{ port: 1, protocol: 'TCP' }] },
      { addresses: many(300, '10.3'), ports: [{ port: 2, protocol: 'TCP' }] },
    ];
    expect(truncateSubsets(s)).toBe(true);
    expect(s[0]!.addresses).toHaveLength(750);
    expect(s[0]!.notReadyAddresses).toBeUndefined();
    expect(s[1]!.addresses).toHaveLength(250);
    const small: EndpointSubset[] = [{ addresses: many(10, '10.1') }];
    expect(truncateSubsets(small)).toBe(false);
  });
});
