// Fidelity checks against upstream v1.32 pkg/controller/cronjob/cronjob_controllerv2.go:
// what becomes of the status when the Job cannot be created, and a CronJob being deleted.
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import { FakeContext } from '../framework/testing';
import { CronJobController } from './controller';

const MIN = 60_000;
const minutes = (v: number) => Math.floor((Date.UTC(2025, 0, 1) + v) / MIN);

function cronJob(spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'hello', namespace: 'default', uid: 'uid-cj', resourceVersion: '1', creationTimestamp: rfc3339(0), ...meta },
    spec: { schedule: '*/5 * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } }, ...spec },
    status: {},
  };
}

class World {
  readonly ctx = new FakeContext();
  readonly c = new CronJobController();
  rv = 10;
  uid = 0;
  readonly calls: string[] = [];
  /** How DELETEs are answered: a status, or a Status body for a failure. */
  deleteStatus = 200;
  constructor(cj: KObject) {
    this.ctx.upsert(this.c, 'cronjobs', cj);
  }
  get cj(): any {
    return this.ctx.store('cronjobs').get('default/hello');
  }
  at(t: number): void {
    this.ctx.now = t;
    for (let i = 0; i < 20; i++) {
      this.ctx.drain(this.c);
      if (!this.ctx.calls.length) return;
      while (this.ctx.calls.length) this.answer();
    }
  }
  private answer(): void {
    const { call } = this.ctx.calls[0]!;
    this.calls.push(`${call.method} ${call.path.split('/').slice(-2).join('/')}`);
    if (call.method === 'POST') {
      const j = JSON.parse(JSON.stringify(call.body));
      if (this.ctx.store('jobs').has(`default/${j.metadata.name}`)) return void this.ctx.respond(this.c, 409, { kind: 'Status', reason: 'AlreadyExists', message: `jobs.batch "${j.metadata.name}" already exists` });
      j.metadata.uid = `uid-job-${this.uid++}`;
      j.metadata.resourceVersion = String(++this.rv);
      this.ctx.respond(this.c, 201, j);
      this.ctx.upsert(this.c, 'jobs', j);
    } else if (call.method === 'PUT') {
      const body = JSON.parse(JSON.stringify(call.body));
      body.metadata.resourceVersion = String(++this.rv);
      this.ctx.respond(this.c, 200, body);
      this.ctx.upsert(this.c, 'cronjobs', body);
    } else if (call.method === 'DELETE') {
      if (this.deleteStatus >= 300) return void this.ctx.respond(this.c, this.deleteStatus, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'InternalError', code: this.deleteStatus, message: 'Internal error occurred: etcdserver: request timed out' });
      this.ctx.respond(this.c, 200, { kind: 'Status', apiVersion: 'v1', status: 'Success' });
    } else throw new Error(`unexpected ${call.method} ${call.path}`);
  }
  addJob(name: string, owner: Record<string, unknown> | null, status: Record<string, unknown> = {}): any {
    const j = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: String(++this.rv), ...(owner ? { ownerReferences: [owner] } : {}) },
      spec: {},
      status,
    };
    this.ctx.upsert(this.c, 'jobs', j as KObject);
    return j;
  }
  events(): string[] {
    return this.ctx.events.map((e) => `${e.reason}: ${e.message}`);
  }
}

const ownerRef = { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: 'uid-cj', controller: true, blockOwnerDeletion: true };

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
