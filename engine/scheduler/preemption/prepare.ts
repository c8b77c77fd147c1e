// The REST calls preemption makes once it has chosen a node
// (prepareCandidate and Evaluator.PreemptPod in
// pkg/scheduler/framework/preemption/preemption.go, util.PatchPodStatus and
// ClearNominatedNodeName in pkg/scheduler/util/utils.go, v1.32), as plans:
// per victim, a status patch adding the DisruptionTarget condition, the
// deletion, and the "Preempted" event (for the profile's recorder); then each
// lower-priority pod nominated to the node loses its nomination.
import type { JsonObject } from '../../apimachinery/types';
import { createTwoWayMergePatch, patchMetaFor } from '../../apimachinery/patch';
import { rfc3339 } from '../../apiserver/http/time';
import { DEFAULT_SCHEDULER_NAME, type Pod, type PodCondition, type PodStatus } from '../framework/api';
import type { ApiAction, PostFilterAction } from '../framework/interface';

export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

/** v1.DisruptionTarget and v1.PodReasonPreemptionByScheduler */
export const DISRUPTION_TARGET = 'DisruptionTarget';
export const REASON_PREEMPTION_BY_SCHEDULER = 'PreemptionByScheduler';

const podPath = (p: Pod) => `/api/v1/namespaces/${p.metadata.namespace ?? ''}/pods/${p.metadata.name ?? ''}`;
const podRef = (p: Pod) => `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;

/**
 * util.PatchPodStatus: a strategic merge patch from the old status to the new
 * one (null when nothing changed, as upstream skips "{}").
 */
export function patchPodStatusAction(pod: Pod, newStatus: PodStatus, description: string): ApiAction | null {
  const meta = patchMetaFor('', 'v1', 'Pod');
  const r = createTwoWayMergePatch({ status: (pod.status ?? {}) as JsonObject }, { status: newStatus as JsonObject }, meta);
  if (!r.ok || Object.keys(r.value).length === 0) return null;
  return { method: 'PATCH', path: `${podPath(pod)}/status`, body: r.value, contentType: STRATEGIC_MERGE_PATCH, description };
}

/**
 * apipod.UpdatePodCondition: adds the condition, or replaces the one of the
 * same type (keeping its transition time when the status is unchanged);
 * returns null when the result equals what was there.
 */
export function updatePodCondition(status: PodStatus, cond: PodCondition): PodStatus | null {
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === cond.type);
  if (i < 0) return { ...status, conditions: [...conditions, cond] };
  const old = conditions[i]!;
  const next: PodCondition = old.status === cond.status ? { ...cond, lastTransitionTime: old.lastTransitionTime } : cond;
  const equal =
    next.status === old.status &&
    (next.reason ?? '') === (old.reason ?? '') &&
    (next.message ?? '') === (old.message ?? '') &&
    (next.lastProbeTime ?? null) === (old.lastProbeTime ?? null) &&
    next.lastTransitionTime === old.lastTransitionTime;
  if (equal) return null;
  const copy = conditions.slice();
  copy[i] = next;
  return { ...status, conditions: copy };
}

/** Evaluator.PreemptPod for one victim: condition patch (if it changes anything), delete, event. */
export function preemptPodActions(preemptor: Pod, victim: Pod, nodeName: string, now: number): PostFilterAction[] {
  const actions: PostFilterAction[] = [];
  const cond: PodCondition = {
    type: DISRUPTION_TARGET,
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: rfc3339(now),
    reason: REASON_PREEMPTION_BY_SCHEDULER,
    message: `${preemptor.spec.schedulerName ?? DEFAULT_SCHEDULER_NAME}: preempting to accommodate a higher priority pod`,
  };
  const newStatus = updatePodCondition(victim.status ?? {}, cond);
  if (newStatus) {
    const patch = patchPodStatusAction(victim, newStatus, `mark pod ${podRef(victim)} DisruptionTarget (preempted by ${podRef(preemptor)})`);
    if (patch) actions.push(patch);
  }
  actions.push({ method: 'DELETE', path: podPath(victim), description: `delete pod ${podRef(victim)} (preempted by ${podRef(preemptor)} on node ${nodeName})` });
  // Through the framework handle's EventRecorder: the recorder of the profile
  // named by the preemptor's schedulerName.
  actions.push({
    event: { regarding: victim, related: preemptor, type: 'Normal', reason: 'Preempted', action: 'Preempting', note: `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${nodeName}` },
    description: `event Preempted on pod ${podRef(victim)}`,
  });
  return actions;
}

/** ClearNominatedNodeName: a status patch per pod that has a nomination. */
export function clearNominatedNodeNameActions(pods: readonly Pod[]): ApiAction[] {
  const out: ApiAction[] = [];
  for (const p of pods) {
    if (!p.status?.nominatedNodeName) continue;
    const { nominatedNodeName: _dropped, ...rest } = p.status;
    const a = patchPodStatusAction(p, rest, `clear nominatedNodeName of pod ${podRef(p)}`);
    if (a) out.push(a);
  }
  return out;
}
