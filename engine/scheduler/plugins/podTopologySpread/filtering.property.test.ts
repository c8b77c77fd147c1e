// PreFilterExtensions against recomputation: after AddPod (RemovePod) of one
// pod, the counts and the global minimum equal a fresh PreFilter over the
// cluster with (without) that pod; so do the Filter verdicts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector, matches, type LabelSelector } from '../../../apimachinery/selectors/labels';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/api';
import { CycleState } from '../../framework/cycleState';
import { PodInfo } from '../../framework/podInfo';
import { PRE_FILTER_STATE_KEY, type PreFilterState } from './filtering';
import { countPodsMatchSelector } from './common';
import { PodTopologySpread } from './index';
import { barSelector, fooSelector, handleFor, node, nodeAffinity, pod, snapshot, spread, taints } from './testHelpers';

type ArbValue<A> = A extends fc.Arbitrary<infer T> ? T : never;

const nodeArb = fc.record({
  zone: fc.option(fc.constantFrom('z1', 'z2', 'z3'), { nil: undefined }),
  hasNodeLabel: fc.boolean(),
  tainted: fc.boolean(),
  foo: fc.boolean(),
});
const podArb = fc.record({ node: fc.nat(5), foo: fc.boolean(), bar: fc.boolean(), otherNs: fc.boolean() });
const constraintArb = fc.record({
  key: fc.constantFrom('zone', 'node'),
  sel: fc.constantFrom(fooSelector, barSelector),
  minDomains: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  affinity: fc.option(fc.constantFrom('Honor' as const, 'Ignore' as const), { nil: undefined }),
  taintsPolicy: fc.option(fc.constantFrom('Honor' as const, 'Ignore' as const), { nil: undefined }),
});

function build(nodesSpec: ArbValue<typeof nodeArb>[]): Node[] {
  return nodesSpec.map((n, i) =>
    node(`n${i}`, { ...(n.zone ? { zone: n.zone } : {}), ...(n.hasNodeLabel ? { node: `n${i}` } : {}), ...(n.foo ? { foo: '' } : {}) }, n.tainted ? taints : undefined),
  );
}

function existing(spec: ArbValue<typeof podArb>, i: number, nodeCount: number): Pod {
  const labels: Record<string, string> = {};
  if (spec.foo) labels.foo = '';
  if (spec.bar) labels.bar = '';
  return pod(`e${i}`, { node: `n${spec.node % nodeCount}`, labels, ns: spec.otherNs ? 'other' : 'default' });
}

function stateAfter(pods: Pod[], nodes: Node[], incoming: Pod): { pl: PodTopologySpread; cs: CycleState; infos: ReturnType<typeof snapshot> } {
  const infos = snapshot(pods, nodes);
  const pl = new PodTopologySpread({ defaultingType: 'List' }, handleFor(infos));
  const cs = new CycleState();
  expect(pl.preFilter(cs, incoming, infos).status).toBeNull();
  return { pl, cs, infos };
}

const view = (s: PreFilterState) => ({
  tp: s.tpValueToMatchNum.map((m) => Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)))),
  min: s.constraints.map((c, i) => s.minMatchNum(i, c.minDomains)),
});

describe('PodTopologySpread AddPod/RemovePod = recomputation', () => {
  it('holds for random clusters', () => {
    fc.assert(
      fc.property(
        fc.array(nodeArb, { minLength: 1, maxLength: 6 }),
        fc.array(podArb, { maxLength: 10 }),
        podArb,
        fc.array(constraintArb, { minLength: 1, maxLength: 2 }),
        fc.boolean(),
        fc.boolean(),
        (nodesSpec, podsSpec, extraSpec, cons, useAffinity, remove) => {
          const nodes = build(nodesSpec);
          const pods = podsSpec.map((s, i) => existing(s, i, nodes.length));
          const extra = existing(extraSpec, 99, nodes.length);
          const constraints: TopologySpreadConstraint[] = cons.map((c) => spread(1, c.key, 'DoNotSchedule', c.sel, c.minDomains, c.affinity, c.taintsPolicy));
          const incoming = pod('in', { labels: { foo: '' }, spread: constraints, ...(useAffinity ? { affinity: nodeAffinity('foo', 'In', ['']) } : {}) });
          const without = stateAfter(pods, nodes, incoming);
          const withIt = stateAfter([...pods, extra], nodes, incoming);
          const [start, target] = remove ? [withIt, without] : [without, withIt];
          const ni = start.infos.find((n) => n.name === extra.spec.nodeName)!;
          const pi = new PodInfo(extra);
          expect(remove ? start.pl.removePod(start.cs, incoming, pi, ni) : start.pl.addPod(start.cs, incoming, pi, ni)).toBeNull();
          const got = start.cs.read(PRE_FILTER_STATE_KEY)!;
          const want = target.cs.read(PRE_FILTER_STATE_KEY)!;
          // A removal may leave a domain at 0 where recomputation has it at 0 as well; additions never create domains.
          expect(view(got)).toEqual(view(want));
          const verdicts = (x: typeof start) => x.infos.map((n) => x.pl.filter(x.cs, incoming, n)?.code ?? 'Success');
          expect(verdicts(start)).toEqual(verdicts(target));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('countPodsMatchSelector', () => {
  it('equals a naive count with labels.matches (terminating and other-namespace pods excluded)', () => {
    const labelArb = fc.dictionary(fc.constantFrom('app', 'tier', 'constructor'), fc.constantFrom('', 'a', 'b'), { maxKeys: 3 });
    const selArb: fc.Arbitrary<LabelSelector | null> = fc.option(
      fc.oneof(
        fc.record({ matchLabels: labelArb }),
        fc.record({
          matchExpressions: fc.array(
            fc.record({ key: fc.constantFrom('app', 'tier'), operator: fc.constantFrom('In', 'NotIn'), values: fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 2 }) }),
            { maxLength: 2 },
          ),
        }),
      ),
      { nil: null },
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ labels: fc.option(labelArb, { nil: undefined }), ns: fc.constantFrom('default', 'x'), terminating: fc.boolean() }), { maxLength: 8 }),
        selArb,
        (specs, selSpec) => {
          const parsed = labelSelectorAsSelector(selSpec);
          if (!parsed.ok) return;
          const pods = specs.map((sp, i) => pod(`p${i}`, { node: 'n', labels: sp.labels, ns: sp.ns, terminating: sp.terminating }));
          const infos = snapshot(pods, [node('n')]);
          const naive = pods.filter((p) => !p.metadata.deletionTimestamp && p.metadata.namespace === 'default' && matches(parsed.selector, p.metadata.labels ?? {})).length;
          expect(countPodsMatchSelector(infos[0]!.pods, parsed.selector, 'default')).toBe(naive);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
