// PodDisruptionBudgets as preemption weighs them (filterPodsWithPDBViolation,
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go v1.32).
import { isEmpty, labelSelectorAsSelector, matches, type Selector } from '../../apimachinery/selectors/labels';
import type { Pod } from '../framework/api';
import type { Handle } from '../framework/interface';
import type { PodInfo } from '../framework/podInfo';
import type { PodDisruptionBudget } from './types';

/** getPodDisruptionBudgets: every PDB the informer holds, in lister order. */
export function listPodDisruptionBudgets(handle: Handle): PodDisruptionBudget[] {
  return [...handle.lister('poddisruptionbudgets').list()] as PodDisruptionBudget[];
}

interface ParsedPdb {
  namespace: string;
  /** Undefined when the selector is invalid, nil or empty: such a PDB matches nothing. */
  selector: Selector | undefined;
  disrupted: Record<string, string> | null | undefined;
}

function parse(pdb: PodDisruptionBudget): ParsedPdb {
  const r = labelSelectorAsSelector(pdb.spec?.selector);
  // A nil selector parses to Nothing and an empty one to Everything: upstream skips both.
  const selector = r.ok && !isEmpty(r.selector) && r.selector.type !== 'Nothing' ? r.selector : undefined;
  return { namespace: pdb.metadata.namespace ?? '', selector, disrupted: pdb.status?.disruptedPods };
}

/**
 * Splits pods (already in importance order) into those whose eviction would
 * break a PDB and the rest. Each matching PDB's budget is spent pod by pod, so
 * with disruptionsAllowed 1 the first matching pod is fine and the second
 * violates. A pod already listed in a PDB's disruptedPods has been counted by
 * the API server and spends nothing.
 */
export function filterPodsWithPDBViolation<T extends PodInfo | Pod>(
  pods: readonly T[],
  pdbs: readonly PodDisruptionBudget[],
): { violating: T[]; nonViolating: T[] } {
  const parsed = pdbs.map(parse);
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const violating: T[] = [];
  const nonViolating: T[] = [];
  for (const item of pods) {
    const pod: Pod = 'pod' in item ? (item as PodInfo).pod : (item as Pod);
    const labels = pod.metadata.labels;
    let violated = false;
    // A pod without labels matches no PDB.
    if (labels && Object.keys(labels).length > 0) {
      for (let i = 0; i < parsed.length; i++) {
        const p = parsed[i]!;
        if (p.namespace !== (pod.metadata.namespace ?? '')) continue;
        if (!p.selector || !matches(p.selector, labels)) continue;
        if (p.disrupted && Object.hasOwn(p.disrupted, pod.metadata.name ?? '')) continue;
        allowed[i]!--;
        if (allowed[i]! < 0) violated = true;
      }
    }
    (violated ? violating : nonViolating).push(item);
  }
  return { violating, nonViolating };
}
