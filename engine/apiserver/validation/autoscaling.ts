// autoscaling/v2 HorizontalPodAutoscaler (pkg/apis/autoscaling/validation/validation.go v1.32).
import { nameIsDNSSubdomain, validatePathSegmentName } from './names';
import { validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './objectMeta';
import { validateContainerResourceName, q } from './core/resources';
import { a, fieldErr, FieldPath, has, isObj, msgs, n, o, root, s, type Errs, type Loose } from './util';

const METRIC_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const FIELD_OF: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };

function validateCrossVersionRef(ref: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const kind = s(ref.kind);
  const name = s(ref.name);
  if (!kind) errs.push(fieldErr.required(p.child('kind'), ''));
  else errs.push(...msgs(p.child('kind'), kind, validatePathSegmentName(kind, false)));
  if (!name) errs.push(fieldErr.required(p.child('name'), ''));
  else errs.push(...msgs(p.child('name'), name, validatePathSegmentName(name, false)));
  return errs;
}

function validateTarget(t: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const type = s(t.type);
  if (!type) errs.push(fieldErr.required(p.child('type'), 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(type)) errs.push(fieldErr.invalid(p.child('type'), type, 'must be either Utilization, Value, or AverageValue'));
  const v = q(t.value);
  if (v && v.nanos <= 0n) errs.push(fieldErr.invalid(p.child('value'), t.value, 'must be positive'));
  const av = q(t.averageValue);
  if (av && av.nanos <= 0n) errs.push(fieldErr.invalid(p.child('averageValue'), t.averageValue, 'must be positive'));
  if (has(t.averageUtilization) && n(t.averageUtilization) < 1) errs.push(fieldErr.invalid(p.child('averageUtilization'), n(t.averageUtilization), 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(m: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  if (!s(m.name)) errs.push(fieldErr.required(p.child('name'), 'must specify a metric name'));
  else errs.push(...msgs(p.child('name'), s(m.name), validatePathSegmentName(s(m.name), false)));
  if (has(m.selector)) errs.push(...validateLabelSelector(m.selector, {}, p.child('selector')));
  return errs;
}

function validateSource(kind: string, src: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const target = o(src.target);
  switch (kind) {
    case 'resource':
    case 'containerResource':
      if (!s(src.name)) errs.push(fieldErr.required(p.child('name'), 'must specify a resource name'));
      else errs.push(...validateContainerResourceName(s(src.name), p.child('name')));
      if (kind === 'containerResource') {
        if (!s(src.container)) errs.push(fieldErr.required(p.child('container'), 'must specify a container'));
      }
      errs.push(...validateTarget(target, p.child('target')));
      if (!has(target.averageUtilization) && !has(target.averageValue)) errs.push(fieldErr.required(p.child('target').child('averageUtilization'), 'must set either a target raw value or a target utilization'));
      if (has(target.averageUtilization) && has(target.averageValue)) errs.push(fieldErr.forbidden(p.child('target').child('averageValue'), 'may not set both a target raw value and a target utilization'));
      break;
    case 'pods':
      errs.push(...validateMetricIdentifier(o(src.metric), p.child('metric')));
      errs.push(...validateTarget(target, p.child('target')));
      if (!has(target.averageValue)) errs.push(fieldErr.required(p.child('target').child('averageValue'), 'must specify a positive target averageValue'));
      break;
    case 'object':
      errs.push(...validateCrossVersionRef(o(src.describedObject), p.child('describedObject')));
      errs.push(...validateMetricIdentifier(o(src.metric), p.child('metric')));
      errs.push(...validateTarget(target, p.child('target')));
      if (!has(target.value) && !has(target.averageValue)) errs.push(fieldErr.required(p.child('target').child('averageValue'), 'must set either a target value or averageValue'));
      break;
    case 'external':
      errs.push(...validateMetricIdentifier(o(src.metric), p.child('metric')));
      errs.push(...validateTarget(target, p.child('target')));
      if (!has(target.value) && !has(target.averageValue)) errs.push(fieldErr.required(p.child('target').child('averageValue'), 'must set either a target value for metric or a per-pod target'));
      if (has(target.value) && has(target.averageValue)) errs.push(fieldErr.forbidden(p.child('target').child('value'), 'may not set both a target value for metric and a per-pod target'));
      break;
  }
  return errs;
}

function validateMetricSpec(m: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const type = s(m.type);
  if (!type) errs.push(fieldErr.required(p.child('type'), 'must specify a metric source type'));
  if (!METRIC_TYPES.includes(type)) errs.push(fieldErr.notSupported(p.child('type'), type, METRIC_TYPES));
  const present: string[] = [];
  for (const k of ['object', 'pods', 'resource', 'external', 'containerResource']) {
    if (!has(m[k])) continue;
    present.push(k);
    if (present.length === 1) errs.push(...validateSource(k, o(m[k]), p.child(k)));
  }
  const expected = FIELD_OF[type];
  if (expected) {
    if (!has(m[expected])) errs.push(fieldErr.required(p.child(expected), 'must populate information for the given metric source'));
  } else if (type) errs.push(fieldErr.notSupported(p.child('type'), type, METRIC_TYPES));
  if (present.length !== 1) for (const k of present.filter((x) => x !== expected).sort()) errs.push(fieldErr.forbidden(p.child(k), 'must populate the given metric source only'));
  return errs;
}

function validateScalingRules(r: unknown, p: FieldPath): Errs {
  if (!isObj(r)) return [];
  const rules = r as Loose;
  const errs: Errs = [];
  if (has(rules.stabilizationWindowSeconds)) {
    const w = n(rules.stabilizationWindowSeconds);
    if (w < 0) errs.push(fieldErr.invalid(p.child('stabilizationWindowSeconds'), w, 'must be greater than or equal to zero'));
    if (w > 3600) errs.push(fieldErr.invalid(p.child('stabilizationWindowSeconds'), w, 'must be less than or equal to 3600'));
  }
  if (has(rules.selectPolicy) && !['Disabled', 'Max', 'Min'].includes(s(rules.selectPolicy))) {
    errs.push(fieldErr.notSupported(p.child('selectPolicy'), rules.selectPolicy, ['Disabled', 'Max', 'Min']));
  }
  const policies = a(rules.policies);
  if (policies.length === 0) errs.push(fieldErr.required(p.child('policies'), 'must specify at least one Policy'));
  policies.forEach((pol, i) => {
    const pp = p.child('policies').index(i);
    const po = o(pol);
    if (po.type !== 'Pods' && po.type !== 'Percent') errs.push(fieldErr.invalid(pp.child('type'), s(po.type), 'must be either Pods or Percent'));
    if (n(po.value) <= 0) errs.push(fieldErr.invalid(pp.child('value'), n(po.value), 'must be greater than zero'));
    if (n(po.periodSeconds) <= 0) errs.push(fieldErr.invalid(pp.child('periodSeconds'), n(po.periodSeconds), 'must be greater than zero'));
    if (n(po.periodSeconds) > 1800) errs.push(fieldErr.invalid(pp.child('periodSeconds'), n(po.periodSeconds), 'must be less than or equal to 1800'));
  });
  return errs;
}

function validateSpec(spec: unknown): Errs {
  const sp = o(spec);
  const p = root('spec');
  const errs: Errs = [];
  if (has(sp.minReplicas) && n(sp.minReplicas) < 1) errs.push(fieldErr.invalid(p.child('minReplicas'), n(sp.minReplicas), 'must be greater than or equal to 1'));
  if (n(sp.maxReplicas) < 1) errs.push(fieldErr.invalid(p.child('maxReplicas'), n(sp.maxReplicas), 'must be greater than 0'));
  if (has(sp.minReplicas) && n(sp.maxReplicas) < n(sp.minReplicas)) errs.push(fieldErr.invalid(p.child('maxReplicas'), n(sp.maxReplicas), 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionRef(o(sp.scaleTargetRef), p.child('scaleTargetRef')));
  a(sp.metrics).forEach((m, i) => errs.push(...validateMetricSpec(o(m), p.child('metrics').index(i))));
  if (isObj(sp.behavior)) {
    errs.push(...validateScalingRules((sp.behavior as Loose).scaleUp, p.child('behavior', 'scaleUp')));
    errs.push(...validateScalingRules((sp.behavior as Loose).scaleDown, p.child('behavior', 'scaleDown')));
  }
  return errs;
}

export function validateHPA(hpa: Loose): Errs {
  return [...validateObjectMeta(hpa.metadata, true, nameIsDNSSubdomain), ...validateSpec(hpa.spec)];
}
export function validateHPAUpdate(hpa: Loose, old: Loose): Errs {
  return [...validateObjectMetaUpdate(hpa.metadata, old.metadata), ...validateSpec(hpa.spec)];
}
export function validateHPAStatusUpdate(hpa: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(hpa.metadata, old.metadata);
  const st = o(hpa.status);
  if (n(st.currentReplicas) < 0) errs.push(fieldErr.invalid(root('status', 'currentReplicas'), n(st.currentReplicas), 'must be greater than or equal to 0'));
  if (n(st.desiredReplicas) < 0) errs.push(fieldErr.invalid(root('status', 'desiredReplicas'), n(st.desiredReplicas), 'must be greater than or equal to 0'));
  return errs;
}
