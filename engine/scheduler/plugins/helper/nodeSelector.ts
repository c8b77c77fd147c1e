// Node selectors as k8s.io/component-helpers/scheduling/corev1/nodeaffinity
// (nodeaffinity.go, v1.32) evaluates them: NodeSelectorTerms are ORed, the
// requirements inside a term ANDed; an empty term (no matchExpressions and no
// matchFields) matches nothing; matchFields know only `metadata.name` (In /
// NotIn with exactly one value). A term that fails to parse never matches
// (LazyErrorNodeSelector); NewNodeSelector reports the parse errors instead.
//
// Selectors are compiled once (per pod, per plugin args) into plain data held
// by small registered classes, so they may sit in CycleState and snapshots;
// match() and score() then allocate nothing.
import { FieldPath, fieldErr, type FieldError } from '../../../apimachinery/fieldErrors';
import { isQualifiedName, isValidLabelValue } from '../../../apimachinery/validation/names';
import { registerClass } from '../../../sim/serial';
import type { Node, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod, PreferredSchedulingTerm } from '../../framework/api';

/** v1.NodeSelectorOperator */
export type NodeSelectorOp = NodeSelectorRequirement['operator'];

/** The only field a node selector's matchFields can name (metav1.ObjectNameField). */
export const OBJECT_NAME_FIELD = 'metadata.name';

const VALID_SELECTOR_OPERATORS: readonly string[] = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];
const VALID_FIELD_SELECTOR_OPERATORS: readonly string[] = ['In', 'NotIn'];

/** A parsed label requirement. For Gt/Lt, `bound` is the value as a number (exact when `boundText` is null). */
export interface LabelRequirement {
  key: string;
  op: NodeSelectorOp;
  values: string[];
  bound: number;
  /** The decimal text when the bound is beyond 2^53 (compared exactly, rarely). */
  boundText: string | null;
}

/** A parsed field requirement: field == value, or != when `notEqual`. */
export interface FieldRequirement {
  key: string;
  notEqual: boolean;
  value: string;
}

/** A parsed NodeSelectorTerm (upstream's nodeSelectorTerm). null lists mean "not given". */
export interface CompiledTerm {
  matchLabels: LabelRequirement[] | null;
  matchFields: FieldRequirement[] | null;
  /** Non-empty: the term never matches. */
  parseErrors: FieldError[] | null;
}

type Labels = Record<string, string> | undefined;

const hasOwn = Object.prototype.hasOwnProperty;

// --- int64 parsing without allocation ---------------------------------------

const INT64_MAX = '9223372036854775807';

/** Go's strconv.ParseInt(s, 10, 64) succeeding (optional sign, ASCII digits, in range). */
export function isInt64(s: string): boolean {
  const n = s.length;
  let i = 0;
  if (n > 0 && (s.charCodeAt(0) === 43 /* + */ || s.charCodeAt(0) === 45) /* - */) i = 1;
  if (i === n) return false;
  for (let j = i; j < n; j++) {
    const c = s.charCodeAt(j);
    if (c < 48 || c > 57) return false;
  }
  // Range: strip leading zeros and compare with 2^63-1 (or 2^63 for negatives).
  while (i < n - 1 && s.charCodeAt(i) === 48) i++;
  const digits = n - i;
  if (digits < 19) return true;
  if (digits > 19) return false;
  const body = s.slice(i);
  const negative = s.charCodeAt(0) === 45;
  return negative ? body <= '9223372036854775808' : body <= INT64_MAX;
}

/** Compares two int64 decimal strings exactly (both valid per isInt64): -1, 0, 1. */
function compareInt64Text(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A label value compared with a Gt/Lt bound: sign of (value - bound), or NaN when the value is not an int64. */
function compareWithBound(value: string, r: LabelRequirement): number {
  if (!isInt64(value)) return NaN;
  if (r.boundText === null && value.length <= 15) {
    const v = Number(value);
    return v < r.bound ? -1 : v > r.bound ? 1 : 0;
  }
  return compareInt64Text(value, r.boundText ?? String(r.bound));
}

// --- compiling ---------------------------------------------------------------

function labelKeyError(key: string, path: FieldPath): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length ? fieldErr.invalid(path, key, errs.join('; ')) : undefined;
}

/** nodeSelectorRequirementsAsSelector: operators mapped, then labels.NewRequirement's checks. */
function compileLabelRequirements(reqs: readonly NodeSelectorRequirement[], path: FieldPath, errs: FieldError[]): LabelRequirement[] {
  const out: LabelRequirement[] = [];
  reqs.forEach((expr, i) => {
    const p = path.index(i);
    const op = expr.operator as string;
    if (!VALID_SELECTOR_OPERATORS.includes(op)) {
      errs.push(fieldErr.notSupported(p.child('operator'), op, VALID_SELECTOR_OPERATORS));
      return;
    }
    const values = expr.values ?? [];
    const before = errs.length;
    const keyErr = labelKeyError(expr.key, p.child('key'));
    if (keyErr) errs.push(keyErr);
    const vp = p.child('values');
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(fieldErr.invalid(vp, [...values], "for 'in', 'notin' operators, values set can't be empty"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length !== 0) errs.push(fieldErr.invalid(vp, [...values], 'values set must be empty for exists and does not exist'));
        break;
      case 'Gt':
      case 'Lt':
        if (values.length !== 1) errs.push(fieldErr.invalid(vp, [...values], "for 'Gt', 'Lt' operators, exactly one value is required"));
        values.forEach((v, j) => {
          if (!isInt64(v)) errs.push(fieldErr.invalid(vp.index(j), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
        });
        break;
    }
    values.forEach((v, j) => {
      const ve = isValidLabelValue(v);
      if (ve.length) errs.push(fieldErr.invalid(vp.index(j).key(expr.key), v, ve.join('; ')));
    });
    if (errs.length > before) return;
    let bound = 0;
    let boundText: string | null = null;
    if (expr.operator === 'Gt' || expr.operator === 'Lt') {
      const v = values[0]!;
      bound = Number(v);
      if (!Number.isSafeInteger(bound)) boundText = v;
    }
    out.push({ key: expr.key, op: expr.operator, values: [...values], bound, boundText });
  });
  return out;
}

/** nodeSelectorRequirementsAsFieldSelector: In / NotIn with exactly one value. */
function compileFieldRequirements(reqs: readonly NodeSelectorRequirement[], path: FieldPath, errs: FieldError[]): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  reqs.forEach((expr, i) => {
    const p = path.index(i);
    const values = expr.values ?? [];
    switch (expr.operator as string) {
      case 'In':
      case 'NotIn':
        if (values.length !== 1) errs.push(fieldErr.invalid(p.child('values'), [...values], 'must have one element'));
        else out.push({ key: expr.key, notEqual: expr.operator === 'NotIn', value: values[0]! });
        break;
      default:
        errs.push(fieldErr.notSupported(p.child('operator'), expr.operator, VALID_FIELD_SELECTOR_OPERATORS));
    }
  });
  return out;
}

/** isEmptyNodeSelectorTerm */
export function isEmptyNodeSelectorTerm(term: NodeSelectorTerm): boolean {
  return (term.matchExpressions?.length ?? 0) === 0 && (term.matchFields?.length ?? 0) === 0;
}

/** newNodeSelectorTerm: parses one term; errors stay on the term. */
export function compileTerm(term: NodeSelectorTerm, path: FieldPath): CompiledTerm {
  const errs: FieldError[] = [];
  const me = term.matchExpressions ?? [];
  const mf = term.matchFields ?? [];
  const matchLabels = me.length ? compileLabelRequirements(me, path.child('matchExpressions'), errs) : null;
  const matchFields = mf.length ? compileFieldRequirements(mf, path.child('matchFields'), errs) : null;
  return { matchLabels, matchFields, parseErrors: errs.length ? errs : null };
}

function toPath(path: FieldPath | string | undefined): FieldPath {
  if (path instanceof FieldPath) return path;
  // field.ToPath with no options is an empty path: children print without a leading dot.
  return path ? FieldPath.root(path) : FieldPath.root('');
}

// --- matching ----------------------------------------------------------------

/** labels.Requirement.Matches for one node-selector requirement. */
export function labelRequirementMatches(r: LabelRequirement, labels: Labels): boolean {
  const has = labels !== undefined && hasOwn.call(labels, r.key);
  switch (r.op) {
    case 'In':
      return has && r.values.includes(labels![r.key]!);
    case 'NotIn':
      return !has || !r.values.includes(labels![r.key]!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
      return has && compareWithBound(labels![r.key]!, r) > 0;
    case 'Lt':
      return has && compareWithBound(labels![r.key]!, r) < 0;
  }
}

/** nodeSelectorTerm.match: label requirements on the labels, field requirements on metadata.name. */
export function termMatches(t: CompiledTerm, labels: Labels, nodeName: string): boolean {
  if (t.parseErrors !== null) return false;
  if (t.matchLabels !== null) {
    // An empty parsed list is labels.Nothing() upstream (unreachable: a term with no
    // expressions has matchLabels null), kept for safety.
    if (t.matchLabels.length === 0) return false;
    for (let i = 0; i < t.matchLabels.length; i++) if (!labelRequirementMatches(t.matchLabels[i]!, labels)) return false;
  }
  // Upstream skips field requirements when the node has no fields (an unnamed node).
  if (t.matchFields !== null && nodeName.length > 0) {
    for (let i = 0; i < t.matchFields.length; i++) {
      const f = t.matchFields[i]!;
      const v = f.key === OBJECT_NAME_FIELD ? nodeName : '';
      if ((v === f.value) === f.notEqual) return false;
    }
  }
  return true;
}

/**
 * A compiled v1.NodeSelector (NodeSelector / LazyErrorNodeSelector): match()
 * is true when some term matches. Terms with parse errors never match.
 */
export class NodeSelectorMatcher {
  constructor(readonly terms: CompiledTerm[]) {}

  match(node: Node | null | undefined): boolean {
    if (!node) return false;
    const labels = node.metadata.labels;
    const name = node.metadata.name ?? '';
    for (let i = 0; i < this.terms.length; i++) if (termMatches(this.terms[i]!, labels, name)) return true;
    return false;
  }

  /** Every term's parse errors (what LazyErrorNodeSelector.Match reports when nothing matched). */
  parseErrors(): FieldError[] {
    const out: FieldError[] = [];
    for (const t of this.terms) if (t.parseErrors) out.push(...t.parseErrors);
    return out;
  }
}

/** NewLazyErrorNodeSelector: empty terms dropped; parse errors kept on their terms. */
export function newLazyErrorNodeSelector(ns: NodeSelector, path?: FieldPath | string): NodeSelectorMatcher {
  const p = toPath(path).child('nodeSelectorTerms');
  const terms: CompiledTerm[] = [];
  (ns.nodeSelectorTerms ?? []).forEach((term, i) => {
    if (isEmptyNodeSelectorTerm(term)) return;
    terms.push(compileTerm(term, p.index(i)));
  });
  return new NodeSelectorMatcher(terms);
}

export type NodeSelectorResult = { ok: true; selector: NodeSelectorMatcher } | { ok: false; errors: FieldError[] };

/** NewNodeSelector: a selector, or every parse error of its terms. */
export function newNodeSelector(ns: NodeSelector, path?: FieldPath | string): NodeSelectorResult {
  const sel = newLazyErrorNodeSelector(ns, path);
  const errors = sel.parseErrors();
  return errors.length ? { ok: false, errors } : { ok: true, selector: sel };
}

/** v1helper / corev1.MatchNodeSelectorTerms: the node matches some term (parse errors: that term fails). Not for hot paths. */
export function matchNodeSelectorTerms(node: Node | null | undefined, ns: NodeSelector): boolean {
  return newLazyErrorNodeSelector(ns).match(node);
}

/** A parsed PreferredSchedulingTerm. */
export interface WeightedTerm {
  term: CompiledTerm;
  weight: number;
  /** The term as the user wrote it (for explaining a score). */
  source: NodeSelectorTerm;
  /** nodeSelectorTermText(source), once asked for. */
  text?: string;
}

export function weightedTermText(t: WeightedTerm): string {
  return (t.text ??= nodeSelectorTermText(t.source));
}

/** A node selector term as one line: "key In [a b], key2 Exists; metadata.name In [n1]". */
export function nodeSelectorTermText(t: NodeSelectorTerm): string {
  const req = (r: { key: string; operator: string; values?: string[] }) => `${r.key} ${r.operator}${r.values && r.values.length ? ` [${r.values.join(' ')}]` : ''}`;
  const parts = [(t.matchExpressions ?? []).map(req).join(', '), (t.matchFields ?? []).map(req).join(', ')].filter((x) => x !== '');
  return parts.join('; ');
}

/** nodeaffinity.PreferredSchedulingTerms: score(node) is the sum of the weights of the matching terms. */
export class PreferredSchedulingTerms {
  constructor(readonly terms: WeightedTerm[]) {}

  /** The terms the node matches, in order. */
  matching(node: Node | null | undefined): WeightedTerm[] {
    if (!node) return [];
    const labels = node.metadata.labels;
    const name = node.metadata.name ?? '';
    return this.terms.filter((t) => termMatches(t.term, labels, name));
  }

  score(node: Node | null | undefined): number {
    if (!node) return 0;
    const labels = node.metadata.labels;
    const name = node.metadata.name ?? '';
    let score = 0;
    for (let i = 0; i < this.terms.length; i++) {
      const t = this.terms[i]!;
      if (termMatches(t.term, labels, name)) score += t.weight;
    }
    return score;
  }
}

export type PreferredSchedulingTermsResult = { ok: true; terms: PreferredSchedulingTerms } | { ok: false; errors: FieldError[] };

/** NewPreferredSchedulingTerms: zero-weight and empty terms are skipped; any parse error fails the whole. */
export function newPreferredSchedulingTerms(terms: readonly PreferredSchedulingTerm[], path?: FieldPath | string): PreferredSchedulingTermsResult {
  const p = toPath(path);
  const errors: FieldError[] = [];
  const parsed: WeightedTerm[] = [];
  terms.forEach((t, i) => {
    if (!t.weight || isEmptyNodeSelectorTerm(t.preference ?? {})) return;
    const term = compileTerm(t.preference, p.index(i));
    if (term.parseErrors) errors.push(...term.parseErrors);
    else parsed.push({ term, weight: t.weight, source: t.preference });
  });
  return errors.length ? { ok: false, errors } : { ok: true, terms: new PreferredSchedulingTerms(parsed) };
}

/**
 * nodeaffinity.RequiredNodeAffinity: the pod's spec.nodeSelector (every pair
 * must be a node label, unvalidated) AND its required node affinity terms
 * (lazily parsed: a bad term never matches). match() ignores parse errors, as
 * the NodeAffinity Filter and PodTopologySpread do.
 */
export class RequiredNodeAffinity {
  constructor(
    /** spec.nodeSelector as [key, value] pairs; null when the pod has none. */
    readonly labelSelector: [string, string][] | null,
    readonly nodeSelector: NodeSelectorMatcher | null,
  ) {}

  match(node: Node | null | undefined): boolean {
    if (!node) return false;
    if (this.labelSelector !== null) {
      const labels = node.metadata.labels;
      if (labels === undefined) return false;
      for (let i = 0; i < this.labelSelector.length; i++) {
        const pair = this.labelSelector[i]!;
        if (!hasOwn.call(labels, pair[0]) || labels[pair[0]] !== pair[1]) return false;
      }
    }
    if (this.nodeSelector !== null) return this.nodeSelector.match(node);
    return true;
  }
}

/** GetRequiredNodeAffinity(pod). */
export function requiredNodeAffinity(pod: Pod): RequiredNodeAffinity {
  const sel = pod.spec.nodeSelector;
  const pairs = sel && Object.keys(sel).length > 0 ? Object.entries(sel) : null;
  const req = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return new RequiredNodeAffinity(pairs, req ? newLazyErrorNodeSelector(req) : null);
}

registerClass('SchedulerNodeSelectorMatcher', NodeSelectorMatcher);
registerClass('SchedulerPreferredSchedulingTerms', PreferredSchedulingTerms);
registerClass('SchedulerRequiredNodeAffinity', RequiredNodeAffinity);
