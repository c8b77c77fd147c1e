// kube-controller-manager and kube-scheduler cut off from kube-apiserver for
// two minutes, then healed. Without an error to hear, their watches would hang
// on dead connections; the HTTP/2 health check closes them, the informers
// relist, and the leader-election client's timeout (the renew deadline) ends
// the renewal in flight. After the heal each takes its Lease back and works on
// what changed meanwhile.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import type { ControllerManager } from '../controllers/manager';

const dep = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

describe('control plane cut from the API server, then healed', () => {
  it('the controller manager and the scheduler recover their watches and leases', { timeout: 120_000 }, () => {
    const e = controlPlane(11, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => e.clusterView()?.nodes[0]?.ready === 'True', 'a Ready node', 60_000, 500);
    const pods = (app: string) => (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: `app=${app}` } }).body.items ?? []) as any[];
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', dep('before')).status).toBe(201);
    runUntil(e, () => pods('before').some((p) => p.spec.nodeName), 'a scheduled pod', 30_000, 200);

    for (const c of ['kube-controller-manager', 'kube-scheduler']) expect(e.exec({ type: 'fault', fault: { action: 'cut', from: c, to: 'kube-apiserver' } }).ok).toBe(true);
    // Made while they are cut off: nothing happens to it.
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', dep('during')).status).toBe(201);
    e.advance(120_000);
    expect(pods('during')).toHaveLength(0);
    const kcm = e.sim.actor<ControllerManager>('kube-controller-manager-0')!;
    // Its connection was found dead (health check, then failed dials) and closed; the renewal in flight
    // timed out at the renew deadline and it stopped leading.
    expect(kcm.transport.closes).toBeGreaterThan(0);
    expect(kcm.isLeader).toBe(false);

    expect(e.exec({ type: 'fault', fault: { action: 'heal-all' } }).ok).toBe(true);
    const healAt = e.sim.now;
    runUntil(e, () => pods('during').some((p) => p.spec.nodeName), 'the Deployment made during the cut has a scheduled pod', 90_000, 200);
    // The scheduler's last dial during the cut retransmits its SYN at 15 s and gives up at 30 s, so
    // its new connection may come up to 15 s after the heal; it lost its Lease in the cut and, a new
    // process with a new identity, waits out the old record's 15 s leaseDuration, trying every 2 s.
    expect(e.sim.now - healAt).toBeLessThanOrEqual(15_000 + 15_000 + 2_000 + 1_000);
    expect(kcm.isLeader).toBe(true);
  });
});
