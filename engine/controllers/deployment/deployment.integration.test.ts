import { describe, it, expect } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';

const D = '/apis/apps/v1/namespaces/default/deployments';
const RS = '/apis/apps/v1/namespaces/default/replicasets';

const rsList = (e: Engine): any[] => call(e, 'GET', RS).body.items;
const pods = (e: Engine): any[] => (call(e, 'GET', '/api/v1/namespaces/default/pods').body.items as any[]).filter((p) => !p.metadata.deletionTimestamp);

describe('deployment-controller in the control plane', () => {
  it('creates <name>-<hash> with 3 pods, then a second ReplicaSet on an image change', () => {
    const e = controlPlane(11);
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } },
    };
    const created = call(e, 'POST', D, d);
    expect(created.status).toBe(201);
    runUntil(e, () => rsList(e).length === 1 && pods(e).length === 3, 'one ReplicaSet with 3 pods');
    const rs = rsList(e)[0];
    const hash = rs.metadata.labels['pod-template-hash'];
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(rs.metadata.ownerReferences[0]).toMatchObject({ kind: 'Deployment', name: 'web', uid: created.body.metadata.uid, controller: true, blockOwnerDeletion: true });
    expect(rs.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    for (const p of pods(e)) {
      expect(p.metadata.name).toMatch(new RegExp(`^web-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(p.metadata.labels['pod-template-hash']).toBe(hash);
    }
    runUntil(e, () => {
      const ev = call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[];
      return ev.some((x) => x.reason === 'ScalingReplicaSet' && x.message === `Scaled up replica set web-${hash} from 0 to 3` && x.source.component === 'deployment-controller');
    }, 'the ScalingReplicaSet event');
    runUntil(e, () => call(e, 'GET', `${D}/web`).body.status?.replicas === 3, 'deployment status');

    // A new image: a second ReplicaSet at revision 2, surging by ceil(25% of 3) = 1.
    const patch = { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } };
    expect(call(e, 'PATCH', `${D}/web`, patch, { headers: { 'content-type': 'application/strategic-merge-patch+json' } }).status).toBe(200);
    runUntil(e, () => rsList(e).length === 2, 'a second ReplicaSet');
    const next = rsList(e).find((r) => r.metadata.name !== rs.metadata.name);
    expect(next.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
    expect(next.spec.template.spec.containers[0].image).toBe('nginx:2');
    // Without kubelets nothing becomes ready: 3 old + 1 new = maxSurge reached, old cannot shrink (maxUnavailable 0 of 3).
    e.advance(5000);
    const sizes = rsList(e).map((r) => [r.spec.template.spec.containers[0].image, r.spec.replicas]).sort();
    expect(sizes).toEqual([['nginx:1', 3], ['nginx:2', 1]]);
    runUntil(e, () => pods(e).length === 4, '4 pods');
    expect(call(e, 'GET', `${D}/web`).body.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
  }, 40_000);

  it('without ready pods, Progressing turns False with ProgressDeadlineExceeded after the deadline', () => {
    const e = controlPlane(12);
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'slow' },
      spec: { replicas: 2, progressDeadlineSeconds: 10, selector: { matchLabels: { app: 'slow' } }, template: { metadata: { labels: { app: 'slow' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } },
    };
    expect(call(e, 'POST', D, d).status).toBe(201);
    const progressing = () => (call(e, 'GET', `${D}/slow`).body.status?.conditions ?? []).find((c: any) => c.type === 'Progressing');
    runUntil(e, () => progressing()?.status === 'True', 'Progressing=True');
    const t0 = e.sim.now;
    runUntil(e, () => progressing()?.reason === 'ProgressDeadlineExceeded', 'ProgressDeadlineExceeded', 60_000);
    expect(progressing().status).toBe('False');
    expect(e.sim.now - t0).toBeGreaterThanOrEqual(9_000);
    expect(e.sim.now - t0).toBeLessThan(15_000);
  }, 40_000);
});
