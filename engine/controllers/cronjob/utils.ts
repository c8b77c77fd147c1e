// CronJob scheduling arithmetic, after upstream v1.32's
// pkg/controller/cronjob/utils.go: the most recent unmet schedule time since
// the last one (or creation), the rough count of missed ones (more than 100
// is "many"), the requeue delay to the next one (plus 100 ms for clock skew),
// and the Job a schedule time makes (`<cronjob>-<minutes since the epoch>`).
import type { KObject } from '../../apimachinery/types';
import { next as nextUnix, parseStandard, type Schedule } from '../../apimachinery/cron/cron';
import { formatRFC3339, loadLocation } from '../../apimachinery/cron/tz';
import { parseRfc3339, rfc3339, epochMs } from '../../apiserver/http/time';
import { newControllerRef, KIND } from '../replicaset/podUtil';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

/** nextScheduleDelta: the requeue lands this long after the schedule time. */
export const NEXT_SCHEDULE_DELTA_MS = 100;
export const CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

export type Missed = 'none' | 'few' | 'many';

// Times below are virtual ms (0 = SIM_EPOCH); schedules run on Unix time.
/** Schedule.Next on virtual time. */
export function next(s: Schedule, virtualMs: number): number | null {
  const t = nextUnix(s, virtualMs + epochMs());
  return t === null ? null : t - epochMs();
}

/** Unix seconds of a virtual time. */
export const unixSeconds = (virtualMs: number): number => Math.floor((virtualMs + epochMs()) / 1000);

export interface CronJobSpec {
  schedule: string;
  timeZone?: string | null;
  startingDeadlineSeconds?: number | null;
  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';
  suspend?: boolean;
  jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Loose };
  successfulJobsHistoryLimit?: number | null;
  failedJobsHistoryLimit?: number | null;
}

export interface ObjectReference {
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  apiVersion: string;
  resourceVersion: string;
}

export interface CronJobStatus {
  active?: ObjectReference[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

export const cjSpec = (cj: KObject): CronJobSpec => (cj.spec ?? {}) as CronJobSpec;
export const cjStatus = (cj: KObject): CronJobStatus => (cj.status ?? {}) as CronJobStatus;

/** formatSchedule: the schedule with the timeZone as a TZ= prefix (unless the schedule names one already). */
export function formatSchedule(cj: KObject): { spec: string; unsupportedTZ: boolean } {
  const s = cjSpec(cj);
  if (s.schedule.includes('TZ')) return { spec: s.schedule, unsupportedTZ: true };
  if (s.timeZone !== undefined && s.timeZone !== null) {
    if ('error' in loadLocation(s.timeZone)) return { spec: s.schedule, unsupportedTZ: false };
    return { spec: `TZ=${s.timeZone} ${s.schedule}`, unsupportedTZ: false };
  }
  return { spec: s.schedule, unsupportedTZ: false };
}

export function parseSchedule(cj: KObject): Schedule | Error {
  return parseStandard(formatSchedule(cj).spec);
}

/**
 * mostRecentScheduleTime: the earliest time considered (last schedule time,
 * else creation, raised to now − startingDeadlineSeconds when asked), the most
 * recent schedule time not after now (null: none), how many were missed, and
 * an error for schedules that never fire twice a second apart.
 */
export function mostRecentScheduleTime(cj: KObject, now: number, sched: Schedule, includeStartingDeadline: boolean): { earliest: number; mostRecent: number | null; missed: Missed; error?: string } {
  let earliest = parseRfc3339(cj.metadata.creationTimestamp ?? '');
  const last = cjStatus(cj).lastScheduleTime;
  if (last) earliest = parseRfc3339(last);
  const deadline = cjSpec(cj).startingDeadlineSeconds;
  if (includeStartingDeadline && deadline !== undefined && deadline !== null) {
    const schedulingDeadline = now - deadline * 1000;
    if (schedulingDeadline > earliest) earliest = schedulingDeadline;
  }
  const t1 = next(sched, earliest);
  if (t1 === null || now < t1) return { earliest, mostRecent: null, missed: 'none' };
  const t2 = next(sched, t1);
  if (t2 === null || now < t2) return { earliest, mostRecent: t1, missed: 'none' };
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1) return { earliest, mostRecent: null, missed: 'none', error: 'time difference between two schedules is less than 1 second' };
  // A rough count: how many intervals fit between the first missed time and now.
  const elapsed = Math.trunc((now - t1) / 1000);
  const missedCount = Math.trunc(elapsed / between) + 1;
  let mostRecent: number | null = null;
  const potentialEarliest = t1 + (missedCount - 2) * between * 1000;
  for (let t = next(sched, potentialEarliest); t !== null && t <= now; t = next(sched, t)) mostRecent = t;
  const missed: Missed = missedCount > 100 ? 'many' : missedCount > 0 ? 'few' : 'none';
  return { earliest, mostRecent, missed };
}

/** nextScheduleTimeDuration: how long until the next schedule time (from the most recent one, or now when several were missed). */
export function nextScheduleTimeDuration(cj: KObject, now: number, sched: Schedule): number {
  const r = mostRecentScheduleTime(cj, now, sched, false);
  let from: number;
  if (r.error) from = now;
  else if (r.mostRecent === null) from = r.missed === 'none' ? r.earliest : now;
  else from = r.mostRecent;
  const t = next(sched, from);
  return t === null ? 0 : t + NEXT_SCHEDULE_DELTA_MS - now;
}

/** getJobName: `<cronjob>-<scheduled time in minutes since the epoch>`. */
export function jobName(cj: KObject, scheduledTime: number): string {
  return `${cj.metadata.name}-${Math.floor((scheduledTime + epochMs()) / 60_000)}`;
}

/** getJobFromTemplate2: the template's labels, annotations (plus the scheduled timestamp in the zone) and spec; owned by the CronJob. */
export function jobFromTemplate(cj: KObject, scheduledTime: number): KObject {
  const jt = cjSpec(cj).jobTemplate ?? {};
  const labels = { ...(jt.metadata?.labels ?? {}) };
  const annotations: Record<string, string> = { ...(jt.metadata?.annotations ?? {}) };
  const loc = loadLocation(cjSpec(cj).timeZone ?? '');
  if (!('error' in loc)) annotations[CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION] = formatRFC3339(unixSeconds(scheduledTime), loc);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName(cj, scheduledTime),
      namespace: cj.metadata.namespace,
      ...(Object.keys(labels).length ? { labels } : {}),
      annotations,
      creationTimestamp: rfc3339(scheduledTime),
      ownerReferences: [newControllerRef(cj, KIND.CronJob)],
    },
    spec: JSON.parse(JSON.stringify(jt.spec ?? {})) as unknown,
  };
}

/** jobutil.FinishedCondition: the Complete or Failed condition that is True. */
export function finishedCondition(job: KObject): 'Complete' | 'Failed' | null {
  for (const c of ((job.status as Loose)?.conditions ?? []) as { type: string; status: string }[]) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  }
  return null;
}

/** byJobStartTime: jobs without a start time last, then by start time, then name. */
export function byJobStartTime(a: KObject, b: KObject): number {
  const sa = (a.status as Loose)?.startTime as string | undefined;
  const sb = (b.status as Loose)?.startTime as string | undefined;
  if (!sa && sb) return 1;
  if (sa && !sb) return -1;
  if (sa && sb && sa !== sb) return parseRfc3339(sa) - parseRfc3339(sb);
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
}

/** getRef: the ObjectReference the active list keeps. */
export function refOf(job: KObject): ObjectReference {
  return { kind: 'Job', namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '', uid: job.metadata.uid ?? '', apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion ?? '' };
}
