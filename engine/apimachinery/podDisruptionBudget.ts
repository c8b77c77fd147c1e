// The DisruptionAllowed condition both the eviction subresource and the
// disruption controller keep (k8s.io/component-helpers/apps/poddisruptionbudget).
import { findStatusCondition, setStatusCondition, type Condition } from './conditions';

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const SUFFICIENT_PODS = 'SufficientPods';
export const INSUFFICIENT_PODS = 'InsufficientPods';
export const SYNC_FAILED = 'SyncFailed';

export interface PdbStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string> | null;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: Condition[];
}

/** UpdateDisruptionAllowedCondition (`now` an RFC 3339 time). */
export function updateDisruptionAllowedCondition(status: PdbStatus, now: string): void {
  status.conditions ??= [];
  const allowed = status.disruptionsAllowed > 0;
  setStatusCondition(status.conditions, { type: DISRUPTION_ALLOWED, status: allowed ? 'True' : 'False', reason: allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS, message: '', observedGeneration: status.observedGeneration ?? 0 }, now);
}

/** ConditionsAreUpToDate. */
export function conditionsAreUpToDate(status: PdbStatus, generation: number): boolean {
  const c = findStatusCondition(status.conditions, DISRUPTION_ALLOWED);
  if (!c || (status.observedGeneration ?? 0) !== generation) return false;
  return status.disruptionsAllowed > 0 ? c.status === 'True' && c.reason === SUFFICIENT_PODS : c.status === 'False' && c.reason === INSUFFICIENT_PODS;
}
