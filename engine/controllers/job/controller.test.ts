import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from '../framework/testing';
import { cloneState } from '../../sim/serial';
import { JobController, JOB_TRACKING_FINALIZER } from './controller';
import { job, setup, World } from './testWorld';

describe('JobController (job_controller_test.go)', () => {
  it('creates pods up to parallelism with the tracking finalizer and the Job as controller', () => {
    const { ctx, w } = setup({ completions: 5, parallelism: 2 });
    w.run(0);
    const pods = w.pods();
    expect(pods).toHaveLength(2);
    expect(pods[0].metadata).toMatchObject({ generateName: 'pi-', labels: { 'job-name': 'pi' }, finalizers: [JOB_TRACKING_FINALIZER] });
    expect(pods[0].metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: 'uid-job-pi', controller: true, blockOwnerDeletion: true }]);
    expect(ctx.events.map((e) => [e.reason, e.message])).toEqual([['SuccessfulCreate', `Created pod: ${pods[0].metadata.name}`], ['SuccessfulCreate', `Created pod: ${pods[1].metadata.name}`]]);
    w.run(1500);
    expect(w.job().status).toMatchObject({ active: 2, ready: 0, terminating: 0 });
    expect(w.job().status.startTime).toBeDefined();
  });

  it('counts succeeded pods through uncountedTerminatedPods, removes finalizers, then Complete', () => {
    const { ctx, w } = setup({ completions: 2, parallelism: 2 });
    w.run(1500);
    for (const p of w.pods()) w.setPhase(p.metadata.name, 'Succeeded');
    w.run(5000);
    const st = w.job().status;
    expect(st.succeeded).toBe(2);
    expect(st.active).toBe(0);
    expect(st.uncountedTerminatedPods).toEqual({});
    expect(st.conditions.map((x: any) => [x.type, x.status, x.reason])).toEqual([['SuccessCriteriaMet', 'True', 'CompletionsReached'], ['Complete', 'True', 'CompletionsReached']]);
    expect(st.completionTime).toBeDefined();
    expect(w.pods().every((p) => !p.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER))).toBe(true);
    expect(ctx.events.filter((e) => e.reason === 'Completed').map((e) => e.message)).toEqual(['Job completed']);
    expect(w.pods()).toHaveLength(2); // finished pods stay (the TTL controller or the user removes them)
  });

  it('replaces failed pods with upstream back-off (10 s doubling), then fails with BackoffLimitExceeded', () => {
    const { ctx, w } = setup({ backoffLimit: 2 });
    const created: number[] = [];
    const failNewest = () => {
      const p = w.pods().find((x) => x.status.phase === 'Pending');
      if (p) w.setPhase(p.metadata.name, 'Failed');
    };
    for (let i = 0; i < 400; i++) {
      const before = w.pods().length;
      w.run(0);
      if (w.pods().length > before) created.push(ctx.now);
      if (i % 10 === 5) failNewest();
    }
    // First pod at t=0, failures at ~0.5 s; replacements 10 s and then 20 s after each failure.
    expect(created).toHaveLength(3);
    const failedAt = (k: number) => created[k]! - created[k - 1]!;
    expect(failedAt(1)).toBeGreaterThanOrEqual(10_000);
    expect(failedAt(1)).toBeLessThan(12_000);
    expect(failedAt(2)).toBeGreaterThanOrEqual(20_000);
    expect(failedAt(2)).toBeLessThan(22_000);
    w.run(5000);
    const st = w.job().status;
    expect(st.failed).toBe(3);
    expect(st.conditions.map((x: any) => [x.type, x.reason, x.message])).toEqual([
      ['FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
      ['Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    ]);
    expect(ctx.events.filter((e) => e.type === 'Warning').map((e) => e.reason)).toEqual(['BackoffLimitExceeded']);
  });

  it('deletes active pods when the job fails (activeDeadlineSeconds) and waits for them before Failed', () => {
    const { w } = setup({ activeDeadlineSeconds: 5, parallelism: 2, completions: 4 });
    w.run(4000);
    expect(w.pods()).toHaveLength(2);
    w.run(3000);
    const st = w.job().status;
    expect(st.conditions.map((x: any) => [x.type, x.reason])).toEqual([['FailureTarget', 'DeadlineExceeded'], ['Failed', 'DeadlineExceeded']]);
    expect(st.failed).toBe(2);
    expect(st.active).toBe(0);
    expect(w.pods()).toHaveLength(0); // deleted once their finalizers came off
  });

  it('a job without completions is complete once any pod succeeds and none is active', () => {
    const { w } = setup({ completions: undefined, parallelism: 1 });
    w.run(1500);
    w.setPhase(w.pods()[0].metadata.name, 'Succeeded');
    w.run(3000);
    expect(w.job().status.conditions.map((x: any) => x.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
  });

  it('snapshots mid-run: the clone continues identically', () => {
    const { c, ctx, w } = setup({ completions: 3, parallelism: 3 });
    w.run(1500);
    w.setPhase(w.pods()[0].metadata.name, 'Succeeded');
    ctx.drain(c);
    const k = cloneState(c);
    const cont = (x: JobController) => {
      const f = new FakeContext();
      f.now = ctx.now;
      for (const [r, m] of ctx.stores) for (const o of m.values()) (f.store(r) as Map<string, KObject>).set(`${o.metadata.namespace}/${o.metadata.name}`, JSON.parse(JSON.stringify(o)));
      f.calls.push(...ctx.calls.map((y) => JSON.parse(JSON.stringify(y))));
      const v = new World(x, f);
      v.rv = w.rv;
      v.run(3000);
      return { status: v.job().status, events: f.events.map((e) => e.reason) };
    };
    const a = cont(k);
    expect(a.status.succeeded).toBe(1);
    expect(a).toEqual(cont(c));
  });
});

describe('JobController orphan pods', () => {
  it('removes the tracking finalizer from pods of a deleted Job', () => {
    const { c, ctx, w } = setup({ completions: 2, parallelism: 2 });
    w.run(1500);
    expect(w.pods().every((p) => p.metadata.finalizers.includes(JOB_TRACKING_FINALIZER))).toBe(true);
    ctx.remove(c, 'jobs', w.job());
    w.run(500);
    expect(w.pods()).toHaveLength(2);
    expect(w.pods().every((p) => !p.metadata.finalizers.includes(JOB_TRACKING_FINALIZER))).toBe(true);
  });
});

describe('JobController Indexed completion mode', () => {
  const indexOf = (p: any) => p.metadata.annotations['batch.kubernetes.io/job-completion-index'];

  it('gives pods the lowest pending indexes: annotation, label, hostname, generateName and JOB_COMPLETION_INDEX', () => {
    const { w } = setup({ completionMode: 'Indexed', completions: 4, parallelism: 2 });
    w.run(0);
    const pods = w.pods().sort((a, b) => (indexOf(a) < indexOf(b) ? -1 : 1));
    expect(pods.map(indexOf)).toEqual(['0', '1']);
    expect(pods[1].metadata).toMatchObject({ generateName: 'pi-1-', labels: { 'job-name': 'pi', 'batch.kubernetes.io/job-completion-index': '1' } });
    expect(pods[1].spec.hostname).toBe('pi-1');
    // From the index label (PodIndexLabel is GA in v1.32).
    expect(pods[1].spec.containers[0].env).toEqual([{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } }]);
  });

  it('records completed indexes as intervals and completes when every index succeeded', () => {
    const { w } = setup({ completionMode: 'Indexed', completions: 4, parallelism: 2 });
    w.run(1500);
    const byIndex = () => new Map(w.pods().map((p) => [indexOf(p), p]));
    w.setPhase(byIndex().get('1').metadata.name, 'Succeeded');
    w.run(3000);
    expect(w.job().status.completedIndexes).toBe('1');
    expect(w.job().status.succeeded).toBe(1);
    // Index 1 is done: the next pods take 2 (and 0 is still running).
    expect([...byIndex().keys()].sort()).toEqual(['0', '1', '2']);
    for (const ix of ['0', '2']) w.setPhase(byIndex().get(ix).metadata.name, 'Succeeded');
    w.run(3000);
    expect(w.job().status.completedIndexes).toBe('0-2');
    w.setPhase(byIndex().get('3').metadata.name, 'Succeeded');
    w.run(3000);
    const st = w.job().status;
    expect(st.completedIndexes).toBe('0-3');
    expect(st.succeeded).toBe(4);
    expect(st.conditions.map((c: any) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
  });

  it('a failed index is retried with the same index', () => {
    const { w } = setup({ completionMode: 'Indexed', completions: 2, parallelism: 2 });
    w.run(1500);
    const failed = w.pods().find((p) => indexOf(p) === '0');
    w.setPhase(failed.metadata.name, 'Failed');
    w.run(15_000);
    const retry = w.pods().filter((p) => indexOf(p) === '0' && p.status.phase !== 'Failed');
    expect(retry).toHaveLength(1);
    expect(retry[0].metadata.name).not.toBe(failed.metadata.name);
    expect(w.job().status.failed).toBe(1);
  });
});

describe('JobController podFailurePolicy', () => {
  const failWith = (w: any, name: string, exitCode: number) => {
    const p = JSON.parse(JSON.stringify(w.ctx.store('pods').get(`default/${name}`)));
    p.status = { phase: 'Failed', containerStatuses: [{ name: 'c', state: { terminated: { exitCode, finishedAt: '2025-01-01T00:00:01Z' } } }] };
    p.metadata.resourceVersion = String(w.rv++);
    w.ctx.upsert(w.c, 'pods', p);
  };
  const policy = { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'c', operator: 'In', values: [42] } }, { action: 'Ignore', onExitCodes: { operator: 'In', values: [137] } }] };

  it('FailJob on a matching exit code fails the Job with reason PodFailurePolicy', () => {
    const { w } = setup({ podFailurePolicy: policy, podReplacementPolicy: 'Failed' });
    w.run(1500);
    failWith(w, w.pods()[0].metadata.name, 42);
    w.run(3000);
    const st = w.job().status;
    expect(st.conditions.map((c: any) => [c.type, c.reason, c.message])).toEqual([
      ['FailureTarget', 'PodFailurePolicy', `Container c for pod default/${w.pods()[0].metadata.name} failed with exit code 42 matching FailJob rule at index 0`],
      ['Failed', 'PodFailurePolicy', `Container c for pod default/${w.pods()[0].metadata.name} failed with exit code 42 matching FailJob rule at index 0`],
    ]);
  });

  it('Ignore: the failure does not count toward backoffLimit; the replacement waits the pod-failure back-off all the same', () => {
    const { w } = setup({ podFailurePolicy: policy, podReplacementPolicy: 'Failed', backoffLimit: 0 });
    w.run(1500);
    failWith(w, w.pods()[0].metadata.name, 137);
    w.run(3000);
    expect(w.pods().filter((p) => p.status.phase === 'Pending')).toHaveLength(0);
    w.run(10_000);
    expect(w.job().status.failed ?? 0).toBe(0);
    expect(w.job().status.conditions ?? []).toEqual([]);
    expect(w.pods().filter((p) => p.status.phase === 'Pending')).toHaveLength(1);
  });
});

const INDEX = 'batch.kubernetes.io/job-completion-index';
const FAILURES = 'batch.kubernetes.io/job-index-failure-count';
/** A pod of the World failed with an exit code, finished at the World's current time. */
function fail(w: World, name: string, exitCode = 1): void {
  const p = JSON.parse(JSON.stringify(w.ctx.store('pods').get(`default/${name}`)));
  const at = new Date(Date.UTC(2025, 0, 1) + w.ctx.now).toISOString().replace(/\.\d+Z$/, 'Z');
  p.status = { phase: 'Failed', containerStatuses: [{ name: 'c', state: { terminated: { exitCode, finishedAt: at } } }] };
  p.metadata.resourceVersion = String(w.rv++);
  w.ctx.upsert(w.c, 'pods', p);
}
const live = (w: World, ix: string) => w.pods().filter((p) => p.metadata.annotations?.[INDEX] === ix && p.status.phase === 'Pending' && !p.metadata.deletionTimestamp);

describe('JobController backoffLimitPerIndex (KEP-3850)', () => {
  it('an index retries on its own back-off with its failure count, fails for good at the limit; the Job then fails with FailedIndexes', () => {
    const { ctx, w } = setup({ completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimitPerIndex: 1, backoffLimit: 2147483647 });
    w.run(1500);
    expect(w.pods().map((p) => p.metadata.annotations[FAILURES]).sort()).toEqual(['0', '0', '0']);
    expect(w.job().status.failedIndexes).toBe('');
    const first = live(w, '1')[0];
    fail(w, first.metadata.name);
    const failedAt = ctx.now;
    w.run(5000);
    // Held until its replacement exists: the finalizer stays, nothing counted yet, no replacement before 10 s.
    expect(ctx.store('pods').get(`default/${first.metadata.name}`)!.metadata.finalizers).toContain(JOB_TRACKING_FINALIZER);
    expect(live(w, '1')).toHaveLength(0);
    expect(w.job().status.failed ?? 0).toBe(0);
    w.run(6000);
    const second = live(w, '1');
    expect(second).toHaveLength(1);
    expect(second[0].metadata.annotations[FAILURES]).toBe('1');
    expect(ctx.now - failedAt).toBeGreaterThanOrEqual(10_000);
    w.run(2000);
    expect(ctx.store('pods').get(`default/${first.metadata.name}`)!.metadata.finalizers ?? []).not.toContain(JOB_TRACKING_FINALIZER);
    expect(w.job().status.failed).toBe(1);
    // Its second failure reaches the limit: index 1 is failed, no third pod.
    fail(w, second[0].metadata.name);
    w.run(30_000);
    expect(live(w, '1')).toHaveLength(0);
    expect(w.job().status).toMatchObject({ failedIndexes: '1', failed: 2, active: 2 });
    for (const ix of ['0', '2']) w.setPhase(live(w, ix)[0].metadata.name, 'Succeeded');
    w.run(5000);
    const st = w.job().status;
    expect(st).toMatchObject({ completedIndexes: '0,2', failedIndexes: '1', succeeded: 2, failed: 2 });
    expect(st.conditions.map((c: any) => [c.type, c.reason, c.message])).toEqual([
      ['FailureTarget', 'FailedIndexes', 'Job has failed indexes'],
      ['Failed', 'FailedIndexes', 'Job has failed indexes'],
    ]);
    expect(ctx.events.filter((e) => e.type === 'Warning').map((e) => [e.reason, e.message])).toEqual([['FailedIndexes', 'Job has failed indexes']]);
  });

  it('maxFailedIndexes exceeded fails the Job at once (upstream e2e: parallelism 1, completions 4)', () => {
    const { w } = setup({ completionMode: 'Indexed', completions: 4, parallelism: 1, backoffLimitPerIndex: 0, maxFailedIndexes: 0, backoffLimit: 2147483647 });
    w.run(1500);
    fail(w, live(w, '0')[0].metadata.name);
    w.run(5000);
    const st = w.job().status;
    expect(st).toMatchObject({ failedIndexes: '0', failed: 1, active: 0 });
    expect(st.conditions.map((c: any) => [c.type, c.reason, c.message])).toEqual([
      ['FailureTarget', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes'],
      ['Failed', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes'],
    ]);
    expect(w.pods()).toHaveLength(1);
  });

  it('pods deleted when the Job fails count as failures of their indexes, as upstream counts deleted pods', () => {
    const { w } = setup({ completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimitPerIndex: 0, maxFailedIndexes: 0, backoffLimit: 2147483647 });
    w.run(1500);
    fail(w, live(w, '1')[0].metadata.name);
    w.run(5000);
    expect(w.job().status).toMatchObject({ failedIndexes: '0-2', failed: 3, active: 0 });
    expect(w.job().status.conditions.map((c: any) => c.type)).toEqual(['FailureTarget', 'Failed']);
  });

  it('a FailIndex rule fails the index on the first matching failure; Ignore keeps retrying it without counting', () => {
    const policy = { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } }, { action: 'Ignore', onExitCodes: { operator: 'In', values: [137] } }] };
    const { w } = setup({ completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 3, backoffLimit: 2147483647, podFailurePolicy: policy, podReplacementPolicy: 'Failed' });
    w.run(1500);
    fail(w, live(w, '0')[0].metadata.name, 42);
    fail(w, live(w, '1')[0].metadata.name, 137);
    w.run(15_000);
    const retry = live(w, '1');
    expect(retry).toHaveLength(1);
    expect(retry[0].metadata.annotations).toMatchObject({ [FAILURES]: '0', 'batch.kubernetes.io/job-index-ignored-failure-count': '1' });
    expect(live(w, '0')).toHaveLength(0);
    expect(w.job().status).toMatchObject({ failedIndexes: '0', failed: 1 });
  });
});

describe('JobController successPolicy (KEP-3998)', () => {
  it('the first rule met makes the Job SuccessCriteriaMet with reason SuccessPolicy; the other pods are deleted', () => {
    const { ctx, w } = setup({ completionMode: 'Indexed', completions: 5, parallelism: 5, successPolicy: { rules: [{ succeededIndexes: '0-2', succeededCount: 2 }, { succeededIndexes: '4' }] } });
    w.run(1500);
    w.setPhase(live(w, '4')[0].metadata.name, 'Succeeded');
    w.run(5000);
    const st = w.job().status;
    expect(st.conditions.map((c: any) => [c.type, c.reason, c.message])).toEqual([
      ['SuccessCriteriaMet', 'SuccessPolicy', 'Matched rules at index 1'],
      ['Complete', 'SuccessPolicy', 'Matched rules at index 1'],
    ]);
    expect(st).toMatchObject({ completedIndexes: '4', succeeded: 1, active: 0 });
    expect(ctx.events.filter((e) => e.reason === 'Completed')).toHaveLength(1);
    expect(w.pods().filter((p) => p.status.phase === 'Pending')).toHaveLength(0);
  });
});

describe('JobController managedBy, suspend and podReplacementPolicy', () => {
  it('a Job managed by another controller is left alone', () => {
    const { ctx, w } = setup({ managedBy: 'kueue.x-k8s.io/multikueue' });
    w.run(3000);
    expect(w.pods()).toHaveLength(0);
    expect(w.job().status).toEqual({});
    expect(ctx.events).toEqual([]);
  });

  it('suspending deletes the pods and sets Suspended; resuming sets it False, restarts startTime and creates pods again', () => {
    const { c, ctx, w } = setup({ completions: 2, parallelism: 2, suspend: true });
    w.run(2000);
    expect(w.pods()).toHaveLength(0);
    const suspended = w.job().status.conditions.find((x: any) => x.type === 'Suspended');
    expect(suspended).toMatchObject({ status: 'True', reason: 'JobSuspended', message: 'Job suspended' });
    expect(w.job().status.startTime).toBeUndefined();
    const j = JSON.parse(JSON.stringify(w.job()));
    j.spec.suspend = false;
    j.metadata.resourceVersion = String(w.rv++);
    ctx.upsert(c, 'jobs', j);
    w.run(2000);
    expect(w.pods()).toHaveLength(2);
    expect(w.job().status.conditions.find((x: any) => x.type === 'Suspended')).toMatchObject({ status: 'False', reason: 'JobResumed', message: 'Job resumed' });
    expect(w.job().status.startTime).toBeDefined();
    expect(ctx.events.map((e) => e.reason).filter((r) => r === 'Suspended' || r === 'Resumed')).toEqual(['Suspended', 'Resumed']);
  });

  it('podReplacementPolicy Failed: a terminating pod is replaced only once it has failed', () => {
    const { c, ctx, w } = setup({ completions: 1, parallelism: 1, podReplacementPolicy: 'Failed' });
    w.run(1500);
    const p = JSON.parse(JSON.stringify(w.pods()[0]));
    p.metadata.deletionTimestamp = '2025-01-01T00:00:01Z';
    p.metadata.resourceVersion = String(w.rv++);
    ctx.upsert(c, 'pods', p);
    w.run(3000);
    expect(w.pods()).toHaveLength(1);
    expect(w.job().status).toMatchObject({ active: 0, terminating: 1 });
    fail(w, p.metadata.name);
    w.run(12_000);
    expect(w.pods().filter((x) => !x.metadata.deletionTimestamp)).toHaveLength(1);
  });
});
