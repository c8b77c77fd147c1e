// The workload controllers' state (write chains in flight, awaited
// observations, expectations, back-offs) survives a snapshot: restored
// mid-rollout, the cluster runs on exactly as the original does.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { Engine } from '../facade/engine';

describe('workload controllers and snapshots', () => {
  it('a snapshot taken mid-rollout of a StatefulSet, a DaemonSet and a CronJob continues identically', { timeout: 60_000 }, () => {
    const e = controlPlane(71, { nodes: 1, etcdMembers: 1 });
    e.advance(3_000);
    const tpl = (app: string, extra: Record<string, unknown> = {}) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...extra } });
    call(e, 'POST', '/apis/apps/v1/namespaces/default/statefulsets', { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas: 3, serviceName: 'db', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'db' } }, template: tpl('db') } });
    call(e, 'POST', '/apis/apps/v1/namespaces/default/daemonsets', { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: tpl('agent') } });
    call(e, 'POST', '/apis/batch/v1/namespaces/default/cronjobs', { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'tick' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: tpl('tick', { restartPolicy: 'Never' }) } } } });
    e.advance(5);
    const snap = JSON.parse(JSON.stringify(e.snapshot()));
    e.advance(62_000);
    const restored = Engine.restore(snap);
    restored.advance(62_000);
    expect(restored.state().traceDigest).toBe(e.state().traceDigest);
    const names = (x: Engine) => (call(x, 'GET', '/api/v1/namespaces/default/pods').body.items as any[]).map((p) => `${p.metadata.name}:${p.status?.phase}`).sort();
    expect(names(restored)).toEqual(names(e));
    expect(names(e).filter((n) => n.startsWith('db-'))).toEqual(['db-0:Running', 'db-1:Running', 'db-2:Running']);
  });
});
