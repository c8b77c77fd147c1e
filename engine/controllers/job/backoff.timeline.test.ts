// Issue 5's Job timeline with a real kubelet: every pod of the Job exits 1;
// each replacement is created 10 s × 2^(n-1) after the previous pod finished
// (10, 20, 40, 80, 160, 320 s), and the 7th failure exceeds backoffLimit 6:
// FailureTarget, then Failed with reason BackoffLimitExceeded. Then
// ttlSecondsAfterFinished deletes the Job (and, foreground, its pods).
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { parseRfc3339 } from '../../apiserver/http/time';
import type { Engine } from '../../facade/engine';

const JOB = '/apis/batch/v1/namespaces/default/jobs/fail';
const podsOf = (e: Engine) => (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'batch.kubernetes.io/job-name=fail' } }).body.items ?? []) as any[];
const finishedAt = (p: any) => parseRfc3339(p.status.containerStatuses[0].state.terminated.finishedAt);

describe('Job back-off timeline', () => {
  it('retries after 10, 20, 40, 80, 160, 320 s, then Failed (BackoffLimitExceeded); deleted ttlSecondsAfterFinished later', { timeout: 60_000 }, () => {
    const e = controlPlane(41, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 1, 'a Ready node', 60_000, 500);
    const body = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'fail' },
      spec: { ttlSecondsAfterFinished: 30, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'exit 1'] }] } } },
    };
    const created = call(e, 'POST', '/apis/batch/v1/namespaces/default/jobs', body);
    expect(created.status).toBe(201);
    expect(created.body.spec.backoffLimit).toBe(6);
    const failedCond = () => (call(e, 'GET', JOB).body.status?.conditions ?? []).find((c: any) => c.type === 'Failed');
    runUntil(e, () => !!failedCond(), 'the Job Failed', 900_000, 5_000);
    const pods = podsOf(e).sort((a, b) => parseRfc3339(a.metadata.creationTimestamp) - parseRfc3339(b.metadata.creationTimestamp));
    expect(pods).toHaveLength(7);
    expect(pods.every((p) => p.status.phase === 'Failed')).toBe(true);
    // Each replacement: its creation minus the previous pod's finish (both whole seconds) is the back-off.
    const gaps = pods.slice(1).map((p, i) => (parseRfc3339(p.metadata.creationTimestamp) - finishedAt(pods[i])) / 1000);
    expect(gaps).toEqual([10, 20, 40, 80, 160, 320]);
    const job = call(e, 'GET', JOB).body;
    expect(job.status.failed).toBe(7);
    expect(job.status.conditions.map((c: any) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
      ['Failed', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    ]);
    const events = (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((x) => x.involvedObject.kind === 'Job');
    expect(events.find((x) => x.reason === 'BackoffLimitExceeded')).toMatchObject({ type: 'Warning', message: 'Job has reached the specified backoff limit', source: { component: 'job-controller' } });
    expect(events.filter((x) => x.reason === 'SuccessfulCreate')).toHaveLength(7);

    // ttl-after-finished-controller: the Job goes 30 s after it failed, its pods with it.
    const failedAt = parseRfc3339(failedCond().lastTransitionTime);
    runUntil(e, () => call(e, 'GET', JOB).status === 404, 'the Job deleted', 60_000, 100);
    expect(e.sim.now - failedAt).toBeGreaterThanOrEqual(30_000);
    expect(e.sim.now - failedAt).toBeLessThan(32_000);
    runUntil(e, () => podsOf(e).length === 0, 'its pods deleted', 30_000, 200);
  });
});
