// Round trips: a selector printed and parsed again is the same selector, for
// label and field selectors; and the label parser never throws on any input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldSelectorToString, matchesFields, parseFieldSelector, type FieldTerm } from './fields';
import { addRequirements, everything, lex, matches, newRequirement, parse, toString, type Operator, type Requirement } from './labels';

const alnum = fc.constantFrom(...'abcxyzAZ019'.split(''));
const inner = fc.constantFrom(...'abz09-_.'.split(''));
/** A qualified-name part or label value: alphanumeric ends, [-_.] inside. */
const namePart = fc.tuple(alnum, fc.array(inner, { maxLength: 5 }), alnum, fc.boolean()).map(([a, mid, z, short]) => (short ? a : a + mid.join('') + z));
const dnsLabel = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,4}[a-z0-9])?$/);
const prefix = fc.array(dnsLabel, { minLength: 1, maxLength: 3 }).map((ls) => ls.join('.'));
const key = fc.oneof(
  namePart,
  fc.tuple(prefix, namePart).map(([p, n]) => `${p}/${n}`),
  fc.constantFrom('in', 'notin'),
);
const value = fc.oneof(fc.constant(''), namePart, fc.constantFrom('in', 'notin'));
const intValue = fc.nat({ max: 100000 }).map(String);

const requirement: fc.Arbitrary<Requirement> = fc
  .oneof(
    fc.tuple(key, fc.constantFrom<Operator>('=', '==', '!='), value).map(([k, op, v]) => [k, op, [v]] as const),
    fc
      .tuple(key, fc.constantFrom<Operator>('in', 'notin'), fc.uniqueArray(value, { minLength: 1, maxLength: 4 }))
      .map(([k, op, vs]) => [k, op, [...vs].sort()] as const),
    fc.tuple(key, fc.constantFrom<Operator>('exists', '!')).map(([k, op]) => [k, op, []] as const),
    fc.tuple(key, fc.constantFrom<Operator>('gt', 'lt'), intValue).map(([k, op, v]) => [k, op, [v]] as const),
  )
  .map(([k, op, vs]) => {
    const r = newRequirement(k, op, vs);
    if (!r.ok) throw new Error(`generator made an invalid requirement: ${r.error}`);
    return r.requirement;
  });

describe('label selectors', () => {
  it('parse(toString(s)) is s', () => {
    fc.assert(
      fc.property(fc.array(requirement, { maxLength: 6 }), (reqs) => {
        const sel = addRequirements(everything(), ...reqs);
        const back = parse(toString(sel));
        expect(back).toEqual({ ok: true, selector: sel });
      }),
      { numRuns: 500 },
    );
  });

  it('on arbitrary token soup the parser answers a value, and what it accepts reprints stably', () => {
    const piece = fc.constantFrom('x', 'y', 'a.b/c', 'in', 'notin', '(', ')', ',', '=', '==', '!=', '!', ' ', 'v', '1', '>', '<', '-', '\t', '||');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const s = pieces.join('');
        expect(lex(s).at(-1)?.tok).toBe('EndOfStringToken');
        const r = parse(s);
        if (!r.ok) return;
        const printed = toString(r.selector);
        const again = parse(printed);
        expect(again.ok).toBe(true);
        if (again.ok) expect(toString(again.selector)).toBe(printed);
      }),
      { numRuns: 1000 },
    );
  });

  it('a reparsed selector matches the same label sets', () => {
    const labels = fc.dictionary(fc.constantFrom('a', 'b', 'in', 'x.y/z'), fc.constantFrom('', 'a', '1', '22', 'in'));
    fc.assert(
      fc.property(fc.array(requirement, { maxLength: 4 }), labels, (reqs, ls) => {
        const sel = addRequirements(everything(), ...reqs);
        const back = parse(toString(sel));
        expect(back.ok && matches(back.selector, ls)).toBe(matches(sel, ls));
      }),
      { numRuns: 500 },
    );
  });
});

describe('field selectors', () => {
  // Field names are not escaped upstream, so they avoid the operator and escape characters.
  const field = fc.stringMatching(/^[a-zA-Z0-9.]{1,8}$/);
  const anyValue = fc.string({ maxLength: 8, unit: fc.constantFrom('a', 'b', '=', ',', '\\', '!', ' ', 'é') });
  const term: fc.Arbitrary<FieldTerm> = fc
    .tuple(fc.boolean(), field, anyValue)
    .map(([eq, f, v]) => (eq ? { type: 'hasTerm', field: f, value: v } : { type: 'notHasTerm', field: f, value: v }));

  it('parse(toString(s)) gives back the same terms, sorted by their printed form', () => {
    fc.assert(
      fc.property(fc.array(term, { maxLength: 5 }), (terms) => {
        const printed = fieldSelectorToString({ terms });
        const back = parseFieldSelector(printed);
        expect(back.ok).toBe(true);
        if (!back.ok) return;
        const key = (t: FieldTerm) => fieldSelectorToString({ terms: [t] });
        const sorted = [...terms].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
        expect(back.selector.terms).toEqual(sorted);
      }),
      { numRuns: 500 },
    );
  });

  it('matching does not depend on term order', () => {
    const fields = fc.dictionary(fc.constantFrom('a', 'b', 'c'), anyValue);
    const smallTerm = fc
      .tuple(fc.boolean(), fc.constantFrom('a', 'b', 'c'), anyValue)
      .map(([eq, f, v]): FieldTerm => (eq ? { type: 'hasTerm', field: f, value: v } : { type: 'notHasTerm', field: f, value: v }));
    fc.assert(
      fc.property(fc.array(smallTerm, { maxLength: 4 }), fields, (terms, fs) => {
        expect(matchesFields({ terms: [...terms].reverse() }, fs)).toBe(matchesFields({ terms }, fs));
      }),
    );
  });
});
