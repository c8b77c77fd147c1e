import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { DeploySim, deployment } from './testSim';

const spec = (o: KObject) => o.spec as any;
const status = (o: KObject) => (o.status ?? {}) as any;
const cond = (d: KObject, type: string) => (status(d).conditions ?? []).find((c: any) => c.type === type);

/** Ticks of 1 s: the controller acts, pods follow, pods turn ready. */
function run(sim: DeploySim, ticks: number, check?: () => void, until?: () => boolean): void {
  for (let i = 0; i < ticks; i++) {
    sim.ctx.now += 1000;
    sim.settle();
    sim.createPods();
    check?.();
    sim.settle();
    sim.kubelets();
    check?.();
    if (until?.()) return;
  }
}

function complete(sim: DeploySim): boolean {
  const s = status(sim.d);
  return s.updatedReplicas === spec(sim.d).replicas && s.availableReplicas === spec(sim.d).replicas && s.replicas === spec(sim.d).replicas && s.observedGeneration === sim.d.metadata.generation;
}

describe('DeploymentController rolling update', () => {
  it('creates <name>-<hash> with revision 1 and scales it to the replicas', () => {
    const sim = new DeploySim(deployment('web', 3, 'nginx:1'));
    run(sim, 10, undefined, () => complete(sim));
    const [rs] = sim.rss();
    expect(sim.rss()).toHaveLength(1);
    const hash = rs!.metadata.labels!['pod-template-hash']!;
    expect(rs!.metadata.name).toBe(`web-${hash}`);
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(spec(rs!).selector.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs!.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4' });
    expect(rs!.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true }]);
    expect(sim.d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(sim.ctx.events[0]).toMatchObject({ reason: 'ScalingReplicaSet', message: `Scaled up replica set web-${hash} from 0 to 3` });
    expect(cond(sim.d, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    expect(cond(sim.d, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "web-${hash}" has successfully progressed.` });
  });

  it('10 replicas at 25%/25%: never more than 13 pods, never fewer than 8 available', () => {
    const sim = new DeploySim(deployment('web', 10, 'nginx:1'));
    run(sim, 20, undefined, () => complete(sim));
    expect(status(sim.d).availableReplicas).toBe(10);
    sim.update((s) => (s.template.spec.containers[0].image = 'nginx:2'));
    let maxPods = 0;
    let minAvailable = Infinity;
    run(sim, 60, () => {
      maxPods = Math.max(maxPods, sim.totalPods());
      minAvailable = Math.min(minAvailable, sim.totalAvailable());
      // Surge rounds up (ceil 2.5 = 3), unavailable rounds down (floor 2.5 = 2).
      expect(sim.totalPods()).toBeLessThanOrEqual(13);
      expect(sim.totalAvailable()).toBeGreaterThanOrEqual(8);
    }, () => complete(sim));
    expect(complete(sim)).toBe(true);
    expect(maxPods).toBe(13);
    expect(minAvailable).toBe(8);
    const rss = sim.rss();
    expect(rss).toHaveLength(2);
    const newRS = rss.find((r) => spec(r).template.spec.containers[0].image === 'nginx:2')!;
    const oldRS = rss.find((r) => r !== newRS)!;
    expect(spec(newRS).replicas).toBe(10);
    expect(spec(oldRS).replicas).toBe(0);
    expect(newRS.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(sim.d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    const msgs = sim.ctx.events.map((e) => e.message);
    expect(msgs).toContain(`Scaled up replica set ${newRS.metadata.name} from 0 to 3`);
    expect(msgs).toContain(`Scaled down replica set ${oldRS.metadata.name} from 10 to 8`);
  });

  it('without readiness stops at the surge: 5 new pods, 8 old (13 in all)', () => {
    const sim = new DeploySim(deployment('web', 10, 'nginx:1'));
    run(sim, 20, undefined, () => complete(sim));
    sim.ready = false;
    sim.update((s) => (s.template.spec.containers[0].image = 'nginx:2'));
    run(sim, 20);
    const sizes = sim.rss().map((r) => spec(r).replicas).sort((a, b) => a - b);
    expect(sizes).toEqual([5, 8]);
    expect(sim.totalAvailable()).toBe(8);
  });

  it('reports ProgressDeadlineExceeded after progressDeadlineSeconds without progress', () => {
    const sim = new DeploySim(deployment('web', 2, 'nginx:1', { progressDeadlineSeconds: 30 }));
    sim.ready = false;
    run(sim, 5);
    expect(cond(sim.d, 'Progressing')).toMatchObject({ status: 'True' });
    expect(cond(sim.d, 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });
    run(sim, 40);
    expect(cond(sim.d, 'Progressing')).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded' });
    expect(cond(sim.d, 'Progressing').message).toMatch(/^ReplicaSet "web-\w+" has timed out progressing\.$/);
  });

  it('Recreate scales the old ReplicaSet to 0 before the new one comes up', () => {
    const sim = new DeploySim(deployment('web', 4, 'nginx:1', { strategy: { type: 'Recreate' } }));
    run(sim, 10, undefined, () => complete(sim));
    sim.update((s) => (s.template.spec.containers[0].image = 'nginx:2'));
    let both = false;
    run(sim, 20, () => {
      const withPods = [...sim.pods.values()].filter((p) => p.available + p.notReady > 0).length;
      if (withPods > 1) both = true;
    }, () => complete(sim));
    expect(both).toBe(false);
    expect(complete(sim)).toBe(true);
  });

  it('pause: template changes wait, scaling still works; resume rolls out', () => {
    const sim = new DeploySim(deployment('web', 4, 'nginx:1'));
    run(sim, 10, undefined, () => complete(sim));
    sim.update((s) => (s.paused = true));
    run(sim, 2);
    expect(cond(sim.d, 'Progressing')).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
    sim.update((s) => {
      s.template.spec.containers[0].image = 'nginx:2';
      s.replicas = 6;
    });
    run(sim, 5);
    expect(sim.rss()).toHaveLength(1);
    expect(spec(sim.rss()[0]!).replicas).toBe(6);
    sim.update((s) => (s.paused = false));
    run(sim, 30, undefined, () => complete(sim));
    expect(sim.rss()).toHaveLength(2);
    expect(complete(sim)).toBe(true);
  });

  it('keeps at most revisionHistoryLimit old ReplicaSets', () => {
    const sim = new DeploySim(deployment('web', 1, 'v0', { revisionHistoryLimit: 1 }));
    run(sim, 10, undefined, () => complete(sim));
    for (const v of ['v1', 'v2', 'v3']) {
      sim.update((s) => (s.template.spec.containers[0].image = v));
      run(sim, 20, undefined, () => complete(sim) && sim.rss().length <= 2);
    }
    run(sim, 3);
    const revs = sim.rss().map((r) => r.metadata.annotations?.['deployment.kubernetes.io/revision']).sort();
    expect(revs).toEqual(['3', '4']);
  });

  it('a clone taken mid-rollout continues identically', () => {
    const sim = new DeploySim(deployment('web', 10, 'nginx:1'));
    run(sim, 20, undefined, () => complete(sim));
    sim.update((s) => (s.template.spec.containers[0].image = 'nginx:2'));
    run(sim, 2);
    const copy = sim.fork();
    run(sim, 30);
    run(copy, 30);
    expect(copy.ctx.events.map((e) => e.message)).toEqual(sim.ctx.events.map((e) => e.message));
    expect(copy.d.status).toEqual(sim.d.status);
  });
});

describe('DeploymentController minReadySeconds', () => {
  it('is copied to the ReplicaSets and kept in step with the Deployment', () => {
    const sim = new DeploySim(deployment('web', 2, 'nginx:1', { minReadySeconds: 5 }));
    run(sim, 5);
    expect(spec(sim.rss()[0]!).minReadySeconds).toBe(5);
    sim.update((s) => (s.minReadySeconds = 9));
    run(sim, 2);
    expect(sim.rss()).toHaveLength(1);
    expect(spec(sim.rss()[0]!).minReadySeconds).toBe(9);
  });
});
