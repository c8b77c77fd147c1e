// ObjectMeta and label validation (k8s.io/apimachinery/pkg/api/validation/objectmeta.go,
// k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go).
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from '../../apimachinery/validation/names';
import { type NameFn } from './names';
import { a, deepEqual, fieldErr, FieldPath, immutable, isObj, msgs, n, nonNegative, o, s, sortedKeys, type Errs, type Loose } from './util';
import { utf8Length } from '../../sim/utf8';

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export function validateLabelName(name: string, p: FieldPath): Errs {
  return msgs(p, name, isQualifiedName(name));
}

/** metav1validation.ValidateLabels: errors name the labels map, not the key. */
export function validateLabels(labels: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  for (const k of sortedKeys(labels)) {
    errs.push(...validateLabelName(k, p));
    const v = s((labels as Record<string, unknown>)[k]);
    errs.push(...msgs(p, v, isValidLabelValue(v)));
  }
  return errs;
}

export function validateAnnotations(ann: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  let size = 0;
  for (const k of sortedKeys(ann)) {
    errs.push(...msgs(p, k, isQualifiedName(k.toLowerCase())));
    size += utf8Length(k) + utf8Length(s((ann as Record<string, unknown>)[k]));
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(fieldErr.tooLong(p, '', TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

export interface LabelSelectorOptions {
  allowInvalidLabelValueInSelector?: boolean;
}

export function validateLabelSelector(sel: unknown, opts: LabelSelectorOptions, p: FieldPath): Errs {
  if (!isObj(sel)) return [];
  const errs = validateLabels(sel.matchLabels, p.child('matchLabels'));
  a(sel.matchExpressions).forEach((e, i) => errs.push(...validateLabelSelectorRequirement(e, opts, p.child('matchExpressions').index(i))));
  return errs;
}

export function validateLabelSelectorRequirement(req: Loose, opts: LabelSelectorOptions, p: FieldPath): Errs {
  const errs: Errs = [];
  const r = o(req);
  const values = a(r.values);
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldErr.required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldErr.forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(fieldErr.invalid(p.child('operator'), s(r.operator), 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(s(r.key), p.child('key')));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((v, i) => errs.push(...msgs(p.child('values').index(i), s(v), isValidLabelValue(s(v)))));
  }
  return errs;
}

/** metav1.LabelSelectorAsSelector + Matches. An absent selector matches nothing; an empty one everything. */
export function selectorMatches(sel: unknown, labels: unknown): boolean {
  if (!isObj(sel)) return false;
  const l = o(labels) as Record<string, unknown>;
  for (const k of Object.keys(o(sel.matchLabels))) if (l[k] !== (sel.matchLabels as Record<string, unknown>)[k]) return false;
  for (const e of a(sel.matchExpressions)) {
    const key = s(e.key);
    const present = Object.hasOwn(l, key);
    const vals = a(e.values).map(s);
    switch (e.operator) {
      case 'In':
        if (!present || !vals.includes(s(l[key]))) return false;
        break;
      case 'NotIn':
        if (present && vals.includes(s(l[key]))) return false;
        break;
      case 'Exists':
        if (!present) return false;
        break;
      case 'DoesNotExist':
        if (present) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** Whether LabelSelectorAsSelector would fail (bad operator or bad values). */
export function selectorParseFails(sel: unknown): boolean {
  if (!isObj(sel)) return false;
  for (const e of a(sel.matchExpressions)) {
    const vals = a(e.values);
    if (e.operator === 'In' || e.operator === 'NotIn') {
      if (vals.length === 0) return true;
    } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
      if (vals.length > 0) return true;
    } else return true;
    if (isQualifiedName(s(e.key)).length) return true;
    if (vals.some((v) => isValidLabelValue(s(v)).length)) return true;
  }
  for (const [k, v] of Object.entries(o(sel.matchLabels))) {
    if (isQualifiedName(k).length || isValidLabelValue(s(v)).length) return true;
  }
  return false;
}

export function isEmptySelector(sel: unknown): boolean {
  return isObj(sel) && Object.keys(o(sel.matchLabels)).length + a(sel.matchExpressions).length === 0;
}

function validateOwnerReferences(refs: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  let firstController = '';
  for (const raw of a(refs)) {
    const r = o(raw);
    const apiVersion = s(r.apiVersion);
    const kind = s(r.kind);
    const slash = apiVersion.indexOf('/');
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    if (version.length === 0) errs.push(fieldErr.invalid(p.child('apiVersion'), apiVersion, 'version must not be empty'));
    if (kind.length === 0) errs.push(fieldErr.invalid(p.child('kind'), kind, 'kind must not be empty'));
    if (s(r.name).length === 0) errs.push(fieldErr.invalid(p.child('name'), s(r.name), 'name must not be empty'));
    if (s(r.uid).length === 0) errs.push(fieldErr.invalid(p.child('uid'), s(r.uid), 'uid must not be empty'));
    if (group === '' && version === 'v1' && kind === 'Event') errs.push(fieldErr.invalid(p, raw, '/v1, Kind=Event is disallowed from being an owner'));
    if (r.controller === true) {
      const cur = `${kind}/${s(r.name)}`;
      if (firstController !== '') {
        errs.push(fieldErr.invalid(p, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`));
      } else firstController = cur;
    }
  }
  return errs;
}

function validateFinalizers(fins: unknown, p: FieldPath): Errs {
  const errs: Errs = [];
  const list = a(fins).map(s);
  for (const f of list) errs.push(...msgs(p, f, isQualifiedName(f)));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(fieldErr.invalid(p, list, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/** Appends `more` to `errs` (no spread: most lists are empty, and this runs for every write). */
function append(errs: Errs, more: Errs): void {
  for (let i = 0; i < more.length; i++) errs.push(more[i]!);
}

/** ValidateObjectMeta (create). Name generation has already happened. */
export function validateObjectMeta(meta: unknown, namespaced: boolean, nameFn: NameFn, p: FieldPath = FieldPath.root('metadata')): Errs {
  const m = o(meta);
  const errs: Errs = [];
  const generateName = s(m.generateName);
  const name = s(m.name);
  if (generateName) errs.push(...msgs(p.child('generateName'), generateName, nameFn(generateName, true)));
  if (!name) errs.push(fieldErr.required(p.child('name'), 'name or generateName is required'));
  else {
    const bad = nameFn(name, false);
    if (bad.length) errs.push(...msgs(p.child('name'), name, bad));
  }
  append(errs, validateMetaCommon(m, namespaced, p));
  return errs;
}

function validateMetaCommon(m: Loose, namespaced: boolean, p: FieldPath): Errs {
  const errs: Errs = [];
  const ns = s(m.namespace);
  if (namespaced) {
    if (!ns) errs.push(fieldErr.required(p.child('namespace'), ''));
    else {
      const bad = isDNS1123Label(ns);
      if (bad.length) errs.push(...msgs(p.child('namespace'), ns, bad));
    }
  } else if (ns) {
    errs.push(fieldErr.forbidden(p.child('namespace'), 'not allowed on this type'));
  }
  if (typeof m.generation === 'number' && m.generation < 0) append(errs, nonNegative(m.generation, p.child('generation')));
  // An absent map or list has nothing to report: no path is made for it.
  if (m.labels !== undefined) append(errs, validateLabels(m.labels, p.child('labels')));
  if (m.annotations !== undefined) append(errs, validateAnnotations(m.annotations, p.child('annotations')));
  if (m.ownerReferences !== undefined) append(errs, validateOwnerReferences(m.ownerReferences, p.child('ownerReferences')));
  if (m.finalizers !== undefined) append(errs, validateFinalizers(m.finalizers, p.child('finalizers')));
  return errs;
}

/**
 * ValidateImmutableField for one metadata field. Every update of every object
 * comes here (twice for some kinds): the path and the error list are made only
 * for a field that changed.
 */
function unchanged(errs: Errs, p: FieldPath, field: string, now: unknown, before: unknown): void {
  if (!deepEqual(now, before)) errs.push(...immutable(now, before, p.child(field)));
}

/** ValidateObjectMetaUpdate. */
export function validateObjectMetaUpdate(meta: unknown, oldMeta: unknown, p: FieldPath = FieldPath.root('metadata')): Errs {
  const m = o(meta);
  const old = o(oldMeta);
  const errs: Errs = [];
  if (old.deletionTimestamp) {
    const oldF = new Set(a(old.finalizers).map(s));
    const extra = [...new Set(a(m.finalizers).map(s))].filter((f) => !oldF.has(f)).sort();
    if (extra.length) {
      errs.push(
        fieldErr.forbidden(
          p.child('finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`,
        ),
      );
    }
  }
  if (!s(m.resourceVersion)) errs.push(fieldErr.invalid(p.child('resourceVersion'), s(m.resourceVersion), 'must be specified for an update'));
  if (n(m.generation) < n(old.generation)) errs.push(fieldErr.invalid(p.child('generation'), n(m.generation), 'must not be decremented'));
  unchanged(errs, p, 'name', s(m.name), s(old.name));
  unchanged(errs, p, 'namespace', s(m.namespace), s(old.namespace));
  unchanged(errs, p, 'uid', s(m.uid), s(old.uid));
  if (!deepEqual(m.creationTimestamp, old.creationTimestamp)) errs.push(fieldErr.invalid(p.child('creationTimestamp'), m.creationTimestamp ?? null, 'field is immutable'));
  unchanged(errs, p, 'deletionTimestamp', m.deletionTimestamp, old.deletionTimestamp);
  unchanged(errs, p, 'deletionGracePeriodSeconds', m.deletionGracePeriodSeconds, old.deletionGracePeriodSeconds);
  if (m.labels !== undefined) append(errs, validateLabels(m.labels, p.child('labels')));
  if (m.annotations !== undefined) append(errs, validateAnnotations(m.annotations, p.child('annotations')));
  if (m.ownerReferences !== undefined) append(errs, validateOwnerReferences(m.ownerReferences, p.child('ownerReferences')));
  return errs;
}
