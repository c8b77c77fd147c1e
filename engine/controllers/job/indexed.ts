// Indexed Jobs and the pod failure policy, after upstream v1.32's
// pkg/controller/job/indexed_job_utils.go and pod_failure_policy.go: each pod
// carries its completion index (annotation and label, hostname
// `<job>-<index>`, env JOB_COMPLETION_INDEX); completed indexes are kept as
// ordered intervals ("0-2,4"); duplicates and out-of-range indexes are removed.
import type { KObject } from '../../apimachinery/types';
import type { Loose } from '../endpoint/podutil';

export const JOB_COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_ENV_NAME = 'JOB_COMPLETION_INDEX';
/** names.MaxGeneratedNameLength (63 - 5 random characters). */
const MAX_GENERATED_NAME_LENGTH = 58;

export const isIndexedJob = (job: Loose): boolean => job.spec?.completionMode === 'Indexed';

/** getCompletionIndex: the annotation's index, or -1 when absent or malformed. */
export function completionIndex(pod: Loose): number {
  const v = pod?.metadata?.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION];
  if (typeof v !== 'string' || !/^\d+$/.test(v)) return -1;
  const n = Number(v);
  return Number.isSafeInteger(n) && n <= 2147483647 ? n : -1;
}

export interface Interval {
  first: number;
  last: number;
}

/** orderedIntervals.String: "1,3-5,7" (two adjacent indexes print as "3,4"). */
export function intervalsString(iv: readonly Interval[]): string {
  return iv.map((v) => (v.last > v.first ? `${v.first}${v.last === v.first + 1 ? ',' : '-'}${v.last}` : `${v.first}`)).join(',');
}

export const intervalsTotal = (iv: readonly Interval[]): number => iv.reduce((n, v) => n + v.last - v.first + 1, 0);
export const intervalsHas = (iv: readonly Interval[], ix: number): boolean => iv.some((v) => v.first <= ix && ix <= v.last);

/** parseIndexesFromString: the status's completedIndexes, ignoring what is out of range or malformed. */
export function parseIndexes(s: string | undefined, completions: number): Interval[] {
  const set: number[] = [];
  for (const part of (s ?? '').split(',')) {
    if (!part) continue;
    const [a, b] = part.split('-');
    const first = Number(a);
    const last = b === undefined ? first : Number(b);
    if (!Number.isInteger(first) || !Number.isInteger(last) || first > last || first < 0) continue;
    for (let i = first; i <= Math.min(last, completions - 1); i++) set.push(i);
  }
  return withIndexes([], set);
}

/** withOrderedIndexes: the intervals with these indexes added. */
export function withIndexes(iv: readonly Interval[], indexes: readonly number[]): Interval[] {
  const all = new Set<number>();
  for (const v of iv) for (let i = v.first; i <= v.last; i++) all.add(i);
  for (const i of indexes) all.add(i);
  const sorted = [...all].sort((a, b) => a - b);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && last.last + 1 === i) last.last = i;
    else out.push({ first: i, last: i });
  }
  return out;
}

/**
 * firstPendingIndexes: the lowest indexes neither completed nor run by an
 * active pod, nor (`busy`) held by a terminating pod when only failed pods
 * are replaced, nor failed for good (`failed`, backoffLimitPerIndex).
 */
export function firstPendingIndexes(activePods: readonly Loose[], succeeded: readonly Interval[], count: number, completions: number, busy: readonly Loose[] = [], failed: readonly Interval[] = []): number[] {
  const taken = new Set([...activePods, ...busy].map(completionIndex).filter((i) => i >= 0));
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!taken.has(i) && !intervalsHas(succeeded, i) && !intervalsHas(failed, i)) out.push(i);
  return out;
}

/**
 * appendDuplicatedIndexPodsForRemoval: active pods with no valid index, or
 * an index past completions, or a second pod for an index (the most
 * advanced one stays, as ActivePods ranks them) are removed.
 */
export function duplicatedIndexPodsForRemoval(pods: readonly Loose[], completions: number, rank: (a: Loose, b: Loose) => number): { rm: Loose[]; left: Loose[] } {
  const rm: Loose[] = [];
  const left: Loose[] = [];
  const byIndex = new Map<number, Loose[]>();
  for (const p of pods) {
    const ix = completionIndex(p);
    if (ix < 0 || ix >= completions) rm.push(p);
    else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
  }
  for (const ix of [...byIndex.keys()].sort((a, b) => a - b)) {
    const same = [...byIndex.get(ix)!].sort(rank);
    rm.push(...same.slice(0, -1));
    left.push(same[same.length - 1]);
  }
  return { rm, left };
}

/** podGenerateNameWithIndex: `<job>-<index>-`, the job name cut so the prefix fits. */
export function generateNameWithIndex(jobName: string, index: number): string {
  const append = `-${index}-`;
  const prefix = jobName + append;
  return prefix.length > MAX_GENERATED_NAME_LENGTH ? jobName.slice(0, MAX_GENERATED_NAME_LENGTH - append.length) + append : prefix;
}

/** addCompletionIndexEnvVariables: JOB_COMPLETION_INDEX from the pod's index label (PodIndexLabel, GA in v1.32), in every (init) container that lacks it. */
export function addCompletionIndexEnv(spec: Loose): void {
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    const env: Loose[] = c.env ?? [];
    if (env.some((e) => e?.name === COMPLETION_INDEX_ENV_NAME)) continue;
    c.env = [...env, { name: COMPLETION_INDEX_ENV_NAME, valueFrom: { fieldRef: { fieldPath: `metadata.labels['${JOB_COMPLETION_INDEX_ANNOTATION}']` } } }];
  }
}

/** The template of one index: annotation, label, hostname. */
export function indexedTemplate(template: Loose, jobName: string, index: number): Loose {
  const t = JSON.parse(JSON.stringify(template));
  t.metadata = { ...(t.metadata ?? {}), annotations: { ...(t.metadata?.annotations ?? {}), [JOB_COMPLETION_INDEX_ANNOTATION]: String(index) }, labels: { ...(t.metadata?.labels ?? {}), [JOB_COMPLETION_INDEX_ANNOTATION]: String(index) } };
  t.spec = { ...(t.spec ?? {}), hostname: `${jobName}-${index}` };
  return t;
}

// ---- pod failure policy (pod_failure_policy.go)

export type PolicyAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

/** A terminated container whose non-zero exit code the requirement matches. */
function matchingContainer(statuses: Loose[] | undefined, req: Loose): Loose | null {
  for (const cs of statuses ?? []) {
    const term = cs?.state?.terminated;
    if (!term) continue;
    if (req.containerName && req.containerName !== cs.name) continue;
    if (term.exitCode === 0) continue;
    const has = (req.values ?? []).includes(term.exitCode);
    if ((req.operator === 'In' && has) || (req.operator === 'NotIn' && !has)) return cs;
  }
  return null;
}

/**
 * matchPodFailurePolicy: the first rule a failed pod matches decides whether
 * its failure counts toward backoffLimit and, for FailJob, the message.
 */
export function matchPodFailurePolicy(job: Loose, pod: Loose): { message: string | null; countFailed: boolean; action: PolicyAction | null } {
  const policy = job.spec?.podFailurePolicy;
  if (!policy) return { message: null, countFailed: true, action: null };
  const rules: Loose[] = policy.rules ?? [];
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    if (rule.onExitCodes) {
      const cs = matchingContainer(pod.status?.containerStatuses, rule.onExitCodes) ?? matchingContainer(pod.status?.initContainerStatuses, rule.onExitCodes);
      if (!cs) continue;
      if (rule.action === 'Ignore') return { message: null, countFailed: false, action: 'Ignore' };
      if (rule.action === 'Count') return { message: null, countFailed: true, action: 'Count' };
      if (rule.action === 'FailIndex') return { message: null, countFailed: true, action: 'FailIndex' };
      if (rule.action === 'FailJob') {
        return { message: `Container ${cs.name} for pod ${pod.metadata.namespace}/${pod.metadata.name} failed with exit code ${cs.state.terminated.exitCode} matching ${rule.action} rule at index ${index}`, countFailed: true, action: 'FailJob' };
      }
    } else if (rule.onPodConditions) {
      const cond = (pod.status?.conditions ?? []).find((c: Loose) => (rule.onPodConditions as Loose[]).some((p) => c.type === p.type && c.status === (p.status ?? 'True')));
      if (!cond) continue;
      if (rule.action === 'Ignore') return { message: null, countFailed: false, action: 'Ignore' };
      if (rule.action === 'Count') return { message: null, countFailed: true, action: 'Count' };
      if (rule.action === 'FailIndex') return { message: null, countFailed: true, action: 'FailIndex' };
      if (rule.action === 'FailJob') return { message: `Pod ${pod.metadata.namespace}/${pod.metadata.name} has condition ${cond.type} matching ${rule.action} rule at index ${index}`, countFailed: true, action: 'FailJob' };
    }
  }
  return { message: null, countFailed: true, action: null };
}

export type { KObject };
