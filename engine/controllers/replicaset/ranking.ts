// Which pods a ReplicaSet deletes first when scaling down, as upstream's
// controller.ActivePodsWithRanks.Less (pkg/controller/controller_utils.go,
// v1.32, LogarithmicScaleDown and PodDeletionCost on) and
// replica_set.go getPodsToDelete / getPodsRankedByRelatedPodsOnSameNode.
import type { KObject } from '../../apimachinery/types';
import { asPod, isPodActive, isPodReady, nodeName, podPhase, podReadyCondition, timeOf } from './podUtil';

export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function phaseOrdinal(p: KObject): number {
  return PHASE_ORDINAL[podPhase(p)] ?? 0;
}

/** helper.GetDeletionCostFromPodAnnotations: an int32; invalid or absent → 0. */
export function deletionCost(p: KObject): number {
  const v = p.metadata.annotations?.[POD_DELETION_COST];
  if (v === undefined || !/^[+-]?\d+$/.test(v.trim())) return 0;
  const n = Number(v.trim());
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

function maxRestarts(p: KObject): { regular: number; sidecar: number } {
  const pod = asPod(p);
  let regular = 0;
  let sidecar = 0;
  for (const c of pod.status?.containerStatuses ?? []) regular = Math.max(regular, c.restartCount ?? 0);
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  for (const c of pod.status?.initContainerStatuses ?? []) if (sidecars.has(c.name)) sidecar = Math.max(sidecar, c.restartCount ?? 0);
  return { regular, sidecar };
}

/** afterOrZero: a zero time sorts first, else the later one. */
function afterOrZero(t1: number | null, t2: number | null): boolean {
  if (t1 === null || t2 === null) return t1 === null;
  return t1 > t2;
}

/** logarithmicRankDiff: floor(log2(age in ns)) of each, compared. */
function logRank(t: number, now: number): number {
  const d = (now - t) * 1_000_000;
  return d > 0 ? Math.floor(Math.log2(d)) : -1;
}

function compareTimes(t1: number | null, t2: number | null, now: number, uid1: string, uid2: string): boolean {
  if (t1 === null || t2 === null) return afterOrZero(t1, t2);
  const diff = logRank(t1, now) - logRank(t2, now);
  if (diff === 0) return uid1 < uid2;
  return diff < 0;
}

export interface RankedPod {
  pod: KObject;
  /** Related active pods on the same node: more doubled-up pods go first. */
  rank: number;
}

/** ActivePodsWithRanks.Less: true when `a` should be deleted before `b`. `now` is virtual ms. */
export function lessRanked(a: RankedPod, b: RankedPod, now: number): boolean {
  const pi = a.pod;
  const pj = b.pod;
  // 1. Unassigned < assigned.
  const ni = nodeName(pi);
  const nj = nodeName(pj);
  if (ni !== nj && (ni === '' || nj === '')) return ni === '';
  // 2. Pending < Unknown < Running.
  if (phaseOrdinal(pi) !== phaseOrdinal(pj)) return phaseOrdinal(pi) < phaseOrdinal(pj);
  // 3. Not ready < ready.
  if (isPodReady(pi) !== isPodReady(pj)) return !isPodReady(pi);
  // 4. Lower pod-deletion-cost < higher.
  const ci = deletionCost(pi);
  const cj = deletionCost(pj);
  if (ci !== cj) return ci < cj;
  // 5. Doubled up < not doubled up.
  if (a.rank !== b.rank) return a.rank > b.rank;
  const uidI = pi.metadata.uid ?? '';
  const uidJ = pj.metadata.uid ?? '';
  // 6. Ready for less time < more time (logarithmic buckets).
  if (isPodReady(pi) && isPodReady(pj)) {
    const ri = timeOf(podReadyCondition(pi)?.lastTransitionTime);
    const rj = timeOf(podReadyCondition(pj)?.lastTransitionTime);
    if (ri !== rj) return compareTimes(ri, rj, now, uidI, uidJ);
  }
  // 7. More container restarts < fewer (regular containers, then sidecars).
  const mi = maxRestarts(pi);
  const mj = maxRestarts(pj);
  if (mi.regular !== mj.regular) return mi.regular > mj.regular;
  if (mi.sidecar !== mj.sidecar) return mi.sidecar > mj.sidecar;
  // 8. Newer < older (logarithmic buckets).
  const ti = timeOf(pi.metadata.creationTimestamp);
  const tj = timeOf(pj.metadata.creationTimestamp);
  if (ti !== tj) return compareTimes(ti, tj, now, uidI, uidJ);
  return false;
}

/** Sorts by lessRanked (stable; upstream's sort.Sort is not, equal pods may come in another order). */
export function sortRanked(pods: RankedPod[], now: number): RankedPod[] {
  return pods.sort((a, b) => (lessRanked(a, b, now) ? -1 : lessRanked(b, a, now) ? 1 : 0));
}

/** getPodsToDelete: the `diff` pods to delete first; ranks count related active pods per node. */
export function getPodsToDelete(filteredPods: readonly KObject[], relatedPods: readonly KObject[], diff: number, now: number): KObject[] {
  if (diff >= filteredPods.length) return filteredPods.slice(0, diff);
  const onNode = new Map<string, number>();
  for (const p of relatedPods) if (isPodActive(p)) onNode.set(nodeName(p), (onNode.get(nodeName(p)) ?? 0) + 1);
  const ranked = filteredPods.map((pod) => ({ pod, rank: onNode.get(nodeName(pod)) ?? 0 }));
  return sortRanked(ranked, now)
    .slice(0, diff)
    .map((r) => r.pod);
}

