// The node-loss timeline (issue 5 F) on the whole control plane: a node's
// Lease stops being renewed → Ready=Unknown on the first node-monitor tick past
// 50 s → the unreachable NoExecute taint → its pod deleted 300 s after the taint
// (DefaultTolerationSeconds).
import { describe, it, expect } from 'vitest';
import { call, controlPlane, createNode, runUntil } from '../../scheduler/testing/cluster';
import { rfc3339Micro, parseRfc3339 } from '../../apiserver/http/time';
import type { Engine } from '../../facade/engine';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';

function renew(e: Engine, name: string): number {
  const t = e.sim.now;
  const got = call(e, 'GET', `${LEASES}/${name}`);
  const spec = { holderIdentity: name, leaseDurationSeconds: 40, renewTime: rfc3339Micro(e.sim.now) };
  const r = got.status === 404 ? call(e, 'POST', LEASES, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'kube-node-lease' }, spec }) : call(e, 'PUT', `${LEASES}/${name}`, { ...got.body, spec });
  if (r.status >= 300) throw new Error(`lease ${name}: ${r.status} ${r.text}`);
  return t;
}

const ready = (e: Engine, n: string) => (call(e, 'GET', `/api/v1/nodes/${n}`).body.status.conditions as any[]).find((c) => c.type === 'Ready');
const noExecute = (e: Engine, n: string) => ((call(e, 'GET', `/api/v1/nodes/${n}`).body.spec.taints ?? []) as any[]).filter((t) => t.effect === 'NoExecute');

describe('node loss timeline', () => {
  it('Unknown after 50 s without renewals, tainted, pod evicted 300 s after the taint', { timeout: 60_000 }, () => {
    const e = controlPlane(3);
    if (call(e, 'GET', '/api/v1/namespaces/kube-node-lease').status === 404) call(e, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-node-lease' } });
    createNode(e, { name: 'lost', kwok: false });
    createNode(e, { name: 'healthy', kwok: false });
    const pod = call(e, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'victim' }, spec: { nodeName: 'lost', containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] } });
    expect(pod.status).toBe(201);
    expect(pod.body.spec.tolerations).toContainEqual({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });

    // Both kubelets renew every 10 s for a while; then "lost" stops.
    let lastLost = 0;
    let nextRenew = e.sim.now;
    const tick = (stopLostAt: number) => {
      if (e.sim.now >= nextRenew) {
        renew(e, 'healthy');
        if (e.sim.now < stopLostAt) lastLost = renew(e, 'lost');
        nextRenew += 10_000;
      }
    };
    const stopAt = e.sim.now + 30_000;
    runUntil(e, () => (tick(stopAt), false) || e.sim.now > stopAt + 1_000, 'renewals', 40_000);
    expect(ready(e, 'lost').status).toBe('True');

    let unknownAt = -1;
    runUntil(e, () => (tick(stopAt), ready(e, 'lost').status === 'Unknown' && ((unknownAt = e.sim.now), true)), 'Ready=Unknown', 120_000);
    const r = ready(e, 'lost');
    expect([r.reason, r.message]).toEqual(['NodeStatusUnknown', 'Kubelet stopped posting node status.']);
    // The grace period runs from the monitor tick that observed the last renewal (≤ 5 s after it) and
    // is exceeded strictly after 50 s, so on the 11th tick: 55 s after that tick, 50–60 s after the renewal.
    expect(unknownAt - lastLost).toBeGreaterThan(50_000);
    expect(unknownAt - lastLost).toBeLessThanOrEqual(60_000 + 500);
    expect(ready(e, 'healthy').status).toBe('True');

    runUntil(e, () => (tick(stopAt), noExecute(e, 'lost').length > 0), 'unreachable taint', 20_000);
    const taint = noExecute(e, 'lost')[0];
    expect(taint.key).toBe('node.kubernetes.io/unreachable');
    const taintAt = parseRfc3339(taint.timeAdded);
    expect(taintAt - unknownAt).toBeLessThanOrEqual(5_500);
    expect(noExecute(e, 'healthy')).toEqual([]);

    const terminating = () => {
      const p = call(e, 'GET', '/api/v1/namespaces/default/pods/victim');
      return p.status === 404 || !!p.body.metadata.deletionTimestamp;
    };
    runUntil(e, () => (tick(stopAt), false) || e.sim.now >= taintAt + 299_000, 'almost 300 s', 400_000, 1_000);
    expect(terminating()).toBe(false);
    let evictedAt = -1;
    runUntil(e, () => (tick(stopAt), terminating() && ((evictedAt = e.sim.now), true)), 'eviction', 10_000);
    expect(evictedAt - taintAt).toBeGreaterThanOrEqual(300_000);
    expect(evictedAt - taintAt).toBeLessThanOrEqual(301_500);
    const p = call(e, 'GET', '/api/v1/namespaces/default/pods/victim').body;
    if (p?.status?.conditions) expect(p.status.conditions).toContainEqual(expect.objectContaining({ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' }));
    const events = call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[];
    expect(events.some((ev) => ev.reason === 'TaintManagerEviction' && ev.message === 'Marking for deletion Pod default/victim' && ev.source.component === 'taint-eviction-controller')).toBe(true);
    expect(events.some((ev) => ev.reason === 'NodeNotReady' && ev.involvedObject.name === 'lost' && ev.source.component === 'node-controller')).toBe(true);
  });
});
