// JSON Patch (RFC 6902) as the API server applies `application/json-patch+json`:
// gopkg.in/evanphx/json-patch.v4 (patch.go), with its error texts and its
// departures from the RFC (replace of a missing object member adds it,
// negative array indices count from the end, copy/move of a missing member
// carries a null). Errors reach the client the way
// k8s.io/apiserver/pkg/endpoints/handlers/patch.go wraps them.
// Also createJsonPatch, a small deterministic diff used to record what each
// admission plugin changed.
import { status } from '../status';
import type { JsonObject, JsonValue, Status } from '../types';
import { cloneJson, deepEqual, goStrCompare, isObject } from './goValues';

export type JsonPatchOp =
  | { op: 'add' | 'replace' | 'test'; path: string; value: JsonValue }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

export type JsonPatchResult = { ok: true; value: JsonValue } | { ok: false; error: string; status: Status };

/** handlers.maxJSONPatchOperations */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

// ---- RFC 6901 pointers ------------------------------------------------------

/** Escapes one reference token: "~" → "~0", "/" → "~1". */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Unescapes one reference token in a single left-to-right pass ("~01" is "~1", not "/"). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

// ---- apply ------------------------------------------------------------------

/** Decodes `patch` and applies it to a copy of `doc`, answering as the API server does. */
export function applyJsonPatch(doc: JsonValue, patch: JsonValue): JsonPatchResult {
  const decoded = decodePatch(patch);
  if (!decoded.ok) return { ok: false, error: decoded.error, status: status.badRequest(decoded.error) };
  if (decoded.ops.length > MAX_JSON_PATCH_OPERATIONS) {
    const error = `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${decoded.ops.length}`;
    return { ok: false, error, status: status.requestEntityTooLarge(error) };
  }
  const applied = applyOps(doc, decoded.ops);
  if (!applied.ok) return { ok: false, error: applied.error, status: unprocessable(applied.error) };
  return { ok: true, value: applied.value };
}

/**
 * errors.NewGenericServerResponse(422, ...): the message is generic and the
 * json-patch error travels as a cause (so kubectl prints "The request is
 * invalid: the server rejected our request due to an error in our request").
 */
export function unprocessable(serverMessage: string): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    details: { causes: [{ reason: 'UnexpectedServerResponse', message: serverMessage }] },
    code: 422,
  };
}

type Operation = JsonObject | null;

function jsonTypeName(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** DecodePatch: the body must decode into []Operation (a JSON array of objects). */
function decodePatch(patch: JsonValue): { ok: true; ops: Operation[] } | { ok: false; error: string } {
  if (patch === null) return { ok: true, ops: [] };
  if (!Array.isArray(patch)) return { ok: false, error: `json: cannot unmarshal ${jsonTypeName(patch)} into Go value of type jsonpatch.Patch` };
  for (const op of patch) {
    if (op !== null && !isObject(op)) return { ok: false, error: `json: cannot unmarshal ${jsonTypeName(op)} into Go value of type jsonpatch.Operation` };
  }
  return { ok: true, ops: patch as Operation[] };
}

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';
const TEST_FAILED = 'test failed';

/** A failed step, told apart from JSON values by a symbol key; errors.Wrapf(cause, msg) prints "msg: cause". */
const FAIL = Symbol('json patch failure');
interface Fail {
  readonly [FAIL]: true;
  readonly message: string;
}
const failure = (message: string): Fail => ({ [FAIL]: true, message });
const isFail = (v: unknown): v is Fail => typeof v === 'object' && v !== null && FAIL in v;
const wrap = (msg: string, cause: string): Fail => failure(`${msg}: ${cause}`);

type Container = JsonObject | JsonValue[];

function kindOf(op: Operation): string {
  const v = op?.['op'];
  return typeof v === 'string' ? v : 'unknown';
}

/** Operation.Path / From: a string, a JSON type error, or missing. */
function stringField(op: Operation, field: 'path' | 'from'): string | Fail {
  const v = op === null ? undefined : op[field];
  if (v === undefined || v === null) return wrap(field === 'path' ? 'operation missing path field' : 'operation, missing from field', MISSING);
  if (typeof v !== 'string') return failure(`json: cannot unmarshal ${jsonTypeName(v)} into Go value of type string`);
  return v;
}

/** Operation.value: [present, value]; an absent value behaves as null when stored. */
function valueOf(op: Operation): { present: boolean; value: JsonValue } {
  if (op !== null && Object.hasOwn(op, 'value')) return { present: true, value: op['value'] as JsonValue };
  return { present: false, value: null };
}

/** strconv.Atoi, with its error texts. */
function atoi(s: string): number | Fail {
  if (!/^[+-]?\d+$/.test(s)) return failure(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) return failure(`strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

const invalidIndex = (idx: number): Fail => wrap(`Unable to access invalid index: ${idx}`, INVALID_INDEX);

/** Array index lookup with negative indices counted from the end (SupportNegativeIndices). */
function arrayIndex(d: JsonValue[], key: string): number | Fail {
  const parsed = atoi(key);
  if (isFail(parsed)) return parsed;
  let idx = parsed;
  if (idx < 0) {
    if (idx < -d.length) return invalidIndex(idx);
    idx += d.length;
  }
  if (idx >= d.length) return invalidIndex(idx);
  return idx;
}

function get(c: Container, key: string): JsonValue | undefined | Fail {
  if (!Array.isArray(c)) return Object.hasOwn(c, key) ? c[key] : undefined;
  const idx = arrayIndex(c, key);
  return isFail(idx) ? idx : c[idx];
}

function set(c: Container, key: string, val: JsonValue): Fail | undefined {
  if (!Array.isArray(c)) {
    c[key] = val;
    return undefined;
  }
  const parsed = atoi(key);
  if (isFail(parsed)) return parsed;
  let idx = parsed;
  if (idx < 0) {
    if (idx < -c.length) return invalidIndex(idx);
    idx += c.length;
  }
  c[idx] = val;
  return undefined;
}

function add(c: Container, key: string, val: JsonValue): Fail | undefined {
  if (!Array.isArray(c)) {
    c[key] = val;
    return undefined;
  }
  if (key === '-') {
    c.push(val);
    return undefined;
  }
  const parsed = atoi(key);
  if (isFail(parsed)) return wrap(`value was not a proper array index: '${key}'`, parsed.message);
  let idx = parsed;
  const sz = c.length + 1;
  if (idx >= sz) return invalidIndex(idx);
  if (idx < 0) {
    if (idx < -sz) return invalidIndex(idx);
    idx += sz;
  }
  c.splice(idx, 0, val);
  return undefined;
}

function remove(c: Container, key: string): Fail | undefined {
  if (!Array.isArray(c)) {
    if (!Object.hasOwn(c, key)) return wrap(`Unable to remove nonexistent key: ${key}`, MISSING);
    delete c[key];
    return undefined;
  }
  const parsed = atoi(key);
  if (isFail(parsed)) return parsed;
  let idx = parsed;
  if (idx >= c.length) return invalidIndex(idx);
  if (idx < 0) {
    if (idx < -c.length) return invalidIndex(idx);
    idx += c.length;
  }
  c.splice(idx, 1);
  return undefined;
}

/** findObject: the container holding the last token, and that token, or undefined. Null members end the walk. */
function findObject(root: Container, path: string): [Container, string] | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let doc: Container = root;
  for (const part of split.slice(1, -1)) {
    const next = get(doc, unescapePointerToken(part));
    if (next === undefined || next === null || isFail(next)) return undefined;
    if (Array.isArray(next) || isObject(next)) doc = next;
    else return undefined;
  }
  return [doc, unescapePointerToken(split[split.length - 1] ?? '')];
}

function applyOps(doc: JsonValue, ops: readonly Operation[]): { ok: true; value: JsonValue } | { ok: false; error: string } {
  if (!isObject(doc) && !Array.isArray(doc)) return { ok: false, error: `json: cannot unmarshal ${jsonTypeName(doc)} into Go value of type jsonpatch.partialDoc` };
  const holder: { root: Container } = { root: cloneJson(doc) };
  for (const op of ops) {
    const r = applyOne(holder, op);
    if (r) return { ok: false, error: r.message };
  }
  return { ok: true, value: holder.root };
}

function applyOne(holder: { root: Container }, op: Operation): Fail | undefined {
  const kind = kindOf(op);
  switch (kind) {
    case 'add': {
      const path = stringField(op, 'path');
      if (isFail(path)) return wrap('add operation failed to decode path', MISSING);
      const found = findObject(holder.root, path);
      if (!found) return wrap(`add operation does not apply: doc is missing path: "${path}"`, MISSING);
      const err = add(found[0], found[1], cloneJson(valueOf(op).value));
      return err && wrap(`error in add for path: '${path}'`, err.message);
    }
    case 'remove': {
      const path = stringField(op, 'path');
      if (isFail(path)) return wrap('remove operation failed to decode path', MISSING);
      const found = findObject(holder.root, path);
      if (!found) return wrap(`remove operation does not apply: doc is missing path: "${path}"`, MISSING);
      const err = remove(found[0], found[1]);
      return err && wrap(`error in remove for path: '${path}'`, err.message);
    }
    case 'replace': {
      const path = stringField(op, 'path');
      if (isFail(path)) return wrap('replace operation failed to decode path', path.message);
      if (path === '') {
        // Only an object or array replaces the whole document; anything else is silently ignored upstream.
        const v = valueOf(op).value;
        if (isObject(v) || Array.isArray(v)) holder.root = cloneJson(v);
        return undefined;
      }
      const found = findObject(holder.root, path);
      if (!found) return wrap(`replace operation does not apply: doc is missing path: ${path}`, MISSING);
      if (isFail(get(found[0], found[1]))) return wrap(`replace operation does not apply: doc is missing key: ${path}`, MISSING);
      const err = set(found[0], found[1], cloneJson(valueOf(op).value));
      return err && wrap(`error in remove for path: '${path}'`, err.message);
    }
    case 'move': {
      const from = stringField(op, 'from');
      if (isFail(from)) return wrap('move operation failed to decode from', from.message);
      const src = findObject(holder.root, from);
      if (!src) return wrap(`move operation does not apply: doc is missing from path: ${from}`, MISSING);
      const val = get(src[0], src[1]);
      if (isFail(val)) return wrap(`error in move for path: '${src[1]}'`, val.message);
      const rmErr = remove(src[0], src[1]);
      if (rmErr) return wrap(`error in move for path: '${src[1]}'`, rmErr.message);
      const path = stringField(op, 'path');
      if (isFail(path)) return wrap('move operation failed to decode path', path.message);
      const dst = findObject(holder.root, path);
      if (!dst) return wrap(`move operation does not apply: doc is missing destination path: ${path}`, MISSING);
      const err = add(dst[0], dst[1], val ?? null);
      return err && wrap(`error in move for path: '${path}'`, err.message);
    }
    case 'test': {
      const path = stringField(op, 'path');
      if (isFail(path)) return wrap('test operation failed to decode path', path.message);
      const want = valueOf(op);
      if (path === '') return deepEqual(holder.root, want.value) ? undefined : wrap('testing value  failed', TEST_FAILED);
      const found = findObject(holder.root, path);
      if (!found) return wrap(`test operation does not apply: is missing path: ${path}`, MISSING);
      const val = get(found[0], found[1]);
      if (isFail(val)) return wrap(`error in test for path: '${path}'`, val.message);
      // A missing member and a null one are the same nil node upstream; only a null value matches them.
      if (val === undefined || val === null) return want.present && want.value === null ? undefined : wrap(`testing value ${path} failed`, TEST_FAILED);
      if (!want.present || !deepEqual(val, want.value)) return wrap(`testing value ${path} failed`, TEST_FAILED);
      return undefined;
    }
    case 'copy': {
      const from = stringField(op, 'from');
      if (isFail(from)) return wrap('copy operation failed to decode from', from.message);
      const src = findObject(holder.root, from);
      if (!src) return wrap(`copy operation does not apply: doc is missing from path: ${from}`, MISSING);
      const val = get(src[0], src[1]);
      if (isFail(val)) return wrap(`error in copy for from: '${from}'`, val.message);
      const path = stringField(op, 'path');
      if (isFail(path)) return wrap('copy operation failed to decode path', MISSING);
      const dst = findObject(holder.root, path);
      if (!dst) return wrap(`copy operation does not apply: doc is missing destination path: ${path}`, MISSING);
      const err = add(dst[0], dst[1], cloneJson(val ?? null));
      return err && wrap('error while adding value during copy', err.message);
    }
    default:
      return failure(`Unexpected kind: ${kind}`);
  }
}

// ---- diff -------------------------------------------------------------------

/**
 * A small RFC 6902 patch turning `before` into `after`: object members in
 * sorted key order, unchanged subtrees skipped, arrays diffed after trimming
 * their common prefix and suffix. Applying it with applyJsonPatch gives `after`.
 */
export function createJsonPatch(before: JsonValue, after: JsonValue): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [];
  diff('', before, after, ops);
  return ops;
}

function diff(path: string, a: JsonValue, b: JsonValue, ops: JsonPatchOp[]): void {
  if (deepEqual(a, b)) return;
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(goStrCompare);
    for (const k of keys) {
      const p = `${path}/${escapePointerToken(k)}`;
      const inA = Object.hasOwn(a, k);
      const inB = Object.hasOwn(b, k);
      if (inA && !inB) ops.push({ op: 'remove', path: p });
      else if (!inA && inB) ops.push({ op: 'add', path: p, value: cloneJson(b[k] as JsonValue) });
      else diff(p, a[k] as JsonValue, b[k] as JsonValue, ops);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    diffArrays(path, a, b, ops);
    return;
  }
  ops.push({ op: 'replace', path, value: cloneJson(b) });
}

function diffArrays(path: string, a: JsonValue[], b: JsonValue[], ops: JsonPatchOp[]): void {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && deepEqual(a[prefix], b[prefix])) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && deepEqual(a[a.length - 1 - suffix], b[b.length - 1 - suffix])) suffix++;
  const aMid = a.length - prefix - suffix;
  const bMid = b.length - prefix - suffix;
  const common = Math.min(aMid, bMid);
  for (let i = 0; i < common; i++) diff(`${path}/${prefix + i}`, a[prefix + i] as JsonValue, b[prefix + i] as JsonValue, ops);
  // Remove surplus items from the highest index down, so earlier indices stay valid.
  for (let i = aMid - 1; i >= common; i--) ops.push({ op: 'remove', path: `${path}/${prefix + i}` });
  for (let i = common; i < bMid; i++) ops.push({ op: 'add', path: `${path}/${prefix + i}`, value: cloneJson(b[prefix + i] as JsonValue) });
}
