// Ports of scoring_test.go (v1.32): TestPreferredAffinity,
// TestPreferredAffinityWithHardPodAffinitySymmetricWeight.
import { describe, expect, it } from 'vitest';
import type { Affinity, Node, Pod } from '../../framework/api';
import { CycleState } from '../../framework/cycleState';
import type { NodeScore } from '../../framework/interface';
import { InterPodAffinity } from './index';
import { existsSel, handleFor, inSel, node, notInSel, pod, preferred, required, snapshot, term, weighted } from './testHelpers';

const MAX = 100;
const china = { region: 'China' };
const india = { region: 'India' };
const az1 = { az: 'az1' };
const az2 = { az: 'az2' };
const chinaAz1 = { region: 'China', az: 'az1' };
const s1 = { security: 'S1' };
const s2 = { security: 'S2' };
const teamSel = { matchExpressions: [{ key: 'team', operator: 'In', values: ['team1'] }] };

const stayWithS1InRegion = preferred([weighted(5, term(inSel('security', ['S1']), 'region'))]);
const stayWithS2InRegion = preferred([weighted(6, term(inSel('security', ['S2']), 'region'))]);
const affinity3 = preferred([
  weighted(8, term({ matchExpressions: [{ key: 'security', operator: 'NotIn', values: ['S1'] }, { key: 'security', operator: 'In', values: ['S2'] }] }, 'region')),
  weighted(2, term({ matchExpressions: [{ key: 'security', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }] }, 'region')),
]);
const hardAffinity = required([
  term(inSel('security', ['S1', 'value2']), 'region'),
  term({ matchExpressions: [{ key: 'security', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }] }, 'region'),
]);
const awayFromS1InAz = preferred([], [weighted(5, term(inSel('security', ['S1']), 'az'))]);
const awayFromS2InAz = preferred([], [weighted(5, term(inSel('security', ['S2']), 'az'))]);
const stayWithS1InRegionAwayFromS2InAz: Affinity = {
  podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(8, term(inSel('security', ['S1']), 'region'))] },
  podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term(inSel('security', ['S2']), 'az'))] },
};
const nsSelTerm = term(inSel('security', ['S1']), 'region', { namespaces: ['subteam2.team2'], namespaceSelector: teamSel });
const affinityNamespaceSelector = preferred([weighted(5, nsSelTerm)]);
const antiAffinityNamespaceSelector = preferred([], [weighted(5, nsSelTerm)]);
const invalidAffinityLabels = preferred([weighted(8, term(inSel('security', ['{{.bad-value.}}']), 'region'))]);
const invalidAntiAffinityLabels = preferred([], [weighted(5, term(inSel('security', ['{{.bad-value.}}']), 'az'))]);

const on = (nodeName: string, labels?: Record<string, string>, affinity?: Affinity, ns?: string) => pod({ node: nodeName, labels, affinity, ns });

function run(tc: { pod: Pod; pods?: Pod[]; nodes: Node[]; hardPodAffinityWeight?: number; ignorePreferredTermsOfExistingPods?: boolean }) {
  const infos = snapshot(tc.pods ?? [], tc.nodes);
  const pl = new InterPodAffinity(
    { hardPodAffinityWeight: tc.hardPodAffinityWeight ?? 1, ignorePreferredTermsOfExistingPods: tc.ignorePreferredTermsOfExistingPods ?? false },
    handleFor(infos),
  );
  const cs = new CycleState();
  const status = pl.preScore(cs, tc.pod, infos);
  if (status) return { status };
  const scores: NodeScore[] = infos.map((ni) => ({ name: ni.name, score: pl.score(cs, tc.pod, ni) as number }));
  expect(pl.normalizeScore(cs, tc.pod, scores)).toBeNull();
  return { scores: scores.map((s) => s.score) };
}

describe('InterPodAffinity scoring (TestPreferredAffinity)', () => {
  const cases: {
    name: string;
    pod: Pod;
    pods?: Pod[];
    nodes: Node[];
    want?: number[];
    wantStatus?: { code: string; contains?: string };
    ignorePreferredTermsOfExistingPods?: boolean;
  }[] = [
    {
      name: 'all nodes are same priority as Affinity is nil',
      pod: pod({ labels: s1 }),
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      wantStatus: { code: 'Skip' },
    },
    {
      name: "Affinity: pod that matches topology key & pods in nodes will get high score comparing to otherswhich doesn't match either pods in nodes or in topology key",
      pod: pod({ labels: s1, affinity: stayWithS1InRegion }),
      pods: [on('node1', s1), on('node2', s2), on('node3', s1)],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [MAX, 0, 0],
    },
    {
      name: 'All the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules, have the same score',
      pod: pod({ affinity: stayWithS1InRegion }),
      pods: [on('node1', s1)],
      nodes: [node('node1', china), node('node2', chinaAz1), node('node3', india)],
      want: [MAX, MAX, 0],
    },
    {
      name: 'Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more matches will get high score',
      pod: pod({ labels: s1, affinity: stayWithS2InRegion }),
      pods: [on('node1', s2), on('node1', s2), on('node2', s2), on('node3', s2), on('node4', s2), on('node5', s2)],
      nodes: [node('node1', china), node('node2', india), node('node3', china), node('node4', china), node('node5', india)],
      want: [MAX, 0, MAX, MAX, 0],
    },
    {
      name: 'Affinity: different Label operators and values for pod affinity scheduling preference, including some match failures ',
      pod: pod({ labels: s1, affinity: affinity3 }),
      pods: [on('node1', s1), on('node2', s2), on('node3', s1)],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [20, MAX, 0],
    },
    {
      name: 'Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry',
      pod: pod({ labels: s2 }),
      pods: [on('node1', s1, stayWithS1InRegion), on('node2', s2, stayWithS2InRegion)],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [0, MAX, 0],
    },
    {
      name: 'Affinity symmetry with namespace selector',
      pod: pod({ ns: 'subteam1.team1', labels: s1 }),
      pods: [on('node1', s1, affinityNamespaceSelector), on('node2', s2, stayWithS2InRegion)],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [MAX, 0, 0],
    },
    {
      name: 'AntiAffinity symmetry with namespace selector',
      pod: pod({ ns: 'subteam1.team1', labels: s1 }),
      pods: [on('node1', s1, antiAffinityNamespaceSelector), on('node2', s2, stayWithS2InRegion)],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [0, MAX, MAX],
    },
    {
      name: 'Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry',
      pod: pod({ labels: s1 }),
      pods: [on('node1', s1, hardAffinity), on('node2', s2, hardAffinity)],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [MAX, MAX, 0],
    },
    {
      name: 'Anti Affinity: pod that does not match existing pods in node will get high score ',
      pod: pod({ labels: s1, affinity: awayFromS1InAz }),
      pods: [on('node1', s1), on('node2', s2)],
      nodes: [node('node1', az1), node('node2', china)],
      want: [0, MAX],
    },
    {
      name: 'Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others ',
      pod: pod({ labels: s1, affinity: awayFromS1InAz }),
      pods: [on('node1', s1), on('node2', s1)],
      nodes: [node('node1', az1), node('node2', china)],
      want: [0, MAX],
    },
    {
      name: 'Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches will get high score',
      pod: pod({ labels: s1, affinity: awayFromS1InAz }),
      pods: [on('node1', s1), on('node1', s1), on('node2', s2)],
      nodes: [node('node1', az1), node('node2', india)],
      want: [0, MAX],
    },
    {
      name: 'Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score',
      pod: pod({ labels: s2 }),
      pods: [on('node1', s1, awayFromS2InAz), on('node2', s2, awayFromS1InAz)],
      nodes: [node('node1', az1), node('node2', az2)],
      want: [0, MAX],
    },
    {
      name: 'Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity',
      pod: pod({ labels: s1, affinity: stayWithS1InRegionAwayFromS2InAz }),
      pods: [on('node1', s1), on('node2', s1)],
      nodes: [node('node1', china), node('node2', az1)],
      want: [MAX, 0],
    },
    {
      name: 'Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels',
      pod: pod({ labels: s1, affinity: stayWithS1InRegionAwayFromS2InAz }),
      pods: [on('node1', s1), on('node1', s1), on('node2', s1), on('node3', s1), on('node3', s1), on('node4', s1), on('node5', s1)],
      nodes: [node('node1', chinaAz1), node('node2', india), node('node3', china), node('node4', china), node('node5', india)],
      want: [MAX, 0, MAX, MAX, 0],
    },
    {
      // Weights: affinity 8,0,0,0; anti-affinity 0,-5,0,0; affinity symmetry 0,0,8,0; anti-affinity symmetry 0,0,0,-5.
      name: 'Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry',
      pod: pod({ labels: s1, affinity: stayWithS1InRegionAwayFromS2InAz }),
      pods: [on('node1', s1), on('node2', s2), on('node3', undefined, stayWithS1InRegionAwayFromS2InAz), on('node4', undefined, awayFromS1InAz)],
      nodes: [node('node1', china), node('node2', az1), node('node3', india), node('node4', az2)],
      want: [MAX, 0, MAX, 0],
    },
    {
      // kubernetes#82796: some nodes of a topology have pods with affinity, others not; the incoming pod has none.
      name: "Avoid panic when partial nodes in a topology don't have pods with affinity",
      pod: pod({ labels: s1 }),
      pods: [on('node1', s1), on('node2', undefined, stayWithS1InRegionAwayFromS2InAz)],
      nodes: [node('node1', china), node('node2', china)],
      want: [0, 0],
    },
    {
      name: 'invalid Affinity fails PreScore',
      pod: pod({ affinity: invalidAffinityLabels }),
      nodes: [node('node1', china), node('node2', china)],
      wantStatus: { code: 'Error', contains: 'Invalid value: "{{.bad-value.}}"' },
    },
    {
      name: 'invalid AntiAffinity fails PreScore',
      pod: pod({ affinity: invalidAntiAffinityLabels }),
      nodes: [node('node1', china), node('node2', china)],
      wantStatus: { code: 'Error', contains: 'Invalid value: "{{.bad-value.}}"' },
    },
    {
      name: 'Affinity with pods matching NamespaceSelector',
      pod: pod({ ns: 'subteam1.team1', labels: s1, affinity: affinityNamespaceSelector }),
      pods: [on('node1', s1, undefined, 'subteam1.team1'), on('node1', s1, undefined, 'subteam1.team1'), on('node1', s1, undefined, 'subteam1.team2'), on('node2', s1, undefined, 'subteam2.team1')],
      nodes: [node('node1', china), node('node2', india)],
      want: [MAX, 0],
    },
    {
      name: 'Affinity with pods matching both NamespaceSelector and Namespaces fields',
      pod: pod({ ns: 'subteam1.team1', labels: s1, affinity: affinityNamespaceSelector }),
      pods: [on('node1', s1, undefined, 'subteam1.team1'), on('node1', s1, undefined, 'subteam1.team1'), on('node1', s1, undefined, 'subteam2.team2'), on('node2', s1, undefined, 'subteam2.team1')],
      nodes: [node('node1', china), node('node2', india)],
      want: [MAX, 0],
    },
    {
      name: 'AntiAffinity with pods matching NamespaceSelector',
      pod: pod({ ns: 'subteam1.team1', labels: s1, affinity: antiAffinityNamespaceSelector }),
      pods: [on('node1', s1, undefined, 'subteam1.team1'), on('node1', s1, undefined, 'subteam1.team1'), on('node1', s1, undefined, 'subteam1.team2'), on('node2', s1, undefined, 'subteam2.team1')],
      nodes: [node('node1', china), node('node2', india)],
      want: [0, MAX],
    },
    {
      name: 'AntiAffinity with pods matching both NamespaceSelector and Namespaces fields',
      pod: pod({ ns: 'subteam1.team1', labels: s1, affinity: antiAffinityNamespaceSelector }),
      pods: [on('node1', s1, undefined, 'subteam1.team1'), on('node1', s1, undefined, 'subteam1.team1'), on('node1', s1, undefined, 'subteam2.team2'), on('node2', s1, undefined, 'subteam2.team1')],
      nodes: [node('node1', china), node('node2', india)],
      want: [0, MAX],
    },
    {
      name: 'Ignore preferred terms of existing pods',
      pod: pod({ labels: s2 }),
      pods: [on('node1', s1, stayWithS1InRegionAwayFromS2InAz), on('node2', s2, stayWithS2InRegion)],
      nodes: [node('node1', china), node('node2', india)],
      wantStatus: { code: 'Skip' },
      ignorePreferredTermsOfExistingPods: true,
    },
    {
      name: 'Do not ignore preferred terms of existing pods',
      pod: pod({ labels: s2 }),
      pods: [on('node1', s1, stayWithS1InRegionAwayFromS2InAz), on('node2', s2, stayWithS2InRegion)],
      nodes: [node('node1', china), node('node2', india)],
      want: [0, MAX],
    },
    { name: 'No nodes to score', pod: pod({ labels: s2 }), nodes: [], wantStatus: { code: 'Skip' } },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      const got = run(tc);
      if (tc.wantStatus) {
        expect(got.status?.code).toBe(tc.wantStatus.code);
        if (tc.wantStatus.contains) expect(got.status?.reasons.join(', ')).toContain(tc.wantStatus.contains);
        return;
      }
      expect(got.status).toBeUndefined();
      expect(got.scores).toEqual(tc.want);
    });
  }

  it('the PreScore error names the term list, as NewPodInfo does', () => {
    expect(run({ pod: pod({ affinity: invalidAntiAffinityLabels }), nodes: [node('node1', china)] }).status?.reasons[0]).toMatch(
      /^failed to parse pod: preferredAntiAffinityTerms: values\[0\]\[security\]: Invalid value: "\{\{\.bad-value\.\}\}"/,
    );
  });

  it('Score/NormalizeScore without PreScore are Errors', () => {
    const infos = snapshot([], [node('n1', china)]);
    const pl = new InterPodAffinity({ hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false }, handleFor(infos));
    const msg = 'failed to read "PreScoreInterPodAffinity" from cycleState: not found';
    expect(pl.score(new CycleState(), pod(), infos[0]!)).toEqual({ code: 'Error', reasons: [msg] });
    expect(pl.normalizeScore(new CycleState(), pod(), [])).toEqual({ code: 'Error', reasons: [msg] });
  });

  it('NormalizeScore is min-max with Go truncation', () => {
    const infos = snapshot([on('n1', s1)], [node('n1', china)]);
    const pl = new InterPodAffinity({ hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false }, handleFor(infos));
    const cs = new CycleState();
    expect(pl.preScore(cs, pod({ affinity: stayWithS1InRegion }), infos)).toBeNull();
    // (1 - -5) / 7 * 100 = 85.7 → 85.
    const scores = [
      { name: 'a', score: -5 },
      { name: 'b', score: 1 },
      { name: 'c', score: 2 },
    ];
    expect(pl.normalizeScore(cs, pod(), scores)).toBeNull();
    expect(scores.map((x) => x.score)).toEqual([0, 85, 100]);
  });
});

describe('InterPodAffinity scoring (TestPreferredAffinityWithHardPodAffinitySymmetricWeight)', () => {
  const serviceS1 = { service: 'S1' };
  const hardPodAffinity = required([term(inSel('service', ['S1']), 'region', { namespaces: ['', 'subteam2.team2'], namespaceSelector: teamSel })]);
  const nodes = () => [node('node1', china), node('node2', india), node('node3', az1)];
  const existing = () => [on('node1', undefined, hardPodAffinity), on('node2', undefined, hardPodAffinity)];
  const cases: { name: string; pod: Pod; weight: number; want?: number[]; skip?: boolean }[] = [
    { name: 'with default weight', pod: pod({ labels: serviceS1 }), weight: 1, want: [MAX, MAX, 0] },
    { name: 'with zero weight', pod: pod({ labels: serviceS1 }), weight: 0, skip: true },
    { name: 'with no matching namespace', pod: pod({ ns: 'subteam1.team2', labels: serviceS1 }), weight: 1, skip: true },
    { name: 'with matching NamespaceSelector', pod: pod({ ns: 'subteam1.team1', labels: serviceS1 }), weight: 1, want: [MAX, MAX, 0] },
    { name: 'with matching Namespaces', pod: pod({ ns: 'subteam2.team2', labels: serviceS1 }), weight: 1, want: [MAX, MAX, 0] },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const got = run({ pod: tc.pod, pods: existing(), nodes: nodes(), hardPodAffinityWeight: tc.weight });
      if (tc.skip) {
        expect(got.status?.code).toBe('Skip');
        return;
      }
      expect(got.scores).toEqual(tc.want);
    });
  }

  it('the raw score sums the weights of the node’s topology pairs', () => {
    const infos = snapshot(existing(), nodes());
    const pl = new InterPodAffinity({ hardPodAffinityWeight: 7, ignorePreferredTermsOfExistingPods: false }, handleFor(infos));
    const cs = new CycleState();
    const incoming = pod({ labels: serviceS1, affinity: preferred([weighted(3, term(existsSel('none'), 'region'))], [weighted(2, term(notInSel('x', ['y']), 'az'))]) });
    expect(pl.preScore(cs, incoming, infos)).toBeNull();
    // region=China: +7 (node1's hard affinity); region=India: +7; the anti term matches the existing pods (no x label) but their nodes have no az.
    expect(infos.map((ni) => pl.score(cs, incoming, ni))).toEqual([7, 7, 0]);
  });
});
