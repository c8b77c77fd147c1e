// sameStored against the naive definition: equal sorted-key JSON texts once
// resourceVersion, managedFields, apiVersion and kind are set aside.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sameStored } from './chain';
import type { KObject } from '../../apimachinery/types';

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

function naive(a: KObject, b: KObject): boolean {
  const strip = (o: KObject) => {
    const { resourceVersion: _rv, managedFields: _mf, ...meta } = o.metadata;
    const { apiVersion: _a, kind: _k, ...rest } = o;
    return stable({ ...rest, metadata: meta });
  };
  return strip(a) === strip(b);
}

const leaf = fc.oneof(fc.constantFrom('a', 'b', '', 0, 1, -1, 1.5, true, false, null, undefined));
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v').filter((x) => x !== undefined), { maxLength: 3 }), fc.dictionary(fc.constantFrom('x', 'y', 'z'), tie('v'), { maxKeys: 3 })),
})).v;
const object = fc.record({
  apiVersion: fc.constantFrom('v1', 'apps/v1'),
  kind: fc.constantFrom('Pod', 'Lease'),
  metadata: fc.record({ name: fc.constantFrom('a', 'b'), resourceVersion: fc.constantFrom('1', '2'), labels: fc.option(fc.dictionary(fc.constantFrom('x', 'y'), fc.constantFrom('1', '2'), { maxKeys: 2 })), managedFields: fc.option(fc.constant([{ manager: 'm' }])) }),
  spec: value,
  status: fc.option(value),
}) as fc.Arbitrary<unknown> as fc.Arbitrary<KObject>;

/** The same object with its keys in another order. */
function reordered(o: unknown): unknown {
  if (Array.isArray(o)) return o.map(reordered);
  if (o && typeof o === 'object') return Object.fromEntries(Object.entries(o).reverse().map(([k, v]) => [k, reordered(v)]));
  return o;
}

describe('sameStored', () => {
  it('agrees with comparing sorted-key JSON texts', () => {
    fc.assert(
      fc.property(object, object, (a, b) => {
        expect(sameStored(a, b)).toBe(naive(a, b));
        expect(sameStored(a, reordered(a) as KObject)).toBe(true);
        expect(sameStored(a, JSON.parse(JSON.stringify(a)) as KObject)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
