// The API server a Job controller test answers from: pods with finalizers
// (graceful deletion leaves them terminating until removed), Job status writes
// (each PUT body kept), and virtual time in 100 ms steps.
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from '../framework/testing';
import { JobController, JOB_TRACKING_FINALIZER } from './controller';

export function job(name: string, spec: Record<string, unknown> = {}): KObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default', uid: `uid-job-${name}`, resourceVersion: '1', generation: 1 },
    spec: { completions: 1, parallelism: 1, backoffLimit: 6, template: { metadata: { labels: { 'job-name': name } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } }, ...spec },
    status: {},
  };
}

/** A small API server: pods with finalizers (graceful deletion leaves them terminating until removed), Job status writes (each PUT body kept). */
export class World {
  rv = 10;
  seq = 0;
  readonly puts: any[] = [];
  readonly log: string[] = [];
  constructor(
    readonly c: JobController,
    readonly ctx: FakeContext,
  ) {}

  pods(): any[] {
    return [...this.ctx.store('pods').values()];
  }
  job(key = 'default/pi'): any {
    return this.ctx.store('jobs').get(key);
  }
  pod(name: string): any {
    return this.ctx.store('pods').get(`default/${name}`);
  }

  serve(): void {
    while (this.ctx.calls.length) {
      const { call } = this.ctx.calls[0]!;
      const m = /pods\/([^/]+)$/.exec(call.path);
      this.log.push(`${call.method} ${m ? m[1] : call.path.split('/').pop()}`);
      if (call.method === 'POST') {
        const p = JSON.parse(JSON.stringify(call.body)) as any;
        p.metadata.name = `${p.metadata.generateName}${String(this.seq++).padStart(5, 'a')}`;
        p.metadata.uid = `uid-${p.metadata.name}`;
        p.metadata.resourceVersion = String(this.rv++);
        p.status = { phase: 'Pending' };
        this.ctx.respond(this.c, 201, p);
        this.ctx.upsert(this.c, 'pods', p);
      } else if (call.method === 'DELETE' && m) {
        const p = this.pod(m[1]!);
        this.ctx.respond(this.c, p ? 200 : 404, {});
        if (p) this.finalize({ ...p, metadata: { ...p.metadata, deletionTimestamp: '2025-01-01T00:00:30Z', deletionGracePeriodSeconds: 30 } });
      } else if (call.method === 'PATCH' && m) {
        const p = this.pod(m[1]!);
        this.ctx.respond(this.c, p ? 200 : 404, p ?? {});
        if (p) this.finalize({ ...p, metadata: { ...p.metadata, finalizers: (p.metadata.finalizers ?? []).filter((f: string) => f !== JOB_TRACKING_FINALIZER) } });
      } else if (call.method === 'PUT') {
        const j = JSON.parse(JSON.stringify(call.body)) as any;
        if (this.job(`default/${j.metadata.name}`).metadata.resourceVersion !== j.metadata.resourceVersion) {
          this.ctx.respond(this.c, 409, {});
          continue;
        }
        this.puts.push(j.status);
        j.metadata.resourceVersion = String(this.rv++);
        this.ctx.respond(this.c, 200, j);
        this.ctx.upsert(this.c, 'jobs', j);
      } else throw new Error(`unexpected ${call.method} ${call.path}`);
    }
  }

  /** The kubelet's part: a deleted pod goes away once its containers stopped and no finalizer is left. */
  private finalize(p: any): void {
    p.metadata.resourceVersion = String(this.rv++);
    if (p.metadata.deletionTimestamp && (p.metadata.finalizers ?? []).length === 0) this.ctx.remove(this.c, 'pods', p);
    else this.ctx.upsert(this.c, 'pods', p);
  }

  setPhase(name: string, phase: string): void {
    this.set(name, { phase });
  }

  set(name: string, status: any): void {
    const p = JSON.parse(JSON.stringify(this.pod(name)));
    p.status = status;
    p.metadata.resourceVersion = String(this.rv++);
    this.ctx.upsert(this.c, 'pods', p);
  }

  run(ms: number): void {
    for (let t = 0; t <= ms; t += 100) {
      this.ctx.drain(this.c);
      this.serve();
      this.ctx.now += 100;
    }
  }

  updateSpec(patch: Record<string, unknown>): void {
    const j = JSON.parse(JSON.stringify(this.job()));
    Object.assign(j.spec, patch);
    j.metadata.resourceVersion = String(this.rv++);
    j.metadata.generation++;
    this.ctx.upsert(this.c, 'jobs', j);
  }
}

/** A controller, its fake context and API, and the Job default/pi with `spec` over the defaults. */
export function setup(spec: Record<string, unknown> = {}) {
  const c = new JobController();
  const ctx = new FakeContext();
  const w = new World(c, ctx);
  ctx.upsert(c, 'jobs', job('pi', spec));
  return { c, ctx, w };
}
