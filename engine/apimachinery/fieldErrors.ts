// field.Error and field.ErrorList (k8s.io/apimachinery/pkg/util/validation/field/errors.go):
// validation answers with a list of these; the API server turns them into a
// 422 Invalid Status whose causes carry the field paths.

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Marks an error whose bad value is not printed (field.OmitValueType). */
export const OMIT_VALUE = Symbol('omitValue');

export interface FieldError {
  type: FieldErrorType;
  /** Path like `spec.containers[0].image` or `metadata.labels[app]`. */
  field: string;
  badValue?: unknown;
  detail?: string;
}

/**
 * Builds field paths as upstream's field.Path does: `.child`, `[3]`, `[key]`.
 * A path is its parent and one step, spelt out only when asked (toString):
 * validation makes a path for every field it looks at, and names almost none
 * of them in an error.
 */
export class FieldPath {
  private text: string | undefined;
  private constructor(
    private readonly parent: FieldPath | null,
    /** The field name, or the index or key between brackets. */
    private readonly step: string | number,
    private readonly bracket: boolean,
  ) {}
  static root(name: string, ...more: string[]): FieldPath {
    const p = new FieldPath(null, name, false);
    return more.length === 0 ? p : p.child(more[0]!, ...more.slice(1));
  }
  child(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(this, name, false);
    for (let i = 0; i < more.length; i++) p = new FieldPath(p, more[i]!, false);
    return p;
  }
  index(i: number): FieldPath {
    return new FieldPath(this, i, true);
  }
  key(k: string): FieldPath {
    return new FieldPath(this, k, true);
  }
  toString(): string {
    if (this.text !== undefined) return this.text;
    const up = this.parent === null ? '' : this.parent.toString();
    const step = String(this.step);
    this.text = this.bracket ? `${up}[${step}]` : up === '' ? step : `${up}.${step}`;
    return this.text;
  }
}

type P = FieldPath | string;
const s = (p: P) => String(p);

export const fieldErr = {
  required: (p: P, detail = ''): FieldError => ({ type: 'FieldValueRequired', field: s(p), badValue: '', detail }),
  invalid: (p: P, value: unknown, detail = ''): FieldError => ({ type: 'FieldValueInvalid', field: s(p), badValue: value, detail }),
  notSupported: (p: P, value: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field: s(p),
    badValue: value,
    detail: supported.length ? `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}` : '',
  }),
  forbidden: (p: P, detail: string): FieldError => ({ type: 'FieldValueForbidden', field: s(p), badValue: '', detail }),
  duplicate: (p: P, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field: s(p), badValue: value, detail: '' }),
  notFound: (p: P, value: unknown): FieldError => ({ type: 'FieldValueNotFound', field: s(p), badValue: value, detail: '' }),
  tooLong: (p: P, value: unknown, max: number): FieldError => ({
    type: 'FieldValueTooLong',
    field: s(p),
    badValue: value,
    detail: `may not be more than ${max} bytes`,
  }),
  tooMany: (p: P, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field: s(p),
    badValue: actual,
    detail: `must have at most ${max} items`,
  }),
  typeInvalid: (p: P, value: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field: s(p), badValue: value, detail }),
  internal: (p: P, detail: string): FieldError => ({ type: 'InternalError', field: s(p), detail }),
};

/** Go's %v / %q rendering of a bad value, as ErrorBody prints it. */
function goValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return `[]string{${v.map((x) => JSON.stringify(x)).join(', ')}}`;
  return JSON.stringify(v);
}

/** field.Error.ErrorBody(): what a StatusCause's message says. */
export function errorBody(e: FieldError): string {
  let out: string;
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
      out = TYPE_TEXT[e.type];
      break;
    default:
      out = e.badValue === OMIT_VALUE ? TYPE_TEXT[e.type] : `${TYPE_TEXT[e.type]}: ${goValue(e.badValue)}`;
  }
  if (e.detail) out += `: ${e.detail}`;
  return out;
}

/** field.Error.Error(): `spec.replicas: Invalid value: -1: must be greater than or equal to 0`. */
export function errorString(e: FieldError): string {
  return e.field ? `${e.field}: ${errorBody(e)}` : errorBody(e);
}

/** utilerrors.NewAggregate(...).Error(): one message, or `[a, b]`; duplicates collapse. */
export function aggregateMessage(messages: readonly string[]): string {
  const seen = new Set<string>();
  const uniq: string[] = [];
  for (const m of messages) {
    if (!seen.has(m)) {
      seen.add(m);
      uniq.push(m);
    }
  }
  return uniq.length === 1 ? uniq[0]! : `[${uniq.join(', ')}]`;
}
