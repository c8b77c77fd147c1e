// The TTL-after-finished controller (ttl-after-finished-controller), as
// upstream v1.32's pkg/controller/ttlafterfinished/ttlafterfinished_controller.go:
// a finished Job (Complete or Failed) with ttlSecondsAfterFinished is deleted
// that many seconds after the finishing condition's lastTransitionTime, with
// foreground propagation and a UID precondition, after a last look at the
// Job fresh from the API server (its TTL may have changed).
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { parseRfc3339 } from '../../apiserver/http/time';
import { registerClass } from '../../sim/serial';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { keyOfObject, pushRecent, type Loose } from '../endpoint/podutil';

type Tag = { type: 'get'; key: string } | { type: 'delete'; key: string };

/** needsCleanup: a TTL and a finished Job. */
function needsCleanup(job: KObject): boolean {
  const ttl = (job.spec as Loose)?.ttlSecondsAfterFinished;
  return ttl !== undefined && ttl !== null && finishTime(job) !== null;
}

/** jobFinishTime: the lastTransitionTime of the True Complete or Failed condition. */
function finishTime(job: KObject): number | null {
  for (const c of ((job.status as Loose)?.conditions ?? []) as Loose[]) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') {
      const t = parseRfc3339(c.lastTransitionTime ?? '');
      return Number.isFinite(t) ? t : null;
    }
  }
  return null;
}

/** timeLeft: ms until the Job expires (≤ 0: expired), or null when it needs no cleanup. */
function timeLeft(job: KObject, now: number): number | null {
  if (job.metadata.deletionTimestamp || !needsCleanup(job)) return null;
  return finishTime(job)! + ((job.spec as Loose).ttlSecondsAfterFinished as number) * 1000 - now;
}

export class TTLAfterFinishedController implements Controller {
  readonly name = 'ttl-after-finished-controller';
  readonly informers = ['jobs'] as const;
  readonly queue = new RateLimitingQueue<string>('ttl_jobs_to_delete');
  readonly inflight = new Set<string>();
  readonly recent: { t: number; key: string; what: string }[] = [];

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (resource !== 'jobs' || ev.type === 'DELETED') return;
    if (!ev.object.metadata.deletionTimestamp && needsCleanup(ev.object)) this.queue.add(keyOfObject(ev.object), ctx.now);
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (this.inflight.has(key)) return { type: 'done' };
    const job = ctx.store('jobs').get(key);
    if (!job) return { type: 'done' };
    const left = timeLeft(job, ctx.now);
    if (left === null) return { type: 'done' };
    if (left > 0) return { type: 'after', delayMs: left };
    // Expired in the cache: check the Job itself before deleting it.
    this.inflight.add(key);
    ctx.request({ method: 'GET', path: jobPath(job) }, { type: 'get', key } satisfies Tag);
    return { type: 'done' };
  }

  onResponse(tagIn: unknown, status: number, body: string, ctx: ControllerContext): void {
    const tag = tagIn as Tag;
    if (tag.type === 'get') {
      if (status !== 200) {
        this.inflight.delete(tag.key);
        if (status !== 404) this.queue.addRateLimited(tag.key, ctx.now);
        return;
      }
      const fresh = JSON.parse(body) as KObject;
      const left = timeLeft(fresh, ctx.now);
      if (left === null || left > 0) {
        this.inflight.delete(tag.key);
        if (left !== null) this.queue.addAfter(tag.key, left, ctx.now);
        return;
      }
      pushRecent(this.recent, ctx.now, tag.key, 'delete expired job');
      ctx.request(
        { method: 'DELETE', path: jobPath(fresh), body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: fresh.metadata.uid }, propagationPolicy: 'Foreground' } },
        { type: 'delete', key: tag.key } satisfies Tag,
      );
      return;
    }
    this.inflight.delete(tag.key);
    if ((status < 200 || status >= 300) && status !== 404 && status !== 409) this.queue.addRateLimited(tag.key, ctx.now);
  }
}

const jobPath = (j: KObject): string => `/apis/batch/v1/namespaces/${j.metadata.namespace}/jobs/${j.metadata.name}`;

registerClass('TTLAfterFinishedController', TTLAfterFinishedController);
