// The CronJob controller (cronjob-controller), as upstream v1.32's
// pkg/controller/cronjob/cronjob_controllerv2.go: each sync cleans up
// finished Jobs beyond the history limits, reconciles the active list with
// the Jobs it owns, and at a schedule time (in the CronJob's time zone)
// creates `<cronjob>-<minutes>` unless suspended, too late
// (startingDeadlineSeconds), already done, or forbidden by the concurrency
// policy (Replace deletes the running Jobs first); then one status update,
// and a requeue at the next schedule time.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { formatRFC1123Z, loadLocation } from '../../apimachinery/cron/tz';
import { rfc3339, parseRfc3339 } from '../../apiserver/http/time';
import { registerClass } from '../../sim/serial';
import type { Controller, ControllerContext, EventSpec, SyncResult } from '../framework/types';
import { WriteChains, type PlannedStep, type PlannedWrite, type WriteTag } from '../framework/writes';
import { controllerOf, inNamespace, refObject } from '../replicaset/podUtil';
import { keyOfObject, pushRecent } from '../endpoint/podutil';
import {
  byJobStartTime, unixSeconds, cjSpec, cjStatus, finishedCondition, formatSchedule, jobFromTemplate, jobName, mostRecentScheduleTime, nextScheduleTimeDuration, parseSchedule, refOf,
  type CronJobStatus, type ObjectReference,
} from './utils';

/** A status update waiting for the Job just created (its uid goes into the active list). */
interface PendingStatus {
  body: KObject;
  /** The Job being created and its schedule time (rfc3339). */
  jobName: string;
  scheduled: string;
  /** status.lastScheduleTime before this schedule time, and whether the status needs writing should the create fail. */
  prevLastScheduleTime?: string;
  updateStatus: boolean;
}

export class CronJobController implements Controller {
  readonly name = 'cronjob-controller';
  readonly informers = ['cronjobs', 'jobs'] as const;
  readonly queue = new RateLimitingQueue<string>('cronjob');
  readonly writes = new WriteChains();
  readonly pendingStatus = new Map<string, PendingStatus>();
  readonly recent: { t: number; key: string; what: string }[] = [];

  // ---- informer handlers

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (resource === 'jobs') {
      const ns = ev.object.metadata.namespace ?? '';
      if (ev.type === 'MODIFIED' && ev.old) {
        const oldRef = controllerOf(ev.old);
        const curRef = controllerOf(ev.object);
        if (JSON.stringify(oldRef ?? null) !== JSON.stringify(curRef ?? null) && oldRef) this.enqueueRef(ns, oldRef, ctx);
      }
      const ref = controllerOf(ev.object);
      if (ref) this.enqueueRef(ns, ref, ctx);
      return;
    }
    if (resource !== 'cronjobs') return;
    const cj = ev.object;
    const key = keyOfObject(cj);
    if (ev.type === 'MODIFIED' && ev.old) {
      const o = cjSpec(ev.old);
      const c = cjSpec(cj);
      if (o.schedule !== c.schedule || (o.timeZone ?? null) !== (c.timeZone ?? null)) {
        // A new schedule: requeue for its next time.
        const sched = parseSchedule(cj);
        if (sched instanceof Error) {
          ctx.event({ regarding: refObject(cj), type: 'Warning', reason: 'UnParseableCronJobSchedule', message: `unparseable schedule for cronjob: ${c.schedule}` });
          return;
        }
        this.queue.addAfter(key, Math.max(0, nextScheduleTimeDuration(cj, ctx.now, sched)), ctx.now);
        return;
      }
    }
    this.queue.add(key, ctx.now);
  }

  private enqueueRef(ns: string, ref: { kind: string; name: string; uid: string }, ctx: ControllerContext): void {
    if (ref.kind !== 'CronJob') return;
    const cj = ctx.store('cronjobs').get(`${ns}/${ref.name}`);
    if (cj && cj.metadata.uid === ref.uid) this.queue.add(keyOfObject(cj), ctx.now);
  }

  // ---- sync

  sync(key: string, ctx: ControllerContext): SyncResult {
    const wait = this.writes.wait(key, ctx);
    if (wait.busy) return wait.delayMs === null ? { type: 'done' } : { type: 'after', delayMs: wait.delayMs };
    const cur = ctx.store('cronjobs').get(key);
    if (!cur) {
      this.writes.forget(key);
      this.pendingStatus.delete(key);
      return { type: 'done' };
    }
    const cj = JSON.parse(JSON.stringify(cur)) as KObject;
    const status = (cj.status ??= {}) as CronJobStatus;
    // getJobsToBeReconciled: the Jobs whose controller reference names this CronJob.
    const jobs = inNamespace(ctx.store('jobs'), cj.metadata.namespace ?? '').filter((j) => controllerOf(j)?.name === cj.metadata.name);
    const steps: PlannedStep[] = [];
    const ref = refObject(cur);
    const ev = (type: 'Normal' | 'Warning', reason: string, message: string): EventSpec => ({ regarding: ref, type, reason, message });
    const cleaned = this.cleanupFinishedJobs(cj, jobs, steps, ev);
    const r = this.syncCronJob(cj, jobs, steps, ev, ctx);
    const updateStatus = cleaned || r.updateStatus;
    const statusWrite = (): PlannedWrite => ({ call: { method: 'PUT', path: `/apis/batch/v1/namespaces/${cj.metadata.namespace}/cronjobs/${cj.metadata.name}/status`, body: { ...cj, status: dropEmpty(status) } }, observe: 'cronjobs' });
    if (r.create) {
      // The active list needs the new Job's uid: the status is written once the create answered.
      steps.push({ writes: [r.create.write] });
      this.pendingStatus.set(key, { body: { ...cj, status: dropEmpty(status) }, jobName: r.create.jobName, scheduled: status.lastScheduleTime!, prevLastScheduleTime: r.create.prevLastScheduleTime, updateStatus: cleaned || r.create.updateStatus });
    } else if (updateStatus) steps.push({ writes: [statusWrite()] });
    this.writes.start(key, steps, ctx);
    if (r.requeueAfter !== null) return { type: 'after', delayMs: Math.max(0, r.requeueAfter) };
    return { type: 'done' };
  }

  /** cleanupFinishedJobs / removeOldestJobs: finished Jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit, oldest first. */
  private cleanupFinishedJobs(cj: KObject, jobs: KObject[], steps: PlannedStep[], ev: (t: 'Normal' | 'Warning', r: string, m: string) => EventSpec): boolean {
    const spec = cjSpec(cj);
    if ((spec.failedJobsHistoryLimit ?? null) === null && (spec.successfulJobsHistoryLimit ?? null) === null) return false;
    const successful = jobs.filter((j) => finishedCondition(j) === 'Complete');
    const failed = jobs.filter((j) => finishedCondition(j) === 'Failed');
    let updated = false;
    const remove = (list: KObject[], max: number | null | undefined) => {
      if (max === null || max === undefined) return;
      const n = list.length - max;
      if (n <= 0) return;
      for (const j of [...list].sort(byJobStartTime).slice(0, n)) {
        // removeOldestJobs: a failed delete is its FailedDelete event; the sync goes on to start the next Job.
        steps.push({ writes: [this.deleteJob(cj, j, ev)], soft: true });
        deleteFromActive(cj, j.metadata.uid!);
        updated = true;
      }
    };
    remove(successful, spec.successfulJobsHistoryLimit);
    remove(failed, spec.failedJobsHistoryLimit);
    return updated;
  }

  /** deleteJob: a background-propagation delete, its event, the active list without it. */
  private deleteJob(cj: KObject, job: KObject, ev: (t: 'Normal' | 'Warning', r: string, m: string) => EventSpec): PlannedWrite {
    return {
      call: { method: 'DELETE', path: `/apis/batch/v1/namespaces/${job.metadata.namespace}/jobs/${job.metadata.name}`, body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' } },
      observe: 'jobs',
      tolerate: [404],
      ok: ev('Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`),
      fail: { regarding: refObject(cj), type: 'Warning', reason: 'FailedDelete', prefix: 'Deleted job: ' },
    };
  }

  /** syncCronJob: the active list, then whether (and which) Job to start now; returns when to look again. */
  private syncCronJob(
    cj: KObject,
    jobs: KObject[],
    steps: PlannedStep[],
    ev: (t: 'Normal' | 'Warning', r: string, m: string) => EventSpec,
    ctx: ControllerContext,
  ): { updateStatus: boolean; requeueAfter: number | null; create: { write: PlannedWrite; jobName: string; prevLastScheduleTime?: string; updateStatus: boolean } | null } {
    const none = (updateStatus: boolean, requeueAfter: number | null = null) => ({ updateStatus, requeueAfter, create: null });
    const now = ctx.now;
    const status = cj.status as CronJobStatus;
    let updateStatus = false;
    const children = new Set<string>();
    for (const j of jobs) {
      children.add(j.metadata.uid!);
      const found = inActiveList(cj, j.metadata.uid!);
      const finished = finishedCondition(j);
      if (!found && !finished) {
        ctx.event(ev('Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata.name}`));
      } else if (found && finished) {
        deleteFromActive(cj, j.metadata.uid!);
        ctx.event(ev('Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata.name}, condition: ${finished}`));
        updateStatus = true;
      }
      if (finished === 'Complete') {
        // A Job need not be active to count for lastSuccessfulTime.
        const done = (j.status as { completionTime?: string } | undefined)?.completionTime;
        if (done && (!status.lastSuccessfulTime || parseRfc3339(done) > parseRfc3339(status.lastSuccessfulTime))) {
          status.lastSuccessfulTime = done;
          updateStatus = true;
        }
      }
    }
    for (const a of [...(status.active ?? [])]) {
      if (children.has(a.uid)) continue;
      if (ctx.store('jobs').has(`${a.namespace}/${a.name}`)) continue;
      ctx.event(ev('Normal', 'MissingJob', `Active job went missing: ${a.name}`));
      deleteFromActive(cj, a.uid);
      updateStatus = true;
    }
    // Being deleted: the active list is reconciled, nothing started.
    if (cj.metadata.deletionTimestamp) return none(updateStatus);
    const spec = cjSpec(cj);
    if (spec.timeZone !== undefined && spec.timeZone !== null) {
      const loc = loadLocation(spec.timeZone);
      if ('error' in loc) {
        ctx.event(ev('Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(spec.timeZone)}: ${loc.error}`));
        return none(updateStatus);
      }
    }
    if (spec.suspend) return none(updateStatus);
    const formatted = formatSchedule(cj);
    if (formatted.unsupportedTZ) ctx.event(ev('Warning', 'UnsupportedSchedule', `CRON_TZ or TZ used in schedule ${JSON.stringify(spec.schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`));
    const sched = parseSchedule(cj);
    if (sched instanceof Error) {
      ctx.event(ev('Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(spec.schedule)} : ${sched.message}`));
      return none(updateStatus);
    }
    // nextScheduleTime
    const mr = mostRecentScheduleTime(cj, now, sched, true);
    if (mr.error) {
      ctx.event(ev('Warning', 'InvalidSchedule', `invalid schedule: ${spec.schedule} : ${mr.error}`));
      return none(updateStatus);
    }
    const requeue = () => nextScheduleTimeDuration(cj, now, sched);
    if (mr.mostRecent === null || mr.mostRecent > now) return none(updateStatus, requeue());
    if (mr.missed === 'many') ctx.event(ev('Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew'));
    const scheduledTime = mr.mostRecent;
    const deadline = spec.startingDeadlineSeconds;
    if (deadline !== undefined && deadline !== null && scheduledTime + deadline * 1000 < now) {
      ctx.event(ev('Warning', 'MissSchedule', `Missed scheduled time to start a job: ${formatRFC1123Z(unixSeconds(scheduledTime))}`));
      return none(updateStatus, requeue());
    }
    const name = jobName(cj, scheduledTime);
    if ((status.active ?? []).some((a) => a.name === name && a.namespace === cj.metadata.namespace) || (status.lastScheduleTime && parseRfc3339(status.lastScheduleTime) === scheduledTime)) {
      return none(updateStatus, requeue());
    }
    const active = status.active ?? [];
    if (spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
      ctx.event(ev('Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid'));
      return none(updateStatus, requeue());
    }
    if (spec.concurrencyPolicy === 'Replace') {
      for (const a of [...active]) {
        const job = ctx.store('jobs').get(`${a.namespace}/${a.name}`);
        if (!job) continue;
        steps.push({ writes: [this.deleteJob(cj, job, ev)] });
        deleteFromActive(cj, job.metadata.uid!);
        updateStatus = true;
      }
    }
    const job = jobFromTemplate(cj, scheduledTime);
    const prevLastScheduleTime = status.lastScheduleTime;
    status.lastScheduleTime = rfc3339(scheduledTime);
    pushRecent(this.recent, now, keyOfObject(cj), `create job ${name}`);
    return {
      updateStatus: true,
      requeueAfter: requeue(),
      create: {
        write: {
          call: { method: 'POST', path: `/apis/batch/v1/namespaces/${cj.metadata.namespace}/jobs`, body: job },
          observe: 'jobs',
          ok: ev('Normal', 'SuccessfulCreate', `Created job ${name}`),
          fail: { regarding: refObject(cj), type: 'Warning', reason: 'FailedCreate', prefix: 'Error creating job: ' },
          quiet: [409],
          capture: true,
          meta: CREATE,
        },
        jobName: name,
        prevLastScheduleTime,
        updateStatus,
      },
    };
  }

  private writeStatus(owner: string, body: KObject, ctx: ControllerContext): void {
    this.writes.start(owner, [{ writes: [{ call: { method: 'PUT', path: `/apis/batch/v1/namespaces/${body.metadata.namespace}/cronjobs/${body.metadata.name}/status`, body }, observe: 'cronjobs' }] }], ctx);
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const r = this.writes.onResponse(tag as WriteTag, status, body, ctx);
    if (!r) return;
    const pending = this.pendingStatus.get(r.owner);
    this.pendingStatus.delete(r.owner);
    if (pending && r.captured.length) {
      // The created Job joins the active list; the status is written now.
      const created = JSON.parse(r.captured[0]!) as KObject;
      const st = (pending.body.status ?? {}) as CronJobStatus;
      st.active = [...(st.active ?? []), refOf(created) as ObjectReference];
      pending.body.status = st;
      this.writeStatus(r.owner, pending.body, ctx);
      return;
    }
    if (pending) {
      // The create failed (or a Replace delete before it): the status is written all the same, without the new schedule time.
      const st = (pending.body.status ?? {}) as CronJobStatus;
      if (pending.prevLastScheduleTime) st.lastScheduleTime = pending.prevLastScheduleTime;
      else delete st.lastScheduleTime;
      pending.body.status = st;
      const existing = ctx.store('jobs').get(`${pending.body.metadata.namespace}/${pending.jobName}`);
      if (existing && r.failed.includes(CREATE)) {
        // AlreadyExists: a Job this CronJob created but did not record joins the active list; someone else's is left alone.
        if (controllerOf(existing)?.uid !== pending.body.metadata.uid) {
          if (pending.updateStatus) this.writeStatus(r.owner, { ...pending.body, status: dropEmpty(st) }, ctx);
          return;
        }
        if (!(st.active ?? []).some((a) => a.uid === existing.metadata.uid)) {
          st.active = [...(st.active ?? []), refOf(existing)];
          st.lastScheduleTime = pending.scheduled;
          this.writeStatus(r.owner, { ...pending.body, status: dropEmpty(st) }, ctx);
        } else if (pending.updateStatus) this.writeStatus(r.owner, { ...pending.body, status: dropEmpty(st) }, ctx);
        return;
      }
      if (pending.updateStatus) this.writeStatus(r.owner, { ...pending.body, status: dropEmpty(st) }, ctx);
      this.queue.addRateLimited(r.owner, ctx.now);
      return;
    }
    if (r.ok) this.queue.add(r.owner, ctx.now);
    else this.queue.addRateLimited(r.owner, ctx.now);
  }
}

/** The meta of the Job create write (it tells a failed create from one skipped after a failed delete). */
const CREATE = 'create';

function inActiveList(cj: KObject, uid: string): boolean {
  return (cjStatus(cj).active ?? []).some((a) => a.uid === uid);
}

function deleteFromActive(cj: KObject, uid: string): void {
  const st = cj.status as CronJobStatus;
  if (!st.active) return;
  st.active = st.active.filter((a) => a.uid !== uid);
}

/** CronJobStatus as Go marshals it: every field omitempty. */
function dropEmpty(s: CronJobStatus): CronJobStatus {
  const out: CronJobStatus = {};
  if (s.active?.length) out.active = s.active;
  if (s.lastScheduleTime) out.lastScheduleTime = s.lastScheduleTime;
  if (s.lastSuccessfulTime) out.lastSuccessfulTime = s.lastSuccessfulTime;
  return out;
}

registerClass('CronJobController', CronJobController);
