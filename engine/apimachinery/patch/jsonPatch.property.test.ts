import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../types';
import { applyJsonPatch, createJsonPatch } from './jsonPatch';

// Any JSON, nulls included, with keys that need pointer escaping and keys that look like indices.
const key = fc.constantFrom('a', 'b', 'c', '0', '1', '-', '', 'x/y', 'm~n', '~1');
const leaf = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 2 }));
const { value } = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }) as fc.Arbitrary<JsonValue>,
  ),
}));
const object = fc.dictionary(key, value, { maxKeys: 5 }) as fc.Arbitrary<JsonObject>;

describe('json patch properties', () => {
  it('applyJsonPatch(a, createJsonPatch(a, b)) equals b', () => {
    fc.assert(
      fc.property(object, object, (a, b) => {
        expect(applyJsonPatch(a, createJsonPatch(a, b) as unknown as JsonValue)).toEqual({ ok: true, value: b });
      }),
      { numRuns: 400 },
    );
  });

  it('createJsonPatch is deterministic and empty for equal documents', () => {
    fc.assert(
      fc.property(object, object, (a, b) => {
        expect(createJsonPatch(a, b)).toEqual(createJsonPatch(structuredClone(a), structuredClone(b)));
        expect(createJsonPatch(a, structuredClone(a))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
