// What the clusterrole-aggregation controller computes
// (pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go):
// a ClusterRole with an aggregationRule gets the rules of every ClusterRole its
// selectors match, taken in name order, without duplicates.
import { labelSelectorAsSelector, matches } from '../../apimachinery/selectors/labels';
import type { KObject } from '../../apimachinery/types';
import { aggregationRuleOf, rulesOf, type LabelSelector, type PolicyRule } from './rbacTypes';

/**
 * metav1.LabelSelectorAsSelector + Matches. An empty selector matches everything;
 * one that does not convert matches nothing (upstream's controller gives up on it).
 */
export function labelSelectorMatches(selector: LabelSelector, labels: Record<string, string>): boolean {
  const r = labelSelectorAsSelector(selector);
  return r.ok && matches(r.selector, labels);
}

const norm = (a: readonly string[] | undefined) => (a ?? []).join('\u0000');

/** equality.Semantic.DeepEqual on rules: nil and empty lists are equal. */
export function rulesEqual(a: PolicyRule, b: PolicyRule): boolean {
  return (
    norm(a.verbs) === norm(b.verbs) &&
    norm(a.apiGroups) === norm(b.apiGroups) &&
    norm(a.resources) === norm(b.resources) &&
    norm(a.resourceNames) === norm(b.resourceNames) &&
    norm(a.nonResourceURLs) === norm(b.nonResourceURLs)
  );
}

const byName = (a: KObject, b: KObject) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0);

/** The rules the controller would write into `role`, given every ClusterRole (one pass). */
export function aggregatedRules(role: KObject, allRoles: readonly KObject[]): PolicyRule[] | undefined {
  const rule = aggregationRuleOf(role);
  if (!rule) return undefined;
  const picked = new Map<string, KObject>();
  for (const selector of rule.clusterRoleSelectors ?? []) {
    for (const r of allRoles) {
      const name = r.metadata.name ?? '';
      if (name === role.metadata.name || picked.has(name)) continue;
      if (labelSelectorMatches(selector, r.metadata.labels ?? {})) picked.set(name, r);
    }
  }
  const out: PolicyRule[] = [];
  for (const r of [...picked.values()].sort(byName)) {
    for (const pr of rulesOf(r)) if (!out.some((x) => rulesEqual(x, pr))) out.push(pr);
  }
  return out;
}

/**
 * Runs aggregation to a fixed point, as the controller converges through
 * repeated syncs (admin aggregates edit, which aggregates view). Returns new
 * objects; roles without an aggregationRule are returned as they are.
 */
export function aggregateClusterRoles(roles: readonly KObject[]): KObject[] {
  let current = roles.map((r) => r);
  for (let pass = 0; pass <= roles.length; pass++) {
    let changed = false;
    current = current.map((r) => {
      const rules = aggregatedRules(r, current);
      if (rules === undefined) return r;
      const before = rulesOf(r);
      if (before.length === rules.length && before.every((x, i) => rulesEqual(x, rules[i]!))) return r;
      changed = true;
      return { ...r, rules: rules.map((x) => ({ ...x })) };
    });
    if (!changed) break;
  }
  return current;
}
