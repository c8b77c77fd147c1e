// --sort-by comparisons (kubectl get/sorter.go isLess). kubectl 1.32 compares
// strings that are not both quantities byte-wise ("b10" < "b2",
// "10.244.1.10" < "10.244.1.2"), as the real binary does: its build has no
// natural-order sort (newer upstream sources call fvbommel/sortorder's
// NaturalLess there).
import { parseQuantity } from '../util/quantity';

/**
 * Go's string <: byte-wise over UTF-8, which is code point order (JS's < on
 * UTF-16 units differs above U+FFFF).
 */
export function goStringLess(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const cx = x[i]!.codePointAt(0)!;
    const cy = y[i]!.codePointAt(0)!;
    if (cx !== cy) return cx < cy;
  }
  return x.length < y.length;
}

/** isLess over JSON values as unstructured decoding holds them. */
export function isLessValue(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined) return !(b === null || b === undefined);
  if (b === null || b === undefined) return false;
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  if (typeof a === 'string' && typeof b === 'string') {
    const qa = parseQuantity(a);
    const qb = parseQuantity(b);
    if (qa !== undefined && qb !== undefined) return qa < qb;
    return goStringLess(a, b);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (!isLessValue(a[i], b[i])) return false;
    return true;
  }
  return false;
}
