// Taints and tolerations as the scheduler matches them: Toleration.ToleratesTaint
// (k8s.io/api/core/v1/toleration.go, v1.32: no Gt/Lt operators yet) and
// FindMatchingUntoleratedTaint / TolerationsTolerateTaint
// (k8s.io/component-helpers/scheduling/corev1/helpers.go), plus the filter
// pkg/scheduler/framework/plugins/helper/taint.go provides.
//
// All of these allocate nothing: callers pass one of the module-level filters
// below (or another function made once), never a closure per node.
import type { Taint, Toleration } from '../../framework/api';

/** Selects the taints a check is about (upstream's taintsFilterFunc). */
export type TaintFilter = (taint: Taint) => boolean;

/**
 * Toleration.ToleratesTaint: an empty effect matches every effect; an empty
 * key matches every key (only meaningful with Exists); operator Exists matches
 * any value, "" or Equal needs equal values (absent = ""); anything else: no.
 */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator) {
    case undefined:
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      // An operator the API would have rejected (stored as a string anyway).
      return (t.operator as string) === '' ? (t.value ?? '') === (taint.value ?? '') : false;
  }
}

/** TolerationsTolerateTaint: some toleration tolerates the taint. */
export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  if (!tolerations) return false;
  for (let i = 0; i < tolerations.length; i++) if (toleratesTaint(tolerations[i]!, taint)) return true;
  return false;
}

/**
 * FindMatchingUntoleratedTaint: the first taint (in node order) that passes
 * `filter` (all taints when absent) and no toleration tolerates; undefined
 * when every such taint is tolerated.
 */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  filter?: TaintFilter,
): Taint | undefined {
  if (!taints) return undefined;
  for (let i = 0; i < taints.length; i++) {
    const taint = taints[i]!;
    if (filter !== undefined && !filter(taint)) continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}

/** helper.DoNotScheduleTaintsFilterFunc: the NoSchedule and NoExecute taints (what Filter cares about). */
export const doNotScheduleTaintsFilter: TaintFilter = (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

/** The PreferNoSchedule taints (TaintToleration's Score). */
export const preferNoScheduleTaintsFilter: TaintFilter = (t) => t.effect === 'PreferNoSchedule';

