// Ports of scoring_test.go (v1.32): TestPreScoreSkip, TestPreScoreStateEmptyNodes,
// TestPodTopologySpreadScore. Gate-off-only cases are left out (both gates are on in v1.32).
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../../apimachinery/types';
import { toString as selectorString } from '../../../apimachinery/selectors/labels';
import type { Node, Pod } from '../../framework/api';
import { CycleState } from '../../framework/cycleState';
import type { NodeScore } from '../../framework/interface';
import type { PodTopologySpreadArgs } from './args';
import { PodTopologySpread } from './index';
import { PRE_SCORE_STATE_KEY, topologyNormalizingWeight } from './scoring';
import { barSelector, fooSelector, HOSTNAME, handleFor, node, nodeAffinity, pod, replicaSet, service, snapshot, spread, taints } from './testHelpers';

const ZONE = 'topology.kubernetes.io/zone';
const foo = { foo: '' };
const bar = { bar: '' };
const foobar = { foo: '', bar: '' };
const p = (name: string, nodeName: string, labels?: Record<string, string>, ns?: string) => pod(name, { node: nodeName, labels, ns });
const rsOwner = (name: string) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name });

function plugin(args: PodTopologySpreadArgs, pods: Pod[], allNodes: Node[], objs: KObject[] = []) {
  const infos = snapshot(pods, allNodes);
  const byKind = (k: string) => objs.filter((o) => o.kind === k);
  const pl = new PodTopologySpread(args, handleFor(infos, { services: byKind('Service'), replicasets: byKind('ReplicaSet') }));
  return { pl, infos };
}

describe('PodTopologySpread PreScore', () => {
  it('TestPreScoreSkip: the pod has no soft constraints', () => {
    const { pl, infos } = plugin({ defaultingType: 'List' }, [], [node('node-a', { [HOSTNAME]: 'node-a' }), node('node-b', { [HOSTNAME]: 'node-b' })]);
    expect(pl.preScore(new CycleState(), pod('p'), infos)?.code).toBe('Skip');
  });

  it("TestPreScoreSkip: default constraints and a replicaset that doesn't match", () => {
    const { pl, infos } = plugin(
      { defaultingType: 'List', defaultConstraints: [{ maxSkew: 2, topologyKey: 'planet', whenUnsatisfiable: 'ScheduleAnyway' }] },
      [],
      [node('node-a', { planet: 'mars' })],
      [replicaSet('default', 'rs1', { matchExpressions: [{ key: 'tar', operator: 'Exists' }] })],
    );
    const pd = pod('p', { labels: { foo: 'bar', baz: 'sup' }, owner: rsOwner('rs2') });
    expect(pl.preScore(new CycleState(), pd, infos)?.code).toBe('Skip');
  });

  it('Skip when the cluster has no nodes', () => {
    const { pl } = plugin({ defaultingType: 'List' }, [], []);
    expect(pl.preScore(new CycleState(), pod('p', { spread: [spread(1, 'zone', 'ScheduleAnyway', fooSelector)] }), [])?.code).toBe('Skip');
  });

  interface Case {
    name: string;
    pod: Pod;
    nodes: Node[];
    objs?: KObject[];
    args: PodTopologySpreadArgs;
    want: { constraints: [string, number, string][]; ignored: string[]; counts: Record<string, number>[]; weights: number[] };
  }
  const list: PodTopologySpreadArgs = { defaultingType: 'List' };
  const zxNodes = (xLabels: Record<string, string> = { zone: 'zone2', [HOSTNAME]: 'node-x' }) => [
    node('node-a', { zone: 'zone1', [HOSTNAME]: 'node-a' }),
    node('node-b', { zone: 'zone1', [HOSTNAME]: 'node-b' }),
    node('node-x', xLabels),
  ];
  const policyNodes = (xTaints?: boolean) => [
    node('node-a', { zone: 'zone1', foo: '', [HOSTNAME]: 'node-a' }),
    node('node-b', { zone: 'zone1', foo: '', [HOSTNAME]: 'node-b' }),
    node('node-x', { zone: 'zone2', [HOSTNAME]: 'node-x' }, xTaints ? taints : undefined),
  ];
  const oneZone = { constraints: [['zone', 1, 'bar'] as [string, number, string]], ignored: [], counts: [{ zone1: 0, zone2: 0 }], weights: [topologyNormalizingWeight(2)] };
  const cases: Case[] = [
    {
      name: 'normal case',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOSTNAME, 'ScheduleAnyway', fooSelector)] }),
      nodes: zxNodes(),
      args: list,
      want: {
        constraints: [
          ['zone', 1, 'foo'],
          [HOSTNAME, 1, 'foo'],
        ],
        ignored: [],
        counts: [{ zone1: 0, zone2: 0 }, {}],
        weights: [topologyNormalizingWeight(2), topologyNormalizingWeight(3)],
      },
    },
    {
      name: 'null selector',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'ScheduleAnyway', null)] }),
      nodes: zxNodes(),
      args: list,
      want: { constraints: [['zone', 1, '<nothing>']], ignored: [], counts: [{ zone1: 0, zone2: 0 }], weights: [topologyNormalizingWeight(2)] },
    },
    {
      name: "node-x doesn't have label zone",
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOSTNAME, 'ScheduleAnyway', barSelector)] }),
      nodes: zxNodes({ [HOSTNAME]: 'node-x' }),
      args: list,
      want: {
        constraints: [
          ['zone', 1, 'foo'],
          [HOSTNAME, 1, 'bar'],
        ],
        ignored: ['node-x'],
        counts: [{ zone1: 0 }, {}],
        weights: [topologyNormalizingWeight(1), topologyNormalizingWeight(2)],
      },
    },
    {
      name: 'system default constraints and a replicaset',
      pod: pod('p', { labels: { foo: 'tar', baz: 'sup' }, owner: rsOwner('rs1') }),
      args: { defaultingType: 'System' },
      // Nodes with no zone are not excluded: they form the zone "".
      nodes: [
        node('node-a', { [HOSTNAME]: 'node-a', [ZONE]: 'mars' }),
        node('node-b', { [HOSTNAME]: 'node-b', [ZONE]: 'mars' }),
        node('node-c', { [HOSTNAME]: 'node-c' }),
        node('node-d', { [HOSTNAME]: 'node-d' }),
      ],
      objs: [replicaSet('default', 'rs1', fooSelector)],
      want: {
        constraints: [
          [HOSTNAME, 3, 'foo'],
          [ZONE, 5, 'foo'],
        ],
        ignored: [],
        counts: [{}, { mars: 0, '': 0 }],
        weights: [topologyNormalizingWeight(4), topologyNormalizingWeight(2)],
      },
    },
    {
      name: 'default constraints and a replicaset',
      pod: pod('p', { labels: { foo: 'tar', baz: 'sup' }, owner: rsOwner('rs1') }),
      args: {
        defaultingType: 'List',
        defaultConstraints: [
          { maxSkew: 1, topologyKey: HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway' },
          { maxSkew: 2, topologyKey: 'rack', whenUnsatisfiable: 'DoNotSchedule' },
          { maxSkew: 2, topologyKey: 'planet', whenUnsatisfiable: 'ScheduleAnyway' },
        ],
      },
      nodes: [node('node-a', { rack: 'rack1', [HOSTNAME]: 'node-a', planet: 'mars' })],
      objs: [replicaSet('default', 'rs1', fooSelector)],
      want: {
        constraints: [
          [HOSTNAME, 1, 'foo'],
          ['planet', 2, 'foo'],
        ],
        ignored: [],
        counts: [{}, { mars: 0 }],
        weights: [topologyNormalizingWeight(1), topologyNormalizingWeight(1)],
      },
    },
    {
      name: 'default constraints and a replicaset, but pod has constraints',
      pod: pod('p', {
        labels: { foo: 'bar', baz: 'sup' },
        owner: rsOwner('rs1'),
        spread: [spread(1, 'zone', 'DoNotSchedule', barSelector), spread(2, 'planet', 'ScheduleAnyway', { matchLabels: { baz: 'sup' } })],
      }),
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 2, topologyKey: 'galaxy', whenUnsatisfiable: 'ScheduleAnyway' }] },
      nodes: [node('node-a', { planet: 'mars', galaxy: 'andromeda' })],
      objs: [replicaSet('default', 'rs1', fooSelector)],
      want: { constraints: [['planet', 2, 'baz=sup']], ignored: [], counts: [{ mars: 0 }], weights: [topologyNormalizingWeight(1)] },
    },
    {
      name: 'NodeAffinityPolicy honored with labelSelectors',
      pod: pod('p', { labels: foo, nodeSelector: foo, spread: [spread(1, 'zone', 'ScheduleAnyway', barSelector)] }),
      nodes: policyNodes(),
      args: list,
      want: oneZone,
    },
    {
      name: 'NodeAffinityPolicy ignored with labelSelectors',
      pod: pod('p', { labels: foo, nodeSelector: foo, spread: [spread(1, 'zone', 'ScheduleAnyway', barSelector, undefined, 'Ignore')] }),
      nodes: policyNodes(),
      args: list,
      want: oneZone,
    },
    {
      name: 'NodeAffinityPolicy honored with nodeAffinity',
      pod: pod('p', { labels: foo, affinity: nodeAffinity('foo', 'In', ['']), spread: [spread(1, 'zone', 'ScheduleAnyway', barSelector)] }),
      nodes: policyNodes(),
      args: list,
      want: oneZone,
    },
    {
      name: 'NodeTaintsPolicy honored',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'ScheduleAnyway', barSelector, undefined, undefined, 'Honor')] }),
      nodes: policyNodes(true),
      args: list,
      want: oneZone,
    },
  ];

  for (const tc of cases) {
    it(`TestPreScoreStateEmptyNodes: ${tc.name}`, () => {
      const { pl, infos } = plugin(tc.args, [], tc.nodes, tc.objs);
      const cs = new CycleState();
      expect(pl.preScore(cs, tc.pod, infos)).toBeNull();
      const s = cs.read(PRE_SCORE_STATE_KEY)!;
      expect({
        constraints: s.constraints.map((c) => [c.topologyKey, c.maxSkew, c.selector.type === 'Nothing' ? '<nothing>' : selectorString(c.selector)]),
        ignored: [...s.ignoredNodes],
        counts: s.topologyValueToPodCounts.map((m) => Object.fromEntries(m)),
        weights: s.topologyNormalizingWeight,
      }).toEqual(tc.want);
    });
  }

  it('a bad selector is an Error status', () => {
    const { pl, infos } = plugin(list, [], zxNodes());
    const st = pl.preScore(new CycleState(), pod('p', { spread: [spread(1, 'zone', 'ScheduleAnyway', { matchExpressions: [{ key: 'a', operator: 'In' }] })] }), infos);
    expect(st?.code).toBe('Error');
    expect(st?.reasons[0]).toMatch(/^calculating preScoreState: obtaining pod's soft topology spread constraints: /);
  });
});

describe('PodTopologySpread Score (TestPodTopologySpreadScore)', () => {
  interface Case {
    name: string;
    pod: Pod;
    existing?: Pod[];
    nodes: Node[];
    failedNodes?: Node[];
    objs?: KObject[];
    want: [string, number][];
  }
  const h = (name: string) => node(name, { [HOSTNAME]: name });
  const zh = (name: string, zone: string) => node(name, { zone, [HOSTNAME]: name });
  const nl = (name: string, labels: Record<string, string> = {}, t?: boolean) => node(name, { node: name, ...labels }, t ? taints : undefined);
  const hostFoo = (maxSkew = 1) => pod('p', { labels: foo, spread: [spread(maxSkew, HOSTNAME, 'ScheduleAnyway', fooSelector)] });
  const spread2103 = () => [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-d1', 'node-d', foo), p('p-d2', 'node-d', foo), p('p-d3', 'node-d', foo)];
  const spread4321 = () => [
    ...['p-a1', 'p-a2', 'p-a3', 'p-a4'].map((n) => p(n, 'node-a', foo)),
    ...['p-b1', 'p-b2', 'p-b3'].map((n) => p(n, 'node-b', foo)),
    p('p-c1', 'node-c', foo),
    p('p-c2', 'node-c', foo),
    p('p-d1', 'node-d', foo),
  ];
  const spread4213 = () => [
    ...['p-a1', 'p-a2', 'p-a3', 'p-a4'].map((n) => p(n, 'node-a', foo)),
    p('p-b1', 'node-b', foo),
    p('p-b2', 'node-b', foo),
    p('p-x1', 'node-x', foo),
    ...['p-y1', 'p-y2', 'p-y3'].map((n) => p(n, 'node-y', foo)),
  ];
  const abcd = () => ['node-a', 'node-b', 'node-c', 'node-d'].map(h);
  const policyPods = () => [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-c1', 'node-c', foo)];
  const cases: Case[] = [
    { name: 'one constraint on node, no existing pods', pod: hostFoo(), nodes: [h('node-a'), h('node-b')], want: [['node-a', 100], ['node-b', 100]] },
    {
      name: 'one constraint on node, only one node is candidate',
      pod: hostFoo(),
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo)],
      nodes: [h('node-a')],
      failedNodes: [h('node-b')],
      want: [['node-a', 100]],
    },
    {
      name: 'one constraint on node, all nodes have the same number of matching pods',
      pod: hostFoo(),
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foo)],
      nodes: [h('node-a'), h('node-b')],
      want: [['node-a', 100], ['node-b', 100]],
    },
    {
      name: 'one constraint on node, all 4 nodes are candidates',
      pod: hostFoo(),
      existing: spread2103(),
      nodes: abcd(),
      want: [['node-a', 20], ['node-b', 60], ['node-c', 100], ['node-d', 0]],
    },
    {
      name: 'one constraint on node, null selector',
      pod: pod('p', { labels: foo, spread: [spread(1, HOSTNAME, 'ScheduleAnyway', null)] }),
      existing: spread2103(),
      nodes: abcd(),
      want: [['node-a', 100], ['node-b', 100], ['node-c', 100], ['node-d', 100]],
    },
    {
      name: 'one constraint on node, all 4 nodes are candidates, maxSkew=2',
      pod: hostFoo(2),
      existing: spread2103(),
      nodes: abcd(),
      want: [['node-a', 33], ['node-b', 66], ['node-c', 100], ['node-d', 16]],
    },
    {
      name: 'one constraint on node, all 4 nodes are candidates, maxSkew=3',
      pod: hostFoo(3),
      existing: spread4321(),
      nodes: abcd(),
      want: [['node-a', 44], ['node-b', 66], ['node-c', 77], ['node-d', 100]],
    },
    {
      name: "system defaulting, nodes don't have zone, pods match service",
      pod: pod('p', { labels: foo }),
      existing: spread4321(),
      nodes: abcd(),
      objs: [service('default', 's', { foo: '' })],
      // Same scores as one spreading constraint.
      want: [['node-a', 44], ['node-b', 66], ['node-c', 77], ['node-d', 100]],
    },
    {
      name: 'one constraint on node, 3 out of 4 nodes are candidates',
      pod: hostFoo(),
      existing: spread4213(),
      nodes: [h('node-a'), h('node-b'), h('node-x')],
      failedNodes: [h('node-y')],
      want: [['node-a', 33], ['node-b', 83], ['node-x', 100]],
    },
    {
      name: "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
      pod: hostFoo(),
      existing: spread4213(),
      nodes: [h('node-a'), node('node-b', { n: 'node-b' }), h('node-x')],
      failedNodes: [h('node-y')],
      want: [['node-a', 16], ['node-b', 0], ['node-x', 100]],
    },
    {
      name: 'one constraint on zone, 3 out of 4 nodes are candidates',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'ScheduleAnyway', fooSelector)] }),
      existing: spread4213(),
      nodes: [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-x', 'zone2')],
      failedNodes: [zh('node-y', 'zone2')],
      want: [['node-a', 75], ['node-b', 75], ['node-x', 100]],
    },
    {
      name: 'two Constraints on zone and node, 2 out of 4 nodes are candidates',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOSTNAME, 'ScheduleAnyway', fooSelector)] }),
      existing: [
        p('p-a1', 'node-a', foo),
        p('p-a2', 'node-a', foo),
        p('p-b1', 'node-b', foo),
        p('p-x1', 'node-x', foo),
        p('p-x2', 'node-x', foo),
        ...['p-y1', 'p-y2', 'p-y3', 'p-y4'].map((n) => p(n, 'node-y', foo)),
      ],
      nodes: [zh('node-a', 'zone1'), zh('node-x', 'zone2')],
      failedNodes: [zh('node-b', 'zone1'), zh('node-y', 'zone2')],
      want: [['node-a', 100], ['node-x', 63]],
    },
    {
      name: 'two Constraints on zone, 2 out of 4 nodes are candidates',
      pod: pod('p', { labels: foobar, spread: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, 'zone', 'ScheduleAnyway', barSelector)] }),
      existing: [p('p-a1', 'node-a', foobar), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foobar), p('p-y1', 'node-y', foo), p('p-y2', 'node-y', foobar), p('p-y3', 'node-y', foo)],
      nodes: [node('node-a', { zone: 'zone1' }), node('node-x', { zone: 'zone2' })],
      failedNodes: [node('node-b', { zone: 'zone1' }), node('node-y', { zone: 'zone2' })],
      want: [['node-a', 85], ['node-x', 100]],
    },
    {
      name: 'two Constraints on zone and node, with different labelSelectors',
      pod: pod('p', { labels: foobar, spread: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOSTNAME, 'ScheduleAnyway', barSelector)] }),
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foobar), p('p-y1', 'node-y', foo), p('p-y2', 'node-y', bar)],
      nodes: [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-x', 'zone2'), zh('node-y', 'zone2')],
      want: [['node-a', 60], ['node-b', 20], ['node-x', 100], ['node-y', 60]],
    },
    {
      name: 'two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods',
      pod: pod('p', { labels: foobar, spread: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOSTNAME, 'ScheduleAnyway', barSelector)] }),
      existing: [p('p-b1', 'node-b', bar), p('p-x1', 'node-x', foo), p('p-y1', 'node-y', foobar)],
      nodes: [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-x', 'zone2'), zh('node-y', 'zone2')],
      want: [['node-a', 100], ['node-b', 60], ['node-x', 40], ['node-y', 0]],
    },
    {
      name: 'two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates',
      pod: pod('p', { labels: foobar, spread: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOSTNAME, 'ScheduleAnyway', barSelector)] }),
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foobar), p('p-y1', 'node-y', foo), p('p-y2', 'node-y', bar)],
      nodes: [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-x', 'zone2')],
      failedNodes: [zh('node-y', 'zone2')],
      want: [['node-a', 50], ['node-b', 25], ['node-x', 100]],
    },
    {
      name: 'existing pods in a different namespace do not count',
      pod: hostFoo(),
      existing: [p('p-a1', 'node-a', foo, 'ns1'), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-b2', 'node-b', foo)],
      nodes: [h('node-a'), h('node-b')],
      want: [['node-a', 100], ['node-b', 33]],
    },
    {
      name: 'terminating Pods should be excluded',
      pod: hostFoo(),
      existing: [pod('p-a', { node: 'node-a', labels: foo, terminating: true }), p('p-b', 'node-b', foo)],
      nodes: [h('node-a'), h('node-b')],
      want: [['node-a', 100], ['node-b', 0]],
    },
    {
      // Artificial: the API server rejects minDomains with ScheduleAnyway.
      name: 'minDomains has no effect when ScheduleAnyway',
      pod: pod('p', { labels: foo, spread: [spread(2, 'node', 'ScheduleAnyway', fooSelector, 10)] }),
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-b2', 'node-b', foo), p('p-c1', 'node-c', foo)],
      nodes: [nl('node-a'), nl('node-b'), nl('node-c')],
      want: [['node-a', 75], ['node-b', 75], ['node-c', 100]],
    },
    {
      name: 'NodeAffinityPolicy honoed with labelSelectors',
      pod: pod('p', { labels: foo, nodeSelector: foo, spread: [spread(1, 'node', 'ScheduleAnyway', fooSelector)] }),
      existing: policyPods(),
      nodes: [nl('node-a', foo), nl('node-b', foo), nl('node-c')],
      want: [['node-a', 0], ['node-b', 33], ['node-c', 100]],
    },
    {
      name: 'NodeAffinityPolicy ignored with labelSelectors',
      pod: pod('p', { labels: foo, nodeSelector: foo, spread: [spread(1, 'node', 'ScheduleAnyway', fooSelector, undefined, 'Ignore')] }),
      existing: policyPods(),
      nodes: [nl('node-a', foo), nl('node-b', foo), nl('node-c')],
      want: [['node-a', 66], ['node-b', 100], ['node-c', 100]],
    },
    {
      name: 'NodeAffinityPolicy honoed with nodeAffinity',
      pod: pod('p', { labels: foo, affinity: nodeAffinity('foo', 'In', ['']), spread: [spread(1, 'node', 'ScheduleAnyway', fooSelector)] }),
      existing: policyPods(),
      nodes: [nl('node-a', foo), nl('node-b', foo), nl('node-c')],
      want: [['node-a', 0], ['node-b', 33], ['node-c', 100]],
    },
    {
      name: 'NodeAffinityPolicy ignored with nodeAffinity',
      pod: pod('p', { labels: foo, affinity: nodeAffinity('foo', 'In', ['']), spread: [spread(1, 'node', 'ScheduleAnyway', fooSelector, undefined, 'Ignore')] }),
      existing: policyPods(),
      nodes: [nl('node-a', foo), nl('node-b', foo), nl('node-c')],
      want: [['node-a', 66], ['node-b', 100], ['node-c', 100]],
    },
    {
      name: 'NodeTaintsPolicy honored',
      pod: pod('p', { labels: foo, spread: [spread(1, 'node', 'ScheduleAnyway', fooSelector, undefined, undefined, 'Honor')] }),
      existing: policyPods(),
      nodes: [nl('node-a'), nl('node-b'), nl('node-c', {}, true)],
      want: [['node-a', 0], ['node-b', 33], ['node-c', 100]],
    },
    {
      name: 'NodeTaintsPolicy ignored',
      pod: pod('p', { labels: foo, spread: [spread(1, 'node', 'ScheduleAnyway', fooSelector)] }),
      existing: policyPods(),
      nodes: [nl('node-a'), nl('node-b'), nl('node-c', {}, true)],
      want: [['node-a', 66], ['node-b', 100], ['node-c', 100]],
    },
    {
      name: 'matchLabelKeys ANDed with LabelSelector when LabelSelector is empty',
      pod: pod('p', {
        labels: foobar,
        spread: [spread(1, 'zone', 'ScheduleAnyway', {}, undefined, undefined, undefined, ['foo']), spread(1, HOSTNAME, 'ScheduleAnyway', {}, undefined, undefined, undefined, ['bar'])],
      }),
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foobar), p('p-y1', 'node-c', foo), p('p-y2', 'node-c', bar)],
      nodes: [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-c', 'zone2'), zh('node-d', 'zone2')],
      want: [['node-a', 60], ['node-b', 20], ['node-c', 60], ['node-d', 100]],
    },
    {
      name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
      pod: pod('p', {
        labels: { foo: '', bar: '', baz: '' },
        spread: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOSTNAME, 'ScheduleAnyway', barSelector, undefined, undefined, undefined, ['baz'])],
      }),
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', { foo: '', bar: '', baz: '' }), p('p-c1', 'node-c', foo), p('p-c2', 'node-c', bar), p('p-d3', 'node-c', { bar: '', baz: '' })],
      nodes: [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-c', 'zone2'), zh('node-d', 'zone2')],
      want: [['node-a', 60], ['node-b', 20], ['node-c', 60], ['node-d', 100]],
    },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      const { pl, infos } = plugin({ defaultingType: 'System' }, tc.existing ?? [], [...tc.nodes, ...(tc.failedNodes ?? [])], tc.objs);
      const filtered = infos.slice(0, tc.nodes.length);
      const cs = new CycleState();
      expect(pl.preScore(cs, tc.pod, filtered)).toBeNull();
      const scores: NodeScore[] = filtered.map((ni) => ({ name: ni.name, score: pl.score(cs, tc.pod, ni) as number }));
      expect(pl.normalizeScore(cs, tc.pod, scores)).toBeNull();
      expect(scores.map((s) => [s.name, s.score])).toEqual(tc.want);
    });
  }

  it('Score and NormalizeScore without PreScore are Errors', () => {
    const { pl, infos } = plugin({ defaultingType: 'List' }, [], [h('node-a')]);
    const msg = 'error reading "PreScorePodTopologySpread" from cycleState: not found';
    expect(pl.score(new CycleState(), pod('p'), infos[0]!)).toEqual({ code: 'Error', reasons: [msg] });
    expect(pl.normalizeScore(new CycleState(), pod('p'), [])).toEqual({ code: 'Error', reasons: [msg] });
  });

  it('the raw score is the weighted count plus maxSkew-1, rounded', () => {
    // 2 zones among the candidates: weight log(4); zone1 holds 3 matching pods.
    const pd = pod('p', { labels: foo, spread: [spread(2, 'zone', 'ScheduleAnyway', fooSelector)] });
    const { pl, infos } = plugin({ defaultingType: 'List' }, [p('p1', 'node-a', foo), p('p2', 'node-a', foo), p('p3', 'node-b', foo)], [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-x', 'zone2')]);
    const cs = new CycleState();
    pl.preScore(cs, pd, infos);
    expect(pl.score(cs, pd, infos[0]!)).toBe(Math.round(3 * Math.log(4) + 1));
    expect(pl.score(cs, pd, infos[2]!)).toBe(1);
  });
});

