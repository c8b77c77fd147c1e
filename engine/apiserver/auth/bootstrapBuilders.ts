// Builders for the bootstrap policy, as rbacv1helpers' PolicyRuleBuilder and
// binding builders shape their output: every list sorted and de-duplicated,
// every object labelled `kubernetes.io/bootstrapping: rbac-defaults` and
// annotated `rbac.authorization.kubernetes.io/autoupdate: "true"` (addDefaultMetadata).
import type { KObject } from '../../apimachinery/types';
import { RBAC_API_VERSION, RBAC_GROUP, type AggregationRule, type PolicyRule, type Subject } from './rbacTypes';

export const READ = ['get', 'list', 'watch'];
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
export const READ_WRITE = [...READ, ...WRITE];
export const READ_UPDATE = ['get', 'list', 'watch', 'update', 'patch'];

export const BOOTSTRAP_LABEL = 'kubernetes.io/bootstrapping';
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

const sorted = (xs: readonly string[]) => [...new Set(xs)].sort();

/** NewRule(verbs).Groups(groups).Resources(resources)[.Names(names)]. */
export function rule(verbs: readonly string[], groups: readonly string[], resources: readonly string[], names?: readonly string[]): PolicyRule {
  const r: PolicyRule = { verbs: sorted(verbs), apiGroups: sorted(groups), resources: sorted(resources) };
  if (names && names.length) r.resourceNames = sorted(names);
  return r;
}

/** NewRule(verbs).URLs(urls). */
export function urlRule(verbs: readonly string[], urls: readonly string[]): PolicyRule {
  return { verbs: sorted(verbs), nonResourceURLs: sorted(urls) };
}

/** eventsRule(): what nearly every component needs to record events. */
export function eventsRule(): PolicyRule {
  return rule(['create', 'update', 'patch'], ['', 'events.k8s.io'], ['events']);
}

function metadata(name: string, namespace?: string, labels: Record<string, string> = {}): KObject['metadata'] {
  const allLabels: Record<string, string> = { [BOOTSTRAP_LABEL]: 'rbac-defaults', ...labels };
  const ordered = Object.fromEntries(Object.entries(allLabels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { name, ...(namespace ? { namespace } : {}), labels: ordered, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } };
}

export interface RoleSpec {
  name: string;
  rules?: PolicyRule[];
  labels?: Record<string, string>;
  aggregateFrom?: string;
}

/** A ClusterRole; `aggregateFrom` gives it an aggregationRule on that label (value "true"). */
export function clusterRole(spec: RoleSpec): KObject {
  const obj: KObject = { kind: 'ClusterRole', apiVersion: RBAC_API_VERSION, metadata: metadata(spec.name, undefined, spec.labels) };
  if (spec.aggregateFrom) {
    const aggregationRule: AggregationRule = { clusterRoleSelectors: [{ matchLabels: { [spec.aggregateFrom]: 'true' } }] };
    obj.rules = [];
    obj.aggregationRule = aggregationRule;
  } else {
    obj.rules = spec.rules ?? [];
  }
  return obj;
}

export function role(namespace: string, name: string, rules: PolicyRule[]): KObject {
  return { kind: 'Role', apiVersion: RBAC_API_VERSION, metadata: metadata(name, namespace), rules };
}

export const user = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });
export const group = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
export const serviceAccount = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

/** NewClusterBinding(role).…BindingOrDie(): binding named after its ClusterRole. Without subjects, the field is left out. */
export function clusterRoleBinding(roleName: string, subjects: Subject[], name = roleName): KObject {
  const obj: KObject = {
    kind: 'ClusterRoleBinding',
    apiVersion: RBAC_API_VERSION,
    metadata: metadata(name),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
  };
  if (subjects.length) obj.subjects = subjects;
  return obj;
}

export function roleBinding(namespace: string, roleName: string, subjects: Subject[], name = roleName): KObject {
  return {
    kind: 'RoleBinding',
    apiVersion: RBAC_API_VERSION,
    metadata: metadata(name, namespace),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: roleName },
    subjects,
  };
}
