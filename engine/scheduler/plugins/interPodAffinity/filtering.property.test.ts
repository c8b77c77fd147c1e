// PreFilterExtensions against recomputation (what upstream's
// TestPreFilterStateAddRemovePod checks on three clusters), on random ones:
// AddPod (RemovePod) of one pod gives the counts of a fresh PreFilter over the
// cluster with (without) it, and the same Filter verdicts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod, PodAffinityTerm } from '../../framework/api';
import { CycleState } from '../../framework/cycleState';
import { PodInfo } from '../../framework/podInfo';
import { PRE_FILTER_STATE_KEY, type PreFilterState } from './filtering';
import { InterPodAffinity } from './index';
import { existsSel, handleFor, node, pod, required, snapshot, term } from './testHelpers';

type ArbValue<A> = A extends fc.Arbitrary<infer T> ? T : never;

const termArb = fc.record({ key: fc.constantFrom('a', 'b'), tk: fc.constantFrom('zone', 'region', 'host') }).map((t): PodAffinityTerm => term(existsSel(t.key), t.tk));
const podArb = fc.record({
  node: fc.nat(4),
  a: fc.boolean(),
  b: fc.boolean(),
  ns: fc.constantFrom('', 'x'),
  affinity: fc.array(termArb, { maxLength: 2 }),
  anti: fc.array(termArb, { maxLength: 2 }),
});
const nodeArb = fc.record({ zone: fc.option(fc.constantFrom('z1', 'z2'), { nil: undefined }), region: fc.option(fc.constantFrom('r1'), { nil: undefined }), host: fc.boolean() });

function mkPod(s: ArbValue<typeof podArb>, name: string, nodeCount: number | undefined): Pod {
  const labels: Record<string, string> = {};
  if (s.a) labels.a = '';
  if (s.b) labels.b = '';
  return pod({ name, ns: s.ns, labels, node: nodeCount === undefined ? undefined : `n${s.node % nodeCount}`, affinity: required(s.affinity, s.anti) });
}

function prefilter(pods: Pod[], nodes: Node[], incoming: Pod) {
  const infos = snapshot(pods, nodes);
  const pl = new InterPodAffinity({ hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false }, handleFor(infos, []));
  const cs = new CycleState();
  const { status } = pl.preFilter(cs, incoming, infos);
  return { pl, cs, infos, skipped: status?.code === 'Skip' };
}

const view = (s: PreFilterState | undefined) =>
  s ? { existing: s.existingAntiAffinityCounts.toObject(), affinity: s.affinityCounts.toObject(), anti: s.antiAffinityCounts.toObject() } : { existing: {}, affinity: {}, anti: {} };

describe('InterPodAffinity AddPod/RemovePod = recomputation', () => {
  it('holds for random clusters', () => {
    fc.assert(
      fc.property(fc.array(nodeArb, { minLength: 1, maxLength: 4 }), fc.array(podArb, { maxLength: 8 }), podArb, podArb, fc.boolean(), (nodesSpec, podsSpec, extraSpec, inSpec, remove) => {
        const nodes = nodesSpec.map((n, i) => node(`n${i}`, { ...(n.zone ? { zone: n.zone } : {}), ...(n.region ? { region: n.region } : {}), ...(n.host ? { host: `n${i}` } : {}) }));
        const pods = podsSpec.map((s, i) => mkPod(s, `e${i}`, nodes.length));
        const extra = mkPod(extraSpec, 'extra', nodes.length);
        const incoming = mkPod(inSpec, 'incoming', undefined);
        const without = prefilter(pods, nodes, incoming);
        const withIt = prefilter([...pods, extra], nodes, incoming);
        const [start, target] = remove ? [withIt, without] : [without, withIt];
        // A Skip leaves no state to update; the what-if is then moot (upstream's framework skips the plugin).
        if (start.skipped) return;
        const ni = start.infos.find((n) => n.name === extra.spec.nodeName)!;
        const pi = new PodInfo(extra);
        expect(remove ? start.pl.removePod(start.cs, incoming, pi, ni) : start.pl.addPod(start.cs, incoming, pi, ni)).toBeNull();
        expect(view(start.cs.read(PRE_FILTER_STATE_KEY))).toEqual(view(target.cs.read(PRE_FILTER_STATE_KEY)));
        if (target.skipped) return;
        const verdicts = (x: typeof start) => x.infos.map((n) => x.pl.filter(x.cs, incoming, n)?.code ?? 'Success');
        expect(verdicts(start)).toEqual(verdicts(target));
      }),
      { numRuns: 500 },
    );
  });
});
