// Small helpers shared by the validators. Objects arrive as the user's JSON, so
// every reader tolerates missing or mistyped fields the way Go's zero values do.
import { FieldPath, fieldErr, OMIT_VALUE, type FieldError } from '../../apimachinery/fieldErrors';

/** Unvalidated JSON: validation must look at whatever the user sent. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export type Errs = FieldError[];
export type { FieldError };
export { FieldPath, fieldErr };

export const root = (name: string, ...more: string[]): FieldPath => FieldPath.root(name, ...more);

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
/** The value as an object, or {} (Go's zero struct). */
export function o(v: unknown): Loose {
  return isObj(v) ? v : {};
}
/** The value as an array, or []. */
export function a(v: unknown): Loose[] {
  return Array.isArray(v) ? v : [];
}
/** The value as a string, or ''. */
export function s(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
/** The value as a number, or 0. */
export function n(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}
export function has(v: unknown): boolean {
  return v !== undefined && v !== null;
}
export function keys(v: unknown): string[] {
  return isObj(v) ? Object.keys(v) : [];
}
/** Go iterates maps in random order; we use sorted keys so messages are stable. */
export function sortedKeys(v: unknown): string[] {
  return keys(v).sort();
}

/** apiequality.Semantic.DeepEqual over JSON, where absent and null are equal. */
export function deepEqual(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if ((x === undefined || x === null) && (y === undefined || y === null)) return true;
  if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => deepEqual(v, y[i]));
  if (isObj(x) && isObj(y)) {
    const ks = new Set([...Object.keys(x), ...Object.keys(y)]);
    for (const k of ks) if (!deepEqual(x[k], y[k])) return false;
    return true;
  }
  return false;
}

export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

export const IS_NEGATIVE_ERROR = 'must be greater than or equal to 0';
export const FIELD_IMMUTABLE = 'field is immutable';
export const IS_NOT_POSITIVE = 'must be greater than zero';

export function nonNegative(v: unknown, p: FieldPath): Errs {
  return typeof v === 'number' && v < 0 ? [fieldErr.invalid(p, v, IS_NEGATIVE_ERROR)] : [];
}
export function immutable(newV: unknown, oldV: unknown, p: FieldPath): Errs {
  return deepEqual(newV, oldV) ? [] : [fieldErr.invalid(p, newV ?? null, FIELD_IMMUTABLE)];
}
/** Messages from a string check, each as field.Invalid. */
export function msgs(p: FieldPath, value: unknown, list: readonly string[]): Errs {
  return list.map((m) => fieldErr.invalid(p, value, m));
}

// ---------------------------------------------------------------- Go renderings of bad values


/** Go's %#v of a map[string]string (keys sorted, as fmt prints maps). */
export function goStringMap(m: unknown): string {
  if (!isObj(m)) return 'map[string]string(nil)';
  return `map[string]string{${sortedKeys(m)
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(s(m[k]))}`)
    .join(', ')}}`;
}

/** Go's %#v of a metav1.LabelSelector value. */
export function goLabelSelector(sel: unknown): string {
  if (!isObj(sel)) return 'null';
  const exprs = Array.isArray(sel.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${a(sel.matchExpressions)
        .map((e) => {
          const vals = Array.isArray(e.values) ? `[]string{${a(e.values).map((v) => JSON.stringify(s(v))).join(', ')}}` : '[]string(nil)';
          return `v1.LabelSelectorRequirement{Key:${JSON.stringify(s(e.key))}, Operator:${JSON.stringify(s(e.operator))}, Values:${vals}}`;
        })
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(sel.matchLabels)}, MatchExpressions:${exprs}}`;
}

/**
 * field.Invalid whose bad value is a Go struct or map: the shared ErrorBody prints
 * only JSON, so the value's Go rendering travels in the detail, giving the same text
 * (`Invalid value: map[string]string{"app":"x"}: <detail>`).
 */
export function goInvalid(p: FieldPath | string, goRepr: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: String(p), badValue: OMIT_VALUE, detail: detail ? `${goRepr}: ${detail}` : goRepr };
}
