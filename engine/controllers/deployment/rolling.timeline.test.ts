// Issue 5's rolling-update timeline with real kubelets: 10 replicas at the
// default 25%/25% (surge rounds up to 3, unavailable down to 2). Replayed
// from the pod watch, every state the API server committed has at most 13
// pods that are not terminating and at least 8 of them available. And no
// churn: the old ReplicaSet only ever shrinks (upstream's rolling.go refuses a
// "scale down" to more replicas when an RS status lags its spec), no pod is
// created only to be deleted before it ran, and the scheduler reports no
// FailedScheduling for a pod that is gone.
import { describe, expect, it } from 'vitest';
import { call, controlPlane, watch } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';

const D = '/apis/apps/v1/namespaces/default/deployments/web';
const ready = (p: any) => (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');

describe('Deployment rolling update timeline', () => {
  // Seed 52 used to scale the old ReplicaSet back up from 1 to 2 at the end.
  it.each([51, 52])('seed %i: 10 replicas at maxSurge/maxUnavailable 25 percent, never more than 13 pods, never fewer than 8 available, no churn', { timeout: 60_000 }, (seed) => {
    const e: Engine = controlPlane(seed, { nodes: 3, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 3, 'three Ready nodes', 60_000, 500);
    const labels = { app: 'web' };
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 10, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } };
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', dep).status).toBe(201);
    const complete = () => {
      const s = call(e, 'GET', D).body.status ?? {};
      return s.updatedReplicas === 10 && s.availableReplicas === 10 && s.replicas === 10;
    };
    runUntil(e, complete, 'ten available replicas', 60_000, 500);
    const w = watch(e, '/api/v1/namespaces/default/pods', { labelSelector: 'app=web' });
    const rsWatch = watch(e, '/apis/apps/v1/namespaces/default/replicasets');
    const eventWatch = watch(e, '/apis/events.k8s.io/v1/namespaces/default/events');
    const ran = new Set<string>();
    const deletedUnrun: string[] = [];
    const deleted = new Set<string>();
    const live = new Map<string, any>((call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'app=web' } }).body.items as any[]).map((p) => [p.metadata.name, p]));
    let maxPods = 0;
    let minAvailable = Infinity;
    let states = 0;
    const replay = () => {
      for (const ev of w.read().splice(0)) {
        const name = ev.object.metadata.name;
        if (ev.object.status?.phase === 'Running') ran.add(name);
        if ((ev.type === 'DELETED' || ev.object.metadata.deletionTimestamp) && !ran.has(name) && !deleted.has(name)) deletedUnrun.push(name);
        if (ev.type === 'DELETED' || ev.object.metadata.deletionTimestamp) deleted.add(name);
        if (ev.type === 'DELETED') live.delete(ev.object.metadata.name);
        else live.set(ev.object.metadata.name, ev.object);
        const pods = [...live.values()].filter((p) => !p.metadata.deletionTimestamp);
        maxPods = Math.max(maxPods, pods.length);
        minAvailable = Math.min(minAvailable, pods.filter(ready).length);
        states++;
      }
    };
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } } };
    expect(call(e, 'PATCH', D, patch, { headers: { 'content-type': 'application/strategic-merge-patch+json' } }).status).toBe(200);
    runUntil(e, () => (replay(), call(e, 'GET', D).body.status?.observedGeneration === 2 && complete()), 'the roll out', 120_000, 500);
    e.advance(1000);
    replay();
    expect(states).toBeGreaterThan(40);
    expect(maxPods).toBe(13);
    expect(minAvailable).toBe(8);
    const pods = [...live.values()].filter((p) => !p.metadata.deletionTimestamp);
    expect(pods).toHaveLength(10);
    expect(pods.every((p) => p.spec.containers[0].image === 'nginx:1.28' && ready(p))).toBe(true);
    const rs = call(e, 'GET', '/apis/apps/v1/namespaces/default/replicasets').body.items as any[];
    expect(rs.map((r) => [r.metadata.annotations['deployment.kubernetes.io/revision'], r.spec.replicas]).sort()).toEqual([['1', 0], ['2', 10]]);
    const msgs = (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((x) => x.reason === 'ScalingReplicaSet').map((x) => x.message);
    const newRS = rs.find((r) => r.spec.replicas === 10).metadata.name;
    const oldRS = rs.find((r) => r.spec.replicas === 0).metadata.name;
    expect(msgs).toContain(`Scaled up replica set ${newRS} from 0 to 3`);
    expect(msgs).toContain(`Scaled down replica set ${oldRS} from 10 to 8`);
    expect(msgs.filter((m) => m.startsWith(`Scaled up replica set ${oldRS}`))).toEqual([`Scaled up replica set ${oldRS} from 0 to 10`]);
    // The old ReplicaSet's spec.replicas, as every committed state showed it, never grows.
    const oldSizes = rsWatch.read().filter((ev) => ev.object.metadata.name === oldRS).map((ev) => ev.object.spec.replicas as number);
    expect(oldSizes.length).toBeGreaterThan(3);
    expect(oldSizes.filter((n, i) => i > 0 && n > oldSizes[i - 1]!)).toEqual([]);
    expect(oldSizes.at(-1)).toBe(0);
    expect(deletedUnrun).toEqual([]);
    expect(deleted.size).toBe(10);
    const failed = eventWatch.read().map((ev) => ev.object).filter((x) => x.reason === 'FailedScheduling');
    expect(failed.filter((x) => deleted.has(x.regarding.name)).map((x) => x.note)).toEqual([]);
  });
});
