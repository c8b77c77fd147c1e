// kubectl/pkg/util/rbac: a PolicyRule broken down to one group, resource and
// name each (BreakdownRule), the simple ones merged again by verbs
// (CompactRules), ordered by PolicyRule.String(), and a rule's resource column
// (describe's CombineResourceGroup). describe role/clusterrole and
// auth can-i --list print rules so.

export interface Rule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

/** fmt's %v of a []string. */
export function goSliceV(a: string[] | undefined): string {
  return `[${(a ?? []).join(' ')}]`;
}

/** rbacv1.PolicyRule.String() (generated): the sort key. */
export function ruleString(r: Rule): string {
  return `&PolicyRule{Verbs:${goSliceV(r.verbs)},APIGroups:${goSliceV(r.apiGroups)},Resources:${goSliceV(r.resources)},ResourceNames:${goSliceV(r.resourceNames)},NonResourceURLs:${goSliceV(r.nonResourceURLs)},}`;
}

type RuleLike = { verbs?: string[] | null; apiGroups?: string[] | null; resources?: string[] | null; resourceNames?: string[] | null; nonResourceURLs?: string[] | null };

/** BreakdownRule. */
export function breakdownRule(r: RuleLike): Rule[] {
  const verbs = r.verbs ?? [];
  const out: Rule[] = [];
  for (const g of r.apiGroups ?? []) {
    for (const res of r.resources ?? []) {
      const names = r.resourceNames ?? [];
      if (names.length > 0) for (const n of names) out.push({ verbs, apiGroups: [g], resources: [res], resourceNames: [n], nonResourceURLs: [] });
      else out.push({ verbs, apiGroups: [g], resources: [res], resourceNames: [], nonResourceURLs: [] });
    }
  }
  for (const u of r.nonResourceURLs ?? []) out.push({ verbs, apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [u] });
  return out;
}

/** CompactRules (one group, one resource, at most one name: verbs merged), then sorted by String() as sort.Stable does. */
export function compactSortedRules(broken: Rule[]): Rule[] {
  const compact: Rule[] = [];
  const simple = new Map<string, Rule>();
  for (const r of broken) {
    if (r.apiGroups.length === 1 && r.resources.length === 1 && r.nonResourceURLs.length === 0 && r.resourceNames.length <= 1) {
      const k = `${r.apiGroups[0]}\u0000${r.resources[0]}\u0000${r.resourceNames[0] ?? ''}`;
      const e = simple.get(k);
      if (e) {
        for (const v of r.verbs) if (!e.verbs.includes(v)) e.verbs.push(v);
      } else simple.set(k, { ...r, verbs: [...r.verbs] });
    } else compact.push(r);
  }
  compact.push(...simple.values());
  const keyed = compact.map((r) => ({ r, k: ruleString(r) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.r);
}

/** CombineResourceGroup: "deployments.apps/scale". */
export function combineResourceGroup(r: Rule): string {
  if (r.resources.length === 0) return '';
  const [res, sub] = r.resources[0]!.split('/', 2) as [string, string | undefined];
  let combined = res;
  if (r.apiGroups[0]) combined += `.${r.apiGroups[0]}`;
  if (sub !== undefined) combined += `/${sub}`;
  return combined;
}
