// Whole-engine snapshots as plain data. Engine state lives in instance fields
// (never closures), so a generic walker can turn any graph of registered
// classes, plain objects, arrays, Maps, Sets and Uint8Arrays into JSON-safe data
// and back, preserving shared references and cycles. This is the basis of
// rewind (snapshot + replay) and of recovering a crashed worker.
import { base64Encode } from './base64';

type Ctor = { prototype: unknown };

const classesByName = new Map<string, Ctor>();
const namesByProto = new Map<object, string>();

/** Registers a class whose instances may appear in engine state. Names must be unique. */
export function registerClass(name: string, ctor: Ctor): void {
  const existing = classesByName.get(name);
  if (existing && existing !== ctor) throw new Error(`serial: class name ${name} registered twice`);
  classesByName.set(name, ctor);
  namesByProto.set(ctor.prototype as object, name);
}

/** An encoded value: primitives stay as they are, everything else is a reference. */
export type Encoded = string | number | boolean | null | { $r: number } | { $u: 1 } | { $n: string } | { $b: string };

export type EncodedObject =
  | { t: 'o'; c?: string; f: Record<string, Encoded> }
  | { t: 'a'; i: Encoded[] }
  | { t: 'm'; e: [Encoded, Encoded][] }
  | { t: 's'; i: Encoded[] }
  | { t: 'u8'; b: string }
  | { t: 'ta'; k: TypedArrayName; b: string };

const TYPED_ARRAYS = {
  Int8Array,
  Int16Array,
  Int32Array,
  Uint16Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  Uint8ClampedArray,
} as const;
type TypedArrayName = keyof typeof TYPED_ARRAYS;

function typedArrayName(v: object): TypedArrayName | undefined {
  if (!ArrayBuffer.isView(v) || v instanceof DataView || v instanceof Uint8Array) return undefined;
  const name = v.constructor.name as TypedArrayName;
  return name in TYPED_ARRAYS ? name : undefined;
}

/** A snapshot: JSON-safe, self-contained. */
export interface Plain {
  format: 'kubeglass/serial@1';
  root: Encoded;
  objects: EncodedObject[];
}

export function toPlain(value: unknown): Plain {
  const ids = new Map<object, number>();
  const objects: EncodedObject[] = [];

  const encode = (v: unknown): Encoded => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        return Number.isFinite(v) ? (Object.is(v, -0) ? 0 : v) : { $n: String(v) };
      case 'undefined':
        return { $u: 1 };
      case 'bigint':
        return { $b: v.toString() };
      case 'function':
      case 'symbol':
        throw new TypeError(`serial: cannot snapshot a ${typeof v}`);
      case 'object': {
        if (v === null) return null;
        const known = ids.get(v);
        if (known !== undefined) return { $r: known };
        const id = objects.length;
        ids.set(v, id);
        objects.push({ t: 'a', i: [] }); // placeholder, replaced below
        objects[id] = encodeObject(v);
        return { $r: id };
      }
    }
    throw new TypeError('serial: unreachable');
  };

  const encodeObject = (v: object): EncodedObject => {
    if (Array.isArray(v)) return { t: 'a', i: v.map(encode) };
    if (v instanceof Map) return { t: 'm', e: [...v].map(([k, x]) => [encode(k), encode(x)]) };
    if (v instanceof Set) return { t: 's', i: [...v].map(encode) };
    if (v instanceof Uint8Array) return { t: 'u8', b: base64Encode(v) };
    const ta = typedArrayName(v);
    if (ta) {
      const view = v as ArrayBufferView;
      return { t: 'ta', k: ta, b: base64Encode(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)) };
    }
    const proto = Object.getPrototypeOf(v) as object | null;
    const fields: Record<string, Encoded> = {};
    for (const key of Object.keys(v)) fields[key] = encode((v as Record<string, unknown>)[key]);
    if (proto === Object.prototype || proto === null) return { t: 'o', f: fields };
    const name = namesByProto.get(proto);
    if (name === undefined) {
      const ctorName = (proto as { constructor?: { name?: string } }).constructor?.name ?? '?';
      throw new TypeError(`serial: class ${ctorName} is not registered (registerClass)`);
    }
    return { t: 'o', c: name, f: fields };
  };

  const root = encode(value);
  return { format: 'kubeglass/serial@1', root, objects };
}

export function fromPlain<T>(plain: Plain): T {
  if (plain?.format !== 'kubeglass/serial@1') throw new Error('serial: not a kubeglass snapshot');
  const built: unknown[] = new Array(plain.objects.length);

  // First pass: allocate every object so references (and cycles) can resolve.
  plain.objects.forEach((o, id) => {
    switch (o.t) {
      case 'a':
        built[id] = [];
        break;
      case 'm':
        built[id] = new Map();
        break;
      case 's':
        built[id] = new Set();
        break;
      case 'u8':
        built[id] = base64ToBytes(o.b);
        break;
      case 'ta': {
        const bytes = base64ToBytes(o.b);
        const Ctor = TYPED_ARRAYS[o.k];
        built[id] = new Ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
        break;
      }
      case 'o': {
        if (o.c === undefined) {
          built[id] = {};
        } else {
          const ctor = classesByName.get(o.c);
          if (!ctor) throw new Error(`serial: unknown class ${o.c} in snapshot`);
          built[id] = Object.create(ctor.prototype as object);
        }
        break;
      }
    }
  });

  const decode = (e: Encoded): unknown => {
    if (e === null || typeof e !== 'object') return e;
    if ('$r' in e) return built[e.$r];
    if ('$u' in e) return undefined;
    if ('$n' in e) return Number(e.$n);
    return BigInt(e.$b);
  };

  plain.objects.forEach((o, id) => {
    const target = built[id];
    switch (o.t) {
      case 'a':
        for (const x of o.i) (target as unknown[]).push(decode(x));
        break;
      case 'm':
        for (const [k, x] of o.e) (target as Map<unknown, unknown>).set(decode(k), decode(x));
        break;
      case 's':
        for (const x of o.i) (target as Set<unknown>).add(decode(x));
        break;
      case 'u8':
      case 'ta':
        break;
      case 'o':
        for (const key of Object.keys(o.f)) (target as Record<string, unknown>)[key] = decode(o.f[key] as Encoded);
        break;
    }
  });
  return decode(plain.root) as T;
}

/** Deep copy through the snapshot format: what a restore would give. */
export function cloneState<T>(value: T): T {
  return fromPlain<T>(toPlain(value));
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function base64ToBytes(text: string): Uint8Array {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, '');
  const out: number[] = [];
  for (let i = 0; i < clean.length; i += 4) {
    const n =
      (B64.indexOf(clean[i] ?? 'A') << 18) |
      (B64.indexOf(clean[i + 1] ?? 'A') << 12) |
      ((i + 2 < clean.length ? B64.indexOf(clean[i + 2]!) : 0) << 6) |
      (i + 3 < clean.length ? B64.indexOf(clean[i + 3]!) : 0);
    out.push((n >> 16) & 255);
    if (i + 2 < clean.length) out.push((n >> 8) & 255);
    if (i + 3 < clean.length) out.push(n & 255);
  }
  return Uint8Array.from(out);
}
