// Ports of filtering_test.go (v1.32): TestRequiredAffinitySingleNode,
// TestRequiredAffinityMultipleNodes, TestPreFilterDisabled,
// TestPreFilterStateAddRemovePod, TestGetTPMapMatchingIncomingAffinityAntiAffinity.
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../../apimachinery/types';
import type { Node, Pod } from '../../framework/api';
import { CycleState } from '../../framework/cycleState';
import { PodInfo } from '../../framework/podInfo';
import type { Status } from '../../framework/status';
import { getIncomingAffinityAntiAffinityCounts, PRE_FILTER_STATE_KEY, type PreFilterState } from './filtering';
import { ERR_REASON_AFFINITY_RULES_NOT_MATCH, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH, InterPodAffinity } from './index';
import { parsePodTerms } from './terms';
import { existsSel, handleFor, inSel, namespace, namespaces, node, notInSel, pod, required, snapshot, term } from './testHelpers';

const AFF: Status = { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_AFFINITY_RULES_NOT_MATCH] };
const ANTI: Status = { code: 'Unschedulable', reasons: [ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH] };
const EXISTING: Status = { code: 'Unschedulable', reasons: [ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH] };

function setup(pods: Pod[], nodes: Node[], ns: KObject[] = namespaces) {
  const infos = snapshot(pods, nodes);
  return { pl: new InterPodAffinity({ hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false }, handleFor(infos, ns)), infos };
}

describe('InterPodAffinity Filter (TestRequiredAffinitySingleNode)', () => {
  const podLabel = { service: 'securityscan' };
  const podLabel2 = { security: 'S1' };
  const node1 = () => node('node1', { region: 'r1', zone: 'z11' });
  const existing = () => pod({ labels: podLabel, node: 'node1' });
  const multiExprTerm = (values: string[]) => [
    term({ matchExpressions: [{ key: 'service', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }] }, 'region'),
    term({ matchExpressions: [{ key: 'service', operator: 'In', values }, { key: 'service', operator: 'NotIn', values: ['WrongValue'] }] }, 'region'),
  ];
  const teamSel = { matchExpressions: [{ key: 'team', operator: 'In', values: ['team1'] }] };
  const BAD_VALUE =
    `values[0][service]: Invalid value: "{{.bad-value.}}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', ` +
    `and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`;

  const cases: { name: string; pod: Pod; pods?: Pod[]; wantPreFilter?: Status | 'Skip'; wantFilter?: Status }[] = [
    { name: 'A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods', pod: pod(), wantPreFilter: 'Skip' },
    {
      name: 'satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod',
      pod: pod({ labels: podLabel2, affinity: required([term(inSel('service', ['securityscan', 'value2']), 'region')]) }),
      pods: [existing()],
    },
    {
      name: 'satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod',
      pod: pod({ labels: podLabel2, affinity: required([term(notInSel('service', ['securityscan3', 'value3']), 'region')]) }),
      pods: [existing()],
    },
    {
      name: 'Does not satisfy the PodAffinity with labelSelector because of diff Namespace',
      pod: pod({ labels: podLabel2, affinity: required([term(inSel('service', ['securityscan', 'value2']), '', { namespaces: ['DiffNameSpace'] })]) }),
      pods: [pod({ ns: 'ns', labels: podLabel, node: 'node1' })],
      wantFilter: AFF,
    },
    {
      name: "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
      pod: pod({ labels: podLabel, affinity: required([term(inSel('service', ['antivirusscan', 'value2']), '')]) }),
      pods: [existing()],
      wantFilter: AFF,
    },
    {
      name: 'satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution ',
      pod: pod({ labels: podLabel2, affinity: required(multiExprTerm(['securityscan'])) }),
      pods: [existing()],
    },
    {
      name: "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
      pod: pod({ labels: podLabel2, affinity: required(multiExprTerm(['securityscan2'])) }),
      pods: [existing()],
      wantFilter: AFF,
    },
    {
      name: 'satisfies the PodAffinity and PodAntiAffinity with the existing pod',
      pod: pod({ labels: podLabel2, affinity: required([term(inSel('service', ['securityscan', 'value2']), 'region')], [term(inSel('service', ['antivirusscan', 'value2']), 'node')]) }),
      pods: [existing()],
    },
    {
      name: 'satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod',
      pod: pod({ labels: podLabel2, affinity: required([term(inSel('service', ['securityscan', 'value2']), 'region')], [term(inSel('service', ['antivirusscan', 'value2']), 'node')]) }),
      pods: [pod({ node: 'node1', labels: podLabel, affinity: required([], [term(inSel('service', ['antivirusscan', 'value2']), 'node')]) })],
    },
    {
      name: "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
      pod: pod({ labels: podLabel2, affinity: required([term(inSel('service', ['securityscan', 'value2']), 'region')], [term(inSel('service', ['securityscan', 'value2']), 'zone')]) }),
      pods: [existing()],
      wantFilter: ANTI,
    },
    {
      name: "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
      pod: pod({ labels: podLabel, affinity: required([term(inSel('service', ['securityscan', 'value2']), 'region')], [term(inSel('service', ['antivirusscan', 'value2']), 'node')]) }),
      pods: [pod({ labels: podLabel, node: 'node1', affinity: required([], [term(inSel('service', ['securityscan', 'value2']), 'zone')]) })],
      wantFilter: EXISTING,
    },
    {
      name: 'pod matches its own Label in PodAffinity and that matches the existing pod Labels',
      pod: pod({ labels: podLabel, affinity: required([term(notInSel('service', ['securityscan', 'value2']), 'region')]) }),
      pods: [pod({ labels: { service: 'securityscan' }, node: 'node2' })],
      wantFilter: AFF,
    },
    {
      name: "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
      pod: pod({ labels: podLabel }),
      pods: [pod({ node: 'node1', labels: podLabel, affinity: required([], [term(inSel('service', ['securityscan', 'value2']), 'zone')]) })],
      wantFilter: EXISTING,
    },
    {
      name: 'verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod',
      pod: pod({ labels: podLabel }),
      pods: [pod({ node: 'node1', labels: podLabel, affinity: required([], [term(notInSel('service', ['securityscan', 'value2']), 'zone')]) })],
      wantPreFilter: 'Skip',
    },
    {
      name: "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
      pod: pod({ labels: podLabel, affinity: required([], [term(existsSel('service'), 'region'), term(existsSel('security'), 'region')]) }),
      pods: [pod({ node: 'node1', labels: podLabel2, affinity: required([], [term(existsSel('security'), 'zone')]) })],
      wantFilter: ANTI,
    },
    {
      name: 'PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms',
      pod: pod({ labels: podLabel, affinity: required([], [term(existsSel('service'), 'zone'), term(existsSel('security'), 'zone')]) }),
      pods: [pod({ node: 'node1', labels: podLabel2, affinity: required([], [term(existsSel('security'), 'zone')]) })],
      wantFilter: ANTI,
    },
    {
      name: 'PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms',
      pod: pod({ labels: podLabel2, affinity: required([], [term(existsSel('security'), 'zone')]) }),
      pods: [pod({ node: 'node1', labels: podLabel, affinity: required([], [term(existsSel('service'), 'zone'), term(existsSel('security'), 'zone')]) })],
      wantFilter: EXISTING,
    },
    {
      name: 'PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms',
      pod: pod({ labels: { abc: '', xyz: '' }, affinity: required([], [term(existsSel('abc'), 'zone'), term(existsSel('def'), 'zone')]) }),
      pods: [pod({ node: 'node1', labels: { def: '', xyz: '' }, affinity: required([], [term(existsSel('abc'), 'zone'), term(existsSel('def'), 'zone')]) })],
      wantFilter: ANTI,
    },
    {
      name: 'PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms',
      pod: pod({ labels: { def: '', xyz: '' }, affinity: required([], [term(existsSel('abc'), 'zone'), term(existsSel('def'), 'zone')]) }),
      pods: [pod({ node: 'node1', labels: { abc: '', xyz: '' }, affinity: required([], [term(existsSel('abc'), 'zone'), term(existsSel('def'), 'zone')]) })],
      wantFilter: ANTI,
    },
    {
      name: 'PodAffinity fails PreFilter with an invalid affinity label syntax',
      pod: pod({ labels: podLabel, affinity: required([term(inSel('service', ['{{.bad-value.}}']), 'region'), term(inSel('service', ['antivirusscan', 'value2']), 'node')]) }),
      wantPreFilter: { code: 'UnschedulableAndUnresolvable', reasons: [`parsing pod: requiredAffinityTerms: ${BAD_VALUE}`] },
    },
    {
      name: 'PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax',
      pod: pod({ labels: podLabel, affinity: required([term(inSel('service', ['foo']), 'region'), term(inSel('service', ['{{.bad-value.}}']), 'node')]) }),
      wantPreFilter: { code: 'UnschedulableAndUnresolvable', reasons: [`parsing pod: requiredAffinityTerms: ${BAD_VALUE}`] },
    },
    {
      name: 'affinity with NamespaceSelector',
      pod: pod({ labels: podLabel2, affinity: required([term(inSel('service', ['securityscan', 'value2']), 'region', { namespaceSelector: teamSel })]) }),
      pods: [pod({ node: 'node1', ns: 'subteam1.team1', labels: podLabel })],
    },
    {
      name: 'affinity with non-matching NamespaceSelector',
      pod: pod({ labels: podLabel2, affinity: required([term(inSel('service', ['securityscan', 'value2']), 'region', { namespaceSelector: teamSel })]) }),
      pods: [pod({ node: 'node1', ns: 'subteam1.team2', labels: podLabel })],
      wantFilter: AFF,
    },
    {
      name: 'anti-affinity with matching NamespaceSelector',
      pod: pod({ ns: 'subteam1.team1', labels: podLabel2, affinity: required([], [term(inSel('service', ['securityscan', 'value2']), 'zone', { namespaceSelector: teamSel })]) }),
      pods: [pod({ node: 'node1', ns: 'subteam2.team1', labels: podLabel })],
      wantFilter: ANTI,
    },
    {
      name: 'anti-affinity with matching all NamespaceSelector',
      pod: pod({ ns: 'subteam1.team1', labels: podLabel2, affinity: required([], [term(inSel('service', ['securityscan', 'value2']), 'zone', { namespaceSelector: {} })]) }),
      pods: [pod({ node: 'node1', ns: 'subteam2.team1', labels: podLabel })],
      wantFilter: ANTI,
    },
    {
      name: 'anti-affinity with non-matching NamespaceSelector',
      pod: pod({ ns: 'subteam1.team1', labels: podLabel2, affinity: required([], [term(inSel('service', ['securityscan', 'value2']), 'zone', { namespaceSelector: teamSel })]) }),
      pods: [pod({ node: 'node1', ns: 'subteam1.team2', labels: podLabel })],
    },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      const { pl, infos } = setup(tc.pods ?? [], [node1()]);
      const cs = new CycleState();
      const { status } = pl.preFilter(cs, tc.pod, infos);
      if (tc.wantPreFilter === 'Skip') {
        expect(status?.code).toBe('Skip');
        return;
      }
      expect(status).toEqual(tc.wantPreFilter ?? null);
      if (status) return;
      expect(pl.filter(cs, tc.pod, infos[0]!)).toEqual(tc.wantFilter ?? null);
    });
  }
});

describe('InterPodAffinity Filter (TestRequiredAffinityMultipleNodes)', () => {
  const china = { region: 'China' };
  const chinaAz1 = { region: 'China', az: 'az1' };
  const india = { region: 'India' };
  const rz = (name: string, region: string, zone: string) => node(name, { region, zone, hostname: name });
  const cases: { name: string; pod: Pod; pods: Pod[]; nodes: Node[]; want: (Status | null)[]; wantPreFilter?: 'Skip' }[] = [
    {
      name: 'A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules',
      pod: pod({ affinity: required([term(inSel('foo', ['bar']), 'region')]) }),
      pods: [pod({ name: 'p1', node: 'node1', labels: { foo: 'bar' } })],
      nodes: [node('node1', china), node('node2', chinaAz1), node('node3', india)],
      want: [null, null, AFF],
    },
    {
      name: "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection should not be blocked from being scheduled onto any node, even there's no existing pod that matches the rule anywhere.",
      pod: pod({ labels: { foo: 'bar', service: 'securityscan' }, affinity: required([term(inSel('foo', ['bar']), 'zone'), term(inSel('service', ['securityscan']), 'zone')]) }),
      pods: [pod({ name: 'p1', node: 'nodeA', labels: { foo: 'bar' } })],
      nodes: [node('nodeA', { zone: 'az1', hostname: 'h1' }), node('nodeB', { zone: 'az2', hostname: 'h2' })],
      want: [null, null],
    },
    {
      name: 'The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys',
      pod: pod({ labels: { foo: 'bar', service: 'securityscan' }, affinity: required([term(inSel('foo', ['bar']), 'zone'), term(inSel('service', ['securityscan']), 'zone')]) }),
      pods: [pod({ name: 'p1', node: 'nodeA', labels: { foo: 'bar' } })],
      nodes: [node('nodeA', { zoneLabel: 'az1', hostname: 'h1' }), node('nodeB', { zoneLabel: 'az2', hostname: 'h2' })],
      want: [AFF, AFF],
    },
    {
      name: 'NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.',
      pod: pod({ affinity: required([], [term(inSel('foo', ['abc']), 'region')]) }),
      pods: [pod({ node: 'nodeA', labels: { foo: 'abc' } })],
      nodes: [node('nodeA', { region: 'r1', hostname: 'nodeA' }), node('nodeB', { region: 'r1', hostname: 'nodeB' })],
      want: [ANTI, ANTI],
    },
    {
      name: 'This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.',
      pod: pod({ affinity: required([], [term(inSel('foo', ['abc']), 'region'), term(inSel('service', ['securityscan']), 'zone')]) }),
      pods: [pod({ node: 'nodeA', labels: { foo: 'abc', service: 'securityscan' } })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
      want: [ANTI, ANTI],
    },
    {
      name: 'NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC',
      pod: pod({ affinity: required([], [term(inSel('foo', ['abc']), 'region')]) }),
      pods: [pod({ node: 'nodeA', labels: { foo: 'abc' } })],
      nodes: [node('nodeA', china), node('nodeB', chinaAz1), node('nodeC', india)],
      want: [ANTI, ANTI, null],
    },
    {
      name: 'NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different namespace)',
      pod: pod({ ns: 'NS1', labels: { foo: '123' }, affinity: required([], [term(inSel('foo', ['bar']), 'region')]) }),
      pods: [pod({ node: 'nodeA', ns: 'NS1', labels: { foo: 'bar' } }), pod({ node: 'nodeC', ns: 'NS2', affinity: required([], [term(inSel('foo', ['123']), 'region')]) })],
      nodes: [node('nodeA', china), node('nodeB', chinaAz1), node('nodeC', india)],
      want: [ANTI, ANTI, null],
    },
    {
      name: "Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also checked",
      pod: pod({ labels: { foo: '' } }),
      pods: [pod({ node: 'nodeA', affinity: required([], [term(existsSel('foo'), 'invalid-node-label')]) })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z1')],
      want: [null, null],
      wantPreFilter: 'Skip',
    },
    {
      name: "Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
      pod: pod({ node: 'nodeA', affinity: required([], [term(existsSel('foo'), 'invalid-node-label')]) }),
      pods: [pod({ node: 'nodeA', labels: { foo: '' } })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z1')],
      want: [null, null],
    },
    {
      name: "Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's terms on all nodes",
      pod: pod({ labels: { foo: '', bar: '' } }),
      pods: [pod({ node: 'nodeA', affinity: required([], [term(existsSel('foo'), 'zone')]) }), pod({ node: 'nodeA', affinity: required([], [term(existsSel('bar'), 'region')]) })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
      want: [EXISTING, EXISTING],
    },
    {
      name: "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one anti-affinity rule of existingPod",
      pod: pod({ affinity: required([], [term(existsSel('foo'), 'zone'), term(existsSel('bar'), 'region')]) }),
      pods: [pod({ node: 'nodeA', labels: { foo: '' } }), pod({ node: 'nodeB', labels: { bar: '' } })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
      want: [ANTI, ANTI],
    },
    {
      name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
      pod: pod({ labels: { foo: '', bar: '' } }),
      pods: [pod({ node: 'nodeA', affinity: required([], [term(existsSel('foo'), 'invalid-node-label'), term(existsSel('bar'), 'zone')]) })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
      want: [EXISTING, null],
    },
    {
      name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
      pod: pod({ affinity: required([], [term(existsSel('foo'), 'invalid-node-label'), term(existsSel('bar'), 'zone')]) }),
      pods: [pod({ name: 'podA', node: 'nodeA', labels: { foo: '', bar: '' } })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
      want: [ANTI, null],
    },
    {
      name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
      pod: pod({ labels: { foo: '', bar: '' } }),
      pods: [pod({ node: 'nodeA', affinity: required([], [term(existsSel('foo'), 'region'), term(existsSel('bar'), 'zone')]) })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
      want: [EXISTING, EXISTING],
    },
    {
      name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
      pod: pod({ affinity: required([], [term(existsSel('foo'), 'region'), term(existsSel('bar'), 'zone')]) }),
      pods: [pod({ node: 'nodeA', labels: { foo: '', bar: '' } })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
      want: [ANTI, ANTI],
    },
    {
      name: "Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
      pod: pod({ labels: { foo: '', bar: '' } }),
      pods: [
        pod({ node: 'nodeA', affinity: required([], [term(existsSel('foo'), 'zone'), term(existsSel('labelA'), 'zone')]) }),
        pod({ node: 'nodeB', affinity: required([], [term(existsSel('bar'), 'zone'), term(existsSel('labelB'), 'zone')]) }),
      ],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2'), rz('nodeC', 'r1', 'z3')],
      want: [EXISTING, EXISTING, null],
    },
    {
      name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match",
      pod: pod({ affinity: required([term(existsSel('foo'), 'region'), term(existsSel('bar'), 'zone')]) }),
      pods: [pod({ name: 'pod1', labels: { foo: '', bar: '' }, node: 'nodeA' })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z1')],
      want: [null, null],
    },
    {
      name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match, and the match logic should be satisfied on the same pod",
      pod: pod({ affinity: required([term(existsSel('foo'), 'region'), term(existsSel('bar'), 'zone')]) }),
      pods: [pod({ name: 'pod1', node: 'nodeA', labels: { foo: '' } }), pod({ name: 'pod2', node: 'nodeB', labels: { bar: '' } })],
      nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
      want: [AFF, AFF],
    },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      const { pl, infos } = setup(tc.pods, tc.nodes, [namespace('NS1')]);
      const cs = new CycleState();
      const { status } = pl.preFilter(cs, tc.pod, infos);
      if (tc.wantPreFilter === 'Skip') {
        expect(status?.code).toBe('Skip');
        return;
      }
      expect(status).toBeNull();
      expect(infos.map((ni) => pl.filter(cs, tc.pod, ni))).toEqual(tc.want);
    });
  }

  it('a topology key named like an Object.prototype member is absent unless the node has it', () => {
    const incoming = pod({ labels: { app: 'x' }, affinity: required([term(existsSel('app'), 'toString')]) });
    const { pl, infos } = setup([], [node('a', {}), node('b', { toString: 't' })]);
    const cs = new CycleState();
    expect(pl.preFilter(cs, incoming, infos).status).toBeNull();
    // No pod matches anywhere and the pod matches itself: only nodes with the key pass.
    expect(infos.map((ni) => pl.filter(cs, incoming, ni))).toEqual([AFF, null]);
  });

  it('TestPreFilterDisabled: Filter without PreFilter is an Error', () => {
    const { pl, infos } = setup([], [node('n')]);
    expect(pl.filter(new CycleState(), pod(), infos[0]!)).toEqual({ code: 'Error', reasons: ['error reading "PreFilterInterPodAffinity" from cycleState: not found'] });
  });
});

describe('InterPodAffinity PreFilterExtensions (TestPreFilterStateAddRemovePod)', () => {
  const label1 = { region: 'r1', zone: 'z11' };
  const label2 = { region: 'r1', zone: 'z12' };
  const label3 = { region: 'r2', zone: 'z21' };
  const selector1 = { foo: 'bar' };
  const antiFooBar = [term(inSel('foo', ['bar']), 'region')];
  const complex = [term(inSel('foo', ['bar', 'buzz']), 'region'), term(notInSel('service', ['bar', 'security', 'test']), 'zone')];
  const nodes = () => [node('nodeA', label1), node('nodeB', label2), node('nodeC', label3)];
  const cases: { name: string; pending: Pod; existing: Pod[]; added: Pod; wantAnti: Record<string, number>; wantAff: Record<string, number> }[] = [
    {
      name: 'preFilterState anti-affinity terms are updated correctly after adding and removing a pod',
      pending: pod({ name: 'pending', labels: selector1, affinity: required([], antiFooBar) }),
      existing: [pod({ name: 'p1', labels: selector1, node: 'nodeA' }), pod({ name: 'p2', node: 'nodeC', affinity: required([], antiFooBar) })],
      added: pod({ name: 'addedPod', labels: selector1, node: 'nodeB', affinity: required([], antiFooBar) }),
      wantAnti: { 'region=r1': 2 },
      wantAff: {},
    },
    {
      name: 'preFilterState anti-affinity terms are updated correctly after adding and removing a pod (complex)',
      pending: pod({ name: 'pending', labels: selector1, affinity: required([], complex) }),
      existing: [pod({ name: 'p1', labels: selector1, node: 'nodeA' }), pod({ name: 'p2', node: 'nodeC', affinity: required([], antiFooBar) })],
      added: pod({ name: 'addedPod', labels: selector1, node: 'nodeA', affinity: required([], complex) }),
      wantAnti: { 'region=r1': 2, 'zone=z11': 2, 'zone=z21': 1 },
      wantAff: {},
    },
    {
      name: 'preFilterState matching pod affinity and anti-affinity are updated correctly after adding and removing a pod',
      pending: pod({ name: 'pending', labels: selector1, affinity: required(complex) }),
      existing: [pod({ name: 'p1', labels: selector1, node: 'nodeA' }), pod({ name: 'p2', node: 'nodeC', affinity: required(complex, antiFooBar) })],
      added: pod({ name: 'addedPod', labels: selector1, node: 'nodeA', affinity: required([], complex) }),
      wantAnti: {},
      wantAff: { 'region=r1': 2, 'zone=z11': 2 },
    },
  ];

  const stateOf = (s: PreFilterState) => ({
    existing: s.existingAntiAffinityCounts.toObject(),
    affinity: s.affinityCounts.toObject(),
    anti: s.antiAffinityCounts.toObject(),
  });

  for (const tc of cases) {
    it(tc.name, () => {
      const getState = (pods: Pod[]) => {
        const { pl, infos } = setup(pods, nodes(), []);
        const cs = new CycleState();
        expect(pl.preFilter(cs, tc.pending, infos).status).toBeNull();
        return { pl, infos, cs, state: cs.read(PRE_FILTER_STATE_KEY)! };
      };
      // With every pod, the added one included, given to PreFilter.
      const all = getState([...tc.existing, tc.added]);
      const { pl, infos, cs, state } = getState(tc.existing);
      const original = stateOf(state.clone());
      const nodeInfo = infos.find((ni) => ni.name === tc.added.spec.nodeName)!;
      expect(pl.addPod(cs, tc.pending, new PodInfo(tc.added), nodeInfo)).toBeNull();
      expect(state.antiAffinityCounts.toObject()).toEqual(tc.wantAnti);
      expect(state.affinityCounts.toObject()).toEqual(tc.wantAff);
      expect(stateOf(state)).toEqual(stateOf(all.state));
      expect(pl.removePod(cs, tc.pending, new PodInfo(tc.added), nodeInfo)).toBeNull();
      expect(stateOf(state)).toEqual(original);
    });
  }

  it('TestPreFilterStateClone: the clone is equal but independent', () => {
    const { pl, infos } = setup([pod({ name: 'p1', labels: selector1, node: 'nodeA' })], nodes(), []);
    const pending = pod({ name: 'pending', labels: selector1, affinity: required([], antiFooBar) });
    const cs = new CycleState();
    pl.preFilter(cs, pending, infos);
    const s = cs.read(PRE_FILTER_STATE_KEY)!;
    const c = s.clone();
    expect(c).not.toBe(s);
    expect(stateOf(c)).toEqual(stateOf(s));
    c.updateWithPod(new PodInfo(pod({ labels: selector1, node: 'nodeC' })), infos[2]!.node, 1);
    expect(stateOf(c).anti).toEqual({ 'region=r1': 1, 'region=r2': 1 });
    expect(stateOf(s).anti).toEqual({ 'region=r1': 1 });
  });
});

describe('getIncomingAffinityAntiAffinityCounts (TestGetTPMapMatchingIncomingAffinityAntiAffinity)', () => {
  const normal = (...labels: string[]) => pod({ name: 'normal', node: 'nodeA', labels: Object.fromEntries(labels.map((l) => [l, ''])) });
  const nodeA = () => node('nodeA', { hostname: 'nodeA' });
  const affTerms = (...keys: string[]) => keys.map((k) => term(existsSel(k), 'hostname'));
  const cases: { name: string; existing: Pod[]; pod: Pod; wantAff: Record<string, number>; wantAnti: Record<string, number> }[] = [
    { name: 'nil test', existing: [], pod: pod({ name: 'aaa-normal' }), wantAff: {}, wantAnti: {} },
    { name: 'incoming pod without affinity/anti-affinity causes a no-op', existing: [normal('aaa')], pod: pod({ name: 'aaa-normal' }), wantAff: {}, wantAnti: {} },
    {
      name: "no pod has label that violates incoming pod's affinity and anti-affinity",
      existing: [normal('bbb')],
      pod: pod({ affinity: required(affTerms('aaa'), affTerms('aaa')) }),
      wantAff: {},
      wantAnti: {},
    },
    {
      name: "existing pod matches incoming pod's affinity and anti-affinity - single term case",
      existing: [normal('aaa')],
      pod: pod({ affinity: required(affTerms('aaa'), affTerms('aaa')) }),
      wantAff: { 'hostname=nodeA': 1 },
      wantAnti: { 'hostname=nodeA': 1 },
    },
    {
      name: "existing pod matches incoming pod's affinity and anti-affinity - multiple terms case",
      existing: [normal('aaa', 'bbb')],
      pod: pod({ affinity: required(affTerms('aaa', 'bbb'), affTerms('aaa')) }),
      // One for each term.
      wantAff: { 'hostname=nodeA': 2 },
      wantAnti: { 'hostname=nodeA': 1 },
    },
    {
      name: "existing pod not match incoming pod's affinity but matches anti-affinity",
      existing: [normal('aaa')],
      pod: pod({ affinity: required(affTerms('aaa', 'bbb'), affTerms('aaa', 'bbb')) }),
      wantAff: {},
      wantAnti: { 'hostname=nodeA': 1 },
    },
    {
      name: "incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 1",
      existing: [normal('aaa', 'bbb')],
      pod: pod({ affinity: required(affTerms('aaa', 'ccc'), affTerms('aaa', 'ccc')) }),
      wantAff: {},
      wantAnti: { 'hostname=nodeA': 1 },
    },
    {
      name: "incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 2",
      existing: [normal('bbb')],
      pod: pod({ affinity: required(affTerms('aaa', 'bbb'), affTerms('aaa', 'bbb')) }),
      wantAff: {},
      wantAnti: { 'hostname=nodeA': 1 },
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const infos = snapshot(tc.existing, [nodeA()]);
      const terms = parsePodTerms(tc.pod);
      if ('error' in terms) throw new Error(terms.error);
      const got = getIncomingAffinityAntiAffinityCounts(terms.requiredAffinityTerms, terms.requiredAntiAffinityTerms, infos);
      expect(got.affinity.toObject()).toEqual(tc.wantAff);
      expect(got.antiAffinity.toObject()).toEqual(tc.wantAnti);
    });
  }
});
