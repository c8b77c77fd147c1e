// The whole control plane: a Job created through the API, its pods bound by
// the scheduler, their completion patched as a kubelet would.
import { describe, it, expect } from 'vitest';
import { call, controlPlane, createNode, runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';

const jobOf = (e: Engine) => call(e, 'GET', '/apis/batch/v1/namespaces/default/jobs/pi').body;
const podsOf = (e: Engine) => call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'batch.kubernetes.io/job-name=pi' } }).body.items as any[];

describe('job-controller on the control plane', () => {
  it('runs a Job to completion', () => {
    const e = controlPlane(5);
    createNode(e, { name: 'node-1', kwok: false });
    const r = call(e, 'POST', '/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi' },
      spec: { completions: 2, parallelism: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } } },
    });
    expect(r.status).toBe(201);
    runUntil(e, () => podsOf(e).length === 2 && podsOf(e).every((p) => p.spec.nodeName), 'two pods bound', 60_000);
    const pods = podsOf(e);
    expect(pods[0].metadata.finalizers).toContain('batch.kubernetes.io/job-tracking');
    expect(pods[0].metadata.name).toMatch(/^pi-[a-z0-9]{5}$/);
    for (const p of pods) {
      const s = call(e, 'PATCH', `/api/v1/namespaces/default/pods/${p.metadata.name}/status`, { status: { phase: 'Succeeded' } }, { headers: { 'content-type': 'application/merge-patch+json' } });
      expect(s.status).toBe(200);
    }
    runUntil(e, () => (jobOf(e).status?.conditions ?? []).some((c: any) => c.type === 'Complete'), 'the Job complete', 60_000);
    const st = jobOf(e).status;
    expect(st.succeeded).toBe(2);
    expect(st.active ?? 0).toBe(0);
    expect(podsOf(e).every((p) => !(p.metadata.finalizers ?? []).includes('batch.kubernetes.io/job-tracking'))).toBe(true);
    const events = call(e, 'GET', '/api/v1/namespaces/default/events').body.items.filter((x: any) => x.involvedObject.name === 'pi');
    expect(events.map((x: any) => x.reason).sort()).toEqual(['Completed', 'SuccessfulCreate', 'SuccessfulCreate']);
    expect(events[0].source.component).toBe('job-controller');
  }, 60_000);
});

describe('job-controller with a kubelet', () => {
  it('an Indexed Job runs one pod per index and records completedIndexes', { timeout: 60_000 }, () => {
    const e = controlPlane(6, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 1, 'a Ready node', 60_000, 500);
    const r = call(e, 'POST', '/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'idx' },
      spec: { completionMode: 'Indexed', completions: 3, parallelism: 3, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox', command: ['sh', '-c', 'sleep 2'] }] } } },
    });
    expect(r.status).toBe(201);
    const job = () => call(e, 'GET', '/apis/batch/v1/namespaces/default/jobs/idx').body;
    runUntil(e, () => (job().status?.conditions ?? []).some((c: any) => c.type === 'Complete'), 'the Job complete', 60_000, 500);
    expect(job().status).toMatchObject({ succeeded: 3, completedIndexes: '0-2' });
    const pods = call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'batch.kubernetes.io/job-name=idx' } }).body.items as any[];
    expect(pods.map((p) => [p.metadata.labels['batch.kubernetes.io/job-completion-index'], p.spec.hostname, p.metadata.name.slice(0, 6)]).sort()).toEqual([
      ['0', 'idx-0', 'idx-0-'],
      ['1', 'idx-1', 'idx-1-'],
      ['2', 'idx-2', 'idx-2-'],
    ]);
  });

  it('backoffLimitPerIndex: index 1 exits 1 twice and fails for good, index 0 succeeds; the Job fails with FailedIndexes', { timeout: 90_000 }, () => {
    const e = controlPlane(7, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 1, 'a Ready node', 60_000, 500);
    const r = call(e, 'POST', '/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'per' },
      spec: {
        completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 1,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox', command: ['sh', '-c', 'sleep 1; exit $JOB_COMPLETION_INDEX'] }] } },
      },
    });
    expect(r.status).toBe(201);
    const job = () => call(e, 'GET', '/apis/batch/v1/namespaces/default/jobs/per').body;
    expect(job().spec.backoffLimit).toBe(2147483647);
    runUntil(e, () => (job().status?.conditions ?? []).some((c: any) => c.type === 'Failed'), 'the Job failed', 120_000, 500);
    const st = job().status;
    expect(st).toMatchObject({ completedIndexes: '0', failedIndexes: '1', succeeded: 1, failed: 2 });
    expect(st.conditions.find((c: any) => c.type === 'Failed')).toMatchObject({ reason: 'FailedIndexes', message: 'Job has failed indexes' });
    const pods = call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'batch.kubernetes.io/job-name=per' } }).body.items as any[];
    const ones = pods.filter((p) => p.metadata.labels['batch.kubernetes.io/job-completion-index'] === '1');
    expect(ones.map((p) => p.metadata.annotations['batch.kubernetes.io/job-index-failure-count']).sort()).toEqual(['0', '1']);
    expect(ones.every((p) => p.status.phase === 'Failed')).toBe(true);
  });
});

describe('job-controller status writes the API server accepts (jobs/status validation)', () => {
  const job = (e: Engine, name: string) => call(e, 'GET', `/apis/batch/v1/namespaces/default/jobs/${name}`).body;
  const cond = (e: Engine, name: string, type: string) => (job(e, name).status?.conditions ?? []).find((c: any) => c.type === type);
  const patch = (e: Engine, name: string, spec: object) => call(e, 'PATCH', `/apis/batch/v1/namespaces/default/jobs/${name}`, { spec }, { headers: { 'content-type': 'application/merge-patch+json' } });

  it('a started Job suspended and resumed runs again, its startTime reset to the resume', () => {
    const e = controlPlane(7);
    createNode(e, { name: 'node-1', kwok: false });
    const r = call(e, 'POST', '/apis/batch/v1/namespaces/default/jobs', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'sr' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox' }] } } } });
    expect(r.status).toBe(201);
    runUntil(e, () => !!job(e, 'sr').status?.startTime && (job(e, 'sr').status?.active ?? 0) === 1, 'the Job started', 60_000);
    const started = job(e, 'sr').status.startTime;
    expect(patch(e, 'sr', { suspend: true }).status).toBe(200);
    runUntil(e, () => cond(e, 'sr', 'Suspended')?.status === 'True' && (job(e, 'sr').status?.active ?? 0) === 0, 'the Job suspended', 60_000);
    e.advance(5_000);
    expect(patch(e, 'sr', { suspend: false }).status).toBe(200);
    runUntil(e, () => cond(e, 'sr', 'Suspended')?.status === 'False', 'the Job resumed', 60_000);
    expect(cond(e, 'sr', 'Suspended')).toMatchObject({ reason: 'JobResumed', message: 'Job resumed' });
    expect(Date.parse(job(e, 'sr').status.startTime)).toBeGreaterThan(Date.parse(started));
    runUntil(e, () => (job(e, 'sr').status?.active ?? 0) === 1, 'a pod again', 60_000);
  }, 60_000);

  it('a Job created suspended with completions 0 completes', () => {
    const e = controlPlane(8);
    const r = call(e, 'POST', '/apis/batch/v1/namespaces/default/jobs', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'zero' }, spec: { suspend: true, completions: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox' }] } } } });
    expect(r.status).toBe(201);
    runUntil(e, () => cond(e, 'zero', 'Complete')?.status === 'True', 'the Job complete', 60_000);
    expect(job(e, 'zero').status.completionTime).toBeTruthy();
  }, 60_000);
});
