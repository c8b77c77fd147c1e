// The fast matchers equal the framework's: termMatches vs affinityTermMatches,
// selectorMatches vs labels.matches, on random label sets and selectors
// (including keys that are Object.prototype members).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector, matches, type LabelSelector } from '../../../apimachinery/selectors/labels';
import type { AffinityTerm } from '../../framework/podInfo';
import { selectorMatches } from '../podTopologySpread/common';
import { referenceTermMatches, termMatches } from './terms';
import { pod } from './testHelpers';

const keys = ['app', 'tier', 'constructor', 'toString', 'team', 'k8s.io/zone'];
const values = ['', 'a', 'b', 'web'];
const labelsArb = fc.dictionary(fc.constantFrom(...keys), fc.constantFrom(...values), { maxKeys: 4 });
const exprArb = fc.record({
  key: fc.constantFrom(...keys),
  operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
  values: fc.array(fc.constantFrom(...values), { minLength: 1, maxLength: 3 }),
});
const selectorArb: fc.Arbitrary<LabelSelector | null> = fc.option(
  fc.record({ matchLabels: fc.option(labelsArb, { nil: undefined }), matchExpressions: fc.option(fc.array(exprArb, { maxLength: 3 }), { nil: undefined }) }),
  { nil: null },
);

function parse(sel: LabelSelector | null) {
  const fixed = sel && {
    ...sel,
    matchExpressions: sel.matchExpressions?.map((e) => (e.operator === 'Exists' || e.operator === 'DoesNotExist' ? { key: e.key, operator: e.operator } : e)),
  };
  const r = labelSelectorAsSelector(fixed);
  return r.ok ? r.selector : undefined;
}

describe('fast matchers', () => {
  it('selectorMatches equals labels.matches', () => {
    fc.assert(
      fc.property(selectorArb, labelsArb, (sel, labels) => {
        const s = parse(sel);
        if (!s) return;
        expect(selectorMatches(s, labels)).toBe(matches(s, labels));
      }),
      { numRuns: 2000 },
    );
  });

  it('termMatches equals affinityTermMatches (given namespace labels)', () => {
    fc.assert(
      fc.property(
        selectorArb,
        selectorArb,
        fc.array(fc.constantFrom('ns1', 'ns2', ''), { maxLength: 2 }),
        fc.constantFrom('ns1', 'ns2', ''),
        labelsArb,
        labelsArb,
        (sel, nsSel, namespaces, ns, podLabels, nsLabels) => {
          const s = parse(sel);
          const n = parse(nsSel);
          if (!s || !n) return;
          const term: AffinityTerm = { namespaces, selector: s, topologyKey: 'zone', namespaceSelector: n };
          const p = pod({ ns, labels: podLabels });
          expect(termMatches(term, p, nsLabels)).toBe(referenceTermMatches(term, p, nsLabels));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
