// Pod back-off (PriorityQueue.calculateBackoffDuration / getBackoffTime):
// podInitialBackoffSeconds doubled per attempt after the first, capped at
// podMaxBackoffSeconds, counted from the pod's last failure (its timestamp).
import { registerClass } from '../../sim/serial';
import type { QueuedPodInfo } from '../framework/interface';

/** Defaults of KubeSchedulerConfiguration v1 (podInitialBackoffSeconds 1, podMaxBackoffSeconds 10). */
export const DEFAULT_POD_INITIAL_BACKOFF_MS = 1_000;
export const DEFAULT_POD_MAX_BACKOFF_MS = 10_000;
/** DefaultPodMaxInUnschedulablePodsDuration: 5 minutes. */
export const DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS = 5 * 60_000;

export function calculateBackoffDuration(attempts: number, initialMs: number, maxMs: number): number {
  let duration = initialMs;
  for (let i = 1; i < attempts; i++) {
    // Compared by subtraction, as upstream does to avoid overflow.
    if (duration > maxMs - duration) return maxMs;
    duration += duration;
  }
  return duration;
}

/** backoffQ's order (podsCompareBackoffCompleted): earliest back-off expiry first. */
export class BackoffOrder {
  constructor(
    readonly initialMs: number,
    readonly maxMs: number,
  ) {}

  backoffTime(p: QueuedPodInfo): number {
    return p.timestamp + calculateBackoffDuration(p.attempts, this.initialMs, this.maxMs);
  }

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    return this.backoffTime(a) < this.backoffTime(b);
  }
}

registerClass('SchedulerQueueBackoffOrder', BackoffOrder);
