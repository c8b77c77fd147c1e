// APIServerIdentity: each kube-apiserver's Lease in kube-system, renewed every
// 10 s by its loopback client, and the collector of expired ones.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../testing/harness';
import { apiServerId, IDENTITY_LABEL } from './identityLease';
import { parseRfc3339 } from '../http/time';

/**
 * The identity as Go computes it, worked out apart (Python's hashlib.sha256 over
 * the uint16-length-prefixed hostname and "kube-apiserver", base64.b32encode of
 * the first 16 bytes, padding dropped, lowered): an oracle independent of ours.
 */
const GO_IDENTITY: Record<string, string> = {
  'kube-apiserver-0': 'apiserver-g5kfpqajuockav766sai746cbm',
  'kube-apiserver-1': 'apiserver-j3agt6uezsya7e3uhyouvf6bpa',
  'kind-control-plane': 'apiserver-c7uylvfxlbqccnk6myfkwetzze',
  'ip-10-0-0-10.ec2.internal': 'apiserver-zd2n2lphzufxd4cp2pxlpu4c3e',
  '': 'apiserver-2ikcnb3wory4bpirwz777r2iv4',
};
const goIdentity = (hostname: string): string => GO_IDENTITY[hostname]!;

const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';

describe('kube-apiserver identity leases', () => {
  it('are named from the hostname as upstream hashes it', () => {
    for (const [h, id] of Object.entries(GO_IDENTITY)) expect(apiServerId(h)).toBe(id);
  });

  it('each server holds one, renewed every 10 s (+ up to 4%), lasting an hour', () => {
    const e = controlPlane(41, { apiServers: 2 });
    e.advance(1_000);
    const list = call(e, 'GET', leases, undefined, { query: { labelSelector: `${IDENTITY_LABEL}=kube-apiserver` } }).body.items;
    expect(list.map((l: { metadata: { name: string } }) => l.metadata.name).sort()).toEqual([goIdentity('kube-apiserver-0'), goIdentity('kube-apiserver-1')].sort());
    const mine = call(e, 'GET', `${leases}/${goIdentity('kube-apiserver-0')}`).body;
    expect(mine.metadata.labels).toEqual({ [IDENTITY_LABEL]: 'kube-apiserver', 'kubernetes.io/hostname': 'kube-apiserver-0' });
    expect(mine.spec.holderIdentity).toMatch(new RegExp(`^${goIdentity('kube-apiserver-0')}_[0-9a-f-]{36}$`));
    expect(mine.spec.leaseDurationSeconds).toBe(3600);
    // Renewals: sample the renewTime as it moves.
    const times: number[] = [];
    for (let t = 0; t < 45_000; t += 100) {
      e.advance(100);
      const at = parseRfc3339(call(e, 'GET', `${leases}/${goIdentity('kube-apiserver-0')}`).body.spec.renewTime);
      if (times[times.length - 1] !== at) times.push(at);
    }
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    for (const g of gaps) {
      expect(g).toBeGreaterThanOrEqual(10_000);
      expect(g).toBeLessThan(10_400 + 200); // the jitter, and the loopback request's own time
    }
  });

  it('a restarted server holds its lease under a new identity; expired leases are collected at start', () => {
    const e = controlPlane(42);
    e.advance(1_000);
    const name = goIdentity('kube-apiserver-0');
    const before = call(e, 'GET', `${leases}/${name}`).body.spec.holderIdentity;
    // A lease of a server gone for good: last renewed long ago.
    const stale = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'apiserver-gone', labels: { [IDENTITY_LABEL]: 'kube-apiserver' } }, spec: { holderIdentity: 'apiserver-gone_x', leaseDurationSeconds: 3600, renewTime: '2020-01-01T00:00:00.000000Z' } };
    expect(call(e, 'POST', leases, stale).status).toBe(201);
    // Not ours to collect: no identity label.
    expect(call(e, 'POST', leases, { ...stale, metadata: { name: 'someone-else' } }).status).toBe(201);
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'kube-apiserver-0' } }).ok).toBe(true);
    e.advance(1_000);
    expect(e.exec({ type: 'fault', fault: { action: 'restart', target: 'kube-apiserver-0' } }).ok).toBe(true);
    for (let i = 0; i < 100 && !e.apiReady(); i++) e.advance(100);
    e.advance(2_000);
    const after = call(e, 'GET', `${leases}/${name}`).body.spec.holderIdentity;
    expect(after).not.toBe(before);
    expect(after.startsWith(`${name}_`)).toBe(true);
    expect(call(e, 'GET', `${leases}/apiserver-gone`).status).toBe(404);
    expect(call(e, 'GET', `${leases}/someone-else`).status).toBe(200);
  });
});
