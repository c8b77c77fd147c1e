// kubectl describe role, clusterrole, rolebinding, clusterrolebinding
// (staging/src/k8s.io/kubectl/pkg/describe/describe.go v1.32: RoleDescriber,
// ClusterRoleDescriber, RoleBindingDescriber, ClusterRoleBindingDescriber).
// None of them lists events or a namespace.
import { breakdownRule, combineResourceGroup, compactSortedRules, goSliceV } from '../util/rbac';
import { PrefixWriter, printAnnotationsMultiline, printLabelsMultiline } from './writer';

type Obj = Record<string, any>;

function header(w: PrefixWriter, o: Obj): void {
  w.write(0, `Name:\t${o.metadata?.name ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', o.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', o.metadata?.annotations);
}

/** A Role's or ClusterRole's rules, broken down, compacted and sorted. */
export function describeRole(role: Obj): string {
  const w = new PrefixWriter();
  header(w, role);
  const rules = compactSortedRules(((role.rules as Obj[]) ?? []).flatMap((r) => breakdownRule(r)));
  w.write(0, 'PolicyRule:\n');
  w.write(1, 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
  w.write(1, '---------\t-----------------\t--------------\t-----\n');
  for (const r of rules) w.write(1, `${combineResourceGroup(r)}\t${goSliceV(r.nonResourceURLs)}\t${goSliceV(r.resourceNames)}\t${goSliceV(r.verbs)}\n`);
  return w.done();
}

export function describeRoleBinding(b: Obj): string {
  const w = new PrefixWriter();
  header(w, b);
  w.write(0, 'Role:\n');
  w.write(1, `Kind:\t${b.roleRef?.kind ?? ''}\n`);
  w.write(1, `Name:\t${b.roleRef?.name ?? ''}\n`);
  w.write(0, 'Subjects:\n');
  w.write(1, 'Kind\tName\tNamespace\n');
  w.write(1, '----\t----\t---------\n');
  for (const s of (b.subjects as Obj[]) ?? []) w.write(1, `${s.kind ?? ''}\t${s.name ?? ''}\t${s.namespace ?? ''}\n`);
  return w.done();
}
