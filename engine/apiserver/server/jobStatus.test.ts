// PUT and PATCH of jobs/NAME/status through the API server, with
// kube-controller-manager stopped so the status is what the test writes: the 422
// Status carries v1.32's texts (pkg/apis/batch/validation/validation.go, with the
// options of pkg/registry/batch/job/strategy.go).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../facade/engine';
import { call, controlPlane } from '../testing/harness';

let e: Engine;
const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const MERGE = { headers: { 'content-type': 'application/merge-patch+json' } };

function createJob(name: string): void {
  const body = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } };
  expect(call(e, 'POST', JOBS, body).status).toBe(201);
}

beforeAll(() => {
  e = controlPlane(11, { etcdMembers: 1 });
  expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'kube-controller-manager-0' } }).ok).toBe(true);
});

describe('jobs/status', () => {
  it('PUT with more ready pods than active: 422 Invalid, the field and the message as v1.32 words them', () => {
    createJob('ready');
    const cur = call(e, 'GET', `${JOBS}/ready`).body;
    cur.status = { startTime: '2025-01-01T00:00:00Z', active: 1, ready: 2 };
    const r = call(e, 'PUT', `${JOBS}/ready/status`, cur);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: 'Job.batch "ready" is invalid: status.ready: Invalid value: 2: cannot set more ready pods than active',
      details: { name: 'ready', group: 'batch', kind: 'Job', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 2: cannot set more ready pods than active', field: 'status.ready' }] },
    });
    cur.status.ready = 1;
    expect(call(e, 'PUT', `${JOBS}/ready/status`, cur).status).toBe(200);
  });

  it('PATCH straight to Complete, without SuccessCriteriaMet, completionTime or an empty pod count', () => {
    createJob('done');
    const t = '2025-01-01T00:00:00Z';
    expect(call(e, 'PATCH', `${JOBS}/done/status`, { status: { startTime: t, active: 1, terminating: 1 } }, MERGE).status).toBe(200);
    const complete = { type: 'Complete', status: 'True', lastProbeTime: t, lastTransitionTime: t };
    const r = call(e, 'PATCH', `${JOBS}/done/status`, { status: { succeeded: 1, conditions: [complete] } }, MERGE);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Job.batch "done" is invalid: [status.completionTime: Required value: completionTime is required for Complete jobs, status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition, status.active: Invalid value: 1: active>0 is invalid for finished job, status.terminating: Invalid value: 1: terminating>0 is invalid for finished job]',
    );
    expect(r.body.details.causes.map((c: { field: string }) => c.field)).toEqual(['status.completionTime', 'status.conditions', 'status.active', 'status.terminating']);
    const met = { type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: t, lastTransitionTime: t };
    expect(call(e, 'PATCH', `${JOBS}/done/status`, { status: { succeeded: 1, active: 0, terminating: 0, completionTime: t, conditions: [met, complete] } }, MERGE).status).toBe(200);
    // Finished for good: Complete cannot be taken back.
    const back = call(e, 'PATCH', `${JOBS}/done/status`, { status: { completionTime: null, conditions: [met] } }, MERGE);
    expect(back.status).toBe(422);
    expect(back.body.message).toBe('Job.batch "done" is invalid: status.conditions: Invalid value: cannot disable the terminal Complete=True condition');
  });
});
