// Small typed accessors for objects that travel as plain JSON. Admission
// plugins read and edit API objects in place; these keep that terse and
// strict-mode safe without a full typed model of every kind.
import { jsonRoundTrip } from '../../sim/jsonClone';

export type Rec = Record<string, unknown>;

export function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function rec(v: unknown): Rec | undefined {
  return isRec(v) ? v : undefined;
}

/** The record-valued elements of an array (anything else is ignored). */
export function recs(v: unknown): Rec[] {
  return Array.isArray(v) ? v.filter(isRec) : [];
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function strs(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Follows a chain of object keys; undefined as soon as one is missing. */
export function path(v: unknown, ...keys: string[]): unknown {
  let cur = v;
  for (const k of keys) {
    if (!isRec(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** The record under `key`, created when absent (or not a record). */
export function ensureRec(parent: Rec, key: string): Rec {
  const cur = parent[key];
  if (isRec(cur)) return cur;
  const fresh: Rec = {};
  parent[key] = fresh;
  return fresh;
}

/** The array under `key`, created when absent. */
export function ensureArr(parent: Rec, key: string): unknown[] {
  const cur = parent[key];
  if (Array.isArray(cur)) return cur;
  const fresh: unknown[] = [];
  parent[key] = fresh;
  return fresh;
}

/** A map[string]string such as labels or annotations; non-string values are dropped. */
export function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRec(v)) return out;
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

export function clone<T>(v: T): T {
  return jsonRoundTrip(v);
}

/** Replaces every field of `target` by those of `source`, keeping the object's identity. */
export function replaceContents(target: Rec, source: Rec): void {
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, source);
}
