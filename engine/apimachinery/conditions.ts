// metav1.Condition lists (k8s.io/apimachinery/pkg/api/meta/conditions.go):
// FindStatusCondition and SetStatusCondition, whose lastTransitionTime moves
// only when the status changes.

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export function findStatusCondition(conditions: readonly Condition[] | undefined | null, type: string): Condition | undefined {
  return (conditions ?? []).find((c) => c.type === type);
}

/** SetStatusCondition: adds or updates the condition of its type (`now` an RFC 3339 time); true when something changed. */
export function setStatusCondition(conditions: Condition[], c: Omit<Condition, 'lastTransitionTime'> & { lastTransitionTime?: string }, now: string): boolean {
  const i = conditions.findIndex((x) => x.type === c.type);
  const ordered = (x: Condition): Condition => ({ type: x.type, status: x.status, ...(x.observedGeneration ? { observedGeneration: x.observedGeneration } : {}), lastTransitionTime: x.lastTransitionTime, reason: x.reason, message: x.message });
  if (i < 0) {
    conditions.push(ordered({ ...c, lastTransitionTime: c.lastTransitionTime || now }));
    return true;
  }
  const old = conditions[i]!;
  const next = ordered({ ...c, lastTransitionTime: old.status !== c.status ? c.lastTransitionTime || now : old.lastTransitionTime });
  conditions[i] = next;
  return JSON.stringify(old) !== JSON.stringify(next);
}
