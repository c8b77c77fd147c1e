// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac/rbac.go) over the rule
// resolver of pkg/registry/rbac/validation/rule.go, reading Roles, ClusterRoles
// and their bindings through the ClusterReader, and the rule matching of
// pkg/apis/rbac/v1/evaluation_helpers.go.
import { aggregateMessage } from '../../apimachinery/fieldErrors';
import type { KObject } from '../../apimachinery/types';
import type { AuthorizationAttributes, AuthorizationResult, ClusterReader, UserInfo } from '../types';
import { RBAC_GROUP, roleRefOf, rulesOf, subjectsOf, type PolicyRule, type RoleRef, type Subject } from './rbacTypes';
import { makeServiceAccountUsername } from './user';

// --- rule matching -------------------------------------------------------

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

// `*` matches anything, `pods/status` matches exactly, `*/scale` matches any resource's scale subresource.
export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combinedResource) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** No resourceNames means every name; otherwise the request's name must be listed (so list/create never match). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** `*` matches any path; a trailing `*` matches by prefix (`/apis/*`). */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(attrs: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (attrs.isResourceRequest) {
    const resource = attrs.resource ?? '';
    const sub = attrs.subresource ?? '';
    const combined = sub ? `${resource}/${sub}` : resource;
    return verbMatches(rule, attrs.verb) && apiGroupMatches(rule, attrs.apiGroup ?? '') && resourceMatches(rule, combined, sub) && resourceNameMatches(rule, attrs.name ?? '');
  }
  return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path ?? '');
}

export function rulesAllow(attrs: AuthorizationAttributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(attrs, r));
}

// --- rule resolution -----------------------------------------------------

/** describeSubject: ServiceAccounts print as "name/namespace". */
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} "${s.name}/${s.namespace || bindingNamespace}"`;
  return `${s.kind} "${s.name}"`;
}

function appliesToUser(user: UserInfo, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.username === s.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      // A RoleBinding may name a ServiceAccount of its own namespace without saying so.
      const ns = s.namespace || namespace;
      return ns !== '' && user.username === makeServiceAccountUsername(ns, s.name);
    }
    default:
      return false;
  }
}

function firstApplyingSubject(user: UserInfo, subjects: readonly Subject[], namespace: string): Subject | undefined {
  return subjects.find((s) => appliesToUser(user, s, namespace));
}

/** GetRoleReferenceRules; errors read as the listers' NotFound errors do. */
export function roleReferenceRules(cluster: ClusterReader, ref: RoleRef, bindingNamespace: string): { rules: readonly PolicyRule[] } | { error: string } {
  switch (ref.kind) {
    case 'Role': {
      const role = cluster.get(RBAC_GROUP, 'roles', bindingNamespace, ref.name);
      return role ? { rules: rulesOf(role) } : { error: `role.${RBAC_GROUP} "${ref.name}" not found` };
    }
    case 'ClusterRole': {
      const role = cluster.get(RBAC_GROUP, 'clusterroles', undefined, ref.name);
      return role ? { rules: rulesOf(role) } : { error: `clusterrole.${RBAC_GROUP} "${ref.name}" not found` };
    }
    default:
      return { error: `unsupported role reference kind: "${ref.kind}"` };
  }
}

/** Called with each applying rule and where it came from, or with an error; return false to stop. */
export type RuleVisitor = (source: string | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

function visitBindings(user: UserInfo, bindings: readonly KObject[], kind: 'ClusterRoleBinding' | 'RoleBinding', namespace: string, cluster: ClusterReader, visit: RuleVisitor): boolean {
  for (const b of bindings) {
    const subject = firstApplyingSubject(user, subjectsOf(b), namespace);
    if (!subject) continue;
    const ref = roleRefOf(b);
    if (!ref) continue;
    const resolved = roleReferenceRules(cluster, ref, namespace);
    if ('error' in resolved) {
      if (!visit(undefined, undefined, resolved.error)) return false;
      continue;
    }
    const name = kind === 'ClusterRoleBinding' ? b.metadata.name ?? '' : `${b.metadata.name ?? ''}/${namespace}`;
    const source = `${kind} "${name}" of ${ref.kind} "${ref.name}" to ${describeSubject(subject, namespace)}`;
    for (const rule of resolved.rules) if (!visit(source, rule, undefined)) return false;
  }
  return true;
}

/** VisitRulesFor: cluster-wide bindings first, then the namespace's RoleBindings. */
export function visitRulesFor(user: UserInfo, namespace: string, cluster: ClusterReader, visit: RuleVisitor): void {
  const crbs = cluster.list(RBAC_GROUP, 'clusterrolebindings');
  if (!visitBindings(user, crbs, 'ClusterRoleBinding', '', cluster, visit)) return;
  if (namespace) visitBindings(user, cluster.list(RBAC_GROUP, 'rolebindings', namespace), 'RoleBinding', namespace, cluster, visit);
}

/** RBACAuthorizer.Authorize: Allow with the granting binding as reason, else NoOpinion (with resolution errors, if any). */
export function rbacAuthorize(attrs: AuthorizationAttributes, cluster: ClusterReader): AuthorizationResult {
  let reason = '';
  let allowed = false;
  const errors: string[] = [];
  visitRulesFor(attrs.user, attrs.namespace ?? '', cluster, (source, rule, error) => {
    if (rule && source && ruleAllows(attrs, rule)) {
      allowed = true;
      reason = `RBAC: allowed by ${source}`;
      return false;
    }
    if (error) errors.push(error);
    return true;
  });
  if (allowed) return { decision: 'Allow', reason };
  return { decision: 'NoOpinion', reason: errors.length ? `RBAC: ${aggregateMessage(errors)}` : '' };
}

/** DefaultRuleResolver.RulesFor: every rule that applies to the user in the namespace, plus resolution errors. */
export function rbacRulesFor(user: UserInfo, namespace: string, cluster: ClusterReader): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  visitRulesFor(user, namespace, cluster, (_source, rule, error) => {
    if (rule) rules.push(rule);
    if (error) errors.push(error);
    return true;
  });
  return { rules, errors };
}
