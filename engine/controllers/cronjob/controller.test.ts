import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { parseRfc3339, rfc3339 } from '../../apiserver/http/time';
import { cronJob, MIN, minutes, World } from './testWorld';

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
