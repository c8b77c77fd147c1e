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
