// Backoff limit per index (pkg/controller/job/indexed_job_utils.go and
// backoff_utils.go, v1.32, JobBackoffLimitPerIndex on by default): each
// index counts its own failures in the batch.kubernetes.io/job-index-failure-count
// annotation that each replacement pod inherits (+1); an index whose failures
// reach backoffLimitPerIndex is failed for good (status.failedIndexes) while
// the others go on. A failed pod's finalizer (and so its deletion) is held
// until its replacement exists, so the count is handed over; the replacement
// waits the index's own back-off (10 s doubling to 10 min).
import type { Loose } from '../endpoint/podutil';
import { finishedTime, remainingForFailures } from './backoff';
import { completionIndex, matchPodFailurePolicy, parseIndexes, withIndexes, intervalsHas, type Interval } from './indexed';

export const JOB_INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-ignored-failure-count';
const MAX_INT32 = 2147483647;

export const hasBackoffLimitPerIndex = (job: Loose): boolean => typeof job.spec?.backoffLimitPerIndex === 'number';

/** parseInt32: a malformed, negative or too large value counts as 0. */
function annotationCount(pod: Loose, key: string): number {
  const v = pod?.metadata?.annotations?.[key];
  if (typeof v !== 'string' || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n < 0 || n > MAX_INT32 ? 0 : n;
}

export const indexFailureCount = (pod: Loose): number => annotationCount(pod, JOB_INDEX_FAILURE_COUNT_ANNOTATION);
const indexAbsoluteFailureCount = (pod: Loose): number => indexFailureCount(pod) + annotationCount(pod, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION);

/** isIndexFailed: FailIndex matched, or a counted failure with the index's failures at the limit. */
export function isIndexFailed(job: Loose, pod: Loose, isPodFailed: (p: Loose, j: Loose) => boolean): boolean {
  if (!isPodFailed(pod, job)) return false;
  let counted = true;
  if (job.spec?.podFailurePolicy) {
    const m = matchPodFailurePolicy(job, pod);
    if (m.action === 'FailIndex') return true;
    counted = m.countFailed;
  }
  return counted && indexFailureCount(pod) >= job.spec.backoffLimitPerIndex;
}

const hasTrackingFinalizer = (p: Loose, finalizer: string): boolean => (p.metadata.finalizers ?? []).includes(finalizer);

/** calculateFailedIndexes: status.failedIndexes plus the indexes of pods that failed for good since. */
export function calculateFailedIndexes(job: Loose, pods: readonly Loose[], finalizer: string, isPodFailed: (p: Loose, j: Loose) => boolean): Interval[] {
  const completions: number = job.spec?.completions ?? 0;
  const prev = typeof job.status?.failedIndexes === 'string' ? parseIndexes(job.status.failedIndexes, completions) : [];
  const added: number[] = [];
  for (const p of pods) {
    const ix = completionIndex(p);
    if (ix >= 0 && ix < completions && hasTrackingFinalizer(p, finalizer) && isIndexFailed(job, p, isPodFailed)) added.push(ix);
  }
  return withIndexes(prev, added);
}

/**
 * getPodsWithDelayedDeletionPerIndex: for each index with no active pod,
 * neither succeeded nor failed, its latest failed pod (most failures, then
 * latest finish): kept until the replacement carries its count.
 */
export function podsWithDelayedDeletion(
  job: Loose,
  pods: readonly Loose[],
  activePods: readonly Loose[],
  succeeded: readonly Interval[],
  failed: readonly Interval[],
  finalizer: string,
  isPodFailed: (p: Loose, j: Loose) => boolean,
  now: number,
): Map<number, Loose> {
  const completions: number = job.spec?.completions ?? 0;
  const active = new Set(activePods.map(completionIndex).filter((i) => i >= 0));
  const out = new Map<number, Loose>();
  for (const p of pods) {
    if (!hasTrackingFinalizer(p, finalizer) || !isPodFailed(p, job)) continue;
    const ix = completionIndex(p);
    if (ix < 0 || ix >= completions || intervalsHas(succeeded, ix) || intervalsHas(failed, ix) || active.has(ix)) continue;
    const last = out.get(ix);
    if (!last || (indexAbsoluteFailureCount(last) <= indexAbsoluteFailureCount(p) && finishedTime(p, now) >= finishedTime(last, now))) out.set(ix, p);
  }
  return out;
}

/** getNewIndexFailureCounts: the replacement's failure and ignored-failure counts. */
export function newIndexFailureCounts(job: Loose, replaced: Loose | undefined): { failures: number; ignored: number } {
  if (!replaced) return { failures: 0, ignored: 0 };
  let failures = indexFailureCount(replaced);
  let ignored = annotationCount(replaced, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION);
  if (job.spec?.podFailurePolicy && !matchPodFailurePolicy(job, replaced).countFailed) ignored++;
  else failures++;
  return { failures, ignored };
}

/** getRemainingTimePerIndex: the index's own back-off after its last failed pod. */
export function remainingTimePerIndex(lastFailed: Loose | undefined, now: number): number {
  if (!lastFailed) return 0;
  return remainingForFailures(indexAbsoluteFailureCount(lastFailed) + 1, finishedTime(lastFailed, now), now);
}

/** getPodCreationInfoForIndependentIndexes: the indexes whose back-off is over, else the shortest wait. */
export function indexesReadyToCreate(indexes: readonly number[], delayed: ReadonlyMap<number, Loose>, now: number): { now: number[]; wait: number } {
  const ready: number[] = [];
  let wait = Infinity;
  for (const ix of indexes) {
    const left = remainingTimePerIndex(delayed.get(ix), now);
    if (left === 0) ready.push(ix);
    else wait = Math.min(wait, left);
  }
  return ready.length > 0 ? { now: ready, wait: 0 } : { now: [], wait: Number.isFinite(wait) ? wait : 0 };
}
