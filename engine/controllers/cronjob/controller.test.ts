import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { parseRfc3339, rfc3339 } from '../../apiserver/http/time';
import { FakeContext } from '../framework/testing';
import { CronJobController } from './controller';

const MIN = 60_000;

function cronJob(spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'hello', namespace: 'default', uid: 'uid-cj', resourceVersion: '1', creationTimestamp: rfc3339(0), ...meta },
    spec: { schedule: '*/5 * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { metadata: { labels: { team: 'a' } }, spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } }, ...spec },
    status: {},
  };
}

/** The API server for the controller's calls: Jobs created and deleted, CronJob status written. */
class World {
  readonly ctx = new FakeContext();
  readonly c = new CronJobController();
  rv = 10;
  uid = 0;
  readonly calls: string[] = [];

  constructor(cj: KObject) {
    this.ctx.upsert(this.c, 'cronjobs', cj);
  }

  get cj(): any {
    return this.ctx.store('cronjobs').get('default/hello');
  }

  jobs(): any[] {
    return [...this.ctx.store('jobs').values()];
  }

  /** Moves time on and lets the controller sync its due keys; answers everything it asks. */
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
      if (this.ctx.store('jobs').has(`default/${j.metadata.name}`)) return void this.ctx.respond(this.c, 409, { message: 'exists' });
      j.metadata.uid = `uid-job-${this.uid++}`;
      j.metadata.resourceVersion = String(++this.rv);
      j.metadata.creationTimestamp = rfc3339(this.ctx.now);
      j.status = { startTime: rfc3339(this.ctx.now), active: 1 };
      this.ctx.respond(this.c, 201, j);
      this.ctx.upsert(this.c, 'jobs', j);
    } else if (call.method === 'PUT') {
      const body = JSON.parse(JSON.stringify(call.body));
      if (body.metadata.resourceVersion !== this.cj.metadata.resourceVersion) return void this.ctx.respond(this.c, 409, { message: 'conflict' });
      body.metadata.resourceVersion = String(++this.rv);
      this.ctx.respond(this.c, 200, body);
      this.ctx.upsert(this.c, 'cronjobs', body);
    } else if (call.method === 'DELETE') {
      const name = call.path.split('/').pop()!;
      const j = this.ctx.store('jobs').get(`default/${name}`);
      this.ctx.respond(this.c, j ? 200 : 404, { kind: 'Status', status: 'Success' });
      if (j) this.ctx.remove(this.c, 'jobs', j);
    } else throw new Error(`unexpected ${call.method} ${call.path}`);
  }

  finish(name: string, type: 'Complete' | 'Failed', at: number): void {
    const j = JSON.parse(JSON.stringify(this.ctx.store('jobs').get(`default/${name}`)));
    j.status = { ...j.status, active: 0, conditions: [{ type, status: 'True', lastTransitionTime: rfc3339(at) }], ...(type === 'Complete' ? { completionTime: rfc3339(at) } : {}) };
    j.metadata.resourceVersion = String(++this.rv);
    this.ctx.upsert(this.c, 'jobs', j);
  }

  events(): string[] {
    return this.ctx.events.map((e) => `${e.reason}: ${e.message}`);
  }
}

/** Minutes since the Unix epoch of a virtual time (the job name suffix). */
const minutes = (v: number) => Math.floor((Date.UTC(2025, 0, 1) + v) / MIN);

describe('CronJob controller', () => {
  it('creates <cronjob>-<minutes> at each schedule time, records it as active and requeues for the next', () => {
    const w = new World(cronJob());
    w.at(10_000);
    expect(w.jobs()).toEqual([]);
    expect(w.c.queue.nextReadyAt()).toBe(5 * MIN + 100);
    w.at(5 * MIN + 100);
    const [job] = w.jobs();
    expect(job.metadata.name).toBe(`hello-${minutes(5 * MIN)}`);
    expect(job.metadata.labels).toEqual({ team: 'a' });
    expect(job.metadata.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2025-01-01T00:05:00Z' });
    expect(job.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: 'uid-cj', controller: true, blockOwnerDeletion: true }]);
    expect(w.cj.status.lastScheduleTime).toBe('2025-01-01T00:05:00Z');
    expect(w.cj.status.active).toEqual([{ kind: 'Job', namespace: 'default', name: job.metadata.name, uid: job.metadata.uid, apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion }]);
    expect(w.events()).toEqual([`SuccessfulCreate: Created job ${job.metadata.name}`]);
    // Finished: out of the active list, lastSuccessfulTime set.
    w.finish(job.metadata.name, 'Complete', 6 * MIN);
    w.at(6 * MIN);
    expect(w.cj.status.active).toBeUndefined();
    expect(w.cj.status.lastSuccessfulTime).toBe('2025-01-01T00:06:00Z');
    expect(w.events()).toContain(`SawCompletedJob: Saw completed job: ${job.metadata.name}, condition: Complete`);
  });

  it('Forbid skips while a Job runs; Replace deletes it first; Allow runs them side by side', () => {
    for (const policy of ['Allow', 'Forbid', 'Replace'] as const) {
      const w = new World(cronJob({ concurrencyPolicy: policy }));
      w.at(5 * MIN + 100);
      w.at(10 * MIN + 100);
      const names = w.jobs().map((j) => j.metadata.name);
      if (policy === 'Allow') expect(names).toEqual([`hello-${minutes(5 * MIN)}`, `hello-${minutes(10 * MIN)}`]);
      if (policy === 'Forbid') {
        expect(names).toEqual([`hello-${minutes(5 * MIN)}`]);
        expect(w.events()).toContain('JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid');
      }
      if (policy === 'Replace') {
        expect(names).toEqual([`hello-${minutes(10 * MIN)}`]);
        expect(w.events()).toContain(`SuccessfulDelete: Deleted job hello-${minutes(5 * MIN)}`);
        expect(w.cj.status.active.map((a: any) => a.name)).toEqual([`hello-${minutes(10 * MIN)}`]);
      }
    }
  });

  it('startingDeadlineSeconds: schedule times older than the deadline are not started (nor looked for)', () => {
    const w = new World(cronJob({ startingDeadlineSeconds: 30 }));
    // The controller looks at 00:05:45: only schedule times after 00:05:15 count, so 00:05 is skipped.
    w.at(5 * MIN + 45_000);
    expect(w.jobs()).toEqual([]);
    expect(w.events()).toEqual([]);
    expect(w.c.queue.nextReadyAt()).toBe(10 * MIN + 100);
    // Within the deadline it still starts, late.
    w.at(10 * MIN + 20_000);
    expect(w.jobs().map((j) => j.metadata.name)).toEqual([`hello-${minutes(10 * MIN)}`]);
    w.at(15 * MIN + 100);
    w.at(15 * MIN + 200);
    expect(w.jobs().map((j) => j.metadata.name)).toEqual([`hello-${minutes(10 * MIN)}`, `hello-${minutes(15 * MIN)}`]);
  });

  it('more than 100 missed start times: TooManyMissedTimes, and only the latest is run', () => {
    const w = new World(cronJob({ schedule: '* * * * *' }));
    w.at(200 * MIN + 30_000);
    expect(w.events()[0]).toBe('TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
    expect(w.jobs().map((j) => j.metadata.name)).toEqual([`hello-${minutes(200 * MIN)}`]);
  });

  it('suspend stops new Jobs', () => {
    const w = new World(cronJob({ suspend: true }));
    w.at(30 * MIN);
    expect(w.jobs()).toEqual([]);
  });

  it('keeps successfulJobsHistoryLimit finished Jobs and failedJobsHistoryLimit failed ones, oldest deleted first', () => {
    const w = new World(cronJob({ schedule: '* * * * *' }));
    for (let i = 1; i <= 6; i++) {
      w.at(i * MIN + 100);
      const name = `hello-${minutes(i * MIN)}`;
      w.finish(name, i === 2 || i === 4 ? 'Failed' : 'Complete', i * MIN + 30_000);
      w.at(i * MIN + 30_000);
    }
    const names = w.jobs().map((j) => j.metadata.name).sort();
    expect(names).toEqual([3, 4, 5, 6].map((i) => `hello-${minutes(i * MIN)}`));
    expect(w.events()).toContain(`SuccessfulDelete: Deleted job hello-${minutes(1 * MIN)}`);
    expect(w.events()).toContain(`SuccessfulDelete: Deleted job hello-${minutes(2 * MIN)}`);
  });

  it('schedules in the timeZone: 09:00 in Tokyo is 00:00 UTC, and the annotation carries the zone offset', () => {
    const w = new World(cronJob({ schedule: '0 9 * * *', timeZone: 'Asia/Tokyo' }));
    w.at(1000);
    const next = w.c.queue.nextReadyAt()!;
    expect(rfc3339(next)).toBe('2025-01-02T00:00:00Z');
    w.at(next);
    expect(w.jobs()[0].metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe('2025-01-02T09:00:00+09:00');
    expect(parseRfc3339(w.cj.status.lastScheduleTime)).toBe(next - 100);
  });

  it('an unknown time zone stops the CronJob with UnknownTimeZone', () => {
    const w = new World(cronJob({ timeZone: 'Mars/Olympus' }));
    w.at(10 * MIN);
    expect(w.jobs()).toEqual([]);
    expect(w.events()).toEqual(['UnknownTimeZone: invalid timeZone: "Mars/Olympus": unknown time zone Mars/Olympus']);
  });
});
