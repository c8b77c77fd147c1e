// JSON Merge Patch (RFC 7386): the RFC's algorithm, and the variant the API
// server runs for `application/merge-patch+json` (gopkg.in/evanphx/json-patch.v4
// MergePatch, whose edge cases differ), plus CreateMergePatch.
import type { JsonObject, JsonValue } from '../types';
import { cloneJson, deepEqual, goType, isObject, sortKeysDeep } from './goValues';

/** RFC 7386 §2 MergePatch(Target, Patch). Inputs are not modified. */
export function applyMergePatch(original: JsonValue, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return cloneJson(patch);
  const target: JsonObject = isObject(original) ? cloneJson(original) : {};
  for (const name of Object.keys(patch)) {
    const value = patch[name] as JsonValue;
    if (value === null) delete target[name];
    else target[name] = applyMergePatch(Object.hasOwn(target, name) ? (target[name] as JsonValue) : null, value);
  }
  return target;
}

export type MergePatchV4Result = { ok: true; value: JsonValue } | { ok: false; error: 'Invalid JSON Patch' | 'Invalid JSON Document' };

/**
 * evanphx/json-patch v4 MergePatch, as the API server applies merge patches.
 * Unlike the RFC: a patch that is null or a scalar is "Invalid JSON Patch"
 * (the server answers 400); values the patch adds, or puts in place of a
 * non-object, lose their nulls, inside arrays too; an array patch on an
 * object document becomes the document.
 */
export function applyMergePatchV4(doc: JsonValue, patch: JsonValue): MergePatchV4Result {
  if (doc === null) return { ok: false, error: 'Invalid JSON Document' };
  if (patch === null) return { ok: false, error: 'Invalid JSON Patch' };
  if (!isObject(doc) || !isObject(patch)) {
    // Not two objects: the patch itself becomes the document, nulls pruned.
    if (isObject(patch)) return { ok: true, value: pruneDocNulls(cloneJson(patch)) };
    if (Array.isArray(patch)) return { ok: true, value: pruneArrayNulls(cloneJson(patch)) };
    return { ok: false, error: 'Invalid JSON Patch' };
  }
  const out = cloneJson(doc);
  mergeDocs(out, cloneJson(patch));
  return { ok: true, value: out };
}

function mergeDocs(doc: JsonObject, patch: JsonObject): void {
  for (const k of Object.keys(patch)) {
    const v = patch[k] as JsonValue;
    if (v === null) {
      delete doc[k];
    } else if (!Object.hasOwn(doc, k)) {
      doc[k] = pruneNulls(v);
    } else {
      doc[k] = merge(doc[k] as JsonValue, v);
    }
  }
}

function merge(cur: JsonValue, patch: JsonValue): JsonValue {
  // Upstream dereferences a null current value here; we treat it as a non-object.
  if (!isObject(cur)) return pruneNulls(patch);
  if (!isObject(patch)) return patch;
  mergeDocs(cur, patch);
  return cur;
}

function pruneNulls(v: JsonValue): JsonValue {
  if (isObject(v)) return pruneDocNulls(v);
  if (Array.isArray(v)) return pruneArrayNulls(v);
  return v;
}

function pruneDocNulls(doc: JsonObject): JsonObject {
  for (const k of Object.keys(doc)) {
    if (doc[k] === null) delete doc[k];
    else doc[k] = pruneNulls(doc[k] as JsonValue);
  }
  return doc;
}

function pruneArrayNulls(ary: JsonValue[]): JsonValue[] {
  return ary.filter((v) => v !== null).map(pruneNulls);
}

/**
 * CreateMergePatch: the merge patch that turns `original` into `modified`
 * (getDiff of evanphx/json-patch): changed and added keys carry the new
 * value, arrays are replaced whole, removed keys are null. Keys come out sorted.
 * For non-object documents the patch is the modified document itself.
 */
export function createMergePatch(original: JsonValue, modified: JsonValue): JsonValue {
  if (!isObject(original) || !isObject(modified)) return cloneJson(modified);
  return sortKeysDeep(getDiff(original, modified));
}

function getDiff(a: JsonObject, b: JsonObject): JsonObject {
  const into: JsonObject = {};
  for (const key of Object.keys(b)) {
    const bv = b[key] as JsonValue;
    if (!Object.hasOwn(a, key)) {
      into[key] = cloneJson(bv);
      continue;
    }
    const av = a[key] as JsonValue;
    const t = goType(av);
    if (t !== goType(bv)) {
      into[key] = cloneJson(bv);
    } else if (t === 'map') {
      const dst = getDiff(av as JsonObject, bv as JsonObject);
      if (Object.keys(dst).length > 0) into[key] = dst;
    } else if (!deepEqual(av, bv)) {
      into[key] = cloneJson(bv);
    }
  }
  for (const key of Object.keys(a)) if (!Object.hasOwn(b, key)) into[key] = null;
  return into;
}
