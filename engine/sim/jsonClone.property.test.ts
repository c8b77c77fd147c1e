// jsonRoundTrip must give exactly what JSON.parse(JSON.stringify(v)) gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonRoundTrip } from './jsonClone';

const viaJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/** Deep equality where numbers compare with Object.is (so -0 and 0 differ) and key order counts. */
function sameData(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join('\u0001') !== kb.join('\u0001')) return false;
  return ka.every((k) => sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// Plain data with the values JSON treats specially mixed in.
const oddLeaf = fc.constantFrom<unknown>(undefined, NaN, Infinity, -Infinity, -0, null, () => 1, '', 'a\u0000\ud800b');
const valueArb = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    oddLeaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('jsonRoundTrip', () => {
  it('equals a JSON round trip (key order included)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), valueArb, { maxKeys: 6 }), (v) => {
        const got = jsonRoundTrip(v);
        expect(JSON.stringify(got)).toBe(JSON.stringify(v));
        expect(got).toEqual(viaJson(v));
        expect(sameData(got, viaJson(v))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('copies: the result shares no object with the input', () => {
    const input = { a: { b: [1, { c: 2 }] }, d: undefined, e: -0, f: [undefined, NaN] };
    const out = jsonRoundTrip(input) as typeof input;
    expect(out).toEqual({ a: { b: [1, { c: 2 }] }, e: 0, f: [null, null] });
    expect('d' in out).toBe(false);
    expect(Object.is(out.e, 0)).toBe(true);
    expect(out.a).not.toBe(input.a);
    expect(out.a.b).not.toBe(input.a.b);
  });

  it('falls back to JSON for anything that is not plain data', () => {
    const at = new Date(0);
    const withToJson = { when: at, m: new Map([[1, 2]]), nested: [{ toJSON: () => 'x' }] };
    expect(jsonRoundTrip(withToJson)).toEqual(viaJson(withToJson));
    const proto = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as object;
    const out = jsonRoundTrip(proto);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out).toEqual(viaJson(proto));
  });
});
