// --sort-by comparisons (kubectl get/sorter.go isLess) with
// github.com/fvbommel/sortorder NaturalLess for strings.
import { parseQuantity } from '../util/quantity';

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** sortorder.NaturalLess: digit runs compare as numbers, digits sort before other characters. */
export function naturalLess(s1: string, s2: string): boolean {
  let i1 = 0;
  let i2 = 0;
  while (i1 < s1.length && i2 < s2.length) {
    const c1 = s1[i1]!;
    const c2 = s2[i2]!;
    const d1 = isDigit(c1);
    const d2 = isDigit(c2);
    if (d1 !== d2) return d1;
    if (!d1) {
      if (c1 !== c2) return c1 < c2;
      i1++;
      i2++;
      continue;
    }
    while (i1 < s1.length && s1[i1] === '0') i1++;
    while (i2 < s2.length && s2[i2] === '0') i2++;
    const nz1 = i1;
    const nz2 = i2;
    while (i1 < s1.length && isDigit(s1[i1])) i1++;
    while (i2 < s2.length && isDigit(s2[i2])) i2++;
    if (i1 - nz1 !== i2 - nz2) return i1 - nz1 < i2 - nz2;
    const n1 = s1.slice(nz1, i1);
    const n2 = s2.slice(nz2, i2);
    if (n1 !== n2) return n1 < n2;
    if (nz1 !== nz2) return nz1 < nz2;
  }
  return s1.length < s2.length;
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
    return naturalLess(a, b);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (!isLessValue(a[i], b[i])) return false;
    return true;
  }
  return false;
}
