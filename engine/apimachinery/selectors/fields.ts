// Field selectors as k8s.io/apimachinery/pkg/fields/selector.go (v1.32):
// `a=b,c!=d`, values escaped with `\`; plus what the API server does with
// them per resource: the field-label conversion each kind registers
// (pkg/apis/*/v1/conversion.go, runtime.DefaultMetaV1FieldSelectorConversion)
// and the selectable fields each registry strategy exposes (ToSelectableFields).
import type { KObject } from '../types';

export type FieldTerm = { type: 'hasTerm'; field: string; value: string } | { type: 'notHasTerm'; field: string; value: string };

/** An AND of terms; no terms selects everything. */
export interface FieldSelector {
  terms: FieldTerm[];
}

export type Fields = Readonly<Record<string, string>>;
export type FieldSelectorResult = { ok: true; selector: FieldSelector } | { ok: false; error: string };

export function everythingFields(): FieldSelector {
  return { terms: [] };
}

export function isEmptyFieldSelector(sel: FieldSelector): boolean {
  return sel.terms.length === 0;
}

// --- escaping ------------------------------------------------------------------

/** fields.EscapeValue: `\` `,` `=` get a backslash. */
export function escapeValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.UnescapeValue, with upstream's two error texts. */
export function unescapeValue(s: string): { ok: true; value: string } | { ok: false; error: string } {
  if (!/[\\,=]/.test(s)) return { ok: true, value: s };
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') return { ok: false, error: `invalid field selector: invalid escape sequence: \\${c}` };
      out += c;
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    // UnescapedRune prints its rune with %v, i.e. as a number: "=" shows as 61.
    else if (c === ',' || c === '=') return { ok: false, error: `invalid field selector: unescaped character in value: ${c.codePointAt(0)}` };
    else out += c;
  }
  if (inSlash) return { ok: false, error: 'invalid field selector: invalid escape sequence: \\' };
  return { ok: true, value: out };
}

/** splitTerms: commas split terms unless escaped; the backslash stays in the term. */
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** splitTerm: the first operator wins, `!=` before `==` before `=`; the left side is not unescaped. */
function splitTerm(term: string): { lhs: string; op: '!=' | '==' | '='; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** Go's sort.Strings order for the (ASCII) terms. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** fields.ParseSelector: terms come back sorted as raw strings. */
export function parseFieldSelector(selector: string): FieldSelectorResult {
  const parts = splitTerms(selector).sort(byteOrder);
  const terms: FieldTerm[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) return { ok: false, error: `invalid selector: '${selector}'; can't understand '${part}'` };
    const v = unescapeValue(t.rhs);
    if (!v.ok) return v;
    // ParseSelector runs an identity Transform, which drops a term with empty field and value.
    if (t.lhs === '' && v.value === '') continue;
    terms.push(t.op === '!=' ? { type: 'notHasTerm', field: t.lhs, value: v.value } : { type: 'hasTerm', field: t.lhs, value: v.value });
  }
  return { ok: true, selector: { terms } };
}

/** Selector.String(): `f=v` / `f!=v` with values escaped, joined by `,`. */
export function fieldSelectorToString(sel: FieldSelector): string {
  return sel.terms.map((t) => `${t.field}${t.type === 'hasTerm' ? '=' : '!='}${escapeValue(t.value)}`).join(',');
}

/** Selector.Matches: a missing field reads as "". */
export function matchesFields(sel: FieldSelector, fields: Fields): boolean {
  return sel.terms.every((t) => {
    const v = Object.prototype.hasOwnProperty.call(fields, t.field) ? fields[t.field]! : '';
    return t.type === 'hasTerm' ? v === t.value : v !== t.value;
  });
}

/** Selector.RequiresExactMatch: the value an `f=v` term pins. */
export function fieldRequiresExactMatch(sel: FieldSelector, field: string): string | undefined {
  return sel.terms.find((t) => t.type === 'hasTerm' && t.field === field)?.value;
}

/** fields.OneTermEqualSelector. */
export function oneTermEqualSelector(field: string, value: string): FieldSelector {
  return { terms: [{ type: 'hasTerm', field, value }] };
}

// --- per-resource field labels ---------------------------------------------------

type Conversion = { ok: true; label: string; value: string } | { ok: false; error: string };

interface LabelTable {
  /** Accepted labels, each mapped to the label the fields set uses. */
  labels: Readonly<Record<string, string>>;
  /** The kind's error text for an unknown label. */
  unsupported: (label: string) => string;
}

const coreUnsupported = (label: string) => `field label not supported: ${label}`;
const same = (...labels: string[]): Record<string, string> => Object.fromEntries(labels.map((l) => [l, l]));

const EVENT_LABELS = same(
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.namespace',
  'metadata.name',
);

/** AddFieldLabelConversionFunc registrations for the served kinds, keyed `group/resource`. */
const LABEL_TABLES: Readonly<Record<string, LabelTable>> = {
  // pkg/apis/core/v1/conversion.go
  '/pods': {
    labels: {
      ...same(
        'metadata.name',
        'metadata.namespace',
        'spec.nodeName',
        'spec.restartPolicy',
        'spec.schedulerName',
        'spec.serviceAccountName',
        'spec.hostNetwork',
        'status.phase',
        'status.podIP',
        'status.podIPs',
        'status.nominatedNodeName',
      ),
      // Old v1 clients send spec.host.
      'spec.host': 'spec.nodeName',
    },
    unsupported: coreUnsupported,
  },
  '/nodes': { labels: same('metadata.name', 'spec.unschedulable'), unsupported: coreUnsupported },
  '/replicationcontrollers': { labels: same('metadata.name', 'metadata.namespace', 'status.replicas'), unsupported: coreUnsupported },
  '/events': { labels: EVENT_LABELS, unsupported: coreUnsupported },
  '/namespaces': { labels: same('status.phase', 'metadata.name'), unsupported: coreUnsupported },
  '/secrets': { labels: same('type', 'metadata.namespace', 'metadata.name'), unsupported: coreUnsupported },
  '/services': { labels: same('metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type'), unsupported: coreUnsupported },
  // pkg/apis/events/v1/conversion.go: events.k8s.io names mapped onto the core fields set.
  'events.k8s.io/events': {
    labels: {
      reason: 'reason',
      'regarding.kind': 'involvedObject.kind',
      'regarding.namespace': 'involvedObject.namespace',
      'regarding.name': 'involvedObject.name',
      'regarding.uid': 'involvedObject.uid',
      'regarding.apiVersion': 'involvedObject.apiVersion',
      'regarding.resourceVersion': 'involvedObject.resourceVersion',
      'regarding.fieldPath': 'involvedObject.fieldPath',
      reportingController: 'reportingComponent',
      source: 'source',
      type: 'type',
      'metadata.namespace': 'metadata.namespace',
      'metadata.name': 'metadata.name',
    },
    unsupported: coreUnsupported,
  },
  // pkg/apis/apps/v1/conversion.go (status.successful is accepted but never set, so only "" matches it).
  'apps/statefulsets': {
    labels: same('metadata.name', 'metadata.namespace', 'status.successful'),
    unsupported: (label) => `field label not supported for appsv1.StatefulSet: ${label}`,
  },
  // pkg/apis/batch/v1/conversion.go
  'batch/jobs': {
    labels: same('metadata.name', 'metadata.namespace', 'status.successful'),
    unsupported: (label) => `field label ${JSON.stringify(label)} not supported for batchv1.Job`,
  },
};

/** runtime.DefaultMetaV1FieldSelectorConversion: every other kind. */
const DEFAULT_TABLE: LabelTable = {
  labels: same('metadata.name', 'metadata.namespace'),
  unsupported: (label) => `${JSON.stringify(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

/** scheme.ConvertFieldLabel for one resource. */
export function convertFieldLabel(group: string, resource: string, label: string, value: string): Conversion {
  const table = LABEL_TABLES[`${group}/${resource}`] ?? DEFAULT_TABLE;
  const mapped = Object.prototype.hasOwnProperty.call(table.labels, label) ? table.labels[label] : undefined;
  return mapped === undefined ? { ok: false, error: table.unsupported(label) } : { ok: true, label: mapped, value };
}

/**
 * Selector.Transform with the resource's conversion, as the list/watch
 * handlers apply it; the error text is what they put in a 400 BadRequest.
 */
export function convertFieldSelector(group: string, resource: string, sel: FieldSelector): FieldSelectorResult {
  const terms: FieldTerm[] = [];
  for (const t of sel.terms) {
    const c = convertFieldLabel(group, resource, t.field, t.value);
    if (!c.ok) return c;
    // A term converted to an empty field and value drops out (it selects everything).
    if (c.label === '' && c.value === '') continue;
    terms.push({ type: t.type, field: c.label, value: c.value });
  }
  return { ok: true, selector: { terms } };
}

/** Parse, then convert for the resource. */
export function parseFieldSelectorFor(group: string, resource: string, selector: string): FieldSelectorResult {
  const parsed = parseFieldSelector(selector);
  return parsed.ok ? convertFieldSelector(group, resource, parsed.selector) : parsed;
}

// --- selectable fields -------------------------------------------------------------

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const int = (v: unknown): string => String(typeof v === 'number' ? Math.trunc(v) : 0);

/** generic.ObjectMetaFieldsSet: metadata.name, plus metadata.namespace for namespaced kinds. */
function objectMetaFields(o: KObject, namespaced: boolean): Record<string, string> {
  const f: Record<string, string> = { 'metadata.name': o.metadata.name ?? '' };
  if (namespaced) f['metadata.namespace'] = o.metadata.namespace ?? '';
  return f;
}

/** Core events and events.k8s.io events share storage and one fields set (pkg/registry/core/event/strategy.go). */
function eventFields(o: KObject): Record<string, string> {
  // The events.k8s.io shape names the same data differently.
  const ref = obj(o['involvedObject'] ?? o['regarding']);
  const source = obj(o['source'] ?? o['deprecatedSource']);
  const reportingController = str(o['reportingComponent'] ?? o['reportingController']);
  return {
    ...objectMetaFields(o, true),
    'involvedObject.kind': str(ref['kind']),
    'involvedObject.namespace': str(ref['namespace']),
    'involvedObject.name': str(ref['name']),
    'involvedObject.uid': str(ref['uid']),
    'involvedObject.apiVersion': str(ref['apiVersion']),
    'involvedObject.resourceVersion': str(ref['resourceVersion']),
    'involvedObject.fieldPath': str(ref['fieldPath']),
    reason: str(o['reason']),
    reportingComponent: reportingController,
    source: str(source['component']) || reportingController,
    type: str(o['type']),
  };
}

/**
 * The fields set a resource's registry strategy exposes for field selection
 * (GetAttrs), computed from the object's v1 JSON.
 */
export function fieldsOf(group: string, resource: string, o: KObject): Record<string, string> {
  const spec = obj(o['spec']);
  const status = obj(o['status']);
  switch (`${group}/${resource}`) {
    case '/pods': {
      const podIPs = Array.isArray(status['podIPs']) ? status['podIPs'] : [];
      return {
        'spec.nodeName': str(spec['nodeName']),
        'spec.restartPolicy': str(spec['restartPolicy']),
        'spec.schedulerName': str(spec['schedulerName']),
        'spec.serviceAccountName': str(spec['serviceAccountName']),
        'spec.hostNetwork': String(spec['hostNetwork'] === true),
        'status.phase': str(status['phase']),
        'status.podIP': podIPs.length > 0 ? str(obj(podIPs[0])['ip']) : '',
        'status.nominatedNodeName': str(status['nominatedNodeName']),
        ...objectMetaFields(o, true),
      };
    }
    case '/nodes':
      return { ...objectMetaFields(o, false), 'spec.unschedulable': String(spec['unschedulable'] === true) };
    case '/namespaces':
      // "name" is a legacy field kept for compatibility.
      return { ...objectMetaFields(o, false), 'status.phase': str(status['phase']), name: o.metadata.name ?? '' };
    case '/secrets':
      return { ...objectMetaFields(o, true), type: str(o['type']) };
    case '/services':
      return { ...objectMetaFields(o, true), 'spec.clusterIP': str(spec['clusterIP']), 'spec.type': str(spec['type']) };
    case '/replicationcontrollers':
    case 'apps/replicasets':
      return { ...objectMetaFields(o, true), 'status.replicas': int(status['replicas']) };
    case '/events':
    case 'events.k8s.io/events':
      return eventFields(o);
    case '/persistentvolumes':
      return { ...objectMetaFields(o, false), name: o.metadata.name ?? '' };
    case '/persistentvolumeclaims':
      return { ...objectMetaFields(o, true), name: o.metadata.name ?? '' };
    case 'batch/jobs':
      return { ...objectMetaFields(o, true), 'status.successful': int(status['succeeded']) };
    default:
      // Stored objects of namespaced kinds always carry their namespace; cluster-scoped ones never do.
      return objectMetaFields(o, o.metadata.namespace !== undefined && o.metadata.namespace !== '');
  }
}
