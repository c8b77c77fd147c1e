// JSON <-> internal conversion for the etcd v3 gateway, after grpc-gateway's
// JSONPb marshaler as etcd configures it (OrigName: true, EmitDefaults: false)
// and golang/protobuf's jsonpb:
// - writing: proto field names in declaration order; zero scalars, empty
//   repeated fields and absent messages are omitted (a present message is
//   written even when empty: `"header":{}`); 64-bit integers as decimal
//   strings, 32-bit ones as numbers; bytes as standard base64; enums by name;
// - reading: a field by its proto name or its lowerCamelCase JSON name;
//   unknown fields ignored; null = unset; 64-bit integers as numbers or
//   quoted numbers; enums by name or number; bytes in padded standard base64.
// Error texts are those etcd's gateway (Go encoding/json) produces.
import { binaryToBase64 } from '../../engine/etcd/api/bytes';
import { goJsonKind, isJsonObject, JsonNumber, readJsonValue, type JsonObject, type JsonValue } from './goJson';
import type { EnumSpec, FieldSpec, MessageSpec, ScalarKind } from './schema';

export type Decoded<T> = { ok: true; value: T } | { ok: false; error: string };

/** Internal message values: plain objects keyed by JSON names. */
export type Internal = Record<string, unknown>;

class DecodeError {
  constructor(readonly message: string) {}
}

const GO_SCALAR_TYPE: Record<ScalarKind, string> = {
  bytes: '[]uint8',
  string: 'string',
  bool: 'bool',
  int64: 'int64',
  uint64: 'uint64',
  int32: 'int32',
};

const INT_RANGE: Record<'int64' | 'uint64' | 'int32', [bigint, bigint]> = {
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
};

/**
 * Standard base64 with padding, as Go's base64.StdEncoding decodes it
 * (newlines skipped); the error offset is the one Go reports.
 */
export function decodeGoBase64(s: string): { ok: true; bin: string } | { ok: false; at: number } {
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  let si = 0;
  const n = s.length;
  for (;;) {
    const q: number[] = [];
    let j = 0;
    let padded = false;
    for (j = 0; j < 4; j++) {
      if (si === n) {
        if (j === 0) return { ok: true, bin: out };
        return { ok: false, at: si - j };
      }
      const c = s[si]!;
      si++;
      const v = A.indexOf(c);
      if (v >= 0) {
        q.push(v);
        continue;
      }
      if (c === '\n' || c === '\r') {
        j--;
        continue;
      }
      if (c !== '=') return { ok: false, at: si - 1 };
      // Padding: only after two or three data characters.
      if (j === 0 || j === 1) return { ok: false, at: si - 1 };
      if (j === 2) {
        while (si < n && (s[si] === '\n' || s[si] === '\r')) si++;
        if (si === n) return { ok: false, at: n };
        if (s[si] !== '=') return { ok: false, at: si - 1 };
        si++;
      }
      while (si < n && (s[si] === '\n' || s[si] === '\r')) si++;
      if (si < n) return { ok: false, at: si };
      padded = true;
      break;
    }
    const v = (q[0]! << 18) | ((q[1] ?? 0) << 12) | ((q[2] ?? 0) << 6) | (q[3] ?? 0);
    out += String.fromCharCode((v >> 16) & 255);
    if (q.length >= 3) out += String.fromCharCode((v >> 8) & 255);
    if (q.length >= 4) out += String.fromCharCode(v & 255);
    if (padded) return { ok: true, bin: out };
  }
}

function cannot(kind: string, goType: string, detail?: string): DecodeError {
  return new DecodeError(`json: cannot unmarshal ${kind}${detail !== undefined ? ` ${detail}` : ''} into Go value of type ${goType}`);
}

/** An integer field from a JSON number literal or a quoted one. */
function decodeInt(v: JsonValue, kind: 'int64' | 'uint64' | 'int32', goType: string): number {
  let raw: string;
  if (v instanceof JsonNumber) raw = v.raw;
  else if (typeof v === 'string' && kind !== 'int32') {
    // jsonpb unquotes 64-bit integers and parses the inside as JSON.
    const inner = readJsonValue(v);
    if (inner.ok === 'empty') throw new DecodeError('unexpected end of JSON input');
    if (inner.ok === false) throw new DecodeError(inner.error === 'unexpected EOF' ? 'unexpected end of JSON input' : inner.error);
    if (v.slice(inner.end).trim() !== '') throw new DecodeError(`invalid character '${v.slice(inner.end).trim()[0]}' after top-level value`);
    if (!(inner.value instanceof JsonNumber)) throw cannot(goJsonKind(inner.value), goType);
    raw = inner.value.raw;
  } else throw cannot(goJsonKind(v), goType);
  if (!/^-?\d+$/.test(raw)) throw cannot('number', goType, raw);
  const big = BigInt(raw);
  const [lo, hi] = INT_RANGE[kind];
  if (big < lo || big > hi) throw cannot('number', goType, raw);
  // The simulator keeps integers as JS numbers: refuse what they cannot hold exactly.
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new DecodeError(`value ${raw} is outside the simulator's integer range (|v| <= 2^53-1)`);
  }
  return Number(big);
}

function decodeEnum(v: JsonValue, e: EnumSpec): string {
  if (typeof v === 'string') {
    if (!e.values.includes(v)) throw new DecodeError(`unknown value ${JSON.stringify(v)} for enum ${e.goName}`);
    return v;
  }
  if (v instanceof JsonNumber) {
    const n = decodeInt(v, 'int32', e.goName);
    const name = e.values[n];
    // Upstream keeps unknown numbers; the simulator's types only know the named values.
    if (name === undefined) throw new DecodeError(`unknown value ${n} for enum ${e.goName}`);
    return name;
  }
  throw cannot(goJsonKind(v), e.goName);
}

function decodeScalar(v: JsonValue, kind: ScalarKind): unknown {
  switch (kind) {
    case 'bytes': {
      if (typeof v !== 'string') throw cannot(goJsonKind(v), GO_SCALAR_TYPE.bytes);
      const r = decodeGoBase64(v);
      if (!r.ok) throw new DecodeError(`illegal base64 data at input byte ${r.at}`);
      return r.bin;
    }
    case 'string':
      if (typeof v !== 'string') throw cannot(goJsonKind(v), 'string');
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw cannot(goJsonKind(v), 'bool');
      return v;
    case 'int64':
    case 'uint64':
    case 'int32':
      return decodeInt(v, kind, GO_SCALAR_TYPE[kind]);
  }
}

function decodeValue(v: JsonValue, f: FieldSpec): unknown {
  const t = f.type;
  if (t.kind === 'message') return decodeMessage(v, t.message());
  if (t.kind === 'enum') return decodeEnum(v, t.enum);
  return decodeScalar(v, t.kind);
}

function decodeMessage(v: JsonValue, spec: MessageSpec): Internal {
  if (v === null) return {};
  if (!isJsonObject(v)) throw cannot(goJsonKind(v), 'map[string]json.RawMessage');
  const out: Internal = {};
  const oneofSet = new Set<string>();
  for (const f of spec.fields) {
    const raw = Object.hasOwn(v, f.proto) ? v[f.proto] : Object.hasOwn(v, f.json) ? v[f.json] : undefined;
    if (raw === undefined || raw === null) continue;
    if (f.oneof) {
      // A oneof holds one value; a message cannot carry two (protojson refuses the second).
      if (oneofSet.has(f.oneof)) throw new DecodeError(`oneof ${spec.goName.split('.')[1]}.${f.oneof} is already set`);
      oneofSet.add(f.oneof);
    }
    if (f.repeated) {
      if (!Array.isArray(raw)) throw cannot(goJsonKind(raw), '[]json.RawMessage');
      out[f.json] = raw.map((item) => decodeValue(item, f));
    } else {
      out[f.json] = decodeValue(raw, f);
    }
  }
  return out;
}

/** Decodes an already-read JSON value as the given message. */
export function decodeJson(value: JsonValue, spec: MessageSpec): Decoded<Internal> {
  try {
    return { ok: true, value: decodeMessage(value, spec) };
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.message };
    throw e;
  }
}

/**
 * Decodes a unary request body: the first JSON value (the rest is ignored,
 * as Go's streaming decoder does); an empty body is an empty request.
 */
export function decodeBody(text: string, spec: MessageSpec): Decoded<Internal> {
  const r = readJsonValue(text);
  if (r.ok === 'empty') return { ok: true, value: {} };
  if (r.ok === false) return { ok: false, error: r.error };
  return decodeJson(r.value, spec);
}

// ---- encoding ----

function isZeroScalar(v: unknown, kind: ScalarKind): boolean {
  switch (kind) {
    case 'bytes':
    case 'string':
      return v === '' || v === undefined || v === null;
    case 'bool':
      return v !== true;
    default:
      return v === 0 || v === undefined || v === null;
  }
}

function encodeScalar(v: unknown, kind: ScalarKind): JsonValueOut {
  switch (kind) {
    case 'bytes':
      return binaryToBase64(String(v));
    case 'string':
      return String(v);
    case 'bool':
      return v === true;
    case 'int32':
      return Number(v);
    case 'int64':
    case 'uint64':
      return integerText(v);
  }
}

function integerText(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`encode: not an integer: ${String(v)}`);
  return BigInt(n).toString();
}

export type JsonValueOut = null | boolean | number | string | JsonValueOut[] | { [k: string]: JsonValueOut };

function encodeField(v: unknown, f: FieldSpec): JsonValueOut | undefined {
  const t = f.type;
  if (t.kind === 'message') return v === undefined || v === null ? undefined : encodeMessage(v as Internal, t.message());
  if (t.kind === 'enum') {
    const idx = typeof v === 'number' ? v : t.enum.values.indexOf(String(v));
    // The zero value is omitted unless it sits in a oneof.
    if ((idx === 0 || v === undefined) && !f.oneof) return undefined;
    return t.enum.values[idx] ?? idx;
  }
  if (isZeroScalar(v, t.kind) && !f.oneof) return undefined;
  if (v === undefined || v === null) return undefined;
  return encodeScalar(v, t.kind);
}

/** Encodes an internal message as the gateway writes it (key order = declaration order). */
export function encodeMessage(value: Internal, spec: MessageSpec): { [k: string]: JsonValueOut } {
  const out: { [k: string]: JsonValueOut } = {};
  for (const f of spec.fields) {
    const v = value[f.json];
    if (f.repeated) {
      if (!Array.isArray(v) || v.length === 0) continue;
      out[f.proto] = v.map((item) => {
        const t = f.type;
        if (t.kind === 'message') return encodeMessage(item as Internal, t.message());
        if (t.kind === 'enum') return t.enum.values[typeof item === 'number' ? item : t.enum.values.indexOf(String(item))] ?? Number(item);
        return encodeScalar(item, t.kind);
      });
      continue;
    }
    const e = encodeField(v, f);
    if (e !== undefined) out[f.proto] = e;
  }
  return out;
}

/** Reads a gateway JSON object back as an internal value (for tests and the differential suite). */
export function fromGatewayJson(value: JsonValueOut, spec: MessageSpec): Decoded<Internal> {
  const r = readJsonValue(JSON.stringify(value));
  if (r.ok !== true) return { ok: false, error: 'bad json' };
  return decodeJson(r.value, spec);
}

export type { JsonObject };
