// Pod ordering helpers of pkg/scheduler/util/utils.go (v1.32) used by
// preemption: GetPodStartTime, MoreImportantPod, GetEarliestPodStartTime.
// Times are virtual milliseconds.
import { parseRfc3339 } from '../../apiserver/http/time';
import { podPriority, type Pod } from '../framework/api';

/**
 * GetPodStartTime: status.startTime, or "now" for pods that have not started
 * (assumed pods, bound but not yet running).
 */
export function podStartTime(pod: Pod, now: number): number {
  const st = pod.status?.startTime;
  if (st) {
    const ms = parseRfc3339(st);
    if (!Number.isNaN(ms)) return ms;
  }
  return now;
}

/** MoreImportantPod: higher priority first; equal priorities, the one that started earlier. */
export function moreImportantPod(a: Pod, b: Pod, now: number): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return podStartTime(a, now) < podStartTime(b, now);
}

/** Sorts pods most important first (stable, like Go's sort.Slice on up to 12 items). */
export function sortByImportance(pods: Pod[], now: number): void {
  pods.sort((a, b) => (moreImportantPod(a, b, now) ? -1 : moreImportantPod(b, a, now) ? 1 : 0));
}

/** GetEarliestPodStartTime: the earliest start time among the highest-priority victims (undefined for none). */
export function earliestPodStartTime(victims: readonly Pod[], now: number): number | undefined {
  const first = victims[0];
  if (!first) return undefined;
  let earliest = podStartTime(first, now);
  let maxPriority = podPriority(first);
  for (const p of victims) {
    const prio = podPriority(p);
    if (prio === maxPriority) {
      const st = podStartTime(p, now);
      if (st < earliest) earliest = st;
    } else if (prio > maxPriority) {
      maxPriority = prio;
      earliest = podStartTime(p, now);
    }
  }
  return earliest;
}

/** utilerrors.NewAggregate(errs).Error(): one message alone, several deduplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  if (messages.length === 1) return messages[0]!;
  const seen = new Set<string>();
  for (const m of messages) seen.add(m);
  const joined = [...seen].join(', ');
  return seen.size === 1 ? joined : `[${joined}]`;
}
