// apps/v1 validation (pkg/apis/apps/validation/validation.go v1.32) plus the
// selector immutability the apps/v1 strategies add on update
// (pkg/registry/apps/*/strategy.go ValidateUpdate).
import { isValidPercent } from '../../apimachinery/validation/names';
import { nameIsDNSLabel, nameIsDNSSubdomain } from './names';
import { isEmptySelector, selectorMatches, selectorParseFails, validateAnnotations, validateLabels, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './objectMeta';
import { validatePodTemplateSpec } from './core/pod';
import { validateReplicaStatusCounts } from './core/misc';
import { a, clone, deepEqual, fieldErr, FieldPath, FIELD_IMMUTABLE, goInvalid, goLabelSelector, goStringMap, has, immutable, isObj, n, nonNegative, o, root, s, type Errs, type Loose } from './util';

function immutableSelector(sel: unknown, old: unknown): Errs {
  return deepEqual(sel, old) ? [] : [goInvalid(root('spec', 'selector'), goLabelSelector(sel), FIELD_IMMUTABLE)];
}

function validatePositiveIntOrPercent(v: unknown, p: FieldPath): Errs {
  if (typeof v === 'string') return isValidPercent(v).map((m) => fieldErr.invalid(p, v, m));
  if (typeof v === 'number') return nonNegative(v, p);
  return [fieldErr.invalid(p, v ?? null, "must be an integer or percentage (e.g '5%%')")];
}

function percentValue(v: unknown): number | null {
  if (typeof v !== 'string' || isValidPercent(v).length) return null;
  return Number(v.slice(0, -1));
}
function intOrPercentValue(v: unknown): number {
  const pct = percentValue(v);
  if (pct !== null) return pct;
  return typeof v === 'number' ? v : Number.parseInt(s(v), 10) || 0;
}
function notMoreThan100Percent(v: unknown, p: FieldPath): Errs {
  const pct = percentValue(v);
  return pct !== null && pct > 100 ? [fieldErr.invalid(p, v, 'must not be greater than 100%')] : [];
}

/** ValidatePodTemplateSpecForReplicaSet (also used by Deployment). */
function validateTemplateForReplicaSet(tpl: unknown, selector: unknown, p: FieldPath, kind: string): Errs {
  if (!isObj(tpl)) return [fieldErr.required(p, '')];
  const errs: Errs = [];
  const labels = o((tpl as Loose).metadata).labels;
  if (!isEmptySelector(selector) && !selectorMatches(selector, labels)) {
    errs.push(goInvalid(p.child('metadata', 'labels'), goStringMap(labels), '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(tpl, p));
  const sp = o((tpl as Loose).spec);
  if (s(sp.restartPolicy) !== 'Always') errs.push(fieldErr.notSupported(p.child('spec', 'restartPolicy'), s(sp.restartPolicy), ['Always']));
  if (has(sp.activeDeadlineSeconds)) errs.push(fieldErr.forbidden(p.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  return errs;
}

function validateStrictSelector(sel: unknown, p: FieldPath, kind: string): Errs {
  if (!isObj(sel)) return [fieldErr.required(p, '')];
  const errs = validateLabelSelector(sel, {}, p);
  if (isEmptySelector(sel)) errs.push(fieldErr.invalid(p, sel, `empty selector is invalid for ${kind}`));
  return errs;
}

// ---------------------------------------------------------------- Deployment

function validateDeploymentStrategy(st: unknown, p: FieldPath): Errs {
  const strat = o(st);
  const errs: Errs = [];
  switch (strat.type) {
    case 'Recreate':
      if (has(strat.rollingUpdate)) errs.push(fieldErr.forbidden(p.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"));
      break;
    case 'RollingUpdate': {
      if (!isObj(strat.rollingUpdate)) {
        errs.push(fieldErr.required(p.child('rollingUpdate'), 'this should be defaulted and never be nil'));
        break;
      }
      const ru = strat.rollingUpdate as Loose;
      const rp = p.child('rollingUpdate');
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, rp.child('maxUnavailable')));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, rp.child('maxSurge')));
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push(fieldErr.invalid(rp.child('maxUnavailable'), ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
      }
      errs.push(...notMoreThan100Percent(ru.maxUnavailable, rp.child('maxUnavailable')));
      break;
    }
    default:
      errs.push(fieldErr.notSupported(p, strat, ['Recreate', 'RollingUpdate']));
  }
  return errs;
}

function validateDeploymentSpec(spec: unknown): Errs {
  const sp = o(spec);
  const p = root('spec');
  const errs = nonNegative(sp.replicas, p.child('replicas'));
  errs.push(...validateStrictSelector(sp.selector, p.child('selector'), 'deployment'));
  if (selectorParseFails(sp.selector)) errs.push(fieldErr.invalid(p.child('selector'), sp.selector, 'invalid label selector'));
  else errs.push(...validateTemplateForReplicaSet(sp.template, sp.selector, p.child('template'), 'ReplicaSet'));
  errs.push(...validateDeploymentStrategy(sp.strategy, p.child('strategy')));
  errs.push(...nonNegative(sp.minReadySeconds, p.child('minReadySeconds')));
  if (has(sp.revisionHistoryLimit)) errs.push(...nonNegative(sp.revisionHistoryLimit, p.child('revisionHistoryLimit')));
  if (has(sp.progressDeadlineSeconds)) {
    errs.push(...nonNegative(sp.progressDeadlineSeconds, p.child('progressDeadlineSeconds')));
    if (n(sp.progressDeadlineSeconds) <= n(sp.minReadySeconds)) {
      errs.push(fieldErr.invalid(p.child('progressDeadlineSeconds'), sp.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

export function validateDeployment(d: Loose): Errs {
  return [...validateObjectMeta(d.metadata, true, nameIsDNSSubdomain), ...validateDeploymentSpec(d.spec)];
}
export function validateDeploymentUpdate(d: Loose, old: Loose): Errs {
  const errs = [...validateObjectMetaUpdate(d.metadata, old.metadata), ...validateDeploymentSpec(d.spec)];
  errs.push(...immutableSelector(o(d.spec).selector, o(old.spec).selector));
  return errs;
}

function validateReplicaCounts(st: Loose, p: FieldPath, fields: string[]): Errs {
  const errs: Errs = [];
  for (const f of fields) errs.push(...nonNegative(st[f], p.child(f)));
  return errs;
}

export function validateDeploymentStatusUpdate(d: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(d.metadata, old.metadata);
  const st = o(d.status);
  const p = root('status');
  errs.push(...validateReplicaCounts(st, p, ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount']));
  const msg = 'cannot be greater than status.replicas';
  if (n(st.updatedReplicas) > n(st.replicas)) errs.push(fieldErr.invalid(p.child('updatedReplicas'), n(st.updatedReplicas), msg));
  if (n(st.readyReplicas) > n(st.replicas)) errs.push(fieldErr.invalid(p.child('readyReplicas'), n(st.readyReplicas), msg));
  if (n(st.availableReplicas) > n(st.replicas)) errs.push(fieldErr.invalid(p.child('availableReplicas'), n(st.availableReplicas), msg));
  if (n(st.availableReplicas) > n(st.readyReplicas)) errs.push(fieldErr.invalid(p.child('availableReplicas'), n(st.availableReplicas), 'cannot be greater than readyReplicas'));
  errs.push(...collisionDecrement(st, o(old.status), p));
  return errs;
}

function collisionDecrement(st: Loose, old: Loose, p: FieldPath): Errs {
  if (!has(old.collisionCount)) return [];
  if (!has(st.collisionCount) || n(st.collisionCount) < n(old.collisionCount)) {
    return [fieldErr.invalid(p.child('collisionCount'), n(st.collisionCount), 'cannot be decremented')];
  }
  return [];
}

// ---------------------------------------------------------------- ReplicaSet

function validateReplicaSetSpec(spec: unknown): Errs {
  const sp = o(spec);
  const p = root('spec');
  const errs = nonNegative(sp.replicas, p.child('replicas'));
  errs.push(...nonNegative(sp.minReadySeconds, p.child('minReadySeconds')));
  // Upstream reuses the Deployment wording here.
  errs.push(...validateStrictSelector(sp.selector, p.child('selector'), 'deployment'));
  if (selectorParseFails(sp.selector)) errs.push(fieldErr.invalid(p.child('selector'), sp.selector, 'invalid label selector'));
  else errs.push(...validateTemplateForReplicaSet(sp.template, sp.selector, p.child('template'), 'ReplicaSet'));
  return errs;
}

export function validateReplicaSet(rs: Loose): Errs {
  return [...validateObjectMeta(rs.metadata, true, nameIsDNSSubdomain), ...validateReplicaSetSpec(rs.spec)];
}
export function validateReplicaSetUpdate(rs: Loose, old: Loose): Errs {
  const errs = [...validateObjectMetaUpdate(rs.metadata, old.metadata), ...validateReplicaSetSpec(rs.spec)];
  errs.push(...immutableSelector(o(rs.spec).selector, o(old.spec).selector));
  return errs;
}
export function validateReplicaSetStatusUpdate(rs: Loose, old: Loose): Errs {
  return [...validateObjectMetaUpdate(rs.metadata, old.metadata), ...validateReplicaStatusCounts(o(rs.status), root('status'))];
}

// ---------------------------------------------------------------- StatefulSet

function validateStatefulSetSpec(spec: unknown): Errs {
  const sp = o(spec);
  const p = root('spec');
  const errs: Errs = [];
  const pmp = s(sp.podManagementPolicy);
  if (pmp === '') errs.push(fieldErr.required(p.child('podManagementPolicy'), ''));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(fieldErr.invalid(p.child('podManagementPolicy'), pmp, "must be 'OrderedReady' or 'Parallel'"));
  const us = o(sp.updateStrategy);
  switch (s(us.type)) {
    case '':
      errs.push(fieldErr.required(p.child('updateStrategy'), ''));
      break;
    case 'OnDelete':
      if (has(us.rollingUpdate)) errs.push(fieldErr.invalid(p.child('updateStrategy', 'rollingUpdate'), us.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
      break;
    case 'RollingUpdate':
      if (isObj(us.rollingUpdate)) {
        const ru = us.rollingUpdate as Loose;
        const rp = p.child('updateStrategy', 'rollingUpdate');
        errs.push(...nonNegative(ru.partition, rp.child('partition')));
        if (has(ru.maxUnavailable)) {
          errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, rp.child('maxUnavailable')));
          if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(fieldErr.invalid(rp.child('maxUnavailable'), ru.maxUnavailable, 'cannot be 0'));
          errs.push(...notMoreThan100Percent(ru.maxUnavailable, rp.child('maxUnavailable')));
        }
      }
      break;
    default:
      errs.push(fieldErr.invalid(p.child('updateStrategy'), us, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  if (isObj(sp.persistentVolumeClaimRetentionPolicy)) {
    const pol = sp.persistentVolumeClaimRetentionPolicy as Loose;
    for (const k of ['whenDeleted', 'whenScaled']) {
      if (pol[k] !== 'Retain' && pol[k] !== 'Delete') errs.push(fieldErr.notSupported(p.child('persistentVolumeClaimRetentionPolicy', k), s(pol[k]), ['Retain', 'Delete']));
    }
  }
  errs.push(...nonNegative(sp.replicas, p.child('replicas')));
  errs.push(...nonNegative(sp.minReadySeconds, p.child('minReadySeconds')));
  if (isObj(sp.ordinals)) errs.push(...nonNegative((sp.ordinals as Loose).start, p.child('ordinals.start')));
  errs.push(...validateStrictSelector(sp.selector, p.child('selector'), 'statefulset'));
  if (selectorParseFails(sp.selector)) errs.push(fieldErr.invalid(p.child('selector'), sp.selector, ''));
  else {
    const tp = p.child('template');
    if (!isObj(sp.template)) errs.push(fieldErr.required(tp, ''));
    else {
      const tpl = sp.template as Loose;
      const labels = o(tpl.metadata).labels;
      if (!isEmptySelector(sp.selector) && isObj(sp.selector) && !selectorMatches(sp.selector, labels)) {
        errs.push(goInvalid(tp.child('metadata', 'labels'), goStringMap(labels), '`selector` does not match template `labels`'));
      }
      errs.push(...validateLabels(labels, tp.child('labels')));
      errs.push(...validateAnnotations(o(tpl.metadata).annotations, tp.child('annotations')));
    }
  }
  const tspec = o(o(sp.template).spec);
  if (s(tspec.restartPolicy) !== 'Always') errs.push(fieldErr.notSupported(p.child('template', 'spec', 'restartPolicy'), s(tspec.restartPolicy), ['Always']));
  if (has(tspec.activeDeadlineSeconds)) errs.push(fieldErr.forbidden(p.child('template', 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in StatefulSet is not Supported'));
  return errs;
}

/** The template with a persistentVolumeClaim volume per claim template it does not already name. */
function withClaimVolumes(spec: unknown): unknown {
  const sp = o(spec);
  if (!isObj(sp.template) || !Array.isArray(sp.volumeClaimTemplates) || sp.volumeClaimTemplates.length === 0) return sp.template;
  const tpl = clone(sp.template) as Loose;
  const podSpec = (tpl.spec = o(tpl.spec));
  const volumes: Loose[] = Array.isArray(podSpec.volumes) ? podSpec.volumes : [];
  for (const t of sp.volumeClaimTemplates as Loose[]) {
    const name = o(o(t).metadata).name;
    if (typeof name === 'string' && !volumes.some((v) => o(v).name === name)) volumes.push({ name, persistentVolumeClaim: { claimName: name } });
  }
  podSpec.volumes = volumes;
  return tpl;
}

export function validateStatefulSet(sts: Loose): Errs {
  const errs = [...validateObjectMeta(sts.metadata, true, nameIsDNSLabel), ...validateStatefulSetSpec(sts.spec)];
  // The registry validates the pod template fully on create (statefulSetStrategy.Validate); the
  // volumeClaimTemplates are volumes of every pod (the controller mounts `<claim>-<set>-<ordinal>`).
  errs.push(...validatePodTemplateSpec(withClaimVolumes(sts.spec), root('spec', 'template')).filter((e) => !e.field.startsWith('spec.template.labels') && !e.field.startsWith('spec.template.annotations')));
  return errs;
}

export function validateStatefulSetUpdate(sts: Loose, old: Loose): Errs {
  const errs = [...validateObjectMetaUpdate(sts.metadata, old.metadata), ...validateStatefulSetSpec(sts.spec)];
  const ns = clone(o(sts.spec));
  const os = o(old.spec);
  for (const k of ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'persistentVolumeClaimRetentionPolicy']) {
    if (has(os[k])) ns[k] = os[k];
    else delete ns[k];
  }
  if (!deepEqual(ns, os)) {
    errs.push(
      fieldErr.forbidden(
        root('spec'),
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errs;
}

export function validateStatefulSetStatusUpdate(sts: Loose, old: Loose): Errs {
  const st = o(sts.status);
  const p = root('status');
  const errs = validateReplicaCounts(st, p, ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount']);
  const msg = 'cannot be greater than status.replicas';
  for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas']) {
    if (n(st[k]) > n(st.replicas)) errs.push(fieldErr.invalid(p.child(k), n(st[k]), msg));
  }
  if (n(st.availableReplicas) > n(st.readyReplicas)) errs.push(fieldErr.invalid(p.child('availableReplicas'), n(st.availableReplicas), 'cannot be greater than status.readyReplicas'));
  errs.push(...validateObjectMetaUpdate(sts.metadata, old.metadata));
  errs.push(...collisionDecrement(st, o(old.status), p));
  return errs;
}

// ---------------------------------------------------------------- DaemonSet

function validateDaemonSetSpec(spec: unknown): Errs {
  const sp = o(spec);
  const p = root('spec');
  const errs = validateLabelSelector(sp.selector, {}, p.child('selector'));
  const labels = o(o(sp.template).metadata).labels;
  if (!selectorParseFails(sp.selector) && !selectorMatches(sp.selector ?? {}, labels) && isObj(sp.selector)) {
    errs.push(goInvalid(p.child('template', 'metadata', 'labels'), goStringMap(labels), '`selector` does not match template `labels`'));
  }
  if (isObj(sp.selector) && isEmptySelector(sp.selector)) errs.push(fieldErr.invalid(p.child('selector'), sp.selector, 'empty selector is invalid for daemonset'));
  errs.push(...validatePodTemplateSpec(sp.template, p.child('template')));
  const tspec = o(o(sp.template).spec);
  if (s(tspec.restartPolicy) !== 'Always') errs.push(fieldErr.notSupported(p.child('template', 'spec', 'restartPolicy'), s(tspec.restartPolicy), ['Always']));
  if (has(tspec.activeDeadlineSeconds)) errs.push(fieldErr.forbidden(p.child('template', 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in DaemonSet is not Supported'));
  errs.push(...nonNegative(sp.minReadySeconds, p.child('minReadySeconds')));
  errs.push(...nonNegative(sp.templateGeneration, p.child('templateGeneration')));
  const us = o(sp.updateStrategy);
  const up = p.child('updateStrategy');
  switch (us.type) {
    case 'OnDelete':
      break;
    case 'RollingUpdate': {
      if (!isObj(us.rollingUpdate)) {
        errs.push(fieldErr.required(up.child('rollingUpdate'), ''));
        break;
      }
      const ru = us.rollingUpdate as Loose;
      const rp = up.child('rollingUpdate');
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, rp.child('maxUnavailable')));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, rp.child('maxSurge')));
      errs.push(...notMoreThan100Percent(ru.maxUnavailable, rp.child('maxUnavailable')));
      errs.push(...notMoreThan100Percent(ru.maxSurge, rp.child('maxSurge')));
      const hasU = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hasS = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasU && hasS) errs.push(fieldErr.invalid(rp.child('maxSurge'), ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
      else if (!hasU && !hasS) errs.push(fieldErr.required(rp.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
      break;
    }
    default:
      errs.push(fieldErr.notSupported(up, us, ['RollingUpdate', 'OnDelete']));
  }
  if (has(sp.revisionHistoryLimit)) errs.push(...nonNegative(sp.revisionHistoryLimit, p.child('revisionHistoryLimit')));
  return errs;
}

export function validateDaemonSet(ds: Loose): Errs {
  return [...validateObjectMeta(ds.metadata, true, nameIsDNSSubdomain), ...validateDaemonSetSpec(ds.spec)];
}
export function validateDaemonSetUpdate(ds: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(ds.metadata, old.metadata);
  const ns = o(ds.spec);
  const os = o(old.spec);
  // apps/v1 carries templateGeneration in an annotation (conversion to the internal type reads it).
  const p = root('spec', 'templateGeneration');
  const tg = templateGeneration(ds);
  const otg = templateGeneration(old);
  const changed = !deepEqual(ns.template, os.template);
  if (tg < otg) errs.push(fieldErr.invalid(p, tg, 'must not be decremented'));
  if (tg === otg && changed) errs.push(fieldErr.invalid(p, tg, 'must be incremented upon template update'));
  else if (tg > otg && !changed) errs.push(fieldErr.invalid(p, tg, 'must not be incremented without template update'));
  errs.push(...validateDaemonSetSpec(ds.spec));
  errs.push(...immutableSelector(ns.selector, os.selector));
  return errs;
}
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';
function templateGeneration(ds: Loose): number {
  const v = (o(o(ds.metadata).annotations) as Record<string, unknown>)[TEMPLATE_GENERATION_ANNOTATION];
  const parsed = typeof v === 'string' ? Number.parseInt(v, 10) : NaN;
  return Number.isFinite(parsed) ? parsed : n(o(ds.spec).templateGeneration);
}

export function validateDaemonSetStatusUpdate(ds: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(ds.metadata, old.metadata);
  const st = o(ds.status);
  errs.push(
    ...validateReplicaCounts(st, root('status'), [
      'currentNumberScheduled',
      'numberMisscheduled',
      'desiredNumberScheduled',
      'numberReady',
      'observedGeneration',
      'updatedNumberScheduled',
      'numberAvailable',
      'numberUnavailable',
      'collisionCount',
    ]),
  );
  errs.push(...collisionDecrement(st, o(old.status), root('status')));
  return errs;
}

// ---------------------------------------------------------------- ControllerRevision

export function validateControllerRevision(cr: Loose): Errs {
  const errs = validateObjectMeta(cr.metadata, true, nameIsDNSSubdomain);
  if (!has(cr.data)) errs.push(fieldErr.required(root('data'), 'data is mandatory'));
  errs.push(...nonNegative(cr.revision, root('revision')));
  return errs;
}
export function validateControllerRevisionUpdate(cr: Loose, old: Loose): Errs {
  return [...validateObjectMetaUpdate(cr.metadata, old.metadata), ...validateControllerRevision(cr), ...immutable(cr.data, old.data, root('data'))];
}

export { a };
