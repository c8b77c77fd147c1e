import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { endpointSlicePrinter, endpointsPrinter, ingressClassPrinter, ingressPrinter, networkPolicyPrinter, servicePrinter } from './network';

const NOW = Date.UTC(2026, 0, 1, 0, 10, 0);
const k = (apiVersion: string, kind: string, name: string, body: Record<string, unknown>): KObject => ({
  apiVersion,
  kind,
  metadata: { name, namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' },
  ...body,
});
const svc = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) => k('v1', 'Service', 'web', { spec, status });

describe('Service', () => {
  it('TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S), AGE, SELECTOR', () => {
    const s = svc({
      type: 'ClusterIP',
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10'],
      ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }],
      selector: { app: 'web' },
    });
    expect(servicePrinter.print(s, NOW).cells).toEqual(['web', 'ClusterIP', '10.96.0.10', '<none>', '80/TCP', '10m', 'app=web']);
    expect(servicePrinter.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Type', 'string', 0],
      ['Cluster-IP', 'string', 0],
      ['External-IP', 'string', 0],
      ['Port(s)', 'string', 0],
      ['Age', 'string', 0],
      ['Selector', 'string', 1],
    ]);
  });

  it('NodePort shows both ports; headless shows None; no ports shows <none>', () => {
    const np = svc({
      type: 'NodePort',
      clusterIPs: ['10.96.1.1'],
      ports: [
        { port: 80, nodePort: 30080, protocol: 'TCP' },
        { port: 53, nodePort: 30053, protocol: 'UDP' },
      ],
    });
    expect(servicePrinter.print(np, NOW).cells.slice(1, 5)).toEqual(['NodePort', '10.96.1.1', '<none>', '80:30080/TCP,53:30053/UDP']);
    const headless = svc({ type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'], externalIPs: ['1.2.3.4'] });
    expect(servicePrinter.print(headless, NOW).cells.slice(1, 5)).toEqual(['ClusterIP', 'None', '1.2.3.4', '<none>']);
    expect(servicePrinter.print(svc({ type: 'ClusterIP' }), NOW).cells[2]).toBe('<none>');
  });

  it('LoadBalancer is <pending> until it has ingress points, which print sorted and unique', () => {
    expect(servicePrinter.print(svc({ type: 'LoadBalancer', clusterIPs: ['10.96.2.2'] }), NOW).cells[3]).toBe('<pending>');
    const lb = svc(
      { type: 'LoadBalancer', clusterIPs: ['10.96.2.2'], externalIPs: ['9.9.9.9'] },
      { loadBalancer: { ingress: [{ ip: '203.0.113.7' }, { hostname: 'a.example.com' }, { ip: '203.0.113.7' }] } },
    );
    expect(servicePrinter.print(lb, NOW).cells[3]).toBe('203.0.113.7,a.example.com,9.9.9.9');
  });

  it('ExternalName prints the name; an unknown type prints <unknown>', () => {
    expect(servicePrinter.print(svc({ type: 'ExternalName', externalName: 'db.example.com' }), NOW).cells.slice(1, 4)).toEqual([
      'ExternalName',
      '<none>',
      'db.example.com',
    ]);
    expect(servicePrinter.print(svc({}), NOW).cells.slice(1, 4)).toEqual(['', '<none>', '<unknown>']);
  });
});

describe('Endpoints and EndpointSlices', () => {
  it('up to three endpoints, then "+ N more..."', () => {
    const ep = k('v1', 'Endpoints', 'web', {
      subsets: [
        {
          addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }],
          ports: [
            { name: 'http', port: 80 },
            { name: 'https', port: 443 },
          ],
        },
      ],
    });
    expect(endpointsPrinter.print(ep, NOW).cells).toEqual(['web', '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...', '10m']);
    expect(endpointsPrinter.print(k('v1', 'Endpoints', 'none', {}), NOW).cells[1]).toBe('<none>');
    const headless = k('v1', 'Endpoints', 'h', { subsets: [{ addresses: [{ ip: 'fd00::1' }] }] });
    expect(endpointsPrinter.print(headless, NOW).cells[1]).toBe('fd00::1');
    const v6 = k('v1', 'Endpoints', 'v6', { subsets: [{ addresses: [{ ip: 'fd00::1' }], ports: [{ port: 80 }] }] });
    expect(endpointsPrinter.print(v6, NOW).cells[1]).toBe('[fd00::1]:80');
  });

  it('EndpointSlice', () => {
    const es = k('discovery.k8s.io/v1', 'EndpointSlice', 'web-abc', {
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }, { name: 'metrics' }, {}],
      endpoints: [
        { addresses: ['10.0.0.1'] },
        { addresses: ['10.0.0.2'] },
        { addresses: ['10.0.0.3'] },
        { addresses: ['10.0.0.4'] },
        { addresses: ['10.0.0.5'] },
      ],
    });
    expect(endpointSlicePrinter.print(es, NOW).cells).toEqual(['web-abc', 'IPv4', '80,metrics,*', '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...', '10m']);
    const empty = k('discovery.k8s.io/v1', 'EndpointSlice', 'e', { addressType: 'IPv6' });
    expect(endpointSlicePrinter.print(empty, NOW).cells.slice(1, 4)).toEqual(['IPv6', '<unset>', '<unset>']);
  });
});

describe('Ingress, IngressClass, NetworkPolicy', () => {
  it('Ingress', () => {
    const ing = k('networking.k8s.io/v1', 'Ingress', 'shop', {
      spec: {
        ingressClassName: 'nginx',
        rules: [{ host: 'a.example.com' }, { host: 'b.example.com' }, {}, { host: 'd.example.com' }, { host: 'e.example.com' }],
        tls: [{ hosts: ['a.example.com'] }],
      },
      status: { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } },
    });
    expect(ingressPrinter.print(ing, NOW).cells).toEqual([
      'shop',
      'nginx',
      'a.example.com,b.example.com,d.example.com + 2 more...',
      '192.0.2.10',
      '80, 443',
      '10m',
    ]);
    const bare = k('networking.k8s.io/v1', 'Ingress', 'bare', { spec: { rules: [{}] } });
    expect(ingressPrinter.print(bare, NOW).cells.slice(1, 5)).toEqual(['<none>', '*', '', '80']);
  });

  it('IngressClass', () => {
    const ic = k('networking.k8s.io/v1', 'IngressClass', 'nginx', {
      spec: { controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' } },
    });
    expect(ingressClassPrinter.print(ic, NOW).cells).toEqual(['nginx', 'k8s.io/ingress-nginx', 'IngressParameters.k8s.example.com/external-lb', '10m']);
    expect(ingressClassPrinter.print(k('networking.k8s.io/v1', 'IngressClass', 'x', { spec: { controller: 'c' } }), NOW).cells[2]).toBe('<none>');
  });

  it('NetworkPolicy', () => {
    expect(networkPolicyPrinter.print(k('networking.k8s.io/v1', 'NetworkPolicy', 'deny', { spec: { podSelector: {} } }), NOW).cells).toEqual([
      'deny',
      '<none>',
      '10m',
    ]);
    const np = k('networking.k8s.io/v1', 'NetworkPolicy', 'web', {
      spec: { podSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] } },
    });
    expect(networkPolicyPrinter.print(np, NOW).cells[1]).toBe('app=web,tier in (a,b)');
  });
});
