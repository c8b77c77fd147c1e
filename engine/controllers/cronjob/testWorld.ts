// The API server a CronJob controller test answers from: Jobs created and
// deleted, the CronJob's status written, with a test's failures on demand.
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import { FakeContext } from '../framework/testing';
import { CronJobController } from './controller';

export const MIN = 60_000;

/** Minutes since the Unix epoch of a virtual time (the job name suffix). */
export const minutes = (v: number) => Math.floor((Date.UTC(2025, 0, 1) + v) / MIN);

export function cronJob(spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'hello', namespace: 'default', uid: 'uid-cj', resourceVersion: '1', creationTimestamp: rfc3339(0), ...meta },
    spec: { schedule: '*/5 * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { metadata: { labels: { team: 'a' } }, spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } }, ...spec },
    status: {},
  };
}

/** The controller reference a CronJob's Jobs carry. */
export const ownerRef = { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: 'uid-cj', controller: true, blockOwnerDeletion: true };

export class World {
  readonly ctx = new FakeContext();
  readonly c = new CronJobController();
  rv = 10;
  uid = 0;
  readonly calls: string[] = [];
  /** How DELETEs are answered: 200, or a failure's status (a Status body). */
  deleteStatus = 200;

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
      if (this.ctx.store('jobs').has(`default/${j.metadata.name}`)) return void this.ctx.respond(this.c, 409, { kind: 'Status', reason: 'AlreadyExists', message: `jobs.batch "${j.metadata.name}" already exists` });
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
      if (this.deleteStatus >= 300) return void this.ctx.respond(this.c, this.deleteStatus, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'InternalError', code: this.deleteStatus, message: 'Internal error occurred: etcdserver: request timed out' });
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

  /** A Job made by someone (or by this CronJob, unrecorded), with the given owner and status. */
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
