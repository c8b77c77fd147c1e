import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../types';
import { applyMergePatch, applyMergePatchV4, createMergePatch } from './jsonMergePatch';

// JSON without nulls (merge patches cannot set a member to null).
const key = fc.constantFrom('a', 'b', 'c', 'd', 'x/y', '~');
const leaf = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.string({ maxLength: 3 }));
const { value: nonNull } = fc.letrec<{ value: JsonValue; object: JsonObject }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 3 }), tie('object')),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4 }) as fc.Arbitrary<JsonObject>,
}));
const object = fc.dictionary(key, nonNull, { maxKeys: 5 }) as fc.Arbitrary<JsonObject>;

describe('merge patch properties', () => {
  it('applyMergePatch(a, createMergePatch(a, b)) equals b', () => {
    fc.assert(
      fc.property(object, object, (a, b) => {
        expect(applyMergePatch(a, createMergePatch(a, b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('the API server variant agrees on such patches', () => {
    fc.assert(
      fc.property(object, object, (a, b) => {
        expect(applyMergePatchV4(a, createMergePatch(a, b))).toEqual({ ok: true, value: b });
      }),
      { numRuns: 200 },
    );
  });
});
