import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../types';
import { applyMergePatch, applyMergePatchV4, createMergePatch } from './jsonMergePatch';

// RFC 7386 appendix A: [original, patch, result].
const RFC_CASES: [JsonValue, JsonValue, JsonValue][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('applyMergePatch (RFC 7386)', () => {
  for (const [original, patch, result] of RFC_CASES) {
    it(`${JSON.stringify(original)} + ${JSON.stringify(patch)}`, () => {
      expect(applyMergePatch(original, patch)).toEqual(result);
    });
  }

  it('does not modify its inputs', () => {
    const original = { a: { b: 1 } };
    const patch = { a: { c: 2 } };
    applyMergePatch(original, patch);
    expect([original, patch]).toEqual([{ a: { b: 1 } }, { a: { c: 2 } }]);
  });
});

describe('applyMergePatchV4 (what the API server runs)', () => {
  it('agrees with the RFC on object patches of objects', () => {
    for (const [original, patch, result] of RFC_CASES) {
      if (original !== null && typeof original === 'object' && !Array.isArray(original) && patch !== null && typeof patch === 'object' && !Array.isArray(patch)) {
        expect(applyMergePatchV4(original, patch)).toEqual({ ok: true, value: result });
      }
    }
  });
  it('refuses null and scalar patches', () => {
    expect(applyMergePatchV4({ a: 'foo' }, null)).toEqual({ ok: false, error: 'Invalid JSON Patch' });
    expect(applyMergePatchV4({ a: 'foo' }, 'bar')).toEqual({ ok: false, error: 'Invalid JSON Patch' });
    expect(applyMergePatchV4(null, {})).toEqual({ ok: false, error: 'Invalid JSON Document' });
  });
  it('drops nulls from values it adds, inside arrays too', () => {
    expect(applyMergePatchV4({}, { a: [1, null, { b: null, c: 2 }] })).toEqual({ ok: true, value: { a: [1, { c: 2 }] } });
    expect(applyMergePatchV4({ a: 'x' }, { a: { b: null, c: 1 } })).toEqual({ ok: true, value: { a: { c: 1 } } });
  });
  it('an array patch replaces the document', () => {
    expect(applyMergePatchV4({ a: 1 }, [1, null])).toEqual({ ok: true, value: [1] });
  });
});

describe('createMergePatch', () => {
  it('keeps changed and added keys, nulls removed ones, replaces arrays, sorts keys', () => {
    const a = { keep: 1, change: { x: 1, y: [1, 2] }, drop: true, list: [1, 2] };
    const b = { keep: 1, change: { x: 2, y: [1, 2] }, list: [2], add: 'new' };
    const p = createMergePatch(a, b);
    expect(p).toEqual({ add: 'new', change: { x: 2 }, drop: null, list: [2] });
    expect(Object.keys(p as object)).toEqual(['add', 'change', 'drop', 'list']);
    expect(applyMergePatch(a, p)).toEqual(b);
  });
  it('is empty for equal objects', () => {
    expect(createMergePatch({ a: [{ b: 1 }] }, { a: [{ b: 1 }] })).toEqual({});
  });
});
