// rbac.authorization.k8s.io/v1 validation (pkg/apis/rbac/validation/validation.go).
import { nameIsDNSSubdomain, validatePathSegmentName } from './names';
import { selectorParseFails, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './objectMeta';
import { a, deepEqual, fieldErr, FieldPath, isObj, msgs, o, root, s, type Errs, type Loose } from './util';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

function validatePolicyRule(rule: Loose, namespaced: boolean, p: FieldPath): Errs {
  const errs: Errs = [];
  if (a(rule.verbs).length === 0) errs.push(fieldErr.required(p.child('verbs'), 'verbs must contain at least one value'));
  const urls = a(rule.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) errs.push(fieldErr.invalid(p.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (a(rule.apiGroups).length || a(rule.resources).length || a(rule.resourceNames).length) {
      errs.push(fieldErr.invalid(p.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (a(rule.apiGroups).length === 0) errs.push(fieldErr.required(p.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (a(rule.resources).length === 0) errs.push(fieldErr.required(p.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

export function validateRole(role: Loose, namespaced: boolean): Errs {
  const errs = validateObjectMeta(role.metadata, namespaced, validatePathSegmentName);
  a(role.rules).forEach((r, i) => errs.push(...validatePolicyRule(o(r), namespaced, root('rules').index(i))));
  if (!namespaced && isObj(role.aggregationRule)) {
    const sels = a((role.aggregationRule as Loose).clusterRoleSelectors);
    const p = root('aggregationRule', 'clusterRoleSelectors');
    if (sels.length === 0) errs.push(fieldErr.required(p, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    sels.forEach((sel, i) => {
      errs.push(...validateLabelSelector(sel, {}, p.index(i)));
      if (selectorParseFails(sel)) errs.push(fieldErr.invalid(p.index(i), sel, 'invalid label selector.'));
    });
  }
  return errs;
}

export function validateRoleUpdate(role: Loose, old: Loose, namespaced: boolean): Errs {
  return [...validateRole(role, namespaced), ...validateObjectMetaUpdate(role.metadata, old.metadata)];
}

function validateSubject(subj: Loose, namespaced: boolean, p: FieldPath): Errs {
  const errs: Errs = [];
  const name = s(subj.name);
  if (!name) errs.push(fieldErr.required(p.child('name'), ''));
  switch (s(subj.kind)) {
    case 'ServiceAccount':
      if (name) errs.push(...msgs(p.child('name'), name, nameIsDNSSubdomain(name, false)));
      if (s(subj.apiGroup)) errs.push(fieldErr.notSupported(p.child('apiGroup'), s(subj.apiGroup), ['']));
      if (!namespaced && !s(subj.namespace)) errs.push(fieldErr.required(p.child('namespace'), ''));
      break;
    case 'User':
    case 'Group':
      if (s(subj.apiGroup) !== RBAC_GROUP) errs.push(fieldErr.notSupported(p.child('apiGroup'), s(subj.apiGroup), [RBAC_GROUP]));
      break;
    default:
      errs.push(fieldErr.notSupported(p.child('kind'), s(subj.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

export function validateBinding(b: Loose, namespaced: boolean): Errs {
  const errs = validateObjectMeta(b.metadata, namespaced, validatePathSegmentName);
  const ref = o(b.roleRef);
  if (s(ref.apiGroup) !== RBAC_GROUP) errs.push(fieldErr.notSupported(root('roleRef', 'apiGroup'), s(ref.apiGroup), [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(s(ref.kind))) errs.push(fieldErr.notSupported(root('roleRef', 'kind'), s(ref.kind), kinds));
  const name = s(ref.name);
  if (!name) errs.push(fieldErr.required(root('roleRef', 'name'), ''));
  else errs.push(...msgs(root('roleRef', 'name'), name, validatePathSegmentName(name, false)));
  a(b.subjects).forEach((sub, i) => errs.push(...validateSubject(o(sub), namespaced, root('subjects').index(i))));
  return errs;
}

export function validateBindingUpdate(b: Loose, old: Loose, namespaced: boolean): Errs {
  const errs = [...validateBinding(b, namespaced), ...validateObjectMetaUpdate(b.metadata, old.metadata)];
  if (!deepEqual(b.roleRef, old.roleRef)) errs.push(fieldErr.invalid(root('roleRef'), b.roleRef ?? null, 'cannot change roleRef'));
  return errs;
}
