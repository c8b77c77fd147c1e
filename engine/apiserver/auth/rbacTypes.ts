// rbac.authorization.k8s.io/v1 shapes, and readers that pull them out of the
// plain JSON objects the cluster stores (never trusting their shape blindly).
import type { KObject } from '../../apimachinery/types';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
export const RBAC_API_VERSION = 'rbac.authorization.k8s.io/v1';

/** rbacv1.PolicyRule, fields in upstream's JSON order. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

function toRule(v: unknown): PolicyRule | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const rule: PolicyRule = { verbs: strings(o.verbs) ?? [] };
  const apiGroups = strings(o.apiGroups);
  const resources = strings(o.resources);
  const resourceNames = strings(o.resourceNames);
  const nonResourceURLs = strings(o.nonResourceURLs);
  if (apiGroups) rule.apiGroups = apiGroups;
  if (resources) rule.resources = resources;
  if (resourceNames) rule.resourceNames = resourceNames;
  if (nonResourceURLs) rule.nonResourceURLs = nonResourceURLs;
  return rule;
}

/**
 * What was read out of a frozen object (the watch cache's: an update replaces
 * the object, so its identity is its version), as upstream's authorizer reads
 * typed objects its informers decoded once: every request walks the bindings.
 */
const rulesMemo = new WeakMap<KObject, readonly PolicyRule[]>();
const subjectsMemo = new WeakMap<KObject, readonly Subject[]>();
const roleRefMemo = new WeakMap<KObject, RoleRef | null>();

function memo<T>(m: WeakMap<KObject, T>, o: KObject, read: (o: KObject) => T): T {
  if (!Object.isFrozen(o)) return read(o);
  let v = m.get(o);
  if (v === undefined && !m.has(o)) m.set(o, (v = read(o)));
  return v as T;
}

/** The rules of a Role or ClusterRole (missing or null rules read as none). */
export function rulesOf(role: KObject): readonly PolicyRule[] {
  return memo(rulesMemo, role, readRules);
}

function readRules(role: KObject): PolicyRule[] {
  return Array.isArray(role.rules) ? role.rules.map(toRule).filter((r): r is PolicyRule => r !== undefined) : [];
}

export function subjectsOf(binding: KObject): readonly Subject[] {
  return memo(subjectsMemo, binding, readSubjects);
}

function readSubjects(binding: KObject): Subject[] {
  if (!Array.isArray(binding.subjects)) return [];
  const out: Subject[] = [];
  for (const s of binding.subjects as unknown[]) {
    if (typeof s !== 'object' || s === null) continue;
    const o = s as Record<string, unknown>;
    if (typeof o.kind !== 'string' || typeof o.name !== 'string') continue;
    const subj: Subject = { kind: o.kind, name: o.name };
    if (typeof o.apiGroup === 'string') subj.apiGroup = o.apiGroup;
    if (typeof o.namespace === 'string') subj.namespace = o.namespace;
    out.push(subj);
  }
  return out;
}

export function roleRefOf(binding: KObject): RoleRef | undefined {
  return memo(roleRefMemo, binding, readRoleRef) ?? undefined;
}

function readRoleRef(binding: KObject): RoleRef | null {
  const r = binding.roleRef as Record<string, unknown> | undefined;
  if (typeof r !== 'object' || r === null || typeof r.kind !== 'string' || typeof r.name !== 'string') return null;
  return { apiGroup: typeof r.apiGroup === 'string' ? r.apiGroup : '', kind: r.kind, name: r.name };
}

export function aggregationRuleOf(role: KObject): AggregationRule | undefined {
  const a = role.aggregationRule as AggregationRule | undefined | null;
  return typeof a === 'object' && a !== null ? a : undefined;
}
