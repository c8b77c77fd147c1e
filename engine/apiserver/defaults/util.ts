// Helpers for defaulting JSON objects in place, the way Go defaulters fill nil fields.

/** Unvalidated JSON: defaulting runs before validation and must tolerate anything. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export function isObj(v: unknown): v is Record<string, Loose> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
export function arr(v: unknown): Loose[] {
  return Array.isArray(v) ? v : [];
}
/** Sets o[k] = v when o[k] is absent (null counts as absent, as a nil pointer). */
export function def(o: Record<string, Loose>, k: string, v: Loose): void {
  if (o[k] === undefined || o[k] === null) o[k] = v;
}
/** Sets o[k] = v when o[k] is absent or the Go zero value "" (non-pointer string fields). */
export function defStr(o: Record<string, Loose>, k: string, v: string): void {
  if (o[k] === undefined || o[k] === null || o[k] === '') o[k] = v;
}
/** The object at o[k], created when absent (a Go struct field that is never nil). */
export function child(o: Record<string, Loose>, k: string): Record<string, Loose> {
  if (!isObj(o[k])) o[k] = {};
  return o[k] as Record<string, Loose>;
}
/** Each object element of the array at o[k]. */
export function each(o: Record<string, Loose>, k: string, f: (x: Record<string, Loose>) => void): void {
  for (const x of arr(o[k])) if (isObj(x)) f(x);
}
