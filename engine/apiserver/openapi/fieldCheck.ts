// What decoding a request body into the Go type does, against the v1.32
// definitions: the API server unmarshals JSON with sigs.k8s.io/json into the
// kind's struct, which
//  - drops fields the struct lacks (so stored objects hold only schema fields),
//  - with fieldValidation=Strict or Warn also collects strict errors in
//    document order: `unknown field "spec.foo"`, `duplicate field "metadata.name"`
//    (paths use `.key` and `[i]`; identical texts once; at most 100),
//  - fails on a value of the wrong JSON type with encoding/json's text,
//    `json: cannot unmarshal string into Go struct field PodSpec.spec.containers
//    of type []v1.Container` (struct = innermost Go struct, path = the JSON
//    names of struct fields only), keeping the first such error,
//  - fails at once when a self-decoding type refuses its value (Quantity,
//    IntOrString, Time), with that type's error text.
// The handlers then wrap the error (staging/src/k8s.io/apiserver/pkg/endpoints/
// handlers/create.go, update.go: transformDecodeError; patch.go for patches):
// `Deployment in version "v1" cannot be handled as a Deployment: <error>` with
// 400 BadRequest, strict errors joined after `strict decoding error: `.
import type { GroupVersionKind, JsonValue, KObject, Status } from '../../apimachinery/types';
import { status } from '../../apimachinery/status';
import { base64Error, quantityError, RFC3339, RFC3339_MICRO, timeError } from './goDecode';
import { parseJsonTree, treeOf, valueOf, type JsonNode } from './jsonTree';
import { definitionForKind, definitions, INT_OR_STRING, MICRO_TIME, QUANTITY, refName, TIME, type OpenApiSchema } from './spec';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface DecodeReport {
  /** The body as the Go struct keeps it: unknown fields dropped, the last of duplicate keys kept. */
  value: JsonValue;
  /** The decode error Go returns (type mismatch, bad quantity, bad base64...), if any. */
  error?: string;
  /** Strict errors in document order; the caller reports them per fieldValidation. */
  strict: string[];
}

/** A Go type the decoder fills, derived from a schema. */
type Target =
  | StructTarget
  | { type: 'map'; goType: string; elem: OpenApiSchema; owner: string; elemTarget?: Target }
  | { type: 'slice'; goType: string; elem: OpenApiSchema; owner: string; elemTarget?: Target }
  | { type: 'bytes' }
  | { type: 'string' }
  | { type: 'int'; goType: 'int32' | 'int64' }
  | { type: 'float' }
  | { type: 'bool' }
  | { type: 'quantity' }
  | { type: 'intstr' }
  | { type: 'time'; layout: typeof RFC3339 | typeof RFC3339_MICRO }
  | { type: 'any' };

/** `fields`: the targets of the members decoded so far, by JSON name (only the schema's properties: bounded). */
type StructTarget = { type: 'struct'; def: string; goName: string; props: Record<string, OpenApiSchema>; fields: Map<string, Target> };

/** Go's name for a definition's type: `v1.PodSpec`, `v2.MetricSpec`, `resource.Quantity`. */
function goTypeOfDefinition(def: string): string {
  switch (def) {
    case QUANTITY:
      return 'resource.Quantity';
    case INT_OR_STRING:
      return 'intstr.IntOrString';
    case 'io.k8s.apimachinery.pkg.runtime.RawExtension':
      return 'runtime.RawExtension';
    default: {
      const parts = def.split('.');
      return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
    }
  }
}

function resolve(s: OpenApiSchema): { schema: OpenApiSchema; def?: string } {
  let cur = s;
  let def: string | undefined;
  for (let guard = 0; guard < 8; guard++) {
    if (cur.$ref) {
      def = refName(cur.$ref);
      const next = definitions[def];
      if (!next) return { schema: {}, def };
      cur = next;
    } else if (cur.allOf && cur.allOf.length === 1 && !cur.properties && cur.allOf[0]) cur = cur.allOf[0];
    else break;
  }
  return def ? { schema: cur, def } : { schema: cur };
}

/**
 * The Go type string of a field's schema, as reflect prints it in type errors.
 * Maps of Quantity in core/v1 and node/v1 structs are the named type v1.ResourceList.
 */
function goTypeOf(s: OpenApiSchema, owner: string): string {
  const { schema, def } = resolve(s);
  if (def && (def === QUANTITY || def === INT_OR_STRING || !schema.type || (schema.type === 'object' && !schema.properties && !schema.additionalProperties))) {
    return goTypeOfDefinition(def);
  }
  if (def && schema.type === 'object') return goTypeOfDefinition(def);
  if (def && schema.type === 'string') return goTypeOfDefinition(def); // Time, MicroTime
  switch (schema.type) {
    case 'array':
      return schema.items ? `[]${goTypeOf(schema.items, owner)}` : '[]interface {}';
    case 'object': {
      const elem = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      if (elem?.$ref && refName(elem.$ref) === QUANTITY && /^io\.k8s\.api\.(core|node)\.v1\./.test(owner)) return 'v1.ResourceList';
      return elem ? `map[string]${goTypeOf(elem, owner)}` : 'map[string]interface {}';
    }
    case 'string':
      return schema.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return schema.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    default:
      return 'interface {}';
  }
}

/**
 * Targets by schema and owner: a pure function of the (static) definitions, so
 * each is derived once rather than per decoded value.
 */
const targets = new WeakMap<OpenApiSchema, Map<string, Target>>();

function targetOf(s: OpenApiSchema, owner: string): Target {
  let byOwner = targets.get(s);
  if (!byOwner) targets.set(s, (byOwner = new Map()));
  let t = byOwner.get(owner);
  if (!t) byOwner.set(owner, (t = deriveTarget(s, owner)));
  return t;
}

/** The target of a struct's member `k`, or undefined when the struct has no such field. */
function fieldTarget(t: StructTarget, k: string): Target | undefined {
  let f = t.fields.get(k);
  if (f === undefined && Object.hasOwn(t.props, k)) t.fields.set(k, (f = targetOf(t.props[k]!, t.def)));
  return f;
}

function elemTargetOf(t: Extract<Target, { type: 'map' | 'slice' }>): Target {
  return (t.elemTarget ??= targetOf(t.elem, t.owner));
}

function deriveTarget(s: OpenApiSchema, owner: string): Target {
  const { schema, def } = resolve(s);
  if (def === QUANTITY) return { type: 'quantity' };
  if (def === INT_OR_STRING) return { type: 'intstr' };
  if (def === TIME) return { type: 'time', layout: RFC3339 };
  if (def === MICRO_TIME) return { type: 'time', layout: RFC3339_MICRO };
  switch (schema.type) {
    case 'object':
      if (schema.properties) return { type: 'struct', def: def ?? owner, goName: (def ?? owner).slice((def ?? owner).lastIndexOf('.') + 1), props: schema.properties, fields: new Map() };
      if (typeof schema.additionalProperties === 'object') return { type: 'map', goType: goTypeOf(s, owner), elem: schema.additionalProperties, owner };
      // RawExtension, FieldsV1: they keep whatever JSON they are given.
      if (def === 'io.k8s.apimachinery.pkg.runtime.RawExtension' || def === 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1') return { type: 'any' };
      return def ? { type: 'struct', def, goName: def.slice(def.lastIndexOf('.') + 1), props: {}, fields: new Map() } : { type: 'any' };
    case 'array':
      return schema.items ? { type: 'slice', goType: goTypeOf(s, owner), elem: schema.items, owner } : { type: 'any' };
    case 'string':
      return schema.format === 'byte' ? { type: 'bytes' } : { type: 'string' };
    case 'integer':
      return { type: 'int', goType: schema.format === 'int32' ? 'int32' : 'int64' };
    case 'number':
      return { type: 'float' };
    case 'boolean':
      return { type: 'bool' };
    default:
      return { type: 'any' };
  }
}

/** Value word of encoding/json's UnmarshalTypeError for a JSON node. */
function jsonWord(n: JsonNode): string {
  switch (n.type) {
    case 'object':
      return 'object';
    case 'array':
      return 'array';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'bool':
      return 'bool';
    case 'null':
      return 'null';
  }
}

/** Raw JSON text of a node, as a self-decoding type receives it. */
function rawText(n: JsonNode): string {
  return n.type === 'number' ? n.raw : JSON.stringify(valueOf(n));
}

const INT_RANGE = { int32: [-2147483648n, 2147483647n], int64: [-9223372036854775808n, 9223372036854775807n] } as const;

function intOk(raw: string, goType: 'int32' | 'int64'): boolean {
  if (!/^-?\d+$/.test(raw)) return false;
  const n = BigInt(raw);
  const [lo, hi] = INT_RANGE[goType];
  return n >= lo && n <= hi;
}

/** intOk of a JavaScript number's literal (String(v)), without the text for the usual safe integer. */
function intValueOk(v: number, goType: 'int32' | 'int64'): boolean {
  if (Number.isSafeInteger(v)) return goType === 'int64' || (v >= -2147483648 && v <= 2147483647);
  return intOk(String(v), goType);
}

/** Thrown to stop decoding, as a self-decoding type's error does in Go. */
class Abort {
  constructor(readonly message: string) {}
}

const MAX_STRICT_ERRORS = 100;

class Decoder {
  /**
   * `keysUnique`: the tree came from a parsed value (treeOf), whose objects
   * cannot repeat a key, so no duplicate bookkeeping is needed.
   */
  constructor(private readonly keysUnique = false) {}
  /** JSON names of the struct fields on the way down (encoding/json's errorContext.FieldStack). */
  private fieldStack: string[] = [];
  /** The innermost struct holding the field being decoded (errorContext.Struct). */
  private structName = '';
  saved: string | undefined;
  readonly strict: string[] = [];
  private readonly seen = new Set<string>();

  private typeError(value: string, goType: string): string {
    if (this.structName === '' && this.fieldStack.length === 0) return `json: cannot unmarshal ${value} into Go value of type ${goType}`;
    return `json: cannot unmarshal ${value} into Go struct field ${this.structName}.${this.fieldStack.join('.')} of type ${goType}`;
  }

  private save(err: string): void {
    this.saved ??= err;
  }

  private strictError(kind: 'unknown' | 'duplicate', path: string): void {
    const msg = `${kind} field ${JSON.stringify(path)}`;
    if (this.strict.length >= MAX_STRICT_ERRORS || this.seen.has(msg)) return;
    this.seen.add(msg);
    this.strict.push(msg);
  }

  /** Decodes `n` into the type of `s`; returns what the Go value re-encodes to (unknown fields gone). */
  decode(s: OpenApiSchema, n: JsonNode, owner: string, path: string): JsonValue {
    const t = targetOf(s, owner);
    if (n.type === 'null') return null;
    switch (t.type) {
      case 'any':
        return valueOf(n);
      case 'quantity': {
        const text = n.type === 'string' ? n.value : rawText(n);
        const err = quantityError(text);
        if (err) throw new Abort(err);
        return valueOf(n);
      }
      case 'intstr':
        if (n.type === 'string') return n.value;
        if (n.type === 'number' && intOk(n.raw, 'int32')) return n.value;
        throw new Abort(this.typeError(n.type === 'number' ? `number ${n.raw}` : jsonWord(n), 'int32'));
      case 'time': {
        if (n.type !== 'string') throw new Abort(this.typeError(jsonWord(n), 'string'));
        const err = timeError(n.value, t.layout);
        if (err) throw new Abort(err);
        return n.value;
      }
      case 'bytes':
        if (n.type === 'string') {
          const err = base64Error(n.value);
          if (err) this.save(err);
          return n.value;
        }
        this.save(this.typeError(jsonWord(n), '[]uint8'));
        return null;
      case 'string':
        if (n.type === 'string') return n.value;
        this.save(this.typeError(jsonWord(n), 'string'));
        return null;
      case 'int':
        if (n.type === 'number') {
          if (intOk(n.raw, t.goType)) return n.value;
          this.save(this.typeError(`number ${n.raw}`, t.goType));
          return null;
        }
        this.save(this.typeError(jsonWord(n), t.goType));
        return null;
      case 'float':
        if (n.type === 'number') {
          if (Number.isFinite(n.value)) return n.value;
          this.save(this.typeError(`number ${n.raw}`, 'float64'));
          return null;
        }
        this.save(this.typeError(jsonWord(n), 'float64'));
        return null;
      case 'bool':
        if (n.type === 'bool') return n.value;
        this.save(this.typeError(jsonWord(n), 'bool'));
        return null;
      case 'slice': {
        if (n.type !== 'array') {
          this.save(this.typeError(jsonWord(n), t.goType));
          return null;
        }
        return n.items.map((item, i) => this.decode(t.elem, item, t.owner, `${path}[${i}]`));
      }
      case 'map': {
        if (n.type !== 'object') {
          this.save(this.typeError(jsonWord(n), t.goType));
          return null;
        }
        const out: { [k: string]: JsonValue } = {};
        const keys = this.keysUnique ? null : new Set<string>();
        for (const [k, v] of n.entries) {
          if (keys?.has(k)) this.strictError('duplicate', path === '' ? k : `${path}.${k}`);
          keys?.add(k);
          setOwn(out, k, this.decode(t.elem, v, t.owner, path === '' ? k : `${path}.${k}`));
        }
        return out;
      }
      case 'struct': {
        if (n.type !== 'object') {
          this.save(this.typeError(jsonWord(n), goTypeOfDefinition(t.def)));
          return null;
        }
        const out: { [k: string]: JsonValue } = {};
        const keys = this.keysUnique ? null : new Set<string>();
        for (const [k, v] of n.entries) {
          const fieldPath = path === '' ? k : `${path}.${k}`;
          const prop = Object.hasOwn(t.props, k) ? t.props[k] : undefined;
          if (!prop) {
            this.strictError('unknown', fieldPath);
            continue;
          }
          if (keys?.has(k)) this.strictError('duplicate', fieldPath);
          keys?.add(k);
          const outer = this.structName;
          this.fieldStack.push(k);
          this.structName = t.goName;
          try {
            setOwn(out, k, this.decode(prop, v, t.def, fieldPath));
          } finally {
            this.fieldStack.pop();
            this.structName = outer;
          }
        }
        return out;
      }
    }
  }
}

/**
 * The same decoding over a plain value (a parsed body or a patched object):
 * what decode(treeOf(v)) gives, without building the tree. Objects cannot
 * repeat a key; a number's literal is how JavaScript prints it; undefined
 * members are absent, other non-JSON values read as null.
 */
/** An owned member to delete (PlainDecoder's edits). */
const DELETE = Symbol('delete');

class PlainDecoder {
  saved: string | undefined;
  readonly strict: string[] = [];
  private seen: Set<string> | undefined;
  /**
   * The field path as segments (keys, and indices as numbers), joined only when
   * an error names it: most decodes name none, and this runs over every field
   * of every write. `segStruct` holds, for each segment that is a struct's
   * field, that struct's Go name ('' for a map key or an index): the type
   * errors' errorContext (innermost struct, struct field names) is read off them.
   * Nothing is popped when decoding aborts: the decoder is dropped then.
   */
  private readonly segs: (string | number)[] = [];
  private readonly segStruct: string[] = [];

  /** In-place edits of an owned value (containers, keys, new values or DELETE), made only once it decoded without error. */
  private readonly editAt: (Record<string, unknown> | unknown[])[] = [];
  private readonly editKey: (string | number)[] = [];
  private readonly editValue: unknown[] = [];

  /**
   * `owned`: the caller hands over a value nothing else holds (just parsed, or
   * a merge patch's fresh result), so it is decoded in place — unknown and
   * undefined members deleted, members replaced where decoding changes them —
   * instead of copied; the result is the same JSON either way. The edits wait
   * until the whole value decoded: an error reports the value as it came.
   */
  constructor(private readonly owned = false) {}

  private edit(at: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
    this.editAt.push(at);
    this.editKey.push(key);
    this.editValue.push(value);
  }

  /** The owned value's edits, made (after a decode without error). */
  applyEdits(): void {
    for (let i = 0; i < this.editAt.length; i++) {
      const at = this.editAt[i]!;
      const key = this.editKey[i]!;
      const value = this.editValue[i];
      if (typeof key === 'number') (at as unknown[])[key] = value;
      else if (value === DELETE) delete (at as Record<string, unknown>)[key];
      else setOwn(at as { [k: string]: JsonValue }, key, value as JsonValue);
    }
  }

  /** plainValue for an owned value: undefined members deleted and non-JSON values nulled, as edits. */
  private ownedPlain(v: unknown): JsonValue {
    switch (plainKind(v)) {
      case 'array': {
        const arr = v as unknown[];
        for (let i = 0; i < arr.length; i++) {
          const d = this.ownedPlain(arr[i]);
          if (d !== arr[i]) this.edit(arr, i, d);
        }
        return arr as JsonValue;
      }
      case 'object': {
        const o = v as Record<string, unknown>;
        for (const k of Object.keys(o)) {
          const x = o[k];
          if (x === undefined) {
            this.edit(o, k, DELETE);
            continue;
          }
          const d = this.ownedPlain(x);
          if (d !== x) this.edit(o, k, d);
        }
        return o as JsonValue;
      }
      case 'null':
        return null;
      default:
        return v as JsonValue;
    }
  }

  private typeError(value: string, goType: string): string {
    let structName = '';
    const fieldStack: string[] = [];
    for (let i = 0; i < this.segs.length; i++) {
      if (this.segStruct[i] === '') continue;
      structName = this.segStruct[i]!;
      fieldStack.push(this.segs[i] as string);
    }
    if (structName === '' && fieldStack.length === 0) return `json: cannot unmarshal ${value} into Go value of type ${goType}`;
    return `json: cannot unmarshal ${value} into Go struct field ${structName}.${fieldStack.join('.')} of type ${goType}`;
  }

  private save(err: string): void {
    this.saved ??= err;
  }

  /** The path of the member being decoded, as the copying decoder spelt it (`a.b[0].c`). */
  private path(): string {
    let out = '';
    for (const seg of this.segs) out = typeof seg === 'number' ? `${out}[${seg}]` : out === '' ? seg : `${out}.${seg}`;
    return out;
  }

  private unknownField(): void {
    const msg = `unknown field ${JSON.stringify(this.path())}`;
    this.seen ??= new Set();
    if (this.strict.length >= MAX_STRICT_ERRORS || this.seen.has(msg)) return;
    this.seen.add(msg);
    this.strict.push(msg);
  }

  /** A member's decoded value, with its path segment pushed meanwhile (`struct`: the Go name of the struct it is a field of, else ''). */
  private member(t: Target, v: unknown, seg: string | number, struct: string): JsonValue {
    this.segs.push(seg);
    this.segStruct.push(struct);
    const d = this.decodeAs(t, v);
    this.segs.pop();
    this.segStruct.pop();
    return d;
  }

  decode(s: OpenApiSchema, v: unknown, owner: string): JsonValue {
    return this.decodeAs(targetOf(s, owner), v);
  }

  private decodeAs(t: Target, v: unknown): JsonValue {
    const kind = plainKind(v);
    if (kind === 'null') return null;
    switch (t.type) {
      case 'any':
        return this.owned ? this.ownedPlain(v) : plainValue(v);
      case 'quantity': {
        const text = kind === 'string' ? (v as string) : kind === 'number' ? String(v) : JSON.stringify(plainValue(v));
        const err = quantityError(text);
        if (err) throw new Abort(err);
        return this.owned ? this.ownedPlain(v) : plainValue(v);
      }
      case 'intstr':
        if (kind === 'string') return v as string;
        if (kind === 'number' && intValueOk(v as number, 'int32')) return v as number;
        throw new Abort(this.typeError(kind === 'number' ? `number ${String(v)}` : kind, 'int32'));
      case 'time': {
        if (kind !== 'string') throw new Abort(this.typeError(kind, 'string'));
        const err = timeError(v as string, t.layout);
        if (err) throw new Abort(err);
        return v as string;
      }
      case 'bytes':
        if (kind === 'string') {
          const err = base64Error(v as string);
          if (err) this.save(err);
          return v as string;
        }
        this.save(this.typeError(kind, '[]uint8'));
        return null;
      case 'string':
        if (kind === 'string') return v as string;
        this.save(this.typeError(kind, 'string'));
        return null;
      case 'int':
        if (kind === 'number') {
          if (intValueOk(v as number, t.goType)) return v as number;
          this.save(this.typeError(`number ${String(v)}`, t.goType));
          return null;
        }
        this.save(this.typeError(kind, t.goType));
        return null;
      case 'float':
        if (kind === 'number') {
          if (Number.isFinite(v)) return v as number;
          this.save(this.typeError(`number ${String(v)}`, 'float64'));
          return null;
        }
        this.save(this.typeError(kind, 'float64'));
        return null;
      case 'bool':
        if (kind === 'bool') return v as boolean;
        this.save(this.typeError(kind, 'bool'));
        return null;
      case 'slice': {
        if (kind !== 'array') {
          this.save(this.typeError(kind, t.goType));
          return null;
        }
        const arr = v as unknown[];
        const elem = elemTargetOf(t);
        if (this.owned) {
          for (let i = 0; i < arr.length; i++) {
            const d = this.member(elem, arr[i], i, '');
            if (d !== arr[i]) this.edit(arr, i, d);
          }
          return arr as JsonValue;
        }
        const out: JsonValue[] = new Array<JsonValue>(arr.length);
        for (let i = 0; i < arr.length; i++) out[i] = this.member(elem, arr[i], i, '');
        return out;
      }
      case 'map': {
        if (kind !== 'object') {
          this.save(this.typeError(kind, t.goType));
          return null;
        }
        const o = v as Record<string, unknown>;
        const elem = elemTargetOf(t);
        if (this.owned) {
          for (const k of Object.keys(o)) {
            const x = o[k];
            if (x === undefined) {
              this.edit(o, k, DELETE);
              continue;
            }
            const d = this.member(elem, x, k, '');
            if (d !== x) this.edit(o, k, d);
          }
          return o as JsonValue;
        }
        const out: { [k: string]: JsonValue } = {};
        for (const k of Object.keys(o)) {
          const x = o[k];
          if (x === undefined) continue;
          setOwn(out, k, this.member(elem, x, k, ''));
        }
        return out;
      }
      case 'struct': {
        if (kind !== 'object') {
          this.save(this.typeError(kind, goTypeOfDefinition(t.def)));
          return null;
        }
        const o = v as Record<string, unknown>;
        const out: { [k: string]: JsonValue } | null = this.owned ? null : {};
        for (const k of Object.keys(o)) {
          const x = o[k];
          if (x === undefined) {
            if (!out) this.edit(o, k, DELETE);
            continue;
          }
          const field = fieldTarget(t, k);
          if (!field) {
            this.segs.push(k);
            this.unknownField();
            this.segs.pop();
            if (!out) this.edit(o, k, DELETE);
            continue;
          }
          const d = this.member(field, x, k, t.goName);
          if (out) setOwn(out, k, d);
          else if (d !== x) this.edit(o, k, d);
        }
        return out ?? (o as JsonValue);
      }
    }
  }
}

/** The JSON kind treeOf gives a plain value (jsonWord's words). */
function plainKind(v: unknown): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    case 'object':
      return 'object';
    default:
      return 'null';
  }
}

/** valueOf(treeOf(v)): a copy with undefined members gone and other non-JSON values as null. */
function plainValue(v: unknown): JsonValue {
  switch (plainKind(v)) {
    case 'array':
      // Array.from visits holes (map skips them): a hole becomes null, as JSON carries it
      return Array.from(v as unknown[], plainValue);
    case 'object': {
      const o = v as Record<string, unknown>;
      const out: { [k: string]: JsonValue } = {};
      for (const k of Object.keys(o)) {
        const x = o[k];
        if (x !== undefined) setOwn(out, k, plainValue(x));
      }
      return out;
    }
    case 'null':
      return null;
    default:
      return v as JsonValue;
  }
}

function setOwn(o: { [k: string]: JsonValue }, k: string, v: JsonValue): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** Decodes a body (a JSON tree, so duplicates and number literals are seen) into a definition's Go type. */
/** One reference schema per definition (so its derived target is memoised too). */
const rootRefs = new Map<string, OpenApiSchema>();

export function decodeAs(definition: string, body: JsonNode, keysUnique = false): DecodeReport {
  const d = new Decoder(keysUnique);
  let root = rootRefs.get(definition);
  if (!root) rootRefs.set(definition, (root = { $ref: `#/components/schemas/${definition}` }));
  try {
    const value = d.decode(root, body, definition, '');
    return d.saved ? { value, error: d.saved, strict: d.strict } : { value, strict: d.strict };
  } catch (e) {
    if (e instanceof Abort) return { value: valueOf(body), error: e.message, strict: d.strict };
    throw e;
  }
}

/** decodeAs over a plain value (what decodeAs(definition, treeOf(value), true) reports). */
export function decodePlainAs(definition: string, value: unknown, owned = false): DecodeReport {
  const d = new PlainDecoder(owned);
  let root = rootRefs.get(definition);
  if (!root) rootRefs.set(definition, (root = { $ref: `#/components/schemas/${definition}` }));
  try {
    const out = d.decode(root, value, definition);
    if (d.saved) return { value: out, error: d.saved, strict: d.strict };
    d.applyEdits();
    return { value: out, strict: d.strict };
  } catch (e) {
    if (e instanceof Abort) return { value: plainValue(value), error: e.message, strict: d.strict };
    throw e;
  }
}

export type FieldCheckResult = { ok: true; obj: KObject; warnings: string[] } | { ok: false; status: Status };

export interface FieldCheckOptions {
  /** Which handler decodes: create and update wrap errors as transformDecodeError does; patch as patch.go does. */
  context?: 'create' | 'update' | 'patch';
  /** The raw JSON body, when the caller has it: duplicates are then found in document order, numbers as written. */
  text?: string;
  /** `body` is the caller's alone (just parsed, or a fresh patch result): decoded in place, not copied (PlainDecoder). */
  owned?: boolean;
}

/**
 * Decodes `body` as the kind `gvk` the way the API server does, and applies
 * the fieldValidation directive: Strict fails on unknown or duplicate fields,
 * Warn turns them into warnings, Ignore drops them silently. Type errors fail
 * in every mode. `duplicates` are field paths of duplicate keys the caller's
 * parser found (used when `options.text` is not given). Kinds without a
 * definition (custom resources) pass through unchanged.
 */
export function checkFields(gvk: GroupVersionKind, body: unknown, mode: FieldValidation, duplicates: readonly string[] = [], options: FieldCheckOptions = {}): FieldCheckResult {
  const def = definitionForKind(gvk.group, gvk.version, gvk.kind);
  if (!def) return { ok: true, obj: body as KObject, warnings: [] };
  const tree = options.text !== undefined ? parseJsonTree(options.text) : undefined;
  const report = tree ? decodeAs(def, tree) : decodePlainAs(def, body, options.owned === true);
  const strict = tree ? report.strict : [...report.strict, ...duplicates.map((p) => `duplicate field ${JSON.stringify(p)}`)];
  const context = options.context ?? 'create';
  if (report.error !== undefined) {
    if (context === 'patch') {
      const patched = JSON.stringify(tree ? valueOf(tree) : plainValue(body));
      return { ok: false, status: status.invalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', badValue: patched, detail: report.error }]) };
    }
    return { ok: false, status: status.badRequest(cannotBeHandled(gvk, report.error)) };
  }
  if (strict.length > 0 && mode === 'Strict') {
    const msg = strictDecodingError(strict);
    return { ok: false, status: status.badRequest(context === 'patch' ? msg : cannotBeHandled(gvk, msg)) };
  }
  return { ok: true, obj: report.value as unknown as KObject, warnings: mode === 'Warn' ? strict : [] };
}

/** runtime.StrictDecodingError's text. */
export function strictDecodingError(errors: readonly string[]): string {
  return `strict decoding error: ${errors.join(', ')}`;
}

/** transformDecodeError's text for a body whose apiVersion/kind named the endpoint's kind. */
export function cannotBeHandled(gvk: GroupVersionKind, err: string): string {
  return `${gvk.kind} in version ${JSON.stringify(gvk.version)} cannot be handled as a ${gvk.kind}: ${err}`;
}
