// The `kubernetes` Service's endpoints, kept by each API server's lease
// endpoint reconciler (pkg/controlplane/reconcilers/lease.go): master leases
// under /registry/masterleases/ with a 15 s etcd lease, refreshed every 10 s;
// Endpoints and EndpointSlice default/kubernetes listing the live servers.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../facade/engine';
import { call, controlPlane } from '../testing/harness';
import { sliceFromEndpoints } from './endpointReconciler';

function etcd(e: Engine, type: string, body: unknown): any {
  const r = e.exec({ type: 'etcd', request: { type, body } });
  if (!r.ok) throw new Error(r.error);
  const id = r.result as number;
  for (let i = 0; i < 5000; i++) {
    const c = e.call(id);
    if (c?.outcome) {
      if (c.outcome.status !== 'ok') throw new Error(`etcd ${type}: ${JSON.stringify(c.outcome)}`);
      return c.outcome.body;
    }
    e.advance(1);
  }
  throw new Error('no etcd answer');
}

const ips = (e: Engine): string[] => (call(e, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes').body.subsets?.[0]?.addresses ?? []).map((a: { ip: string }) => a.ip);

describe('the kubernetes Service endpoints (lease endpoint reconciler)', () => {
  it('lists every API server on 6443, mirrored by the EndpointSlice, each with a master lease of 15 s', () => {
    const e = controlPlane(21, { apiServers: 2 });
    e.advance(11_000);
    const ep = call(e, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes').body;
    expect(ep.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    expect(ep.subsets).toEqual([{ addresses: [{ ip: '10.0.0.10' }, { ip: '10.0.0.11' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
    // Written by the servers' loopback clients: kube-apiserver is the field manager.
    expect(ep.metadata.managedFields.map((m: { manager: string }) => m.manager)).toContain('kube-apiserver');

    const slice = call(e, 'GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes').body;
    expect(slice.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'kubernetes' });
    expect(slice.addressType).toBe('IPv4');
    expect(slice.endpoints).toEqual([
      { addresses: ['10.0.0.10'], conditions: { ready: true } },
      { addresses: ['10.0.0.11'], conditions: { ready: true } },
    ]);
    expect(slice.ports).toEqual([{ name: 'https', port: 6443, protocol: 'TCP' }]);

    const leases = etcd(e, 'RangeRequest', { key: '/registry/masterleases/', rangeEnd: '/registry/masterleases0' });
    expect(leases.kvs.map((kv: { key: string }) => kv.key)).toEqual(['/registry/masterleases/10.0.0.10', '/registry/masterleases/10.0.0.11']);
    const stored = JSON.parse(leases.kvs[0].value);
    expect(stored).toMatchObject({ kind: 'Endpoints', apiVersion: 'v1', subsets: [{ addresses: [{ ip: '10.0.0.10' }] }] });
    expect(stored.metadata.generation).toBeGreaterThanOrEqual(2); // refreshed at least once more since the first pass
    const ttl = etcd(e, 'LeaseTimeToLiveRequest', { ID: leases.kvs[0].lease });
    expect(ttl.grantedTTL).toBe(15);
  });

  it('drops a stopped API server once its lease expires, and takes it back when it returns', () => {
    const e = controlPlane(22, { apiServers: 2 });
    e.advance(11_000);
    expect(ips(e)).toEqual(['10.0.0.10', '10.0.0.11']);
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'kube-apiserver-1' } }).ok).toBe(true);
    // Its last lease was refreshed under 10 s ago and lives 15 s: still listed 4 s on.
    e.advance(4_000);
    expect(ips(e)).toEqual(['10.0.0.10', '10.0.0.11']);
    // Gone at the first pass of kube-apiserver-0 after the lease expired (≤ 15 + 10 s after the crash).
    e.advance(22_000);
    expect(ips(e)).toEqual(['10.0.0.10']);
    const slice = call(e, 'GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes').body;
    expect(slice.endpoints.map((x: { addresses: string[] }) => x.addresses[0])).toEqual(['10.0.0.10']);

    expect(e.exec({ type: 'fault', fault: { action: 'restart', target: 'kube-apiserver-1' } }).ok).toBe(true);
    for (let i = 0; i < 40 && ips(e).length < 2; i++) e.advance(1_000);
    expect(ips(e)).toEqual(['10.0.0.10', '10.0.0.11']);
  });

  it('puts back what someone else changed or deleted at the next pass', () => {
    const e = controlPlane(23);
    e.advance(2_000);
    expect(ips(e)).toEqual(['10.0.0.10']);
    const ep = call(e, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes').body;
    const edited = { ...ep, metadata: { ...ep.metadata, labels: {} }, subsets: [{ addresses: [{ ip: '192.0.2.7' }], ports: [{ name: 'https', port: 443, protocol: 'TCP' }] }] };
    expect(call(e, 'PUT', '/api/v1/namespaces/default/endpoints/kubernetes', edited).status).toBe(200);
    expect(call(e, 'DELETE', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes').status).toBe(200);
    e.advance(10_500);
    const back = call(e, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes').body;
    expect(back.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    expect(back.subsets).toEqual([{ addresses: [{ ip: '10.0.0.10' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
    expect(call(e, 'GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes').status).toBe(200);
    // The loopback requests are in the server's request records, as system:apiserver.
    const mine = e.requests().filter((r) => r.user === 'system:apiserver' && r.resource === 'endpoints');
    expect(mine.map((r) => r.verb)).toEqual(expect.arrayContaining(['get', 'update']));
  });

  it('a slice follows its Endpoints: one ready endpoint per address, not-ready ones not ready', () => {
    const s = sliceFromEndpoints({ metadata: { name: 'kubernetes' }, subsets: [{ addresses: [{ ip: '10.0.0.10' }], notReadyAddresses: [{ ip: '10.0.0.12' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }] });
    expect(s.endpoints).toEqual([
      { addresses: ['10.0.0.10'], conditions: { ready: true } },
      { addresses: ['10.0.0.12'], conditions: { ready: false } },
    ]);
  });
});
