// kube-controller-manager with two replicas: one holds kube-system/kube-controller-manager
// and runs the controllers; when it crashes the other takes over within
// leaseDuration + retryPeriod and the controllers carry on.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import type { ControllerManager } from './manager';

describe('kube-controller-manager leader election', () => {
  it('fails over within leaseDuration + retryPeriod', { timeout: 60_000 }, () => {
    const e = controlPlane(51, { controllerManagers: 2 });
    const m = (i: number) => e.sim.actor<ControllerManager>(`kube-controller-manager-${i}`);
    runUntil(e, () => !!m(0)?.isLeader || !!m(1)?.isLeader, 'a leader', 30_000);
    const leader = m(0)!.isLeader ? 0 : 1;
    expect(m(1 - leader)!.isLeader).toBe(false);
    const lease = call(e, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager').body;
    expect(lease.spec.holderIdentity).toBe(m(leader)!.elector.config.identity);
    expect(lease.spec.leaseDurationSeconds).toBe(15);

    const crashAt = e.sim.now;
    e.exec({ type: 'fault', fault: { action: 'crash', target: `kube-controller-manager-${leader}` } });
    // The standby's clock for the lease starts when it saw the last renewal (it polls every retryPeriod).
    let observed = m(1 - leader)!.elector.observedTime;
    for (let t = 0; t < 30_000 && !m(1 - leader)!.isLeader; t += 100) {
      observed = m(1 - leader)!.elector.observedTime;
      e.advance(100);
    }
    expect(m(1 - leader)!.isLeader).toBe(true);
    // Never before the lease could have expired; at most leaseDuration + retryPeriod (jittered ×1.2) after that observation.
    expect(e.sim.now - observed).toBeGreaterThanOrEqual(15_000);
    expect(e.sim.now - observed).toBeLessThanOrEqual(15_000 + 2_400 + 100);
    expect(e.sim.now - crashAt).toBeLessThanOrEqual(15_000 + 2_000 + 2_400 + 100);

    // The new leader's controllers work: a ReplicaSet gets its pods.
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'after', namespace: 'default' }, spec: { replicas: 2, selector: { matchLabels: { app: 'after' } }, template: { metadata: { labels: { app: 'after' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } } };
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/replicasets', rs).status).toBe(201);
    runUntil(e, () => (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'app=after' } }).body.items ?? []).length === 2, 'two pods', 30_000, 200);
  });

  it('a restarted leader is a new candidate: it waits for its old lease to expire before leading again', { timeout: 60_000 }, () => {
    const e = controlPlane(52);
    const m = () => e.sim.actor<ControllerManager>('kube-controller-manager-0');
    runUntil(e, () => !!m()?.isLeader, 'a leader', 30_000);
    const path = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';
    const before = call(e, 'GET', path).body.spec;
    // hostname_uuid, as upstream's manager names itself.
    expect(before.holderIdentity).toMatch(/^kube-controller-manager-0_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    e.exec({ type: 'fault', fault: { action: 'crash', target: 'kube-controller-manager-0' } });
    const lastRenew = Date.parse(call(e, 'GET', path).body.spec.renewTime);
    e.exec({ type: 'fault', fault: { action: 'restart', target: 'kube-controller-manager-0' } });
    const identity = m()!.elector.config.identity;
    expect(identity).not.toBe(before.holderIdentity);
    runUntil(e, () => !!m()?.isLeader, 'the restarted manager leads again', 30_000);
    const after = call(e, 'GET', path).body.spec;
    expect(after.holderIdentity).toBe(identity);
    expect(after.leaseTransitions).toBe(before.leaseTransitions + 1);
    // Not before the old holder's lease ran out (15 s after its last renewal).
    expect(Date.parse(after.acquireTime) - lastRenew).toBeGreaterThanOrEqual(15_000);
  });
});
