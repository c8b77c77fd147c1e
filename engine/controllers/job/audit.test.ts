// Fidelity checks against upstream v1.32 pkg/controller/job (job_controller.go,
// backoff_utils.go): behaviours a user can see in the Job's status and events.
import { describe, it, expect } from 'vitest';
import { JOB_TRACKING_FINALIZER } from './controller';
import { setup, type World } from './testWorld';

const ready = (phase = 'Running') => ({ phase, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }] });
const failedAt = (w: World, exitCode = 1) => {
  const at = new Date(Date.UTC(2025, 0, 1) + w.ctx.now).toISOString().replace(/\.\d+Z$/, 'Z');
  return { phase: 'Failed', containerStatuses: [{ name: 'c', state: { terminated: { exitCode, finishedAt: at } } }] };
};


describe('Job controller fidelity (v1.32)', () => {
  it('suspending a running Job removes the tracking finalizer before deleting its pods: they are not counted as failed (deleteJobPods)', () => {
    const { w } = setup({ completions: 4, parallelism: 2 });
    w.run(1500);
    const names = w.pods().map((p) => p.metadata.name).sort();
    for (const n of names) w.set(n, ready());
    w.run(1500);
    w.log.length = 0;
    w.updateSpec({ suspend: true });
    w.run(5000);
    // Finalizer first, then the delete, pod by pod.
    expect(w.log.filter((l) => !l.startsWith('PUT'))).toEqual(names.flatMap((n) => [`PATCH ${n}`, `DELETE ${n}`]));
    const st = w.job().status;
    expect(st.failed ?? 0).toBe(0);
    expect(st.uncountedTerminatedPods).toEqual({});
    expect(st.conditions.map((c: any) => [c.type, c.status])).toEqual([['Suspended', 'True']]);
    // The sync that deleted them reported them terminating, not ready (jobCtx.ready -= removedReady, terminating += removed).
    const first = w.puts.find((s) => s.conditions?.some((c: any) => c.type === 'Suspended'));
    expect(first).toMatchObject({ active: 0, ready: 0, terminating: 2 });
  });

  it('lowering parallelism deletes the extra pod without counting it as failed', () => {
    const { w } = setup({ completions: 4, parallelism: 2 });
    w.run(1500);
    w.updateSpec({ parallelism: 1 });
    w.run(3000);
    expect(w.job().status).toMatchObject({ active: 1, terminating: 0 });
    expect(w.job().status.failed ?? 0).toBe(0);
  });

  it('a Job failing with ready pods reports them terminating and not ready in the same status write', () => {
    const { w } = setup({ completions: 4, parallelism: 2, activeDeadlineSeconds: 5 });
    w.run(1500);
    for (const p of w.pods()) w.set(p.metadata.name, ready());
    w.run(6000);
    const ft = w.puts.find((s) => s.conditions?.some((c: any) => c.type === 'FailureTarget'));
    expect(ft).toMatchObject({ active: 0, ready: 0, terminating: 2 });
    expect(w.job().status.conditions.map((c: any) => c.type)).toEqual(['FailureTarget', 'Failed']);
  });

  it('failures a podFailurePolicy Ignore rule matches still feed the pod-failure back-off (newBackoffRecord takes every failed pod)', () => {
    const policy = { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [137] } }] };
    const { ctx, w } = setup({ podFailurePolicy: policy, podReplacementPolicy: 'Failed', backoffLimit: 0 });
    w.run(1500);
    const first = w.pods()[0].metadata.name;
    w.set(first, failedAt(w, 137));
    const at = ctx.now;
    w.run(5000);
    expect(w.pods().filter((p) => p.status.phase === 'Pending')).toHaveLength(0);
    w.run(7000);
    const next = w.pods().filter((p) => p.status.phase === 'Pending');
    expect(next).toHaveLength(1);
    expect(ctx.now - at).toBeGreaterThanOrEqual(10_000);
    expect(w.job().status.failed ?? 0).toBe(0);
    expect(w.job().status.conditions ?? []).toEqual([]);
  });

  it('while the back-off holds a replacement, status.active counts the pods still running, and the replacement waits it out', () => {
    const { w } = setup({ completions: 4, parallelism: 2 });
    w.run(1500);
    const [a, b] = w.pods().map((p) => p.metadata.name);
    w.set(a!, failedAt(w));
    w.run(3000);
    expect(w.pod(b!).status.phase).toBe('Pending');
    expect(w.job().status).toMatchObject({ active: 1, failed: 1 });
    w.run(10_000);
    expect(w.job().status).toMatchObject({ active: 2, failed: 1 });
  });

  it('completing with more succeeded pods than completions warns TooManySucceededPods before Completed', () => {
    const { ctx, w } = setup({ completions: 1, parallelism: 1 });
    w.run(1500);
    // A second pod of the Job (created by hand, owned by it, tracked).
    const extra = JSON.parse(JSON.stringify(w.pods()[0]));
    extra.metadata.name = 'pi-extra';
    extra.metadata.uid = 'uid-pi-extra';
    ctx.upsert(w.c, 'pods', extra);
    for (const p of w.pods()) w.set(p.metadata.name, { phase: 'Succeeded' });
    w.run(5000);
    expect(w.job().status.succeeded).toBe(2);
    expect(ctx.events.filter((e) => e.reason === 'TooManySucceededPods' || e.reason === 'Completed').map((e) => [e.type, e.reason, e.message])).toEqual([
      ['Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached'],
      ['Normal', 'Completed', 'Job completed'],
    ]);
  });
});

describe('newBackoffRecord (backoff_utils.go)', () => {
  it('takes the last failure time from the new failures only', async () => {
    const { nextBackoffRecord } = await import('./backoff');
    const pod = (finishedAt: string) => ({ metadata: {}, status: { phase: 'Failed', containerStatuses: [{ state: { terminated: { finishedAt } } }] } });
    const r = nextBackoffRecord({ failuresAfterLastSuccess: 2, lastFailureTime: 50_000 }, [], [pod('2025-01-01T00:00:20Z')], 60_000);
    expect(r).toEqual({ failuresAfterLastSuccess: 3, lastFailureTime: 20_000 });
  });
});

describe('Job controller orphan pods (syncOrphanPod, cleanupPodFinalizers)', () => {
  it('pods orphaned by the garbage collector (cascade=orphan) lose the tracking finalizer', () => {
    const { c, ctx, w } = setup({ completions: 2, parallelism: 2 });
    w.run(1500);
    for (const p of w.pods()) {
      const q = JSON.parse(JSON.stringify(p));
      q.metadata.ownerReferences = [];
      q.metadata.resourceVersion = String(w.rv++);
      ctx.upsert(c, 'pods', q);
    }
    ctx.remove(c, 'jobs', w.job());
    w.run(500);
    expect(w.pods()).toHaveLength(2);
    expect(w.pods().every((p) => !(p.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER))).toBe(true);
  });

  it('a pod another kind of controller owns keeps the finalizer', () => {
    const { c, ctx, w } = setup({ completions: 1, parallelism: 1 });
    w.run(1500);
    const q = JSON.parse(JSON.stringify(w.pods()[0]));
    q.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'uid-rs', controller: true }];
    q.metadata.resourceVersion = String(w.rv++);
    ctx.upsert(c, 'pods', q);
    ctx.remove(c, 'jobs', w.job());
    w.run(500);
    expect(w.pods()[0].metadata.finalizers).toContain(JOB_TRACKING_FINALIZER);
  });

  it('a finished Job whose pod still carries the finalizer has it removed (updateJob backup)', () => {
    const { c, ctx, w } = setup({ completions: 1, parallelism: 1 });
    w.run(1500);
    const j = JSON.parse(JSON.stringify(w.job()));
    j.status.conditions = [{ type: 'Failed', status: 'True', reason: 'X', message: 'y' }];
    j.metadata.resourceVersion = String(w.rv++);
    ctx.upsert(c, 'jobs', j);
    w.run(500);
    expect(w.pods()[0].metadata.finalizers ?? []).not.toContain(JOB_TRACKING_FINALIZER);
  });
});

describe('Job controller pod creation (slow start, as CreatePods in batches of 1, 2, 4…)', () => {
  it('creates in doubling batches and, when the first create fails, skips the rest: one FailedCreate, not one per pod', () => {
    const { ctx, w } = setup({ completions: 7, parallelism: 7 });
    // Which POSTs are issued together: runs of 'P' between answers.
    const trace: string[] = [];
    const request = ctx.request.bind(ctx);
    ctx.request = (call, tag) => {
      if (call.method === 'POST') trace.push('P');
      request(call, tag);
    };
    const respond = ctx.respond.bind(ctx);
    let refuse = true;
    ctx.respond = (c, status, body) => {
      trace.push('|');
      const call = ctx.calls[0]!.call;
      if (call.method === 'POST' && refuse) return respond(c, 403, { kind: 'Status', reason: 'Forbidden', message: 'pods "pi-" is forbidden: exceeded quota' });
      return respond(c, status, body);
    };
    const upsert = ctx.upsert.bind(ctx);
    ctx.upsert = (c, r, o) => {
      if (!(refuse && r === 'pods')) upsert(c, r, o);
    };
    const runs = () => trace.join('').split('|').filter((x) => x).map((x) => x.length);
    w.run(0);
    expect(ctx.events.filter((e) => e.reason === 'FailedCreate').map((e) => e.message)).toEqual(['Error creating: pods "pi-" is forbidden: exceeded quota']);
    expect(runs()).toEqual([1]);
    expect(w.pods()).toHaveLength(0);
    refuse = false;
    trace.length = 0;
    w.run(3000);
    expect(w.pods()).toHaveLength(7);
    expect(runs()).toEqual([1, 2, 4]);
  });
});
