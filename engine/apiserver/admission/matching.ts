// Which requests a webhook or policy applies to: rules
// (admission/plugin/webhook/predicates/rules), namespaceSelector and
// objectSelector (predicates/namespace, predicates/object), and
// matchConditions (webhook/matchconditions). Shared by the webhook plugins
// and ValidatingAdmissionPolicy.
import type { AdmissionAttributes, ClusterReader } from '../types';
import { evaluate, type Activation } from './cel';
import { isRec, recs, str, strs, stringMap } from './json';
import { isEmptySelector, matchLabelSelector } from './labelSelector';

export type MatchResult = { ok: true; matches: boolean } | { ok: false; error: string };

const ADMISSION_CONFIG_RESOURCES = new Set([
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

/** IsExemptAdmissionConfigurationResource: webhooks and policies never see their own configuration. */
export function isExemptAdmissionConfigurationResource(a: AdmissionAttributes): boolean {
  return a.resource.group === 'admissionregistration.k8s.io' && ADMISSION_CONFIG_RESOURCES.has(a.resource.resource);
}

function isNamespaceResource(a: AdmissionAttributes): boolean {
  return a.resource.group === '' && a.resource.resource === 'namespaces';
}

/** rules.Matcher.Matches for one RuleWithOperations. */
export function ruleMatches(rule: unknown, a: AdmissionAttributes): boolean {
  if (!isRec(rule)) return false;
  const scope = str(rule['scope']) ?? '*';
  if (scope === 'Namespaced' && (isNamespaceResource(a) || a.namespace === '')) return false;
  if (scope === 'Cluster' && !(isNamespaceResource(a) || a.namespace === '')) return false;
  const ops = strs(rule['operations']);
  if (!ops.some((op) => op === '*' || op === a.operation)) return false;
  const groups = strs(rule['apiGroups']);
  if (!groups.some((g) => g === '*' || g === a.resource.group)) return false;
  const versions = strs(rule['apiVersions']);
  if (!versions.some((v) => v === '*' || v === a.resource.version)) return false;
  for (const r of strs(rule['resources'])) {
    const slash = r.indexOf('/');
    const res = slash < 0 ? r : r.slice(0, slash);
    const sub = slash < 0 ? '' : r.slice(slash + 1);
    if ((res === '*' || res === a.resource.resource) && (sub === '*' || sub === a.subresource)) return true;
  }
  return false;
}

function namespaceLabels(a: AdmissionAttributes, cluster: ClusterReader): Record<string, string> {
  if (isNamespaceResource(a)) {
    const obj = a.operation === 'DELETE' ? a.oldObject : (a.object ?? a.oldObject);
    return stringMap(obj?.metadata.labels);
  }
  // A namespace that does not exist has no labels (NamespaceLifecycle refuses such requests earlier).
  return stringMap(cluster.get('', 'namespaces', undefined, a.namespace)?.metadata.labels);
}

/** MatchNamespaceSelector: cluster-scoped objects other than namespaces always match. */
export function matchNamespaceSelector(selector: unknown, a: AdmissionAttributes, cluster: ClusterReader): MatchResult {
  if (a.namespace === '' && !isNamespaceResource(a)) return { ok: true, matches: true };
  if (isEmptySelector(selector)) return { ok: true, matches: true };
  return matchLabelSelector(selector, namespaceLabels(a, cluster));
}

/** MatchObjectSelector: the new or the old object's labels. */
export function matchObjectSelector(selector: unknown, a: AdmissionAttributes): MatchResult {
  if (isEmptySelector(selector)) return { ok: true, matches: true };
  let matched = false;
  for (const obj of [a.object, a.oldObject]) {
    if (!obj) continue;
    const r = matchLabelSelector(selector, stringMap(obj.metadata.labels));
    if (!r.ok) return r;
    if (r.matches) matched = true;
  }
  return { ok: true, matches: matched };
}

/**
 * The matchConditions of a webhook or policy: any false skips it (even when
 * others fail); otherwise errors go to the failure policy.
 */
export function evalMatchConditions(
  conditions: unknown,
  activation: Activation,
  failurePolicy: string,
): { matches: boolean; error?: string; failedCondition?: string } {
  const errors: string[] = [];
  for (const c of recs(conditions)) {
    const name = str(c['name']) ?? '';
    const expression = str(c['expression']) ?? '';
    const r = evaluate(expression, activation);
    if (!r.ok) {
      errors.push(r.kind === 'compile' ? `compilation error: ${r.message}` : `expression '${expression}' resulted in error: ${r.message}`);
      continue;
    }
    if (r.value === false) return { matches: false, failedCondition: name };
    if (typeof r.value !== 'boolean') errors.push(`expression '${expression}' resulted in error: no such overload`);
  }
  if (errors.length) {
    if (failurePolicy === 'Ignore') return { matches: false };
    return { matches: false, error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
  }
  return { matches: true };
}

/** matchesResourceRules for NamedRuleWithOperations (policies): a rule plus optional resourceNames. */
export function namedRulesMatch(rules: unknown, a: AdmissionAttributes): boolean {
  for (const rule of recs(rules)) {
    if (!ruleMatches(rule, a)) continue;
    const names = strs(rule['resourceNames']);
    if (names.length === 0 || names.includes(a.name)) return true;
  }
  return false;
}

/**
 * matching.Matcher.Matches for a policy's matchConstraints or a binding's
 * matchResources: namespace and object selectors, then excludeResourceRules,
 * then resourceRules (none means every resource).
 */
export function matchResources(criteria: unknown, a: AdmissionAttributes, cluster: ClusterReader): MatchResult {
  const c = isRec(criteria) ? criteria : {};
  const ns = matchNamespaceSelector(c['namespaceSelector'], a, cluster);
  if (!ns.ok || !ns.matches) return ns;
  const obj = matchObjectSelector(c['objectSelector'], a);
  if (!obj.ok || !obj.matches) return obj;
  if (namedRulesMatch(c['excludeResourceRules'], a)) return { ok: true, matches: false };
  const rules = recs(c['resourceRules']);
  if (rules.length === 0) return { ok: true, matches: true };
  return { ok: true, matches: namedRulesMatch(rules, a) };
}
