// The Job controller (pkg/controller/job/job_controller.go, v1.32), NonIndexed
// and Indexed completion modes (indexed.ts), the pod failure policy: pods
// created up to parallelism until completions succeed,
// finished pods counted through the batch.kubernetes.io/job-tracking finalizer
// (first recorded in status.uncountedTerminatedPods, then the finalizer is
// removed, then they move to succeeded/failed), the interim SuccessCriteriaMet /
// FailureTarget conditions, then Complete / Failed, and the pod-failure back-off.
// Upstream does a sync's writes one after another; here each sync sends one
// stage of them and the answers (seen through the informers) drive the next.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { ItemExponentialFailureRateLimiter, RateLimitingQueue } from '../../client/workqueue';
import { rfc3339, parseRfc3339 } from '../../apiserver/http/time';
import { registerClass } from '../../sim/serial';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { isPodReady, keyOfObject, pushRecent, type Loose } from '../endpoint/podutil';
import { errorMessage } from '../replicaset/podUtil';
import { nextBackoffRecord, remainingBackoff, type BackoffRecord } from './backoff';
import { calculateFailedIndexes, hasBackoffLimitPerIndex, indexesReadyToCreate, newIndexFailureCounts, podsWithDelayedDeletion, JOB_INDEX_FAILURE_COUNT_ANNOTATION, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION } from './perIndex';
import { matchSuccessPolicy } from './successPolicy';
import {
  addCompletionIndexEnv, completionIndex, duplicatedIndexPodsForRemoval, firstPendingIndexes, generateNameWithIndex, indexedTemplate, intervalsHas, intervalsString, intervalsTotal, isIndexedJob,
  matchPodFailurePolicy, parseIndexes, withIndexes, type Interval,
} from './indexed';

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
/** The spec.managedBy value of Jobs this controller syncs (any other: an external controller's). */
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller';
/** syncJobBatchPeriod: pod events are batched for a second. */
export const SYNC_JOB_BATCH_PERIOD_MS = 1000;
const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
const MAX_UNCOUNTED_PODS = 500;
const SLOW_START_INITIAL_BATCH_SIZE = 1;
const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;
/** Queue keys of orphan pods (upstream has a second queue for them). */
const ORPHAN = 'orphan:';

interface Condition {
  type: string;
  status: 'True' | 'False';
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

type Tag =
  | { type: 'createPod'; job: string }
  | { type: 'deletePod'; job: string; pod: string }
  | { type: 'removeFinalizer'; job: string; uid: string }
  | { type: 'status'; job: string; rv: string; finished: Condition | null };

/** What manageJob reads of a sync (syncJobCtx). */
interface ManageInput {
  activePods: Loose[];
  terminating: Loose[];
  succeeded: number;
  backoff: BackoffRecord;
  succeededIndexes: Interval[];
  /** status.failedIndexes as it will be, for Jobs with backoffLimitPerIndex. */
  failedIndexes: Interval[] | null;
  /** Per index, the failed pod whose replacement inherits its failure count. */
  delayed: ReadonlyMap<number, Loose>;
}

/** One manageJob's pod creations in slow-start batches (controller.SlowStartInitialBatchSize, doubling). */
interface CreateBatch {
  ns: string;
  bodies: KObject[];
  /** Index of the next body to send. */
  next: number;
  batchSize: number;
  inflight: number;
  failed: boolean;
}

interface Expectations {
  add: number;
  del: number;
  at: number;
}

const hasFinalizer = (p: Loose): boolean => (p.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
const isTerminal = (p: Loose): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
const isActive = (p: Loose): boolean => !isTerminal(p) && !p.metadata.deletionTimestamp;
const isTerminating = (p: Loose): boolean => !!p.metadata.deletionTimestamp && !isTerminal(p);

/** onlyReplaceFailedPods: podReplacementPolicy Failed, or a podFailurePolicy. */
const onlyReplaceFailedPods = (job: Loose): boolean => job.spec?.podReplacementPolicy === 'Failed' || !!job.spec?.podFailurePolicy;

/** isPodFailed: Failed, or (unless only failed pods are replaced) deleted before succeeding. */
export function isPodFailed(p: Loose, job: Loose): boolean {
  if (p.status?.phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return !!p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded';
}

const findCondition = (job: Loose, type: string): Condition | undefined => ((job.status?.conditions ?? []) as Condition[]).find((c) => c.type === type && c.status === 'True');

export function isJobFinished(job: Loose): boolean {
  return !!findCondition(job, 'Complete') || !!findCondition(job, 'Failed');
}

export class JobController implements Controller {
  readonly name = 'job-controller';
  readonly informers = ['jobs', 'pods'] as const;
  // DefaultJobApiBackOff 1 s to MaxJobApiBackOff 1 min.
  readonly queue = new RateLimitingQueue<string>('job', new ItemExponentialFailureRateLimiter<string>(1000, 60_000));
  readonly recent: { t: number; key: string; what: string }[] = [];
  /** ControllerExpectations: pod creations and deletions not yet seen, per job key. */
  readonly expectations = new Map<string, Expectations>();
  /** finalizerExpectations: pods whose tracking finalizer removal is under way, per job key. */
  readonly finalizerExpectations = new Map<string, Set<string>>();
  /** Slow-start pod creations under way, per job key. */
  readonly createBatches = new Map<string, CreateBatch>();
  /** podBackoffStore. */
  readonly backoff = new Map<string, BackoffRecord>();
  /** Jobs with a status write in flight, and the resourceVersion each status write replaced (stale until the informer moves past it). */
  readonly statusInFlight = new Set<string>();
  readonly staleRV = new Map<string, string>();
  readonly writeErrors = new Map<string, string>();

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    const o = ev.object as Loose;
    if (resource === 'jobs') {
      const key = keyOfObject(o);
      if (ev.type === 'DELETED' || (ev.type === 'MODIFIED' && isJobFinished(o))) {
        // cleanupPodFinalizers: a deleted (or, as a backup, finished) Job's pods must still lose their finalizers (upstream's orphan queue).
        for (const p of ctx.store('pods').values() as Iterable<Loose>) {
          if (hasFinalizer(p) && controllerRef(p)?.uid === o.metadata.uid) this.queue.add(`${ORPHAN}${keyOfObject(p)}`, ctx.now);
        }
      }
      if (this.staleRV.get(key) !== undefined && this.staleRV.get(key) !== o.metadata.resourceVersion) this.staleRV.delete(key);
      this.queue.add(key, ctx.now);
      return;
    }
    if (resource !== 'pods') return;
    // A pod with the finalizer and no controller (the garbage collector orphaned it) loses the finalizer.
    if (!controllerRef(o)) {
      if (ev.type !== 'DELETED' && hasFinalizer(o)) this.queue.add(`${ORPHAN}${keyOfObject(o)}`, ctx.now);
      return;
    }
    const key = this.jobKeyOf(o);
    if (!key) return;
    const owner = ctx.store('jobs').get(key) as Loose;
    const resolved = owner && owner.metadata.uid === controllerRef(o)?.uid ? owner : undefined;
    if (ev.type !== 'DELETED' && hasFinalizer(o) && (!resolved || (o.metadata.deletionTimestamp && isJobFinished(resolved)))) this.queue.add(`${ORPHAN}${keyOfObject(o)}`, ctx.now);
    const exp = this.expectations.get(key);
    const fin = this.finalizerExpectations.get(key);
    const old = ev.type === 'MODIFIED' ? (ev.old as Loose) : undefined;
    if (ev.type === 'ADDED' && exp) exp.add--;
    if (exp && ev.type === 'DELETED') exp.del--;
    if (exp && old && !old.metadata.deletionTimestamp && o.metadata.deletionTimestamp) exp.del--;
    if (fin && (ev.type === 'DELETED' || !hasFinalizer(o))) fin.delete(o.metadata.uid);
    this.queue.addAfter(key, SYNC_JOB_BATCH_PERIOD_MS, ctx.now);
  }

  /** The key of the Job controlling the pod (its controller owner reference). */
  private jobKeyOf(p: Loose): string | null {
    const ref = controllerRef(p);
    if (!ref || ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return null;
    return `${p.metadata.namespace}/${ref.name}`;
  }

  private satisfied(key: string, now: number): boolean {
    const e = this.expectations.get(key);
    return !e || (e.add <= 0 && e.del <= 0) || now - e.at > EXPECTATIONS_TIMEOUT_MS;
  }

  private expect(key: string, add: number, del: number, now: number): void {
    this.expectations.set(key, { add, del, at: now });
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (key.startsWith(ORPHAN)) return this.syncOrphanPod(key.slice(ORPHAN.length), ctx);
    if (this.statusInFlight.has(key)) return { type: 'done' }; // the answer requeues
    const failed = this.writeErrors.get(key);
    if (failed !== undefined) {
      this.writeErrors.delete(key);
      return { type: 'error', message: failed };
    }
    if (!ctx.synced('jobs') || !ctx.synced('pods')) return { type: 'after', delayMs: 100 };
    const job = ctx.store('jobs').get(key) as Loose;
    if (!job) {
      this.expectations.delete(key);
      this.finalizerExpectations.delete(key);
      this.createBatches.delete(key);
      this.backoff.delete(key);
      this.staleRV.delete(key);
      return { type: 'done' };
    }
    // managedByExternalController: another controller owns this Job's pods and status.
    if (typeof job.spec?.managedBy === 'string' && job.spec.managedBy !== JOB_CONTROLLER_NAME) return { type: 'done' };
    if (this.staleRV.get(key) === job.metadata.resourceVersion) return { type: 'done' }; // the informer event requeues
    this.staleRV.delete(key);
    if (isJobFinished(job)) {
      this.backoff.delete(key);
      return { type: 'done' };
    }

    const now = ctx.now;
    const satisfied = this.satisfied(key, now);
    const pods: Loose[] = [];
    for (const p of ctx.store('pods').values() as Iterable<Loose>) {
      if (p.metadata.namespace !== job.metadata.namespace) continue;
      if ((p.metadata.ownerReferences ?? []).some((r: Loose) => r.controller === true && r.uid === job.metadata.uid)) pods.push(p);
    }
    pods.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
    const activePods = pods.filter(isActive);
    const status: Loose = JSON.parse(JSON.stringify(job.status ?? {}));
    const unc = { succeeded: [...(status.uncountedTerminatedPods?.succeeded ?? [])] as string[], failed: [...(status.uncountedTerminatedPods?.failed ?? [])] as string[] };
    const expectedRm = this.finalizerExpectations.get(key) ?? new Set<string>();

    // getNewFinishedPods
    const tracked = (p: Loose) => hasFinalizer(p) && !expectedRm.has(p.metadata.uid);
    const indexed = isIndexedJob(job);
    const completionsN: number = job.spec?.completions ?? 0;
    // getValidPodsWithFilter: an Indexed Job's pods count only with a valid index.
    const valid = (p: Loose) => tracked(p) && (!indexed || (completionIndex(p) >= 0 && completionIndex(p) < completionsN));
    const newSucceeded = pods.filter((p) => valid(p) && p.status?.phase === 'Succeeded' && !unc.succeeded.includes(p.metadata.uid));
    const newFailed = pods.filter((p) => valid(p) && isPodFailed(p, job) && !unc.failed.includes(p.metadata.uid));
    // nonIgnoredFailedPodsCount: failures a pod failure policy rule ignores do not count (the back-off still sees them).
    const newFailedCounted = newFailed.filter((p) => matchPodFailurePolicy(job, p).countFailed);
    // calculateSucceededIndexes: the recorded intervals plus succeeded pods not counted yet.
    const prevSucceededIndexes: Interval[] = indexed ? parseIndexes(status.completedIndexes, completionsN) : [];
    let succeededIndexes: Interval[] = indexed ? withIndexes(prevSucceededIndexes, newSucceeded.map(completionIndex).filter((ix) => ix >= 0 && ix < completionsN)) : [];
    const succeeded = indexed ? intervalsTotal(succeededIndexes) : (status.succeeded ?? 0) + newSucceeded.length + unc.succeeded.length;
    const failedCount = (status.failed ?? 0) + newFailedCounted.length + unc.failed.length;
    let needsUpdate = false;
    if (!status.startTime && job.spec?.suspend !== true) {
      status.startTime = rfc3339(now);
      needsUpdate = true;
    }
    const newBackoff = nextBackoffRecord(this.backoff.get(key) ?? { failuresAfterLastSuccess: 0, lastFailureTime: null }, newSucceeded, newFailed, now);
    const backoffLimit: number = job.spec?.backoffLimit ?? 6;
    let result: SyncResult = { type: 'done' };

    let finishedCond: Condition | null = findCondition(job, 'SuccessCriteriaMet') ?? null;
    if (!finishedCond) {
      const ft = findCondition(job, 'FailureTarget');
      if (ft) finishedCond = this.condition('Failed', ft.reason ?? '', ft.message ?? '', now);
    }
    if (!finishedCond && job.spec?.podFailurePolicy) {
      // getFailJobMessage: a failed pod matching a FailJob rule fails the Job.
      for (const p of pods) {
        if (!isPodFailed(p, job)) continue;
        const m = matchPodFailurePolicy(job, p).message;
        if (m !== null) {
          finishedCond = this.condition('FailureTarget', 'PodFailurePolicy', m, now);
          break;
        }
      }
    }
    if (!finishedCond) {
      if (failedCount > backoffLimit || pastBackoffLimitOnFailure(job, pods)) {
        finishedCond = this.condition('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', now);
      } else if (typeof job.spec?.activeDeadlineSeconds === 'number' && status.startTime && job.spec?.suspend !== true) {
        const left = job.spec.activeDeadlineSeconds * 1000 - (now - parseRfc3339(status.startTime));
        if (left <= 0) finishedCond = this.condition('FailureTarget', 'DeadlineExceeded', 'Job was active longer than specified deadline', now);
        else result = { type: 'after', delayMs: left };
      }
    }

    // Backoff limit per index, then the success policy (Indexed Jobs).
    const perIndex = indexed && hasBackoffLimitPerIndex(job);
    let failedIndexes: Interval[] | null = null;
    let delayed = new Map<number, Loose>();
    if (perIndex) {
      failedIndexes = calculateFailedIndexes(job, pods, JOB_TRACKING_FINALIZER, isPodFailed);
      if (!finishedCond) {
        const nFailed = intervalsTotal(failedIndexes);
        if (typeof job.spec?.maxFailedIndexes === 'number' && nFailed > job.spec.maxFailedIndexes) {
          finishedCond = this.condition('FailureTarget', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes', now);
        } else if (nFailed > 0 && nFailed + intervalsTotal(succeededIndexes) >= completionsN) {
          finishedCond = this.condition('FailureTarget', 'FailedIndexes', 'Job has failed indexes', now);
        }
      }
      delayed = podsWithDelayedDeletion(job, pods, activePods, succeededIndexes, failedIndexes, JOB_TRACKING_FINALIZER, isPodFailed, now);
    }
    if (indexed && !finishedCond) {
      const msg = matchSuccessPolicy(job, succeededIndexes);
      if (msg !== null) finishedCond = this.condition('SuccessCriteriaMet', 'SuccessPolicy', msg, now);
    }

    let active = activePods.length;
    let ready = activePods.filter(isPodReady).length;
    let terminating = pods.filter(isTerminating).length;
    let suspendChanged = false;
    if (finishedCond) {
      // deleteActivePods: the finalizers stay until the pods are counted; the deleted pods count as terminating, not ready.
      for (const p of activePods) this.deletePod(ctx, key, job, p);
      active = 0;
      terminating += activePods.length;
      ready = 0;
      if (!satisfied) finishedCond = null;
    } else {
      const manageJobCalled = satisfied && !job.metadata.deletionTimestamp;
      if (manageJobCalled) {
        const m = this.manageJob(ctx, key, job, { activePods, terminating: pods.filter(isTerminating), succeeded, backoff: newBackoff, succeededIndexes, failedIndexes, delayed });
        active = m.active;
        terminating += m.removed;
        ready -= m.removedReady;
        if (m.retryAfter > 0) result = { type: 'after', delayMs: m.retryAfter };
      }
      const completions = job.spec?.completions;
      const complete = typeof completions === 'number' ? succeeded >= completions && active === 0 : succeeded > 0 && active === 0;
      if (complete) finishedCond = this.condition('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods', now);
      else if (manageJobCalled) {
        // The Suspended condition and its events; resuming restarts the activeDeadlineSeconds clock.
        const suspended = job.spec?.suspend === true;
        const conds: Condition[] = [...(status.conditions ?? [])];
        const changed = ensureCondition(conds, 'Suspended', suspended ? 'True' : 'False', suspended ? 'JobSuspended' : 'JobResumed', suspended ? 'Job suspended' : 'Job resumed', now);
        if (changed) {
          status.conditions = conds;
          suspendChanged = true;
          ctx.event({ regarding: job, type: 'Normal', reason: suspended ? 'Suspended' : 'Resumed', message: suspended ? 'Job suspended' : 'Job resumed' });
          if (!suspended) status.startTime = rfc3339(now);
        }
      }
    }

    // trackJobStatusAndRemoveFinalizers
    const withFinalizer = new Set(pods.filter(tracked).map((p) => p.metadata.uid as string));
    let needsFlush = false;
    const keepS = unc.succeeded.filter((u) => withFinalizer.has(u));
    const keepF = unc.failed.filter((u) => withFinalizer.has(u));
    if (keepS.length !== unc.succeeded.length || keepF.length !== unc.failed.length) {
      status.succeeded = (status.succeeded ?? 0) + unc.succeeded.length - keepS.length;
      status.failed = (status.failed ?? 0) + unc.failed.length - keepF.length;
      unc.succeeded = keepS;
      unc.failed = keepF;
      needsFlush = true;
    }
    const addedNow = new Set<string>();
    const toRemoveFinalizer: Loose[] = [];
    for (const p of pods) {
      if (!tracked(p)) continue;
      const considerFailed = isPodFailed(p, job);
      if (!(job.metadata.deletionTimestamp || finishedCond || p.status?.phase === 'Succeeded' || considerFailed)) continue;
      const uid = p.metadata.uid as string;
      // canRemoveFinalizer: a failed pod whose index awaits its replacement keeps its finalizer (the replacement inherits its failure count).
      if (perIndex && !job.metadata.deletionTimestamp && !finishedCond && p.status?.phase !== 'Succeeded' && delayed.get(completionIndex(p))?.metadata.uid === uid) continue;
      if (p.status?.phase === 'Succeeded' && !unc.failed.includes(uid) && indexed) {
        // The completion index is enough not to count it twice: completedIndexes, not uncounted uids.
        const ix = completionIndex(p);
        if (ix >= 0 && ix < completionsN && !intervalsHas(prevSucceededIndexes, ix)) {
          succeededIndexes = withIndexes(succeededIndexes, [ix]);
          addedNow.add(uid);
          needsFlush = true;
        }
      } else if (p.status?.phase === 'Succeeded' && !unc.failed.includes(uid)) {
        if (!unc.succeeded.includes(uid)) {
          unc.succeeded.push(uid);
          addedNow.add(uid);
          needsFlush = true;
        }
      } else if (considerFailed || (finishedCond && finishedCond.type !== 'SuccessCriteriaMet' && finishedCond.type !== 'Complete')) {
        const ix = completionIndex(p);
        if (!unc.failed.includes(uid) && (!indexed || (ix >= 0 && ix < completionsN)) && matchPodFailurePolicy(job, p).countFailed) {
          unc.failed.push(uid);
          addedNow.add(uid);
          needsFlush = true;
        }
      }
      toRemoveFinalizer.push(p);
      if (unc.succeeded.length + unc.failed.length >= MAX_UNCOUNTED_PODS) break;
    }
    if (indexed) {
      const str = intervalsString(succeededIndexes);
      if (str !== (status.completedIndexes ?? '')) needsFlush = true;
      status.succeeded = intervalsTotal(succeededIndexes);
      if (str) status.completedIndexes = str;
      else delete status.completedIndexes;
      // A *string in Go: a per-index Job always reports failedIndexes, "" when none.
      const failedStr = failedIndexes ? intervalsString(failedIndexes) : undefined;
      if (failedStr !== status.failedIndexes) {
        if (failedStr === undefined) delete status.failedIndexes;
        else status.failedIndexes = failedStr;
        needsFlush = true;
      }
    }
    const conditions: Condition[] = [...(status.conditions ?? [])];
    if (finishedCond?.type === 'FailureTarget') {
      conditions.push(finishedCond);
      needsFlush = true;
      finishedCond = this.condition('Failed', finishedCond.reason ?? '', finishedCond.message ?? '', now);
    }
    if (finishedCond?.type === 'SuccessCriteriaMet') {
      if (!findCondition(job, 'SuccessCriteriaMet')) {
        conditions.push(finishedCond);
        needsFlush = true;
      }
      finishedCond = this.condition('Complete', finishedCond.reason ?? '', finishedCond.message ?? '', now);
    }
    if (suspendChanged || status.active !== active || status.ready !== ready || status.terminating !== terminating) needsUpdate = true;
    status.active = active;
    status.ready = ready;
    status.terminating = terminating;
    status.uncountedTerminatedPods = { ...(unc.succeeded.length ? { succeeded: unc.succeeded } : {}), ...(unc.failed.length ? { failed: unc.failed } : {}) };
    status.conditions = conditions;
    if (conditions.length === 0) delete status.conditions;

    // enactJobFinished: only once every finished pod is counted and none is terminating.
    let finished: Condition | null = null;
    if (finishedCond && unc.succeeded.length + unc.failed.length === 0 && terminating === 0) {
      finished = finishedCond;
      const i = conditions.findIndex((c) => c.type === finished!.type);
      if (i >= 0) conditions[i] = finished;
      else conditions.push(finished);
      status.conditions = conditions;
      if (finished.type === 'Complete') status.completionTime = finished.lastTransitionTime;
      needsFlush = true;
    }

    if (needsFlush || needsUpdate) {
      this.backoff.set(key, newBackoff);
      this.statusInFlight.add(key);
      ctx.request(
        { method: 'PUT', path: `/apis/batch/v1/namespaces/${job.metadata.namespace}/jobs/${job.metadata.name}/status`, body: { ...job, status } },
        { type: 'status', job: key, rv: job.metadata.resourceVersion ?? '', finished } satisfies Tag,
      );
      pushRecent(this.recent, now, key, `status: active ${active}, succeeded ${status.succeeded ?? 0}, failed ${status.failed ?? 0}${finished ? `, ${finished.type}` : ''}`);
    }
    // A pod recorded in uncountedTerminatedPods by this sync keeps its finalizer until that status is stored.
    const removable = toRemoveFinalizer.filter((p) => !addedNow.has(p.metadata.uid));
    if (removable.length > 0) {
      let fin = this.finalizerExpectations.get(key);
      if (!fin) this.finalizerExpectations.set(key, (fin = new Set()));
      for (const p of removable) {
        fin.add(p.metadata.uid);
        ctx.request(
          {
            method: 'PATCH',
            path: `/api/v1/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}`,
            contentType: 'application/strategic-merge-patch+json',
            body: removeFinalizerPatch(),
          },
          { type: 'removeFinalizer', job: key, uid: p.metadata.uid } satisfies Tag,
        );
      }
    }
    return result;
  }

  /** syncOrphanPod: a pod whose Job is gone (or finished) loses its tracking finalizer. */
  private syncOrphanPod(podKey: string, ctx: ControllerContext): SyncResult {
    const p = ctx.store('pods').get(podKey) as Loose;
    if (!p || !hasFinalizer(p)) return { type: 'done' };
    const ref = controllerRef(p);
    if (ref) {
      // Controlled by something other than a batch/v1 Job: not ours to touch.
      if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return { type: 'done' };
      const job = ctx.store('jobs').get(`${p.metadata.namespace}/${ref.name}`) as Loose;
      if (job && job.metadata.uid === ref.uid) {
        if (typeof job.spec?.managedBy === 'string' && job.spec.managedBy !== JOB_CONTROLLER_NAME) return { type: 'done' };
        if (!isJobFinished(job)) return { type: 'done' }; // adopted
      }
    }
    ctx.request(
      { method: 'PATCH', path: `/api/v1/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}`, contentType: 'application/strategic-merge-patch+json', body: removeFinalizerPatch() },
      // Answered with the orphan key, so a failure retries this pod.
      { type: 'removeFinalizer', job: `${ORPHAN}${podKey}`, uid: p.metadata.uid } satisfies Tag,
    );
    return { type: 'done' };
  }

  /** manageJob: create or delete pods toward min(parallelism, completions left); Indexed pods get the lowest pending indexes. */
  private manageJob(ctx: ControllerContext, key: string, job: Loose, j: ManageInput): { active: number; retryAfter: number; removed: number; removedReady: number } {
    const { activePods, succeeded } = j;
    let active = activePods.length;
    const parallelism: number = job.spec?.parallelism ?? 1;
    if (job.spec?.suspend === true) {
      this.expect(key, 0, activePods.length, ctx.now);
      this.deleteJobPods(ctx, key, job, activePods);
      return { active: 0, retryAfter: 0, removed: activePods.length, removedReady: activePods.filter(isPodReady).length };
    }
    const completions = job.spec?.completions;
    let wantActive: number;
    if (typeof completions !== 'number') wantActive = succeeded > 0 ? active : parallelism;
    else wantActive = Math.max(0, Math.min(completions - succeeded, parallelism));
    const rmAtLeast = Math.max(0, active - wantActive);
    // activePodsForRemoval: Indexed pods with a duplicate or invalid index first, then by ActivePods rank.
    let rm: Loose[] = [];
    let left: Loose[] = activePods;
    if (isIndexedJob(job)) ({ rm, left } = duplicatedIndexPodsForRemoval(activePods, completions ?? 0, deletionRank));
    if (rm.length < rmAtLeast) rm = [...rm, ...[...left].sort(deletionRank).slice(0, rmAtLeast - rm.length)];
    if (rm.length > 0) {
      const victims = rm.slice(0, MAX_POD_CREATE_DELETE_PER_SYNC);
      this.expect(key, 0, victims.length, ctx.now);
      this.deleteJobPods(ctx, key, job, victims);
      return { active: active - victims.length, retryAfter: 0, removed: victims.length, removedReady: victims.filter(isPodReady).length };
    }
    // Terminating pods still hold their place when only failed pods are replaced.
    const busy = onlyReplaceFailedPods(job) ? j.terminating : [];
    let diff = wantActive - busy.length - active;
    if (diff > 0) {
      const perIndex = hasBackoffLimitPerIndex(job);
      // The Job-wide back-off, unless each index keeps its own.
      const wait = perIndex ? 0 : remainingBackoff(j.backoff, ctx.now);
      // enqueueSyncJobWithDelay waits at least the batch period. v1.32's manageJob returns 0 here, which
      // writes status.active 0 with pods running, and its status validation refuses that write whenever a pod
      // is ready (ready > active), failing the sync until the back-off ends: the true count is kept instead.
      if (wait > 0) return { active, retryAfter: Math.max(wait, SYNC_JOB_BATCH_PERIOD_MS), removed: 0, removedReady: 0 };
      diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
      let indexes: number[] = [];
      if (isIndexedJob(job)) {
        indexes = firstPendingIndexes(activePods, j.succeededIndexes, diff, completions ?? 0, busy, j.failedIndexes ?? []);
        if (perIndex) {
          const ready = indexesReadyToCreate(indexes, j.delayed, ctx.now);
          if (ready.wait > 0) return { active: 0, retryAfter: Math.max(ready.wait, SYNC_JOB_BATCH_PERIOD_MS), removed: 0, removedReady: 0 };
          indexes = ready.now;
        }
        diff = indexes.length;
      }
      this.expect(key, diff, 0, ctx.now);
      const pod = podFromTemplate(job);
      const bodies: KObject[] = [];
      for (let i = 0; i < diff; i++) {
        let body = isIndexedJob(job) ? indexedPod(pod, job.metadata.name, indexes[i]!) : pod;
        if (perIndex) {
          const counts = newIndexFailureCounts(job, j.delayed.get(indexes[i]!));
          const annotations: Record<string, string> = { ...body.metadata.annotations, [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: String(counts.failures) };
          if (counts.ignored > 0) annotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = String(counts.ignored);
          body = { ...body, metadata: { ...body.metadata, annotations } };
        }
        bodies.push(body);
      }
      // Slow start: batches of 1, 2, 4…; a failure in one skips the rest.
      const batch: CreateBatch = { ns: job.metadata.namespace, bodies, next: 0, batchSize: Math.min(diff, SLOW_START_INITIAL_BATCH_SIZE), inflight: 0, failed: false };
      this.createBatches.set(key, batch);
      this.issueCreates(ctx, key, batch);
      active += diff;
    }
    return { active, retryAfter: 0, removed: 0, removedReady: 0 };
  }

  private issueCreates(ctx: ControllerContext, key: string, b: CreateBatch): void {
    for (let i = 0; i < b.batchSize; i++) {
      b.inflight++;
      ctx.request({ method: 'POST', path: `/api/v1/namespaces/${b.ns}/pods`, body: b.bodies[b.next++] }, { type: 'createPod', job: key } satisfies Tag);
    }
  }

  /**
   * deleteJobPods: the tracking finalizer comes off before the DELETE, so a pod
   * removed by suspend or a lower parallelism is never counted as failed.
   */
  private deleteJobPods(ctx: ControllerContext, key: string, job: Loose, pods: readonly Loose[]): void {
    let fin = this.finalizerExpectations.get(key);
    for (const p of pods) {
      if (hasFinalizer(p)) {
        if (!fin) this.finalizerExpectations.set(key, (fin = new Set()));
        fin.add(p.metadata.uid);
        ctx.request(
          { method: 'PATCH', path: `/api/v1/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}`, contentType: 'application/strategic-merge-patch+json', body: removeFinalizerPatch() },
          { type: 'removeFinalizer', job: key, uid: p.metadata.uid } satisfies Tag,
        );
      }
      this.deletePod(ctx, key, job, p);
    }
  }

  private deletePod(ctx: ControllerContext, key: string, job: Loose, p: Loose): void {
    ctx.request({ method: 'DELETE', path: `/api/v1/namespaces/${job.metadata.namespace}/pods/${p.metadata.name}` }, { type: 'deletePod', job: key, pod: p.metadata.name } satisfies Tag);
  }

  private condition(type: string, reason: string, message: string, now: number): Condition {
    const t = rfc3339(now);
    return { type, status: 'True', lastProbeTime: t, lastTransitionTime: t, reason, message };
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    const ok = status >= 200 && status < 300;
    const job = ctx.store('jobs').get(t.job);
    switch (t.type) {
      case 'createPod': {
        if (ok) {
          const name = (JSON.parse(body) as KObject).metadata.name;
          if (job) ctx.event({ regarding: job, type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${name}` });
        } else {
          const e = this.expectations.get(t.job);
          if (e) e.add--;
          if (job) ctx.event({ regarding: job, type: 'Warning', reason: 'FailedCreate', message: `Error creating: ${errorMessage(status, body)}` });
        }
        const b = this.createBatches.get(t.job);
        if (!b) {
          if (!ok) this.queue.addRateLimited(t.job, ctx.now);
          return;
        }
        b.inflight--;
        if (!ok) b.failed = true;
        if (b.inflight > 0) return;
        if (b.failed || b.next >= b.bodies.length) {
          // The creations never attempted will not be observed either; the sync's error requeues it rate-limited.
          const e = this.expectations.get(t.job);
          if (e) e.add -= b.bodies.length - b.next;
          this.createBatches.delete(t.job);
          if (b.failed) this.queue.addRateLimited(t.job, ctx.now);
          return;
        }
        b.batchSize = Math.min(2 * b.batchSize, b.bodies.length - b.next);
        this.issueCreates(ctx, t.job, b);
        return;
      }
      case 'deletePod':
        if (ok && job) ctx.event({ regarding: job, type: 'Normal', reason: 'SuccessfulDelete', message: `Deleted pod: ${t.pod}` });
        if (!ok) {
          // failDelete: the informer will not see this deletion (404 included).
          const e = this.expectations.get(t.job);
          if (e && e.del > 0) e.del--;
        }
        if (!ok && status !== 404) {
          if (job) ctx.event({ regarding: job, type: 'Warning', reason: 'FailedDelete', message: `Error deleting: ${errorMessage(status, body)}` });
          this.queue.addRateLimited(t.job, ctx.now);
        }
        return;
      case 'removeFinalizer':
        if (!ok) {
          this.finalizerExpectations.get(t.job)?.delete(t.uid);
          if (status !== 404) this.queue.addRateLimited(t.job, ctx.now);
        }
        return;
      case 'status':
        this.statusInFlight.delete(t.job);
        if (ok) {
          this.staleRV.set(t.job, t.rv);
          const o = JSON.parse(body) as KObject;
          if (o.metadata?.resourceVersion && job?.metadata.resourceVersion === o.metadata.resourceVersion) this.staleRV.delete(t.job);
          if (t.finished && job) {
            if (t.finished.type === 'Complete') {
              // recordJobFinished
              const completions = (o.spec as Loose)?.completions;
              if (typeof completions === 'number' && ((o.status as Loose)?.succeeded ?? 0) > completions) {
                ctx.event({ regarding: job, type: 'Warning', reason: 'TooManySucceededPods', message: 'Too many succeeded pods running after completion count reached' });
              }
              ctx.event({ regarding: job, type: 'Normal', reason: 'Completed', message: 'Job completed' });
            }
            else ctx.event({ regarding: job, type: 'Warning', reason: t.finished.reason ?? '', message: t.finished.message ?? '' });
          }
          this.queue.add(t.job, ctx.now);
        } else {
          this.writeErrors.set(t.job, `tracking status: status ${status}`);
          this.queue.add(t.job, ctx.now);
        }
        return;
    }
  }
}

/** metav1.GetControllerOf. */
const controllerRef = (o: Loose): Loose | undefined => (o.metadata.ownerReferences ?? []).find((r: Loose) => r.controller === true);

/** ensureJobConditionStatus: set the condition (new times) when it changed; a False one is never added. */
function ensureCondition(list: Condition[], type: string, status: 'True' | 'False', reason: string, message: string, now: number): boolean {
  const i = list.findIndex((c) => c.type === type);
  const t = rfc3339(now);
  const fresh: Condition = { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
  if (i >= 0) {
    const c = list[i]!;
    if (c.status === status && c.reason === reason && c.message === message) return false;
    list[i] = fresh;
    return true;
  }
  if (status === 'False') return false;
  list.push(fresh);
  return true;
}

/** pastBackoffLimitOnFailure: restarts of running or pending pods' containers (restartPolicy OnFailure). */
function pastBackoffLimitOnFailure(job: Loose, pods: Loose[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])]) restarts += s?.restartCount ?? 0;
  }
  const limit: number = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** ActivePods ordering (controller_utils.go), the pods to delete first: unassigned, pending, not ready, newest. */
function deletionRank(a: Loose, b: Loose): number {
  const rank = (p: Loose) => [p.spec?.nodeName ? 1 : 0, p.status?.phase === 'Pending' ? 0 : p.status?.phase === 'Unknown' ? 1 : 2, isPodReady(p) ? 1 : 0];
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  return ta > tb ? -1 : ta < tb ? 1 : 0;
}

/** removeTrackingFinalizerPatch: a strategic merge patch deleting the finalizer from the list. */
function removeFinalizerPatch(): unknown {
  return { metadata: { '$deleteFromPrimitiveList/finalizers': [JOB_TRACKING_FINALIZER] } };
}

/** An Indexed Job's pod for one index: annotation, label, hostname and generateName `<job>-<index>-`. */
function indexedPod(pod: KObject, jobName: string, index: number): KObject {
  const t = indexedTemplate({ metadata: pod.metadata, spec: pod.spec }, jobName, index);
  return { ...pod, metadata: { ...t.metadata, generateName: generateNameWithIndex(jobName, index) }, spec: t.spec };
}

/** GetPodFromTemplate with the tracking finalizer and the Job as controller (and JOB_COMPLETION_INDEX for Indexed Jobs). */
export function podFromTemplate(job: Loose): KObject {
  const t = job.spec?.template ?? {};
  const meta = t.metadata ?? {};
  const prefix = `${job.metadata.name}-`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: prefix.length > 58 ? prefix.slice(0, 58) : prefix,
      namespace: job.metadata.namespace,
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      finalizers: [...(meta.finalizers ?? []), JOB_TRACKING_FINALIZER],
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name, uid: job.metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: (() => {
      const spec = JSON.parse(JSON.stringify(t.spec ?? {}));
      if (isIndexedJob(job)) addCompletionIndexEnv(spec);
      return spec;
    })(),
  };
}

registerClass('JobController', JobController);
