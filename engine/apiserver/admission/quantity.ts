// ResourceLists for admission (quota, LimitRanger): `{cpu: "100m", memory: "64Mi"}`
// parsed into resource.Quantity values of the one implementation in
// validation/quantity.ts, and the per-key sums and maxima upstream's
// quota helpers compute (k8s.io/apiserver/pkg/quota/v1/resources.go).
import { addQuantity, cmpQuantity, quantityOrNull, type Quantity } from '../validation/quantity';

/** A ResourceList parsed; unparsable entries are left out. */
export type ResourceList = Map<string, Quantity>;

export function parseResourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [k, raw] of Object.entries(v as Record<string, unknown>)) {
    const q = quantityOrNull(raw);
    if (q) out.set(k, q);
  }
  return out;
}

/** Adds b into a (a is changed); a key absent from a takes b's quantity and format. */
export function addInto(a: ResourceList, b: ResourceList): void {
  for (const [k, q] of b) {
    const cur = a.get(k);
    a.set(k, cur ? addQuantity(cur, q) : q);
  }
}

/** Per key, keeps the larger of a and b in a. */
export function maxInto(a: ResourceList, b: ResourceList): void {
  for (const [k, q] of b) {
    const cur = a.get(k);
    if (!cur || cmpQuantity(q, cur) > 0) a.set(k, q);
  }
}
