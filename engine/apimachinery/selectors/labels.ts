// Label selectors as k8s.io/apimachinery/pkg/labels/selector.go (v1.32) has
// them: the lexer, the recursive-descent parser with its error messages,
// requirement validation, matching and the canonical String() form; plus
// metav1.LabelSelectorAsSelector (pkg/apis/meta/v1/helpers.go).
// A selector is plain data, so it can sit in engine state and snapshots.
import { aggregateMessage, errorString, fieldErr, type FieldError } from '../fieldErrors';
import { isQualifiedName, isValidLabelValue } from '../validation/names';

/** selection.Operator, with upstream's string values. */
export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  operator: Operator;
  /** As given (parsed set-based values arrive sorted and deduplicated). */
  values: string[];
}

/** internalSelector (an AND of requirements; none = everything) or nothingSelector. */
export type Selector = { type: 'Requirements'; requirements: Requirement[] } | { type: 'Nothing' };

export type Labels = Readonly<Record<string, string>>;

export type SelectorResult = { ok: true; selector: Selector } | { ok: false; error: string };
export type RequirementResult = { ok: true; requirement: Requirement } | { ok: false; error: string };

/** metav1.LabelSelector as it appears in object JSON. */
export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

const UNARY: readonly Operator[] = ['exists', '!'];
const BINARY: readonly Operator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const VALID_OPERATORS: readonly string[] = [...BINARY, ...UNARY];

export function everything(): Selector {
  return { type: 'Requirements', requirements: [] };
}

export function nothing(): Selector {
  return { type: 'Nothing' };
}

/** Selector.Empty(): true when the selector does not restrict anything. */
export function isEmpty(sel: Selector): boolean {
  return sel.type === 'Requirements' && sel.requirements.length === 0;
}

// --- requirements ------------------------------------------------------------

/** Go's strconv.ParseInt(s, 10, 64) succeeding. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v < -(1n << 63n) || v > (1n << 63n) - 1n ? undefined : v;
}

/** The path string a nil *field.Path prints (Parse is called without a path). */
const NIL_PATH = '<nil>';

function child(path: string | undefined, name: string): string {
  return path === undefined ? name : `${path}.${name}`;
}

function validateLabelKey(key: string, path: string): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length ? fieldErr.invalid(path, key, errs.join('; ')) : undefined;
}

function validateLabelValue(key: string, value: string, path: string): FieldError | undefined {
  const errs = isValidLabelValue(value);
  return errs.length ? fieldErr.invalid(`${path}[${key}]`, value, errs.join('; ')) : undefined;
}

/** labels.NewRequirement: validates key, operator arity and values; errors aggregate. */
export function newRequirement(key: string, operator: Operator, values: readonly string[], path?: string): RequirementResult {
  const errs: FieldError[] = [];
  const keyErr = validateLabelKey(key, child(path, 'key'));
  if (keyErr) errs.push(keyErr);
  const valuePath = child(path, 'values');
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(fieldErr.invalid(valuePath, [...values], "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(fieldErr.invalid(valuePath, [...values], 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(fieldErr.invalid(valuePath, [...values], 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(fieldErr.invalid(valuePath, [...values], "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(fieldErr.invalid(`${valuePath}[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(fieldErr.notSupported(child(path, 'operator'), operator, VALID_OPERATORS));
  }
  values.forEach((v, i) => {
    const e = validateLabelValue(key, v, `${valuePath}[${i}]`);
    if (e) errs.push(e);
  });
  if (errs.length) return { ok: false, error: aggregateMessage(errs.map(errorString)) };
  return { ok: true, requirement: { key, operator, values: [...values] } };
}

export function requirementMatches(r: Requirement, labels: Labels): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const val = has ? labels[r.key]! : undefined;
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return val !== undefined && r.values.includes(val);
    case 'notin':
    case '!=':
      return val === undefined || !r.values.includes(val);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (val === undefined) return false;
      const lv = parseInt64(val);
      if (lv === undefined || r.values.length !== 1) return false;
      const rv = parseInt64(r.values[0]!);
      if (rv === undefined) return false;
      return r.operator === 'gt' ? lv > rv : lv < rv;
    }
    default:
      return false;
  }
}

/** Go's sort.Strings order (byte-wise for ASCII, which is all a valid value holds). */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Requirement.String(): `!k`, `k`, `k=v`, `k in (a,b)` with values sorted on output. */
export function requirementToString(r: Requirement): string {
  let out = r.operator === '!' ? `!${r.key}` : r.key;
  switch (r.operator) {
    case '=':
      out += '=';
      break;
    case '==':
      out += '==';
      break;
    case '!=':
      out += '!=';
      break;
    case 'in':
      out += ' in ';
      break;
    case 'notin':
      out += ' notin ';
      break;
    case 'gt':
      out += '>';
      break;
    case 'lt':
      out += '<';
      break;
    case 'exists':
    case '!':
      return out;
  }
  const setBased = r.operator === 'in' || r.operator === 'notin';
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort(byteOrder).join(',');
  return setBased ? `${out}(${values})` : out + values;
}

function sortByKey(reqs: Requirement[]): Requirement[] {
  // Array.prototype.sort is stable, as Go's insertion sort is for the small lists selectors hold.
  return reqs.sort((a, b) => byteOrder(a.key, b.key));
}

/** Selector.Add: a new selector with the requirements appended, sorted by key. */
export function addRequirements(sel: Selector, ...reqs: Requirement[]): Selector {
  if (sel.type === 'Nothing') return sel;
  return { type: 'Requirements', requirements: sortByKey([...sel.requirements, ...reqs]) };
}

export function matches(sel: Selector, labels: Labels): boolean {
  if (sel.type === 'Nothing') return false;
  return sel.requirements.every((r) => requirementMatches(r, labels));
}

/** Selector.String(): requirements joined by `,`; Nothing prints as "". */
export function toString(sel: Selector): string {
  return sel.type === 'Nothing' ? '' : sel.requirements.map(requirementToString).join(',');
}

/** Selector.RequiresExactMatch. */
export function requiresExactMatch(sel: Selector, label: string): string | undefined {
  if (sel.type === 'Nothing') return undefined;
  for (const r of sel.requirements) {
    if (r.key !== label) continue;
    if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
    return undefined;
  }
  return undefined;
}

/** labels.SelectorFromSet: equality on every pair, unvalidated; empty set = everything. */
export function selectorFromSet(set: Labels | null | undefined): Selector {
  const reqs: Requirement[] = Object.keys(set ?? {}).map((k) => ({ key: k, operator: '=', values: [set![k]!] }));
  return { type: 'Requirements', requirements: sortByKey(reqs) };
}

/** labels.Set.String(): `k=v` pairs sorted as strings, joined by `,`. */
export function labelsToString(set: Labels | null | undefined): string {
  return Object.entries(set ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .sort(byteOrder)
    .join(',');
}

/** labels.FormatLabels: like labelsToString, `<none>` when empty. */
export function formatLabels(set: Labels | null | undefined): string {
  return labelsToString(set) || '<none>';
}

// --- lexer -------------------------------------------------------------------

export type Token =
  | 'ErrorToken'
  | 'EndOfStringToken'
  | 'ClosedParToken'
  | 'CommaToken'
  | 'DoesNotExistToken'
  | 'DoubleEqualsToken'
  | 'EqualsToken'
  | 'GreaterThanToken'
  | 'IdentifierToken'
  | 'InToken'
  | 'LessThanToken'
  | 'NotEqualsToken'
  | 'NotInToken'
  | 'OpenParToken';

export interface ScannedItem {
  tok: Token;
  literal: string;
}

const STRING_TO_TOKEN: Readonly<Record<string, Token>> = {
  ')': 'ClosedParToken',
  ',': 'CommaToken',
  '!': 'DoesNotExistToken',
  '==': 'DoubleEqualsToken',
  '=': 'EqualsToken',
  '>': 'GreaterThanToken',
  in: 'InToken',
  '<': 'LessThanToken',
  '!=': 'NotEqualsToken',
  notin: 'NotInToken',
  '(': 'OpenParToken',
};

const tokenOf = (s: string): Token | undefined => (Object.prototype.hasOwnProperty.call(STRING_TO_TOKEN, s) ? STRING_TO_TOKEN[s] : undefined);
const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string) => ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';

/** Splits a selector into upstream's tokens, ending with EndOfStringToken. */
export function lex(s: string): ScannedItem[] {
  let pos = 0;
  // read() yields "" at the end, as upstream's yields byte 0 (a NUL in the input also ends it).
  const read = (): string => {
    if (pos < s.length) {
      const ch = s[pos++]!;
      return ch === '\0' ? '' : ch;
    }
    return '';
  };
  const unread = () => {
    pos--;
  };
  const scanIdOrKeyword = (): ScannedItem => {
    let buf = '';
    for (;;) {
      const ch = read();
      if (ch === '') break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        unread();
        break;
      }
      buf += ch;
    }
    return { tok: tokenOf(buf) ?? 'IdentifierToken', literal: buf };
  };
  // The longest run of special symbols that is still a token ("!=" over "!").
  const scanSpecialSymbol = (): ScannedItem => {
    let buf = '';
    let last: ScannedItem | undefined;
    for (;;) {
      const ch = read();
      if (ch === '') break;
      if (!isSpecialSymbol(ch)) {
        unread();
        break;
      }
      buf += ch;
      const t = tokenOf(buf);
      if (t) last = { tok: t, literal: buf };
      else if (last) {
        unread();
        break;
      }
    }
    return last ?? { tok: 'ErrorToken', literal: `error expected: keyword found '${buf}'` };
  };
  const items: ScannedItem[] = [];
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    let item: ScannedItem;
    if (ch === '') item = { tok: 'EndOfStringToken', literal: '' };
    else {
      unread();
      item = isSpecialSymbol(ch) ? scanSpecialSymbol() : scanIdOrKeyword();
    }
    items.push(item);
    if (item.tok === 'EndOfStringToken') return items;
  }
}

// --- parser ------------------------------------------------------------------

type Context = 'KeyAndOperator' | 'Values';
/** A parse step's failure; steps return it instead of throwing. */
interface Fail {
  fail: string;
}
const failed = (v: unknown): v is Fail => typeof v === 'object' && v !== null && 'fail' in v;

/** Parser over the scanned items, a cursor and upstream's step functions. */
function parseItems(items: ScannedItem[], path: string | undefined): Requirement[] | Fail {
  let position = 0;
  const at = (i: number): ScannedItem => items[Math.min(i, items.length - 1)]!;
  // In value position "in" and "notin" are plain identifiers (`x in (in,notin)`).
  const view = (it: ScannedItem, ctx: Context): [Token, string] =>
    ctx === 'Values' && (it.tok === 'InToken' || it.tok === 'NotInToken') ? ['IdentifierToken', it.literal] : [it.tok, it.literal];
  const lookahead = (ctx: Context) => view(at(position), ctx);
  const consume = (ctx: Context) => view(at(position++), ctx);

  const parseKeyAndInferOperator = (): [string, Operator | undefined] | Fail => {
    let operator: Operator | undefined;
    let [tok, literal] = consume('Values');
    if (tok === 'DoesNotExistToken') {
      operator = '!';
      [tok, literal] = consume('Values');
    }
    if (tok !== 'IdentifierToken') return { fail: `found '${literal}', expected: identifier` };
    const keyErr = validateLabelKey(literal, path ?? NIL_PATH);
    if (keyErr) return { fail: errorString(keyErr) };
    const [t] = lookahead('Values');
    if ((t === 'EndOfStringToken' || t === 'CommaToken') && operator !== '!') operator = 'exists';
    return [literal, operator];
  };

  const parseOperator = (): Operator | Fail => {
    const [tok, lit] = consume('KeyAndOperator');
    switch (tok) {
      case 'InToken':
        return 'in';
      case 'EqualsToken':
        return '=';
      case 'DoubleEqualsToken':
        return '==';
      case 'GreaterThanToken':
        return 'gt';
      case 'LessThanToken':
        return 'lt';
      case 'NotInToken':
        return 'notin';
      case 'NotEqualsToken':
        return '!=';
      default:
        return { fail: `found '${lit}', expected: ${BINARY.join(', ')}` };
    }
  };

  const parseIdentifiersList = (): Set<string> | Fail => {
    const s = new Set<string>();
    for (;;) {
      const [tok, lit] = consume('Values');
      switch (tok) {
        case 'IdentifierToken': {
          s.add(lit);
          const [tok2, lit2] = lookahead('Values');
          if (tok2 === 'CommaToken') continue;
          if (tok2 === 'ClosedParToken') return s;
          return { fail: `found '${lit2}', expected: ',' or ')'` };
        }
        case 'CommaToken': {
          // "(," ",)" and ",," each stand for an empty value.
          if (s.size === 0) s.add('');
          const [tok2] = lookahead('Values');
          if (tok2 === 'ClosedParToken') {
            s.add('');
            return s;
          }
          if (tok2 === 'CommaToken') s.add('');
          break;
        }
        default:
          return { fail: `found '${lit}', expected: ',', or identifier` };
      }
    }
  };

  const parseValues = (): Set<string> | Fail => {
    const [open, openLit] = consume('Values');
    if (open !== 'OpenParToken') return { fail: `found '${openLit}' expected: '('` };
    const [tok, lit] = lookahead('Values');
    switch (tok) {
      case 'IdentifierToken':
      case 'CommaToken': {
        const s = parseIdentifiersList();
        if (failed(s)) return s;
        // Upstream reports the literal it looked at before the list, not the one it found.
        if (consume('Values')[0] !== 'ClosedParToken') return { fail: `found '${lit}', expected: ')'` };
        return s;
      }
      case 'ClosedParToken':
        consume('Values');
        return new Set(['']);
      default:
        return { fail: `found '${lit}', expected: ',', ')' or identifier` };
    }
  };

  const parseExactValue = (): Set<string> | Fail => {
    const [t] = lookahead('Values');
    if (t === 'EndOfStringToken' || t === 'CommaToken') return new Set(['']);
    const [tok, lit] = consume('Values');
    if (tok === 'IdentifierToken') return new Set([lit]);
    return { fail: `found '${lit}', expected: identifier` };
  };

  const parseRequirement = (): Requirement | Fail => {
    const keyOp = parseKeyAndInferOperator();
    if (failed(keyOp)) return keyOp;
    const [key, inferred] = keyOp;
    let values: Set<string>;
    let operator: Operator;
    if (inferred === 'exists' || inferred === '!') {
      operator = inferred;
      values = new Set();
    } else {
      const op = parseOperator();
      if (failed(op)) return op;
      operator = op;
      const vs = operator === 'in' || operator === 'notin' ? parseValues() : parseExactValue();
      if (failed(vs)) return vs;
      values = vs;
    }
    // sets.String.List(): sorted, deduplicated.
    const r = newRequirement(key, operator, [...values].sort(byteOrder), path);
    return r.ok ? r.requirement : { fail: r.error };
  };

  const requirements: Requirement[] = [];
  for (;;) {
    const [tok, lit] = lookahead('Values');
    switch (tok) {
      case 'IdentifierToken':
      case 'DoesNotExistToken': {
        const r = parseRequirement();
        if (failed(r)) return { fail: `unable to parse requirement: ${r.fail}` };
        requirements.push(r);
        const [t, l] = consume('Values');
        if (t === 'EndOfStringToken') return requirements;
        if (t !== 'CommaToken') return { fail: `found '${l}', expected: ',' or 'end of string'` };
        const [t2, l2] = lookahead('Values');
        if (t2 !== 'IdentifierToken' && t2 !== 'DoesNotExistToken') return { fail: `found '${l2}', expected: identifier after ','` };
        break;
      }
      case 'EndOfStringToken':
        return requirements;
      default:
        return { fail: `found '${lit}', expected: !, identifier, or 'end of string'` };
    }
  }
}

/**
 * labels.Parse: `x in (foo,,baz),y,z notin ()`, `a=b,!c`, `n>3`. Requirements
 * come back sorted by key. `path` is the field.Path option (errors print
 * `<nil>` where upstream has none).
 */
export function parse(selector: string, path?: string): SelectorResult {
  const reqs = parseItems(lex(selector), path);
  if (failed(reqs)) return { ok: false, error: reqs.fail };
  return { ok: true, selector: { type: 'Requirements', requirements: sortByKey(reqs) } };
}

// --- metav1.LabelSelector ------------------------------------------------------

const LABEL_SELECTOR_OPS: Readonly<Record<string, Operator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector: null selects nothing, `{}` everything.
 * Upstream walks matchLabels in map order; we take keys sorted so the first
 * error reported is always the same one.
 */
export function labelSelectorAsSelector(ps: LabelSelector | null | undefined): SelectorResult {
  if (ps === null || ps === undefined) return { ok: true, selector: nothing() };
  const matchLabels = ps.matchLabels ?? {};
  const exprs = ps.matchExpressions ?? [];
  const keys = Object.keys(matchLabels).sort(byteOrder);
  if (keys.length + exprs.length === 0) return { ok: true, selector: everything() };
  const reqs: Requirement[] = [];
  for (const k of keys) {
    const r = newRequirement(k, '=', [matchLabels[k]!]);
    if (!r.ok) return r;
    reqs.push(r.requirement);
  }
  for (const expr of exprs) {
    const op = Object.prototype.hasOwnProperty.call(LABEL_SELECTOR_OPS, expr.operator) ? LABEL_SELECTOR_OPS[expr.operator] : undefined;
    if (!op) return { ok: false, error: `${JSON.stringify(expr.operator)} is not a valid pod selector operator` };
    const r = newRequirement(expr.key, op, expr.values ?? []);
    if (!r.ok) return r;
    reqs.push(r.requirement);
  }
  return { ok: true, selector: addRequirements(everything(), ...reqs) };
}

/** metav1.FormatLabelSelector: `<error>` when invalid, `<none>` when it prints empty. */
export function formatLabelSelector(ps: LabelSelector | null | undefined): string {
  const r = labelSelectorAsSelector(ps);
  if (!r.ok) return '<error>';
  return toString(r.selector) || '<none>';
}
