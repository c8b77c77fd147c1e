// A CronJob on the whole control plane: its Jobs run on a kubelet, complete,
// leave the active list, and the oldest finished one is deleted past the
// history limit.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';

describe('cronjob-controller with the job controller and a kubelet', () => {
  it('every minute a Job named <cronjob>-<minutes>, run to completion; one kept', { timeout: 60_000 }, () => {
    const e = controlPlane(8, { nodes: 1, etcdMembers: 1 });
    const cj = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'tick' },
      spec: { schedule: '* * * * *', successfulJobsHistoryLimit: 1, jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 't', image: 'busybox', command: ['sh', '-c', 'sleep 3'] }] } } } } },
    };
    expect(call(e, 'POST', '/apis/batch/v1/namespaces/default/cronjobs', cj).status).toBe(201);
    const jobs = () => (call(e, 'GET', '/apis/batch/v1/namespaces/default/jobs').body.items as any[]).map((j) => j.metadata.name).sort();
    const minute = (m: number) => `tick-${Math.floor(Date.UTC(2025, 0, 1, 0, m) / 60_000)}`;
    runUntil(e, () => jobs().includes(minute(2)), 'the second Job', 150_000, 1000);
    const status = () => call(e, 'GET', '/apis/batch/v1/namespaces/default/cronjobs/tick').body.status;
    runUntil(e, () => status().lastSuccessfulTime && !status().active && jobs().length === 1, 'the second Job done, the first deleted', 30_000, 500);
    expect(jobs()).toEqual([minute(2)]);
    expect(status().lastScheduleTime).toBe('2025-01-01T00:02:00Z');
    const events = (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((x) => x.involvedObject.kind === 'CronJob').map((x) => `${x.reason}: ${x.message}`);
    expect(events).toEqual(expect.arrayContaining([`SuccessfulCreate: Created job ${minute(1)}`, `SawCompletedJob: Saw completed job: ${minute(1)}, condition: Complete`, `SuccessfulDelete: Deleted job ${minute(1)}`]));
  });
});
