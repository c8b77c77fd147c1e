// admissionregistration.k8s.io/v1 validation (pkg/apis/admissionregistration/validation/validation.go
// v1.32). CEL expressions are compiled elsewhere; here only their presence and shape are checked.
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum } from '../../apimachinery/validation/names';
import { nameIsDNSSubdomain } from './names';
import { validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './objectMeta';
import { a, fieldErr, FieldPath, has, isObj, msgs, n, o, root, s, type Errs, type Loose } from './util';

function isFullyQualifiedName(p: FieldPath, name: string): Errs {
  if (!name) return [fieldErr.required(p, '')];
  const sub = isDNS1123Subdomain(name);
  if (sub.length) return [fieldErr.invalid(p, name, sub.join(','))];
  if (name.split('.').length < 3) return [fieldErr.invalid(p, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateRule(rule: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const groups = a(rule.apiGroups);
  const versions = a(rule.apiVersions);
  if (groups.length === 0) errs.push(fieldErr.required(p.child('apiGroups'), ''));
  if (groups.length > 1 && groups.includes('*')) errs.push(fieldErr.invalid(p.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  if (versions.length === 0) errs.push(fieldErr.required(p.child('apiVersions'), ''));
  if (versions.length > 1 && versions.includes('*')) errs.push(fieldErr.invalid(p.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldErr.required(p.child('apiVersions').index(i), ''));
  });
  const resources = a(rule.resources).map(s);
  const rp = p.child('resources');
  if (resources.length === 0) errs.push(fieldErr.required(rp, ''));
  const seen = new Set<string>();
  resources.forEach((r, i) => {
    if (r === '') errs.push(fieldErr.required(rp.index(i), ''));
    if (seen.has(r)) errs.push(fieldErr.duplicate(rp.index(i), r));
    seen.add(r);
  });
  if (resources.includes('*') && resources.length > 1 && resources.some((r) => !r.startsWith('*/') && r !== '*')) {
    errs.push(fieldErr.invalid(rp, resources, "if '*' is present, must not specify other resources without subresources"));
  }
  if (has(rule.scope) && !['*', 'Cluster', 'Namespaced'].includes(s(rule.scope))) errs.push(fieldErr.notSupported(p.child('scope'), rule.scope, ['*', 'Cluster', 'Namespaced']));
  return errs;
}

function validateRuleWithOperations(rule: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const ops = a(rule.operations);
  if (ops.length === 0) errs.push(fieldErr.required(p.child('operations'), ''));
  if (ops.length > 1 && ops.includes('*')) errs.push(fieldErr.invalid(p.child('operations'), ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'].includes(s(op))) errs.push(fieldErr.notSupported(p.child('operations').index(i), op, ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE']));
  });
  errs.push(...validateRule(rule, p));
  return errs;
}

function validateMatchConditions(conds: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  const list = a(conds);
  if (list.length > 64) errs.push(fieldErr.tooMany(p, list.length, 64));
  const names = new Set<string>();
  list.forEach((c, i) => {
    const cp = p.index(i);
    const mc = o(c);
    const name = s(mc.name);
    if (!name) errs.push(fieldErr.required(cp.child('name'), ''));
    else errs.push(...msgs(cp.child('name'), name, isQualifiedName(name)));
    if (names.has(name)) errs.push(fieldErr.duplicate(cp.child('name'), name));
    names.add(name);
    if (!s(mc.expression).trim()) errs.push(fieldErr.required(cp.child('expression'), ''));
  });
  return errs;
}

function validateClientConfig(cc: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const hasURL = has(cc.url);
  const hasSvc = has(cc.service);
  if (hasURL === hasSvc) return [fieldErr.required(p, 'exactly one of url or service is required')];
  if (hasURL) {
    const up = p.child('url');
    const form = '; desired format: https://host[/path]';
    const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/.exec(s(cc.url));
    if (!m) {
      errs.push(fieldErr.invalid(up, '', `'https' is the only allowed URL scheme${form}`));
      errs.push(fieldErr.invalid(up, '', `host must be specified${form}`));
      return errs;
    }
    if (m[1] !== 'https') errs.push(fieldErr.invalid(up, m[1], `'https' is the only allowed URL scheme${form}`));
    const authority = m[2]!;
    const host = authority.includes('@') ? authority.slice(authority.indexOf('@') + 1) : authority;
    if (!host) errs.push(fieldErr.invalid(up, host, `host must be specified${form}`));
    if (authority.includes('@')) errs.push(fieldErr.invalid(up, authority.slice(0, authority.indexOf('@')), 'user information is not permitted in the URL'));
    if (m[5] && m[5].length > 1) errs.push(fieldErr.invalid(up, m[5].slice(1), 'fragments are not permitted in the URL'));
    if (m[4] && m[4].length > 1) errs.push(fieldErr.invalid(up, m[4].slice(1), 'query parameters are not permitted in the URL'));
    return errs;
  }
  const svc = o(cc.service);
  const sp = p.child('service');
  if (!s(svc.name)) errs.push(fieldErr.required(sp.child('name'), 'service name is required'));
  if (!s(svc.namespace)) errs.push(fieldErr.required(sp.child('namespace'), 'service namespace is required'));
  const port = has(svc.port) ? n(svc.port) : 443;
  const pm = isValidPortNum(port);
  if (pm.length) errs.push(fieldErr.invalid(sp.child('port'), port, `port is not valid: ${pm.join(', ')}`));
  const path = s(svc.path);
  if (has(svc.path) && path !== '/' && path !== '') {
    if (path === '//') errs.push(fieldErr.invalid(sp.child('path'), path, 'segment[0] may not be empty'));
    else if (!path.startsWith('/')) errs.push(fieldErr.invalid(sp.child('path'), path, "must start with a '/'"));
  }
  return errs;
}

function validateReviewVersions(versions: unknown, p: FieldPath): Errs {
  const list = a(versions).map(s);
  if (list.length < 1) return [fieldErr.required(p, 'must specify one of v1, v1beta1')];
  const errs: Errs = [];
  const seen = new Set<string>();
  let accepted = false;
  list.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErr.invalid(p.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    errs.push(...msgs(p.index(i), v, isDNS1035Label(v)));
    if (v === 'v1' || v === 'v1beta1') accepted = true;
  });
  if (!accepted) errs.push(fieldErr.invalid(p, list, 'must include at least one of v1, v1beta1'));
  return errs;
}

function validateWebhook(hook: Loose, p: FieldPath, mutating: boolean): Errs {
  const errs = isFullyQualifiedName(p.child('name'), s(hook.name));
  a(hook.rules).forEach((r, i) => errs.push(...validateRuleWithOperations(o(r), p.child('rules').index(i))));
  if (has(hook.failurePolicy) && !['Fail', 'Ignore'].includes(s(hook.failurePolicy))) errs.push(fieldErr.notSupported(p.child('failurePolicy'), hook.failurePolicy, ['Fail', 'Ignore']));
  if (has(hook.matchPolicy) && !['Equivalent', 'Exact'].includes(s(hook.matchPolicy))) errs.push(fieldErr.notSupported(p.child('matchPolicy'), hook.matchPolicy, ['Equivalent', 'Exact']));
  if (has(hook.namespaceSelector)) errs.push(...validateLabelSelector(hook.namespaceSelector, {}, p.child('namespaceSelector')));
  if (has(hook.objectSelector)) errs.push(...validateLabelSelector(hook.objectSelector, {}, p.child('objectSelector')));
  if (!has(hook.sideEffects)) errs.push(fieldErr.required(p.child('sideEffects'), 'must specify one of None, NoneOnDryRun'));
  else if (!['None', 'NoneOnDryRun'].includes(s(hook.sideEffects))) errs.push(fieldErr.notSupported(p.child('sideEffects'), hook.sideEffects, ['None', 'NoneOnDryRun']));
  if (has(hook.timeoutSeconds) && (n(hook.timeoutSeconds) > 30 || n(hook.timeoutSeconds) < 1)) {
    errs.push(fieldErr.invalid(p.child('timeoutSeconds'), n(hook.timeoutSeconds), 'the timeout value must be between 1 and 30 seconds'));
  }
  if (mutating && has(hook.reinvocationPolicy) && !['IfNeeded', 'Never'].includes(s(hook.reinvocationPolicy))) {
    errs.push(fieldErr.notSupported(p.child('reinvocationPolicy'), hook.reinvocationPolicy, ['IfNeeded', 'Never']));
  }
  errs.push(...validateClientConfig(o(hook.clientConfig), p.child('clientConfig')));
  errs.push(...validateMatchConditions(hook.matchConditions, p.child('matchConditions')));
  return errs;
}

export function validateWebhookConfiguration(cfg: Loose, mutating: boolean): Errs {
  const errs = validateObjectMeta(cfg.metadata, false, nameIsDNSSubdomain);
  const names = new Set<string>();
  a(cfg.webhooks).forEach((h, i) => {
    const hp = root('webhooks').index(i);
    const hook = o(h);
    errs.push(...validateWebhook(hook, hp, mutating));
    errs.push(...validateReviewVersions(hook.admissionReviewVersions, hp.child('admissionReviewVersions')));
    const name = s(hook.name);
    if (name) {
      if (names.has(name)) errs.push(fieldErr.duplicate(hp.child('name'), name));
      names.add(name);
    }
  });
  return errs;
}
export function validateWebhookConfigurationUpdate(cfg: Loose, old: Loose, mutating: boolean): Errs {
  return [...validateWebhookConfiguration(cfg, mutating), ...validateObjectMetaUpdate(cfg.metadata, old.metadata)];
}

// ---------------------------------------------------------------- ValidatingAdmissionPolicy

function validateMatchResources(mc: unknown, p: FieldPath, required: boolean): Errs {
  if (!isObj(mc)) return [];
  const m = mc as Loose;
  const errs: Errs = [];
  if (!has(m.matchPolicy)) {
    if (required) errs.push(fieldErr.required(p.child('matchPolicy'), ''));
  } else if (!['Equivalent', 'Exact'].includes(s(m.matchPolicy))) errs.push(fieldErr.notSupported(p.child('matchPolicy'), m.matchPolicy, ['Equivalent', 'Exact']));
  if (!has(m.namespaceSelector)) {
    if (required) errs.push(fieldErr.required(p.child('namespaceSelector'), ''));
  } else errs.push(...validateLabelSelector(m.namespaceSelector, {}, p.child('namespaceSelector')));
  if (!has(m.objectSelector)) {
    if (required) errs.push(fieldErr.required(p.child('objectSelector'), ''));
  } else errs.push(...validateLabelSelector(m.objectSelector, {}, p.child('objectSelector')));
  for (const k of ['resourceRules', 'excludeResourceRules']) {
    a(m[k]).forEach((r, i) => {
      const rp = p.child(k).index(i);
      errs.push(...validateRuleWithOperations(o(r), rp));
      for (const name of a(o(r).resourceNames)) errs.push(...msgs(rp.child('resourceNames'), s(name), isDNS1123Subdomain(s(name))));
    });
  }
  return errs;
}

export function validateValidatingAdmissionPolicy(vap: Loose): Errs {
  const errs = validateObjectMeta(vap.metadata, false, nameIsDNSSubdomain);
  const sp = o(vap.spec);
  const p = root('spec');
  if (!has(sp.failurePolicy)) errs.push(fieldErr.required(p.child('failurePolicy'), ''));
  else if (!['Fail', 'Ignore'].includes(s(sp.failurePolicy))) errs.push(fieldErr.notSupported(p.child('failurePolicy'), sp.failurePolicy, ['Fail', 'Ignore']));
  if (isObj(sp.paramKind)) {
    const pk = sp.paramKind as Loose;
    if (!s(pk.kind)) errs.push(fieldErr.required(p.child('paramKind', 'kind'), ''));
    if (!s(pk.apiVersion)) errs.push(fieldErr.required(p.child('paramKind', 'apiVersion'), ''));
  }
  if (!isObj(sp.matchConstraints)) errs.push(fieldErr.required(p.child('matchConstraints'), ''));
  else {
    errs.push(...validateMatchResources(sp.matchConstraints, p.child('matchConstraints'), true));
    if (a((sp.matchConstraints as Loose).resourceRules).length === 0) errs.push(fieldErr.required(p.child('matchConstraints', 'resourceRules'), ''));
  }
  errs.push(...validateMatchConditions(sp.matchConditions, p.child('matchConditions')));
  a(sp.variables).forEach((v, i) => {
    const vp = p.child('variables').index(i);
    const name = s(o(v).name);
    if (!name) errs.push(fieldErr.required(vp.child('name'), ''));
    if (!s(o(v).expression).trim()) errs.push(fieldErr.required(vp.child('expression'), ''));
  });
  const validations = a(sp.validations);
  const audits = a(sp.auditAnnotations);
  if (validations.length === 0 && audits.length === 0) {
    errs.push(fieldErr.required(p.child('validations'), 'validations or auditAnnotations must contain at least one item'));
    errs.push(fieldErr.required(p.child('auditAnnotations'), 'validations or auditAnnotations must contain at least one item'));
  } else {
    validations.forEach((v, i) => {
      const vp = p.child('validations').index(i);
      const val = o(v);
      if (!s(val.expression).trim()) errs.push(fieldErr.required(vp.child('expression'), 'expression is not specified'));
      if (s(val.messageExpression).length > 0 && !s(val.messageExpression).trim()) errs.push(fieldErr.invalid(vp.child('messageExpression'), s(val.messageExpression), 'must be non-empty if specified'));
      const msg = s(val.message);
      if (msg.length > 0 && !msg.trim()) errs.push(fieldErr.invalid(vp.child('message'), msg, 'message must be non-empty if specified'));
      else if (/[\n\r]/.test(msg.trim())) errs.push(fieldErr.invalid(vp.child('message'), msg, 'message must not contain line breaks'));
      if (has(val.reason) && !['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'].includes(s(val.reason))) {
        errs.push(fieldErr.notSupported(vp.child('reason'), val.reason, ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized']));
      }
    });
    audits.forEach((aa, i) => {
      const ap = p.child('auditAnnotations').index(i);
      const key = s(o(aa).key);
      if (!key) errs.push(fieldErr.required(ap.child('key'), ''));
      if (!s(o(aa).valueExpression).trim()) errs.push(fieldErr.required(ap.child('valueExpression'), 'valueExpression is not specified'));
    });
  }
  return errs;
}
export function validateValidatingAdmissionPolicyUpdate(vap: Loose, old: Loose): Errs {
  return [...validateObjectMetaUpdate(vap.metadata, old.metadata), ...validateValidatingAdmissionPolicy(vap)];
}

export function validateValidatingAdmissionPolicyBinding(b: Loose): Errs {
  const errs = validateObjectMeta(b.metadata, false, nameIsDNSSubdomain);
  const sp = o(b.spec);
  const p = root('spec');
  const policy = s(sp.policyName);
  if (!policy) errs.push(fieldErr.required(p.child('policyName'), ''));
  else errs.push(...msgs(p.child('policyName'), policy, nameIsDNSSubdomain(policy, false)));
  if (isObj(sp.paramRef)) {
    const pr = sp.paramRef as Loose;
    const pp = p.child('paramRef');
    if (has(pr.name) && has(pr.selector)) errs.push(fieldErr.forbidden(pp.child('name'), 'name and selector are mutually exclusive'));
    if (!has(pr.name) && !has(pr.selector)) errs.push(fieldErr.required(pp, 'one of name or selector must be specified'));
    if (!has(pr.parameterNotFoundAction)) errs.push(fieldErr.required(pp.child('parameterNotFoundAction'), ''));
    else if (!['Allow', 'Deny'].includes(s(pr.parameterNotFoundAction))) errs.push(fieldErr.notSupported(pp.child('parameterNotFoundAction'), pr.parameterNotFoundAction, ['Allow', 'Deny']));
  }
  // Upstream spells this path "matchResouces".
  errs.push(...validateMatchResources(sp.matchResources, p.child('matchResouces'), true));
  const actions = a(sp.validationActions).map(s);
  const ap = p.child('validationActions');
  if (actions.length === 0) errs.push(fieldErr.required(ap, 'at least one validation action is required'));
  const seen = new Set<string>();
  actions.forEach((act, i) => {
    if (!['Audit', 'Deny', 'Warn'].includes(act)) errs.push(fieldErr.notSupported(ap.index(i), act, ['Audit', 'Deny', 'Warn']));
    if (seen.has(act)) errs.push(fieldErr.duplicate(ap.index(i), act));
    seen.add(act);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(fieldErr.invalid(ap, actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  return errs;
}
export function validateValidatingAdmissionPolicyBindingUpdate(b: Loose, old: Loose): Errs {
  return [...validateObjectMetaUpdate(b.metadata, old.metadata), ...validateValidatingAdmissionPolicyBinding(b)];
}
