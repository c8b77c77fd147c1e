import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeAs, decodePlainAs } from './fieldCheck';
import { treeOf } from './jsonTree';
import { definitionForKind } from './spec';

// decodePlainAs walks a plain value directly; it must report exactly what the
// tree decoder reports for the same value as a tree.
const lease = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'n1', namespace: 'kube-node-lease', resourceVersion: '7', ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u' }] },
  spec: { holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime: '2026-01-01T00:00:00.000000Z' },
};
const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { a: 'b' }, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }], resources: { requests: { cpu: '100m' } } }], nodeName: 'n1' },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: null }] },
};

const anyValue = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constantFrom('100m', '1Gi', 'x1', '2026-01-01T00:00:00Z', 'YWRtaW4=', 'admin', 2 ** 40, 1.5, 1e21, -0),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(undefined)), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', 'name', 'cpu', 'x', '__proto__'), fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxKeys: 3 }),
);

/** Sets `value` at a path of existing (or new) keys inside a copy of `base`. */
function mutate(base: unknown, path: (string | number)[], value: unknown): unknown {
  const root = structuredClone(base) as Record<string, unknown>;
  let cur: Record<string, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) {
    const keys = Object.keys(cur);
    if (keys.length === 0) break;
    const k = keys[Number(path[i]) % keys.length]!;
    const next = cur[k];
    if (typeof next !== 'object' || next === null) break;
    cur = next as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  const keys = Object.keys(cur);
  const k = typeof last === 'string' || keys.length === 0 ? String(last) : keys[last % keys.length]!;
  cur[k] = value;
  return root;
}

/** A deep copy keeping every own key as an own key (`__proto__` too) and undefined members. */
function ownClone(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(ownClone);
  if (typeof v !== 'object' || v === null) return v;
  const out = {};
  for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: ownClone((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return out;
}

/** A value's exact shape, undefined members and -0 included, as comparable data. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return ['[', ...v.map(shape)];
  if (v === undefined) return 'undefined';
  if (Object.is(v, -0)) return '-0';
  if (typeof v !== 'object' || v === null) return v;
  return ['{', ...Object.keys(v).map((k) => [k, shape((v as Record<string, unknown>)[k])])];
}

describe('decodePlainAs', () => {
  for (const [kind, base, def] of [
    ['Lease', lease, definitionForKind('coordination.k8s.io', 'v1', 'Lease')!],
    ['Pod', pod, definitionForKind('', 'v1', 'Pod')!],
  ] as const) {
    it(`reports what the tree decoder reports (${kind})`, () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.array(fc.nat(9), { minLength: 1, maxLength: 5 }), fc.oneof(fc.nat(9), fc.constantFrom('extra', 'spec', 'status', 'name')), anyValue), { maxLength: 4 }), (edits) => {
          let v: unknown = base;
          for (const [p, last, value] of edits) v = mutate(v, [...p, last], value);
          expect(decodePlainAs(def, v)).toEqual(decodeAs(def, treeOf(v), true));
        }),
        // A sparse array (a hole before "100m"): both read the hole as null, as JSON would carry it.
        {
          numRuns: 400,
          examples: [
            [[[[9, 0], 3, []], [[9, 3], 1, '100m']]],
            // a hole in an array copied as it is (no schema under it): null in both
            [[[[0], 'status', []], [[7], 5, 0], [[4], 1, null]]],
          ],
        },
      );
    });

    // An owned value is decoded in place: the same report, the value itself as
    // the result, and (when decoding fails) the value left as it came.
    it(`decodes an owned value in place to the same result (${kind})`, () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.array(fc.nat(9), { minLength: 1, maxLength: 5 }), fc.oneof(fc.nat(9), fc.constantFrom('extra', 'spec', 'status', 'name')), anyValue), { maxLength: 4 }), (edits) => {
          let v: unknown = base;
          for (const [p, last, value] of edits) v = mutate(v, [...p, last], value);
          const owned = ownClone(v);
          const copied = decodePlainAs(def, v);
          const inPlace = decodePlainAs(def, owned, true);
          expect(inPlace.error).toBe(copied.error);
          expect(inPlace.strict).toEqual(copied.strict);
          if (copied.error === undefined) {
            expect(inPlace.value).toBe(owned);
            expect(JSON.stringify(inPlace.value)).toBe(JSON.stringify(copied.value));
          } else {
            expect(shape(owned)).toEqual(shape(v));
          }
        }),
        { numRuns: 400 },
      );
    });
  }
});
