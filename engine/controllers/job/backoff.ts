// Pod-failure back-off of the Job controller (pkg/controller/job/backoff_utils.go,
// v1.32): failures since the last success and the time of the latest one; a
// replacement pod waits 10 s doubling per failure, at most 10 minutes
// (MaxJobPodFailureBackOff; the docs' "six minutes" is the 10 s x 2^5 step).
import { parseRfc3339 } from '../../apiserver/http/time';
import type { Loose } from '../endpoint/podutil';

export const DEFAULT_JOB_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_JOB_POD_FAILURE_BACKOFF_MS = 600_000;

export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  /** Virtual ms of the latest failure, or null. */
  lastFailureTime: number | null;
}

/**
 * getFinishedTime: when every container has terminated, the latest finish;
 * else when Ready went False; else the deletion less its grace period; else
 * the creation (now if the pod has none).
 */
export function finishedTime(pod: Loose, now: number): number {
  const statuses: Loose[] = pod?.status?.containerStatuses ?? [];
  let latest = -Infinity;
  for (const s of statuses) {
    const t = s?.state?.terminated?.finishedAt;
    const ms = typeof t === 'string' ? parseRfc3339(t) : NaN;
    if (!Number.isFinite(ms)) {
      latest = -Infinity;
      break;
    }
    if (ms > latest) latest = ms;
  }
  if (latest > -Infinity) return latest;
  const ready = (pod?.status?.conditions ?? []).find((c: Loose) => c?.type === 'Ready' && c?.status === 'False');
  if (typeof ready?.lastTransitionTime === 'string' && Number.isFinite(parseRfc3339(ready.lastTransitionTime))) return parseRfc3339(ready.lastTransitionTime);
  const del = pod?.metadata?.deletionTimestamp;
  if (typeof del === 'string' && Number.isFinite(parseRfc3339(del))) return parseRfc3339(del) - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  const created = pod?.metadata?.creationTimestamp;
  if (typeof created === 'string' && Number.isFinite(parseRfc3339(created))) return parseRfc3339(created);
  return now;
}

/** newBackoffRecord: a success resets the count to the failures finished after it. */
export function nextBackoffRecord(prev: BackoffRecord, newSucceeded: Loose[], newFailed: Loose[], now: number): BackoffRecord {
  if (newSucceeded.length === 0) {
    if (newFailed.length === 0) return prev;
    // The latest of the new failures, even if an earlier record said later.
    let last = -Infinity;
    for (const p of newFailed) last = Math.max(last, finishedTime(p, now));
    return { failuresAfterLastSuccess: prev.failuresAfterLastSuccess + newFailed.length, lastFailureTime: last };
  }
  const lastSuccess = Math.max(...newSucceeded.map((p) => finishedTime(p, now)));
  const after = newFailed.map((p) => finishedTime(p, now)).filter((t) => t > lastSuccess);
  return { failuresAfterLastSuccess: after.length, lastFailureTime: after.length ? Math.max(...after) : null };
}

/** getRemainingTimeForFailuresCount: 10 s doubling per failure up to 10 minutes, less the time since the last one. */
export function remainingForFailures(failures: number, lastFailureTime: number, now: number): number {
  if (failures === 0) return 0;
  const delay = Math.min(DEFAULT_JOB_POD_FAILURE_BACKOFF_MS * 2 ** (failures - 1), MAX_JOB_POD_FAILURE_BACKOFF_MS);
  const elapsed = now - lastFailureTime;
  return delay < elapsed ? 0 : delay - elapsed;
}

/** getRemainingTime: how long a replacement must still wait (0 = now). */
export function remainingBackoff(r: BackoffRecord, now: number): number {
  if (r.lastFailureTime === null) return 0;
  return remainingForFailures(r.failuresAfterLastSuccess, r.lastFailureTime, now);
}
