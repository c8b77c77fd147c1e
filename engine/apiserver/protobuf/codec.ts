// Kubernetes protobuf bodies (Content-Type application/vnd.kubernetes.protobuf)
// to and from the JSON form of the object.
//
// Wire: the 4 bytes `k8s\0`, then a runtime.Unknown {typeMeta, raw,
// contentEncoding, contentType} whose raw holds the object's own message
// (k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go).
//
// Decoding yields what Go would: the bytes go into the Go struct (gogo's
// generated Unmarshal: unknown fields skipped, a repeated non-repeated field
// merges, nested messages decoded as met, so errors come in upstream's order),
// and the struct is then written as encoding/json would (omitempty zero values
// dropped, pointers kept even when zero, `spec: {}` for empty value structs,
// `creationTimestamp: null` for a zero metav1.Time, map keys sorted).
// Encoding is gogo's Marshal: fields in number order, every value-typed field
// written even when zero, pointers only when set, map entries by sorted key;
// it reproduces kubectl's bytes exactly (see codec.test.ts).
//
// 64-bit integers travel as JS numbers (exact within ±2^53; see wire.ts).
import { formatQuantity, parseQuantityValue } from '../validation/quantity';
import { GO_ZERO_TIME_UNIX, formatGoDuration, formatRFC3339, formatRFC3339Micro, parseGoDuration, parseRFC3339 } from './goTime';
import { META_V1, indexSchema, packageForApiVersion, schema, type FieldInfo, type MessageInfo, type ScalarType } from './schema';
import { base64DecodeLenient, base64Encode } from '../../sim/base64';
import { Reader, WireError, WireType, Writer, utf8Decode, utf8Encode } from './wire';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';
/** `k8s\0`: the serializer's magic prefix. */
export const PROTOBUF_PREFIX = new Uint8Array([0x6b, 0x38, 0x73, 0x00]);

export type DecodeResult = { ok: true; object: Record<string, unknown> } | { ok: false; error: string };
export type MessageDecodeResult = { ok: true; value: Json } | { ok: false; error: string };

// Read-only index of the generated table, built once.
const MESSAGES: ReadonlyMap<string, MessageInfo> = indexSchema(schema);

const UNKNOWN = 'k8s.io.apimachinery.pkg.runtime.Unknown';
const TIME = `${META_V1}.Time`;
const MICRO_TIME = `${META_V1}.MicroTime`;
const DURATION = `${META_V1}.Duration`;
const FIELDS_V1 = `${META_V1}.FieldsV1`;
const QUANTITY = 'k8s.io.apimachinery.pkg.api.resource.Quantity';
const QUANTITY_VALUE = 'k8s.io.apimachinery.pkg.api.resource.QuantityValue';
const INT_OR_STRING = 'k8s.io.apimachinery.pkg.util.intstr.IntOrString';
const RAW_EXTENSION = 'k8s.io.apimachinery.pkg.runtime.RawExtension';

/** True when the bytes carry the protobuf serializer's prefix (RecognizesData). */
export function isK8sProtobuf(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && PROTOBUF_PREFIX.every((b, i) => bytes[i] === b);
}

/** The protobuf message of a kind (`apps/v1`, `Deployment` → `k8s.io.api.apps.v1.Deployment`), if the table has it. */
export function protobufMessageFor(apiVersion: string, kind: string): string | undefined {
  const own = `${packageForApiVersion(apiVersion)}.${kind}`;
  if (MESSAGES.get(own)?.kind) return own;
  // Options, Status, WatchEvent… are registered in every group version.
  const meta = `${META_V1}.${kind}`;
  if (MESSAGES.get(meta)?.kind) return meta;
  return undefined;
}

/**
 * Decodes a request body as the apiserver's protobuf serializer does. `defaults`
 * is the endpoint's apiVersion/kind, applied where the body leaves them empty
 * (copyKindDefaults). The object comes back in JSON form with apiVersion and kind.
 */
export function decodeK8sProtobuf(bytes: Uint8Array, defaults?: { apiVersion: string; kind: string }): DecodeResult {
  if (bytes.length === 0) return { ok: false, error: 'empty data' };
  if (!isK8sProtobuf(bytes)) return { ok: false, error: `provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_PREFIX].join(' ')}]` };
  if (bytes.length === 4) return { ok: false, error: 'empty body' };
  try {
    const unk = readUnknown(bytes.subarray(4));
    const gvk = parseGvk(unk.apiVersion, unk.kind);
    if (defaults) {
      const d = parseGvk(defaults.apiVersion, defaults.kind);
      if (gvk.kind === '') gvk.kind = d.kind;
      if (gvk.version === '' && d.version !== '') {
        gvk.group = d.group;
        gvk.version = d.version;
      }
    }
    const typeMeta = `runtime.TypeMeta{APIVersion:${goQuote(unk.apiVersion)}, Kind:${goQuote(unk.kind)}}`;
    if (gvk.kind === '') return { ok: false, error: `Object 'Kind' is missing in '${typeMeta}'` };
    if (gvk.version === '') return { ok: false, error: `Object 'apiVersion' is missing in '${typeMeta}'` };
    const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
    const name = protobufMessageFor(apiVersion, gvk.kind);
    if (!name) return { ok: false, error: `no kind ${goQuote(gvk.kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/api/legacyscheme/scheme.go:30"` };
    const body = decodeValue(name, unk.raw) as JsonObject;
    return { ok: true, object: { kind: gvk.kind, apiVersion, ...body } };
  } catch (e) {
    if (e instanceof WireError) return { ok: false, error: e.message };
    throw e;
  }
}

/** Decodes one message (no prefix, no envelope) into its JSON form. */
export function decodeMessage(messageName: string, bytes: Uint8Array): MessageDecodeResult {
  if (!MESSAGES.has(messageName)) return { ok: false, error: `unknown protobuf message ${messageName}` };
  try {
    return { ok: true, value: decodeValue(messageName, bytes) };
  } catch (e) {
    if (e instanceof WireError) return { ok: false, error: e.message };
    throw e;
  }
}

/**
 * Encodes an object (JSON form, with apiVersion and kind) as kubectl would send
 * it. Throws for a kind the table lacks or a value of the wrong JSON type:
 * callers encode objects they built (check with protobufMessageFor first).
 */
export function encodeK8sProtobuf(obj: Record<string, unknown>): Uint8Array {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const name = protobufMessageFor(apiVersion, kind);
  if (!name) throw new Error(`no protobuf message for apiVersion ${JSON.stringify(apiVersion)}, kind ${JSON.stringify(kind)}`);
  const raw = encodeMessage(name, obj as Json);
  const typeMeta = new Writer();
  typeMeta.tag(1, WireType.bytes);
  typeMeta.string(apiVersion);
  typeMeta.tag(2, WireType.bytes);
  typeMeta.string(kind);
  const w = new Writer();
  w.raw(PROTOBUF_PREFIX);
  w.tag(1, WireType.bytes);
  w.bytes(typeMeta.finish());
  w.tag(2, WireType.bytes);
  w.bytes(raw);
  // contentEncoding and contentType: value strings, always written (empty)
  w.tag(3, WireType.bytes);
  w.string('');
  w.tag(4, WireType.bytes);
  w.string('');
  return w.finish();
}

/** Encodes one message's JSON form to its bytes (no prefix, no envelope). */
export function encodeMessage(messageName: string, value: Json): Uint8Array {
  const w = new Writer();
  writeMessageBody(w, messageName, value, messageName);
  return w.finish();
}

// ------------------------------------------------------------------ decoding

interface Unknown {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

function readUnknown(bytes: Uint8Array): Unknown {
  const slots = readFields(info(UNKNOWN), bytes);
  const tm = slots.get(1);
  let apiVersion = '';
  let kind = '';
  if (tm?.t === 'msg') {
    const o = tm.v as JsonObject;
    apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
    kind = typeof o.kind === 'string' ? o.kind : '';
  }
  const raw = slots.get(2);
  return { apiVersion, kind, raw: raw?.t === 'scalar' && raw.v instanceof Uint8Array ? raw.v : new Uint8Array(0) };
}

function parseGvk(apiVersion: string, kind: string): { group: string; version: string; kind: string } {
  // schema.ParseGroupVersion; a malformed one leaves only the kind
  const parts = apiVersion.split('/');
  if (apiVersion === '') return { group: '', version: '', kind };
  if (parts.length === 1) return { group: '', version: apiVersion, kind };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]!, kind };
  return { group: '', version: '', kind };
}

function goQuote(s: string): string {
  return JSON.stringify(s);
}

function info(name: string): MessageInfo {
  const m = MESSAGES.get(name);
  if (!m) throw new Error(`protobuf schema has no message ${name}`);
  return m;
}

type ScalarValue = number | boolean | string | Uint8Array;

/** A field of the Go struct being filled. */
type Slot =
  | { t: 'scalar'; v: ScalarValue }
  | { t: 'list'; v: Json[] }
  | { t: 'map'; v: Map<string, Json> }
  /** A nested message: its decoded form, and its chunks (a repeat merges). */
  | { t: 'msg'; v: Json; chunks: Uint8Array[] };

function expectedWire(type: ScalarType): number {
  switch (type) {
    case 'string':
    case 'bytes':
      return WireType.bytes;
    case 'double':
      return WireType.fixed64;
    case 'float':
      return WireType.fixed32;
    case 'bool':
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'uint64':
      return WireType.varint;
  }
}

function readScalar(r: Reader, type: ScalarType): ScalarValue {
  switch (type) {
    case 'string':
      return r.string();
    case 'bytes':
      return r.bytes().slice();
    case 'double':
      return r.double();
    case 'float':
      return r.float();
    case 'bool':
      return r.bool();
    case 'int32':
      return r.int32();
    case 'int64':
      return r.int64();
    case 'uint32':
      return r.uint32();
    case 'uint64':
      return r.uint64();
  }
}

function scalarJson(v: ScalarValue): Json {
  return v instanceof Uint8Array ? base64Encode(v) : v;
}

/** gogo's generated Unmarshal loop over one message's bytes. */
function readFields(m: MessageInfo, bytes: Uint8Array, errorName = m.short): Map<number, Slot> {
  const r = new Reader(bytes);
  const slots = new Map<number, Slot>();
  while (!r.done()) {
    const [num, wire, key] = r.tag();
    if (wire === WireType.endGroup) throw new WireError(`proto: ${errorName}: wiretype end group for non-group`);
    if (num <= 0) throw new WireError(`proto: ${errorName}: illegal tag ${num} (wire type ${key})`);
    const f = m.byNumber.get(num);
    if (!f) {
      r.skip(wire);
      continue;
    }
    const wrongWire = (): WireError => new WireError(`proto: wrong wireType = ${wire} for field ${f.goName}`);
    if (f.map) {
      if (wire !== WireType.bytes) throw wrongWire();
      const [k, v] = readMapEntry(r, f);
      let slot = slots.get(num);
      if (slot?.t !== 'map') slots.set(num, (slot = { t: 'map', v: new Map() }));
      slot.v.set(k, v);
    } else if (f.message) {
      if (wire !== WireType.bytes) throw wrongWire();
      const chunk = r.bytes();
      if (f.repeated) {
        let slot = slots.get(num);
        if (slot?.t !== 'list') slots.set(num, (slot = { t: 'list', v: [] }));
        slot.v.push(decodeValue(f.type, chunk));
      } else {
        const slot = slots.get(num);
        if (slot?.t === 'msg' && !REPLACING.has(f.type)) {
          // Unmarshal into the same struct again: proto merge = decoding the concatenation.
          slot.chunks.push(chunk);
          slot.v = decodeValue(f.type, concat(slot.chunks));
        } else slots.set(num, { t: 'msg', v: decodeValue(f.type, chunk), chunks: [chunk] });
      }
    } else {
      const type = f.type as ScalarType;
      const want = expectedWire(type);
      if (f.repeated) {
        let slot = slots.get(num);
        if (slot?.t !== 'list') slots.set(num, (slot = { t: 'list', v: [] }));
        if (wire === want) slot.v.push(scalarJson(readScalar(r, type)));
        else if (wire === WireType.bytes && want !== WireType.bytes) {
          // packed
          const packed = r.bytes();
          const pr = new Reader(packed);
          while (!pr.done()) slot.v.push(scalarJson(readScalar(pr, type)));
        } else throw wrongWire();
      } else {
        if (wire !== want) throw wrongWire();
        slots.set(num, { t: 'scalar', v: readScalar(r, type) });
      }
    }
  }
  return slots;
}

/** One map entry {key = 1, value = 2}; as generated code, the key's wire type is not checked. */
function readMapEntry(r: Reader, f: FieldInfo): [string, Json] {
  const entry = r.bytes();
  const er = new Reader(entry);
  let key = '';
  let value: Json | undefined;
  while (!er.done()) {
    const [num, wire] = er.tag();
    if (num === 1) key = er.string();
    else if (num === 2) {
      if (f.message) value = decodeValue(f.type, er.bytes());
      else if (f.type === 'string') value = er.string();
      else if (f.type === 'bytes') value = base64Encode(er.bytes());
      else value = scalarJson(readScalar(er, f.type as ScalarType));
    } else er.skip(wire);
  }
  if (value === undefined) value = f.message ? zeroJson(f.type) : f.type === 'string' ? '' : f.type === 'bytes' ? null : zeroScalar(f.type as ScalarType);
  return [key, value];
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function zeroScalar(type: ScalarType): Json {
  switch (type) {
    case 'string':
      return '';
    case 'bytes':
      return null;
    case 'bool':
      return false;
    case 'double':
    case 'float':
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'uint64':
      return 0;
  }
}

function isZeroScalar(v: ScalarValue): boolean {
  return v === '' || v === 0 || v === false || (v instanceof Uint8Array && v.length === 0);
}

/** Types whose custom Unmarshal replaces the value instead of merging. */
const REPLACING = new Set([TIME, MICRO_TIME, QUANTITY, QUANTITY_VALUE]);

/** A message's JSON form from its bytes (special types by their Go MarshalJSON). */
function decodeValue(name: string, bytes: Uint8Array): Json {
  switch (name) {
    case TIME: {
      // Time.Unmarshal: empty → zero time; nanos dropped (time_proto.go)
      if (bytes.length === 0) return null;
      const s = readFields(info(TIME), bytes, 'Timestamp');
      const seconds = numberSlot(s, 1);
      return seconds === GO_ZERO_TIME_UNIX ? null : formatRFC3339(seconds);
    }
    case MICRO_TIME: {
      if (bytes.length === 0) return null;
      const s = readFields(info(MICRO_TIME), bytes, 'Timestamp');
      let seconds = numberSlot(s, 1);
      let nanos = numberSlot(s, 2);
      // time.Unix normalises nanos outside [0, 1e9)
      seconds += Math.floor(nanos / 1e9);
      nanos = ((nanos % 1e9) + 1e9) % 1e9;
      return seconds === GO_ZERO_TIME_UNIX && nanos === 0 ? null : formatRFC3339Micro(seconds, nanos);
    }
    case DURATION:
      return formatGoDuration(numberSlot(readFields(info(DURATION), bytes), 1));
    case QUANTITY:
    case QUANTITY_VALUE:
      return decodeQuantity(bytes);
    case INT_OR_STRING: {
      const s = readFields(info(INT_OR_STRING), bytes);
      const type = numberSlot(s, 1);
      if (type === 0) return numberSlot(s, 2);
      if (type === 1) {
        const v = s.get(3);
        return v?.t === 'scalar' ? String(v.v) : '';
      }
      throw new WireError('impossible IntOrString.Type');
    }
    case RAW_EXTENSION:
    case FIELDS_V1: {
      const s = readFields(info(name), bytes);
      const raw = s.get(1);
      if (raw?.t !== 'scalar' || !(raw.v instanceof Uint8Array) || raw.v.length === 0) return null;
      return rawJson(raw.v, name === RAW_EXTENSION ? 'RawExtension' : 'FieldsV1');
    }
  }
  const m = info(name);
  const slots = readFields(m, bytes);
  if (m.slice) {
    // a named slice (ExtraValue, Verbs): the JSON is the items array
    const items = slots.get(1);
    return items?.t === 'list' && items.v.length > 0 ? items.v : null;
  }
  return toJson(m, slots);
}

/**
 * Quantity's hand-written Unmarshal (quantity_proto.go): field 1 through
 * ParseQuantity, last one wins; the JSON is the canonical text, "0" when unset.
 */
function decodeQuantity(bytes: Uint8Array): Json {
  const r = new Reader(bytes);
  let out: Json = '0';
  while (!r.done()) {
    const [num, wire, key] = r.tag();
    if (wire === WireType.endGroup) throw new WireError('proto: Quantity: wiretype end group for non-group');
    if (num <= 0) throw new WireError(`proto: Quantity: illegal tag ${num} (wire type ${key})`);
    if (num !== 1) {
      r.skip(wire);
      continue;
    }
    if (wire !== WireType.bytes) throw new WireError(`proto: wrong wireType = ${wire} for field String_`);
    const parsed = parseQuantityValue(r.string());
    if (!parsed.ok) throw new WireError(parsed.error);
    out = formatQuantity(parsed.quantity);
  }
  return out;
}

/** Raw JSON (or a nested protobuf object) held by RawExtension / FieldsV1. */
function rawJson(raw: Uint8Array, what: string): Json {
  if (isK8sProtobuf(raw)) {
    const nested = decodeK8sProtobuf(raw);
    if (!nested.ok) throw new WireError(nested.error);
    return nested.object as Json;
  }
  try {
    return JSON.parse(utf8Decode(raw)) as Json;
  } catch {
    throw new WireError(`json: error calling MarshalJSON for type ${what}: invalid JSON in raw bytes`);
  }
}

function numberSlot(s: Map<number, Slot>, n: number): number {
  const v = s.get(n);
  return v?.t === 'scalar' && typeof v.v === 'number' ? v.v : 0;
}

/** The JSON of a message's special zero value (a value-typed field absent on the wire). */
function zeroJson(name: string): Json {
  return decodeValue(name, new Uint8Array(0));
}

/** encoding/json over the filled struct. */
function toJson(m: MessageInfo, slots: Map<number, Slot>): JsonObject {
  const out: JsonObject = {};
  for (const f of m.fields) {
    if (f.skipJson) continue;
    const slot = slots.get(f.number);
    if (f.inline) {
      const child = slot?.t === 'msg' ? slot.v : zeroJson(f.type);
      if (child && typeof child === 'object' && !Array.isArray(child)) Object.assign(out, child);
      continue;
    }
    const v = fieldJson(f, slot);
    if (v !== undefined) out[f.json] = v;
  }
  return out;
}

/** One field's JSON value, or undefined when encoding/json leaves it out. */
function fieldJson(f: FieldInfo, slot: Slot | undefined): Json | undefined {
  const absent = f.omitempty ? undefined : null;
  if (f.map) {
    if (slot?.t !== 'map' || slot.v.size === 0) return absent;
    const o: JsonObject = {};
    for (const k of [...slot.v.keys()].sort(compareGoStrings)) o[k] = slot.v.get(k)!;
    return o;
  }
  if (f.repeated) return slot?.t === 'list' && slot.v.length > 0 ? slot.v : absent;
  if (f.message) {
    const isSlice = MESSAGES.get(f.type)?.slice === true;
    if (slot?.t === 'msg') return slot.v === null && isSlice && f.omitempty ? undefined : slot.v;
    if (f.nullable) return absent;
    const zero = zeroJson(f.type);
    // omitempty drops an empty named slice; structs are always written
    if (zero === null && isSlice) return absent;
    return zero;
  }
  if (f.type === 'bytes') {
    // Go []byte: nil when absent (null, or dropped by omitempty)
    if (slot?.t !== 'scalar') return absent;
    const b = slot.v as Uint8Array;
    return b.length === 0 && f.omitempty ? undefined : base64Encode(b);
  }
  if (f.nullable) return slot?.t === 'scalar' ? scalarJson(slot.v) : absent;
  const v = slot?.t === 'scalar' ? slot.v : undefined;
  if (v === undefined || isZeroScalar(v)) return f.omitempty ? undefined : v === undefined ? zeroScalar(f.type as ScalarType) : scalarJson(v);
  return scalarJson(v);
}

/** Go compares strings bytewise (UTF-8), which is code-point order. */
function compareGoStrings(a: string, b: string): number {
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx - cy;
  }
}

// ------------------------------------------------------------------ encoding

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(path: string, what: string, v: unknown): never {
  throw new Error(`${path}: ${what}, got ${JSON.stringify(v)}`);
}

/** gogo's Marshal of one message (fields by number; value fields always). */
function writeMessageBody(w: Writer, name: string, value: Json | undefined, path: string): void {
  switch (name) {
    case TIME:
    case MICRO_TIME: {
      // zero time → no bytes at all (Time.Marshal); ProtoTime drops nanos, MicroTime keeps them
      if (value === null || value === undefined) return;
      if (typeof value !== 'string') fail(path, 'expected an RFC 3339 time', value);
      const t = parseRFC3339(value);
      if (!t) fail(path, 'expected an RFC 3339 time', value);
      if (t.seconds === GO_ZERO_TIME_UNIX && t.nanos === 0) return;
      w.tag(1, WireType.varint);
      w.varint(t.seconds);
      w.tag(2, WireType.varint);
      w.varint(name === TIME ? 0 : Math.floor(t.nanos / 1000) * 1000);
      return;
    }
    case DURATION: {
      let ns = 0;
      if (typeof value === 'string') {
        const d = parseGoDuration(value);
        if (!d.ok) fail(path, d.error, value);
        ns = d.ns;
      } else if (value !== null && value !== undefined) fail(path, 'expected a duration string', value);
      w.tag(1, WireType.varint);
      w.varint(ns);
      return;
    }
    case QUANTITY:
    case QUANTITY_VALUE: {
      // Quantity.Marshal writes String(): the canonical form, "0" for the zero value
      let text = '0';
      if (typeof value === 'string' || typeof value === 'number') {
        const parsed = parseQuantityValue(typeof value === 'number' ? String(value) : value.trim());
        if (!parsed.ok) fail(path, parsed.error, value);
        text = formatQuantity(parsed.quantity);
      } else if (value !== null && value !== undefined) fail(path, 'expected a quantity', value);
      w.tag(1, WireType.bytes);
      w.string(text);
      return;
    }
    case INT_OR_STRING: {
      const isString = typeof value === 'string';
      if (!isString && typeof value !== 'number' && value !== null && value !== undefined) fail(path, 'expected an int or a string', value);
      w.tag(1, WireType.varint);
      w.varint(isString ? 1 : 0);
      w.tag(2, WireType.varint);
      w.varint(typeof value === 'number' ? value : 0);
      w.tag(3, WireType.bytes);
      w.string(isString ? value : '');
      return;
    }
    case RAW_EXTENSION:
    case FIELDS_V1: {
      // JSON null leaves Raw nil: nothing written
      if (value === null || value === undefined) return;
      w.tag(1, WireType.bytes);
      w.bytes(utf8Encode(JSON.stringify(value)));
      return;
    }
  }
  const m = info(name);
  if (m.slice) {
    const items = m.byNumber.get(1)!;
    writeField(w, items, value === undefined ? null : value, path);
    return;
  }
  if (value !== null && value !== undefined && !isObject(value)) fail(path, 'expected an object', value);
  const obj: JsonObject = value ?? {};
  for (const f of m.wireOrder) {
    if (f.inline) {
      writeNested(w, f.number, f.type, obj, `${path}.${f.json}`);
      continue;
    }
    writeField(w, f, f.skipJson ? undefined : obj[f.json], `${path}.${f.json}`);
  }
}

function writeNested(w: Writer, num: number, type: string, value: Json | undefined, path: string): void {
  const child = new Writer();
  writeMessageBody(child, type, value, path);
  w.tag(num, WireType.bytes);
  w.bytes(child.finish());
}

function writeField(w: Writer, f: FieldInfo, v: Json | undefined, path: string): void {
  const present = v !== undefined && v !== null;
  if (f.map) {
    if (!present) return;
    if (!isObject(v)) fail(path, 'expected an object', v);
    for (const k of Object.keys(v).sort(compareGoStrings)) {
      const val = v[k]!;
      const entry = new Writer();
      entry.tag(1, WireType.bytes);
      entry.string(k);
      if (f.message) writeNested(entry, 2, f.type, val, `${path}.${k}`);
      else if (f.type === 'bytes') {
        // a nil []byte value is left out of the entry
        if (val !== null) writeScalar(entry, 2, 'bytes', val, `${path}.${k}`);
      } else writeScalar(entry, 2, f.type as ScalarType, val, `${path}.${k}`);
      w.tag(f.number, WireType.bytes);
      w.bytes(entry.finish());
    }
    return;
  }
  if (f.repeated) {
    if (!present) return;
    if (!Array.isArray(v)) fail(path, 'expected an array', v);
    v.forEach((item, i) => {
      if (f.message) writeNested(w, f.number, f.type, item, `${path}[${i}]`);
      else writeScalar(w, f.number, f.type as ScalarType, item, `${path}[${i}]`);
    });
    return;
  }
  if (f.message) {
    if (f.nullable && !present) return;
    writeNested(w, f.number, f.type, v, path);
    return;
  }
  // []byte: written when non-nil (JSON "" is a non-nil empty slice)
  if (f.type === 'bytes' || f.nullable) {
    if (present) writeScalar(w, f.number, f.type as ScalarType, v, path);
    return;
  }
  writeScalar(w, f.number, f.type as ScalarType, present ? v : zeroScalar(f.type as ScalarType), path);
}

function writeScalar(w: Writer, num: number, type: ScalarType, v: Json, path: string): void {
  switch (type) {
    case 'string':
      if (typeof v !== 'string') fail(path, 'expected a string', v);
      w.tag(num, WireType.bytes);
      w.string(v);
      return;
    case 'bytes': {
      if (typeof v !== 'string') fail(path, 'expected base64 text', v);
      const b = base64DecodeLenient(v);
      if (!b) fail(path, 'expected base64 text', v);
      w.tag(num, WireType.bytes);
      w.bytes(b);
      return;
    }
    case 'bool':
      if (typeof v !== 'boolean') fail(path, 'expected a boolean', v);
      w.tag(num, WireType.varint);
      w.uvarint(v ? 1 : 0);
      return;
    case 'double':
    case 'float':
      if (typeof v !== 'number') fail(path, 'expected a number', v);
      w.tag(num, type === 'double' ? WireType.fixed64 : WireType.fixed32);
      if (type === 'double') w.double(v);
      else w.float(v);
      return;
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'uint64':
      if (typeof v !== 'number' || !Number.isInteger(v)) fail(path, 'expected an integer', v);
      w.tag(num, WireType.varint);
      if (type.startsWith('u')) w.uvarint(v);
      else w.varint(v);
      return;
  }
}

