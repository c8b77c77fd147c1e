// Issue 5's node-loss timeline with real kubelets, through the faults the
// playground offers (a crashed kubelet stops renewing its Lease):
// Ready=Unknown once node-monitor-grace-period (50 s) has passed since the last
// renewal the node controller saw (checked every 5 s), the unreachable NoExecute
// taint, the pods evicted when their 300 s tolerations run out, and the
// Deployment's replacements Running on the surviving nodes.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import type { Engine } from '../facade/engine';

const pods = (e: Engine) => (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'app=web' } }).body.items ?? []) as any[];
const runningOn = (e: Engine) =>
  pods(e)
    .filter((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp)
    .map((p) => p.spec.nodeName as string);

describe('node loss, to the tick', () => {
  it('Unknown 50–60 s after the last renewal, evictions 300 s after the taint, replacements elsewhere', { timeout: 120_000 }, () => {
    const e = controlPlane(41, { nodes: 3 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 3, 'three Ready nodes', 60_000, 500);
    const labels = { app: 'web' };
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 3, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
    };
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', dep).status).toBe(201);
    runUntil(e, () => runningOn(e).length === 3, 'three Running pods', 120_000, 500);
    const victim = runningOn(e)[0]!;
    const onVictim = runningOn(e).filter((n) => n === victim).length;

    const lease = () => {
      const r = call(e, 'GET', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${victim}`);
      if (r.status !== 200) throw new Error(`lease of ${victim}: ${r.status} ${r.text}`);
      return r.body.spec.renewTime as string;
    };
    // The kubelet's first Lease comes with its first renewal (10 s after start).
    runUntil(e, () => call(e, 'GET', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${victim}`).status === 200, 'the node Lease', 30_000, 500);
    const before = lease();
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: victim } }).ok).toBe(true);
    const lastRenewal = Date.parse(lease());
    expect(lastRenewal).toBeGreaterThanOrEqual(Date.parse(before));
    const node = () => call(e, 'GET', `/api/v1/nodes/${victim}`).body;
    const ready = () => node().status.conditions.find((c: any) => c.type === 'Ready');
    runUntil(e, () => ready().status === 'Unknown', 'Ready=Unknown', 120_000, 100);
    const unknownAt = Date.parse(ready().lastTransitionTime);
    // The node controller takes the renewal as its probe when a 5 s check sees it (up to 5 s after
    // it), and marks the node Unknown at the first check more than the grace period (50 s) later.
    expect(unknownAt - lastRenewal).toBeGreaterThan(50_000);
    expect(unknownAt - lastRenewal).toBeLessThanOrEqual(60_000);
    expect(ready().reason).toBe('NodeStatusUnknown');
    runUntil(e, () => (node().spec.taints ?? []).some((t: any) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute'), 'the unreachable taint', 30_000, 100);
    const taintAt = Date.parse(node().spec.taints.find((t: any) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute').timeAdded);

    // The pods tolerate the taint for 300 s (DefaultTolerationSeconds), then are evicted.
    e.advance(295_000);
    expect(pods(e).filter((p) => p.spec.nodeName === victim && !p.metadata.deletionTimestamp)).toHaveLength(onVictim);
    runUntil(e, () => pods(e).every((p) => p.spec.nodeName !== victim || !!p.metadata.deletionTimestamp), 'eviction', 20_000, 100);
    const evictedAt = e.sim.now;
    expect(evictedAt).toBeGreaterThanOrEqual(taintAt - Date.parse('2025-01-01T00:00:00Z') + 300_000);
    // Replacements run on the nodes that are still there.
    runUntil(e, () => runningOn(e).filter((n) => n !== victim).length === 3, 'replacements Running elsewhere', 120_000, 500);
  });
});
