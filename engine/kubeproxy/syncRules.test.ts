// syncProxyRules' output, restored into a node's iptables and read back as
// iptables-save prints it: the shapes upstream writes for a NodePort Service
// with externalTrafficPolicy Local and ClientIP affinity, and the clean-up of
// chains whose service or endpoint is gone.
import { describe, expect, it } from 'vitest';
import type { KObject } from '../apimachinery/types';
import { chainNames, newNetfilter, restore, save } from '../netfilter';
import { endpointsByServicePort, servicePorts } from './serviceMap';
import { syncProxyRules } from './syncRules';

const CFG = { nodeIP: '10.0.1.2', clusterCIDR: '10.244.0.0/16', masqueradeBit: 14 };

const svc = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { type: 'NodePort', clusterIP: '10.96.7.7', externalTrafficPolicy: 'Local', sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } }, ports: [{ name: 'http', port: 80, nodePort: 30080, protocol: 'TCP' }] },
} as unknown as KObject;

const slice = {
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  addressType: 'IPv4',
  metadata: { name: 'web-x', namespace: 'shop', labels: { 'kubernetes.io/service-name': 'web' } },
  ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  endpoints: [
    { addresses: ['10.244.2.9'], conditions: { ready: true }, nodeName: 'node-2' },
    { addresses: ['10.244.1.5'], conditions: { ready: true }, nodeName: 'node-1' },
    // Terminating while ready ones exist: not used.
    { addresses: ['10.244.2.10'], conditions: { ready: false, serving: true, terminating: true }, nodeName: 'node-2' },
  ],
} as unknown as KObject;

function natOf(existing: string[] = []) {
  const nf = newNetfilter();
  const out = syncProxyRules(servicePorts(svc), endpointsByServicePort([slice], 'node-1'), CFG, existing);
  expect(restore(nf, out.restore)).toEqual({ ok: true });
  return { nf, out, lines: save(nf, { table: 'nat' }).split('\n') };
}

describe('syncProxyRules', () => {
  it('writes a NodePort Service with externalTrafficPolicy Local: cluster traffic to every endpoint, external traffic to this node’s only', () => {
    const { lines } = natOf();
    const svcChain = 'KUBE-SVC-67NZLRHBNDSAWJRO';
    const svl = 'KUBE-SVL-67NZLRHBNDSAWJRO';
    const ext = 'KUBE-EXT-67NZLRHBNDSAWJRO';
    expect(lines).toContain(`-A KUBE-NODEPORTS -p tcp -m comment --comment "shop/web:http" -m tcp --dport 30080 -j ${ext}`);
    // Pods and the node itself reach every endpoint; the rest only this node's.
    expect(lines.filter((l) => l.startsWith(`-A ${ext} `))).toEqual([
      `-A ${ext} -s 10.244.0.0/16 -m comment --comment "pod traffic for shop/web:http external destinations" -j ${svcChain}`,
      `-A ${ext} -m comment --comment "masquerade LOCAL traffic for shop/web:http external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ`,
      `-A ${ext} -m comment --comment "route LOCAL traffic for shop/web:http external destinations" -m addrtype --src-type LOCAL -j ${svcChain}`,
      `-A ${ext} -j ${svl}`,
    ]);
    // Sorted by "ip:port" (10.244.1.5 before 10.244.2.9); affinity checks first, then 1/2 and the rest.
    const toEndpoints = lines.filter((l) => l.startsWith(`-A ${svcChain} -m comment --comment "shop/web:http ->`));
    expect(toEndpoints).toHaveLength(4);
    expect(toEndpoints[0]).toMatch(/-> 10\.244\.1\.5:8080" -m recent --rcheck --seconds 600 --reap --name KUBE-SEP-\w+ --mask 255\.255\.255\.255 --rsource -j KUBE-SEP-/);
    expect(toEndpoints[2]).toMatch(/-> 10\.244\.1\.5:8080" -m statistic --mode random --probability 0\.50000000000 -j KUBE-SEP-/);
    expect(toEndpoints[3]).toMatch(/-> 10\.244\.2\.9:8080" -j KUBE-SEP-/);
    expect(lines.filter((l) => l.startsWith(`-A ${svl} `)).every((l) => l.includes('10.244.1.5:8080'))).toBe(true);
    expect(lines.join('\n')).not.toContain('10.244.2.10');
    expect(lines.filter((l) => l.includes('-j DNAT'))).toHaveLength(2);
  });

  it('deletes the service chains no longer in use, and only those', () => {
    const first = natOf();
    // A chain of a service that went away, and one that is not kube-proxy's.
    expect(restore(first.nf, '*nat\n:KUBE-SVC-GONEGONEGONEGONE - [0:0]\n:CNI-HOSTPORT-DNAT - [0:0]\nCOMMIT\n')).toEqual({ ok: true });
    const out = syncProxyRules(servicePorts(svc), endpointsByServicePort([slice], 'node-1'), CFG, chainNames(first.nf, 'nat'));
    expect(out.restore).toContain(':KUBE-SVC-GONEGONEGONEGONE - [0:0]\n');
    expect(restore(first.nf, out.restore)).toEqual({ ok: true });
    expect(chainNames(first.nf, 'nat')).not.toContain('KUBE-SVC-GONEGONEGONEGONE');
    expect(chainNames(first.nf, 'nat')).toContain('CNI-HOSTPORT-DNAT');
  });

  it('rejects a Service without endpoints in the filter table, and drops one whose local endpoints are all gone', () => {
    const empty = { ...slice, endpoints: [] } as unknown as KObject;
    const out = syncProxyRules(servicePorts(svc), endpointsByServicePort([empty], 'node-1'), CFG, []);
    expect(out.restore).toContain('-A KUBE-SERVICES -m comment --comment "shop/web:http has no endpoints" -m tcp -p tcp -d 10.96.7.7 --dport 80 -j REJECT');
    expect(out.restore).toContain('-A KUBE-EXTERNAL-SERVICES -m comment --comment "shop/web:http has no endpoints" -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 30080 -j REJECT');
    const remote = { ...slice, endpoints: [(slice as unknown as { endpoints: unknown[] }).endpoints[0]] } as unknown as KObject;
    const out2 = syncProxyRules(servicePorts(svc), endpointsByServicePort([remote], 'node-1'), CFG, []);
    expect(out2.restore).toContain('-A KUBE-EXTERNAL-SERVICES -m comment --comment "shop/web:http has no local endpoints" -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 30080 -j DROP');
    expect(out2.restore).toContain('"shop/web:http cluster IP" -m tcp -p tcp -d 10.96.7.7 --dport 80 -j KUBE-SVC-67NZLRHBNDSAWJRO');
  });
});
