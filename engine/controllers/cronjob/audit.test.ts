// Fidelity checks against upstream v1.32 pkg/controller/cronjob/cronjob_controllerv2.go:
// what becomes of the status when the Job cannot be created, and a CronJob being deleted.
import { describe, expect, it } from 'vitest';
import { rfc3339 } from '../../apiserver/http/time';
import { cronJob, MIN, minutes, ownerRef, World } from './testWorld';

describe('CronJob controller fidelity (v1.32)', () => {
  it('a Job it created but never recorded (AlreadyExists on create) joins the active list with the schedule time, without a second SuccessfulCreate', () => {
    const w = new World(cronJob());
    const name = `hello-${minutes(5 * MIN)}`;
    w.addJob(name, ownerRef);
    w.at(5 * MIN + 100);
    expect(w.cj.status.active?.map((a: any) => a.name)).toEqual([name]);
    expect(w.cj.status.lastScheduleTime).toBe('2025-01-01T00:05:00Z');
    expect(w.events()).toEqual([`UnexpectedJob: Saw a job that the controller did not create or forgot: ${name}`]);
    // Nothing left to retry.
    const n = w.calls.length;
    w.at(5 * MIN + 30_000);
    expect(w.calls.length).toBe(n);
  });

  it('when the create fails, the status is still written (a finished Job leaves the active list) and lastScheduleTime stays', () => {
    const w = new World(cronJob());
    const done = w.addJob('hello-old', ownerRef, { conditions: [{ type: 'Complete', status: 'True' }], completionTime: rfc3339(MIN) });
    const cj = JSON.parse(JSON.stringify(w.cj));
    cj.status = { active: [{ kind: 'Job', namespace: 'default', name: 'hello-old', uid: done.metadata.uid, apiVersion: 'batch/v1', resourceVersion: done.metadata.resourceVersion }], lastScheduleTime: rfc3339(0) };
    cj.metadata.resourceVersion = String(++w.rv);
    w.ctx.upsert(w.c, 'cronjobs', cj);
    // Someone else's Job holds the name: AlreadyExists, not controlled by this CronJob.
    w.addJob(`hello-${minutes(5 * MIN)}`, null);
    w.at(5 * MIN + 100);
    expect(w.events()).toEqual(['SawCompletedJob: Saw completed job: hello-old, condition: Complete']);
    expect(w.cj.status.active).toBeUndefined();
    expect(w.cj.status.lastSuccessfulTime).toBe(rfc3339(MIN));
    expect(w.cj.status.lastScheduleTime).toBe(rfc3339(0));
  });

  it('a failed history-cleanup delete is its FailedDelete event, and the next Job is still started (removeOldestJobs goes on)', () => {
    const w = new World(cronJob());
    const failed = { conditions: [{ type: 'Failed', status: 'True' }] };
    w.addJob('hello-a', ownerRef, { ...failed, startTime: rfc3339(0) });
    w.addJob('hello-b', ownerRef, { ...failed, startTime: rfc3339(MIN) });
    w.deleteStatus = 500;
    w.at(5 * MIN + 100);
    expect(w.calls.slice(0, 2)).toEqual(['DELETE jobs/hello-a', 'POST default/jobs']);
    expect(w.events()).toContain('FailedDelete: Deleted job: Internal error occurred: etcdserver: request timed out');
    expect(w.events()).toContain(`SuccessfulCreate: Created job hello-${minutes(5 * MIN)}`);
    expect(w.cj.status.active?.map((a: any) => a.name)).toEqual([`hello-${minutes(5 * MIN)}`]);
  });

  it('a CronJob being deleted still reconciles its active list (SawCompletedJob, status written) but starts nothing', () => {
    const w = new World(cronJob({}, { deletionTimestamp: rfc3339(0), finalizers: ['foregroundDeletion'] }));
    const done = w.addJob('hello-old', ownerRef, { conditions: [{ type: 'Failed', status: 'True' }] });
    const cj = JSON.parse(JSON.stringify(w.cj));
    cj.status = { active: [{ kind: 'Job', namespace: 'default', name: 'hello-old', uid: done.metadata.uid, apiVersion: 'batch/v1', resourceVersion: done.metadata.resourceVersion }] };
    cj.metadata.resourceVersion = String(++w.rv);
    w.ctx.upsert(w.c, 'cronjobs', cj);
    w.at(5 * MIN + 100);
    expect(w.events()).toEqual(['SawCompletedJob: Saw completed job: hello-old, condition: Failed']);
    expect(w.cj.status.active).toBeUndefined();
    expect(w.calls.filter((c) => c.startsWith('POST'))).toEqual([]);
  });
});
