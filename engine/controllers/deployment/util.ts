// Deployment arithmetic and bookkeeping, after upstream v1.32's
// pkg/controller/deployment/util/deployment_util.go and
// k8s.io/apimachinery/pkg/util/intstr (GetScaledValueFromIntOrPercent).
import type { KObject } from '../../apimachinery/types';
import type { LabelSelector } from '../../apimachinery/selectors/labels';
import { rfc3339 } from '../../apiserver/http/time';
import { rsReplicas, rsStatus } from '../replicaset/controller';
import { timeOf } from '../replicaset/podUtil';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY = 'pod-template-hash';
/** Annotations never copied from a Deployment to its ReplicaSets. */
const SKIP_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration', REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION, DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, 'deprecated.deployment.rollback.to']);
export const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;
const MAX_INT32 = 2147483647;

// Condition reasons (deployment_util.go).
export const NEW_RS_AVAILABLE_REASON = 'NewReplicaSetAvailable';
export const TIMED_OUT_REASON = 'ProgressDeadlineExceeded';
export const REPLICA_SET_UPDATED_REASON = 'ReplicaSetUpdated';
export const FOUND_NEW_RS_REASON = 'FoundNewReplicaSet';
export const NEW_RS_REASON = 'NewReplicaSetCreated';
export const PAUSED_DEPLOY_REASON = 'DeploymentPaused';
export const RESUMED_DEPLOY_REASON = 'DeploymentResumed';
export const MINIMUM_REPLICAS_AVAILABLE = 'MinimumReplicasAvailable';
export const MINIMUM_REPLICAS_UNAVAILABLE = 'MinimumReplicasUnavailable';

export type IntOrString = number | string;

export interface DeploymentSpec {
  replicas?: number;
  selector?: LabelSelector;
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown };
  strategy?: { type?: 'RollingUpdate' | 'Recreate'; rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString } };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export interface DeploymentCondition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

export const dSpec = (d: KObject): DeploymentSpec => (d.spec ?? {}) as DeploymentSpec;
export const dStatus = (d: KObject): DeploymentStatus => (d.status ?? {}) as DeploymentStatus;
export const dReplicas = (d: KObject): number => dSpec(d).replicas ?? 1;
export const isRollingUpdate = (d: KObject): boolean => (dSpec(d).strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

/** intstr.GetScaledValueFromIntOrPercent: "25%" of total, rounded up or down. */
export function scaledValue(v: IntOrString, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) {
    const n = Number(v);
    return Number.isInteger(n) ? n : 0;
  }
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

function rollingParams(d: KObject): { maxSurge: IntOrString; maxUnavailable: IntOrString } {
  const ru = dSpec(d).strategy?.rollingUpdate ?? {};
  return { maxSurge: ru.maxSurge ?? '25%', maxUnavailable: ru.maxUnavailable ?? '25%' };
}

/** ResolveFenceposts: surge rounds up, unavailable down; both 0 → unavailable 1. */
export function resolveFenceposts(maxSurge: IntOrString, maxUnavailable: IntOrString, desired: number): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge, desired, true);
  let unavailable = scaledValue(maxUnavailable, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(d: KObject): number {
  if (!isRollingUpdate(d)) return 0;
  const p = rollingParams(d);
  return resolveFenceposts(p.maxSurge, p.maxUnavailable, dReplicas(d)).surge;
}

export function maxUnavailable(d: KObject): number {
  const replicas = dReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const p = rollingParams(d);
  return Math.min(resolveFenceposts(p.maxSurge, p.maxUnavailable, replicas).unavailable, replicas);
}

export const specReplicasSum = (rss: readonly (KObject | null)[]): number => rss.reduce((n, rs) => n + (rs ? rsReplicas(rs) : 0), 0);
export const actualReplicasSum = (rss: readonly (KObject | null)[]): number => rss.reduce((n, rs) => n + (rs ? rsStatus(rs).replicas ?? 0 : 0), 0);
export const readyReplicasSum = (rss: readonly (KObject | null)[]): number => rss.reduce((n, rs) => n + (rs ? rsStatus(rs).readyReplicas ?? 0 : 0), 0);
export const availableReplicasSum = (rss: readonly (KObject | null)[]): number => rss.reduce((n, rs) => n + (rs ? rsStatus(rs).availableReplicas ?? 0 : 0), 0);

/** NewRSNewReplicas: how far the new ReplicaSet may grow now. */
export function newRSNewReplicas(d: KObject, allRSs: readonly (KObject | null)[], newRSReplicas: number): number {
  if (!isRollingUpdate(d)) return dReplicas(d);
  const surge = scaledValue(rollingParams(d).maxSurge, dReplicas(d), true);
  const current = specReplicasSum(allRSs);
  const maxTotal = dReplicas(d) + surge;
  if (current >= maxTotal) return newRSReplicas;
  return newRSReplicas + Math.min(maxTotal - current, dReplicas(d) - newRSReplicas);
}

export function revisionOf(rs: KObject): number {
  const v = rs.metadata.annotations?.[REVISION_ANNOTATION];
  if (v === undefined || !/^\d+$/.test(v)) return 0;
  return Number(v);
}

export const maxRevision = (rss: readonly KObject[]): number => rss.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);

/** ReplicaSetsByCreationTimestamp: older first, then by name. */
export function byCreation(a: KObject, b: KObject): number {
  const ta = timeOf(a.metadata.creationTimestamp) ?? -Infinity;
  const tb = timeOf(b.metadata.creationTimestamp) ?? -Infinity;
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
}

/** ReplicaSetsByRevision: lower revision first, then by creation. */
export const byRevision = (a: KObject, b: KObject): number => revisionOf(a) - revisionOf(b) || byCreation(a, b);
/** ReplicaSetsBySizeNewer: larger first, then newer. */
export const bySizeNewer = (a: KObject, b: KObject): number => rsReplicas(b) - rsReplicas(a) || byCreation(b, a);
/** ReplicaSetsBySizeOlder: larger first, then older. */
export const bySizeOlder = (a: KObject, b: KObject): number => rsReplicas(b) - rsReplicas(a) || byCreation(a, b);

/** EqualIgnoreHash: templates equal once the pod-template-hash label is dropped (compared in place, no copies). */
export function equalIgnoreHash(t1: unknown, t2: unknown): boolean {
  const { metadata: m1, ...rest1 } = (t1 ?? {}) as { metadata?: unknown };
  const { metadata: m2, ...rest2 } = (t2 ?? {}) as { metadata?: unknown };
  return deepEqual(rest1, rest2) && deepEqual(metaIgnoringHash(m1), metaIgnoringHash(m2));
}

/** A template's metadata without the hash label; no labels left drops labels (an absent metadata reads as empty). */
function metaIgnoringHash(m: unknown): Record<string, unknown> {
  if (typeof m !== 'object' || m === null) return {};
  const { labels, ...rest } = m as { labels?: unknown };
  if (typeof labels !== 'object' || labels === null) return labels === undefined ? rest : { ...rest, labels };
  const { [DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY]: _hash, ...others } = labels as Record<string, unknown>;
  return Object.keys(others).some((k) => others[k] !== undefined) ? { ...rest, labels: others } : rest;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** FilterActiveReplicaSets: spec.replicas > 0. */
export const activeRSs = (rss: readonly (KObject | null)[]): KObject[] => rss.filter((rs): rs is KObject => !!rs && rsReplicas(rs) > 0);

/** FindActiveOrLatest: the only active ReplicaSet, else the newest when none is active. */
export function findActiveOrLatest(newRS: KObject | null, oldRSs: readonly KObject[]): KObject | null {
  if (!newRS && !oldRSs.length) return null;
  const all = [...oldRSs, ...(newRS ? [newRS] : [])].sort((a, b) => byCreation(b, a));
  const active = activeRSs(all);
  if (active.length === 0) return newRS ?? all[0] ?? null;
  if (active.length === 1) return active[0]!;
  return null;
}

/** IsSaturated: the new ReplicaSet has all the Deployment's replicas, all available. */
export function isSaturated(d: KObject, rs: KObject | null): boolean {
  if (!rs) return false;
  const desired = Number(rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION]);
  return desired === dReplicas(d) && rsReplicas(rs) === dReplicas(d) && (rsStatus(rs).availableReplicas ?? 0) === dReplicas(d);
}

/** getReplicaSetFraction / GetProportion: an RS's share of a proportional scale. */
export function getProportion(rs: KObject, d: KObject, toAdd: number, added: number): number {
  if (rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  let fraction: number;
  if (dReplicas(d) === 0) fraction = -rsReplicas(rs);
  else {
    const maxReplicas = dReplicas(d) + maxSurge(d);
    let before = Number(rs.metadata.annotations?.[MAX_REPLICAS_ANNOTATION]);
    if (!Number.isInteger(before) || before === 0) before = dStatus(d).replicas ?? 0;
    fraction = before === 0 ? 0 : roundHalfAway((rsReplicas(rs) * maxReplicas) / before) - rsReplicas(rs);
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

const roundHalfAway = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));

/** SetReplicasAnnotations: desired-replicas and max-replicas; true when changed. */
export function setReplicasAnnotations(rs: KObject, desired: number, max: number): boolean {
  const a = (rs.metadata.annotations ??= {});
  let changed = false;
  if (a[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    a[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    changed = true;
  }
  if (a[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    a[MAX_REPLICAS_ANNOTATION] = String(max);
    changed = true;
  }
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: KObject, desired: number, max: number): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max);
}

/** SetNewReplicaSetAnnotations: copies the Deployment's annotations, raises the revision (keeping a history on rollback). */
export function setNewReplicaSetAnnotations(d: KObject, rs: KObject, newRevision: number, exists: boolean): boolean {
  const a = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIP_ANNOTATIONS.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const oldRevision = a[REVISION_ANNOTATION];
  let oldInt = 0;
  if (oldRevision !== undefined && oldRevision !== '') {
    if (!/^\d+$/.test(oldRevision)) return false;
    oldInt = Number(oldRevision);
  }
  if (oldInt < newRevision) {
    a[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (oldRevision !== undefined) {
      const history = a[REVISION_HISTORY_ANNOTATION] ?? '';
      let old = history.split(',');
      if (!old[0]) a[REVISION_HISTORY_ANNOTATION] = oldRevision;
      else {
        let total = history.length + oldRevision.length + 1;
        let start = 0;
        while (total > MAX_REV_HISTORY_LENGTH_IN_CHARS && start < old.length) total -= old[start++]!.length + 1;
        if (total <= MAX_REV_HISTORY_LENGTH_IN_CHARS) {
          old = [...old.slice(start), oldRevision];
          a[REVISION_HISTORY_ANNOTATION] = old.join(',');
        }
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, dReplicas(d), dReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}

export const hasProgressDeadline = (d: KObject): boolean => {
  const p = dSpec(d).progressDeadlineSeconds;
  return p !== undefined && p !== null && p !== MAX_INT32;
};

export const hasRevisionHistoryLimit = (d: KObject): boolean => {
  const l = dSpec(d).revisionHistoryLimit;
  return l !== undefined && l !== null && l !== MAX_INT32;
};

export function getCondition(s: DeploymentStatus, type: string): DeploymentCondition | undefined {
  return s.conditions?.find((c) => c.type === type);
}

export function newCondition(type: string, status: string, reason: string, message: string, now: number): DeploymentCondition {
  const t = rfc3339(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

/** SetDeploymentCondition: no-op for the same status and reason; keeps lastTransitionTime for the same status. */
export function setCondition(s: DeploymentStatus, c: DeploymentCondition): void {
  const cur = getCondition(s, c.type);
  if (cur && cur.status === c.status && cur.reason === c.reason) return;
  if (cur && cur.status === c.status) c.lastTransitionTime = cur.lastTransitionTime;
  s.conditions = [...(s.conditions ?? []).filter((x) => x.type !== c.type), c];
}

export function removeCondition(s: DeploymentStatus, type: string): void {
  if (s.conditions) s.conditions = s.conditions.filter((c) => c.type !== type);
}

/** DeploymentComplete. */
export function deploymentComplete(d: KObject, s: DeploymentStatus): boolean {
  const r = dReplicas(d);
  return (s.updatedReplicas ?? 0) === r && (s.replicas ?? 0) === r && (s.availableReplicas ?? 0) === r && (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available than before. */
export function deploymentProgressing(d: KObject, s: DeploymentStatus): boolean {
  const o = dStatus(d);
  const oldOld = (o.replicas ?? 0) - (o.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (s.updatedReplicas ?? 0) > (o.updatedReplicas ?? 0) || newOld < oldOld || (s.readyReplicas ?? 0) > (o.readyReplicas ?? 0) || (s.availableReplicas ?? 0) > (o.availableReplicas ?? 0);
}

/** DeploymentTimedOut: the Progressing condition was last updated more than progressDeadlineSeconds ago. */
export function deploymentTimedOut(d: KObject, s: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, 'Progressing');
  if (!c) return false;
  if (c.reason === NEW_RS_AVAILABLE_REASON) return false;
  if (c.reason === TIMED_OUT_REASON) return true;
  const from = timeOf(c.lastUpdateTime);
  return from !== null && from + (dSpec(d).progressDeadlineSeconds ?? 0) * 1000 < now;
}
