// Ports of filtering_test.go (v1.32): TestPreFilterState, TestPreFilterStateAddPod,
// TestPreFilterStateRemovePod, TestSingleConstraint, TestMultipleConstraints.
// The NodeInclusionPolicy and MatchLabelKeys gates are on in v1.32; upstream
// cases that only exist to show a gate switched off are left out.
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../../apimachinery/types';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/api';
import { CycleState } from '../../framework/cycleState';
import { PodInfo } from '../../framework/podInfo';
import type { Code } from '../../framework/status';
import { MAX_INT32, PRE_FILTER_STATE_KEY, type PreFilterState } from './filtering';
import { PodTopologySpread, ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_NODE_LABEL_NOT_MATCH } from './index';
import { barSelector, fooSelector, handleFor, node, nodeAffinity, pod, service, snapshot, spread, taints, toleration } from './testHelpers';

type Paths = [[string, number], [string, number]];

function setup(pods: Pod[], nodes: Node[], defaultConstraints: TopologySpreadConstraint[] = [], objs: KObject[] = []) {
  const infos = snapshot(pods, nodes);
  const services = objs.filter((o) => o.kind === 'Service');
  const pl = new PodTopologySpread({ defaultingType: 'List', defaultConstraints }, handleFor(infos, { services }));
  return { pl, infos };
}

/** The state as upstream's tables write it; equal-count critical paths sorted by value (upstream's cmp option). */
function summarize(s: PreFilterState) {
  return {
    tp: s.tpValueToMatchNum.map((m) => Object.fromEntries(m)),
    paths: s.criticalPaths.map((p): Paths => {
      const a: Paths = [
        [p.value0, p.num0],
        [p.value1, p.num1],
      ];
      if (a[0][1] === a[1][1] && a[0][0] > a[1][0]) return [a[1], a[0]];
      return a;
    }),
  };
}

const n4 = () => [
  node('node-a', { zone: 'zone1', node: 'node-a' }),
  node('node-b', { zone: 'zone1', node: 'node-b' }),
  node('node-x', { zone: 'zone2', node: 'node-x' }),
  node('node-y', { zone: 'zone2', node: 'node-y' }),
];
const foo = { foo: '' };
const bar = { bar: '' };
const foobar = { foo: '', bar: '' };
const p = (name: string, nodeName: string, labels?: Record<string, string>, ns?: string) => pod(name, { node: nodeName, labels, ns });

describe('PodTopologySpread PreFilter state (TestPreFilterState)', () => {
  interface Case {
    name: string;
    pod: Pod;
    nodes?: Node[];
    existing?: Pod[];
    defaults?: TopologySpreadConstraint[];
    objs?: KObject[];
    want?: { tp: Record<string, number>[]; paths: Paths[] };
    wantSkip?: boolean;
    wantSelectors?: string[];
  }
  const cases: Case[] = [
    {
      name: 'clean cluster with one spreadConstraint',
      pod: pod('p', { labels: foo, spread: [spread(5, 'zone', 'DoNotSchedule', { matchLabels: { foo: 'bar' } })] }),
      nodes: n4(),
      want: { tp: [{ zone1: 0, zone2: 0 }], paths: [[['zone1', 0], ['zone2', 0]]] },
    },
    {
      name: 'normal case with one spreadConstraint',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector)] }),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-y1', 'node-y', foo), p('p-y2', 'node-y', foo)],
      want: { tp: [{ zone1: 3, zone2: 2 }], paths: [[['zone2', 2], ['zone1', 3]]] },
    },
    {
      name: 'normal case with null label selector',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', null)] }),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-y1', 'node-y', foo), p('p-y2', 'node-y', foo)],
      want: { tp: [{ zone1: 0, zone2: 0 }], paths: [[['zone1', 0], ['zone2', 0]]] },
    },
    {
      name: 'normal case with one spreadConstraint, on a 3-zone cluster',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector)] }),
      nodes: [...n4(), node('node-o', { zone: 'zone3', node: 'node-o' }), node('node-p', { zone: 'zone3', node: 'node-p' })],
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-y1', 'node-y', foo), p('p-y2', 'node-y', foo)],
      want: { tp: [{ zone1: 3, zone2: 2, zone3: 0 }], paths: [[['zone3', 0], ['zone2', 2]]] },
    },
    {
      name: "namespace mismatch doesn't count",
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector)] }),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo, 'ns1'), p('p-b1', 'node-b', foo), p('p-y1', 'node-y', foo, 'ns2'), p('p-y2', 'node-y', foo)],
      want: { tp: [{ zone1: 2, zone2: 1 }], paths: [[['zone2', 1], ['zone1', 2]]] },
    },
    {
      name: 'normal case with two spreadConstraints',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)] }),
      nodes: n4(),
      existing: [
        p('p-a1', 'node-a', foo),
        p('p-a2', 'node-a', foo),
        p('p-b1', 'node-b', foo),
        p('p-y1', 'node-y', foo),
        p('p-y2', 'node-y', foo),
        p('p-y3', 'node-y', foo),
        p('p-y4', 'node-y', foo),
      ],
      want: {
        tp: [
          { zone1: 3, zone2: 4 },
          { 'node-a': 2, 'node-b': 1, 'node-x': 0, 'node-y': 4 },
        ],
        paths: [
          [['zone1', 3], ['zone2', 4]],
          [['node-x', 0], ['node-b', 1]],
        ],
      },
    },
    {
      name: 'soft spreadConstraints should be bypassed',
      pod: pod('p', {
        labels: foo,
        spread: [
          spread(1, 'zone', 'ScheduleAnyway', fooSelector),
          spread(1, 'zone', 'DoNotSchedule', fooSelector),
          spread(1, 'node', 'ScheduleAnyway', fooSelector),
          spread(1, 'node', 'DoNotSchedule', fooSelector),
        ],
      }),
      nodes: [node('node-a', { zone: 'zone1', node: 'node-a' }), node('node-b', { zone: 'zone1', node: 'node-b' }), node('node-y', { zone: 'zone2', node: 'node-y' })],
      existing: [
        p('p-a1', 'node-a', foo),
        p('p-a2', 'node-a', foo),
        p('p-b1', 'node-b', foo),
        p('p-y1', 'node-y', foo),
        p('p-y2', 'node-y', foo),
        p('p-y3', 'node-y', foo),
        p('p-y4', 'node-y', foo),
      ],
      want: {
        tp: [
          { zone1: 3, zone2: 4 },
          { 'node-a': 2, 'node-b': 1, 'node-y': 4 },
        ],
        paths: [
          [['zone1', 3], ['zone2', 4]],
          [['node-b', 1], ['node-a', 2]],
        ],
      },
    },
    {
      name: 'different labelSelectors - simple version',
      pod: pod('p', { labels: foobar, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', barSelector)] }),
      nodes: [node('node-a', { zone: 'zone1', node: 'node-a' }), node('node-b', { zone: 'zone1', node: 'node-b' }), node('node-y', { zone: 'zone2', node: 'node-y' })],
      existing: [p('p-a', 'node-a', foo), p('p-b', 'node-b', bar)],
      want: {
        tp: [
          { zone1: 1, zone2: 0 },
          { 'node-a': 0, 'node-b': 1, 'node-y': 0 },
        ],
        paths: [
          [['zone2', 0], ['zone1', 1]],
          [['node-a', 0], ['node-y', 0]],
        ],
      },
    },
    {
      name: 'different labelSelectors - complex pods',
      pod: pod('p', { labels: foobar, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', barSelector)] }),
      nodes: [node('node-a', { zone: 'zone1', node: 'node-a' }), node('node-b', { zone: 'zone1', node: 'node-b' }), node('node-y', { zone: 'zone2', node: 'node-y' })],
      existing: [
        p('p-a1', 'node-a', foo),
        p('p-a2', 'node-a', foobar),
        p('p-b1', 'node-b', foo),
        p('p-y1', 'node-y', foo),
        p('p-y2', 'node-y', foobar),
        p('p-y3', 'node-y', foo),
        p('p-y4', 'node-y', foobar),
      ],
      want: {
        tp: [
          { zone1: 3, zone2: 4 },
          { 'node-a': 1, 'node-b': 0, 'node-y': 2 },
        ],
        paths: [
          [['zone1', 3], ['zone2', 4]],
          [['node-b', 0], ['node-a', 1]],
        ],
      },
    },
    {
      name: 'two spreadConstraints, and with podAffinity',
      pod: pod('p', {
        labels: foo,
        affinity: nodeAffinity('node', 'NotIn', ['node-x']),
        spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)],
      }),
      nodes: n4(),
      existing: [
        p('p-a1', 'node-a', foo),
        p('p-a2', 'node-a', foo),
        p('p-b1', 'node-b', foo),
        p('p-y1', 'node-y', foo),
        p('p-y2', 'node-y', foo),
        p('p-y3', 'node-y', foo),
        p('p-y4', 'node-y', foo),
      ],
      want: {
        tp: [
          { zone1: 3, zone2: 4 },
          { 'node-a': 2, 'node-b': 1, 'node-y': 4 },
        ],
        paths: [
          [['zone1', 3], ['zone2', 4]],
          [['node-b', 1], ['node-a', 2]],
        ],
      },
    },
    {
      name: 'default constraints and a service',
      pod: pod('p', { labels: { foo: 'bar', baz: 'kar' } }),
      defaults: [
        { maxSkew: 3, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' },
        { maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway' },
        { maxSkew: 5, topologyKey: 'rack', whenUnsatisfiable: 'DoNotSchedule' },
      ],
      objs: [service('default', 's', { foo: 'bar' })],
      want: { tp: [{}, {}], paths: [[['', MAX_INT32], ['', MAX_INT32]], [['', MAX_INT32], ['', MAX_INT32]]] },
      wantSelectors: ['foo=bar', 'foo=bar'],
    },
    {
      name: "default constraints and a service that doesn't match",
      pod: pod('p', { labels: { foo: 'bar' } }),
      defaults: [{ maxSkew: 3, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' }],
      objs: [service('default', 's', { baz: 'kep' })],
      wantSkip: true,
    },
    {
      name: 'default constraints and a service, but pod has constraints',
      pod: pod('p', {
        labels: { foo: 'bar', baz: 'tar' },
        spread: [spread(1, 'zone', 'DoNotSchedule', { matchLabels: { baz: 'tar' } }), spread(2, 'planet', 'ScheduleAnyway', { matchLabels: { fot: 'rok' } })],
      }),
      defaults: [{ maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' }],
      objs: [service('default', 's', { foo: 'bar' })],
      want: { tp: [{}], paths: [[['', MAX_INT32], ['', MAX_INT32]]] },
      wantSelectors: ['baz=tar'],
    },
    {
      name: 'default soft constraints and a service',
      pod: pod('p', { labels: { foo: 'bar' } }),
      defaults: [{ maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway' }],
      objs: [service('default', 's', { foo: 'bar' })],
      wantSkip: true,
    },
    {
      name: 'NodeAffinityPolicy honored with labelSelectors',
      pod: pod('p', { labels: foo, nodeSelector: { foo: '' }, spread: [spread(1, 'node', 'DoNotSchedule', barSelector)] }),
      nodes: [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c', bar: '' })],
      existing: [p('p-a', 'node-a', bar), p('p-b', 'node-b', bar), p('p-c', 'node-b', bar), p('p-d', 'node-c')],
      want: { tp: [{ 'node-a': 1, 'node-b': 2 }], paths: [[['node-a', 1], ['node-b', 2]]] },
    },
    {
      name: 'NodeAffinityPolicy ignored with labelSelectors',
      pod: pod('p', { labels: foo, nodeSelector: { foo: '' }, spread: [spread(1, 'node', 'DoNotSchedule', barSelector, undefined, 'Ignore')] }),
      nodes: [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c', bar: '' })],
      existing: [p('p-a', 'node-a', bar), p('p-b', 'node-b', bar), p('p-c', 'node-b', bar), p('p-d', 'node-c')],
      want: { tp: [{ 'node-a': 1, 'node-b': 2, 'node-c': 0 }], paths: [[['node-c', 0], ['node-a', 1]]] },
    },
    {
      name: 'NodeAffinityPolicy honored with nodeAffinity',
      pod: pod('p', { labels: foo, affinity: nodeAffinity('foo', 'In', ['']), spread: [spread(1, 'node', 'DoNotSchedule', barSelector)] }),
      nodes: [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c', bar: '' })],
      existing: [p('p-a', 'node-a', bar), p('p-c', 'node-b', bar), p('p-d', 'node-b', bar), p('p-e', 'node-c')],
      want: { tp: [{ 'node-a': 1, 'node-b': 2 }], paths: [[['node-a', 1], ['node-b', 2]]] },
    },
    {
      name: 'NodeAffinityPolicy ignored with nodeAffinity',
      pod: pod('p', { labels: foo, affinity: nodeAffinity('foo', 'In', ['']), spread: [spread(1, 'node', 'DoNotSchedule', barSelector, undefined, 'Ignore')] }),
      nodes: [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c', bar: '' })],
      existing: [p('p-a', 'node-a', bar), p('p-b', 'node-b', bar), p('p-c', 'node-b', bar), p('p-d', 'node-c')],
      want: { tp: [{ 'node-a': 1, 'node-b': 2, 'node-c': 0 }], paths: [[['node-c', 0], ['node-a', 1]]] },
    },
    {
      name: 'NodeTaintsPolicy ignored',
      pod: pod('p', { labels: foo, spread: [spread(1, 'node', 'DoNotSchedule', barSelector)] }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c', bar: '' }, taints)],
      existing: [p('p-a', 'node-a', bar), p('p-b', 'node-b', bar), p('p-c', 'node-b', bar), p('p-d', 'node-c')],
      want: { tp: [{ 'node-a': 1, 'node-b': 2, 'node-c': 0 }], paths: [[['node-c', 0], ['node-a', 1]]] },
    },
    {
      name: 'NodeTaintsPolicy honored',
      pod: pod('p', { labels: foo, spread: [spread(1, 'node', 'DoNotSchedule', barSelector, undefined, undefined, 'Honor')] }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c', bar: '' }, taints)],
      existing: [p('p-a', 'node-a', bar), p('p-b', 'node-b', bar), p('p-c', 'node-b', bar), p('p-d', 'node-c')],
      want: { tp: [{ 'node-a': 1, 'node-b': 2 }], paths: [[['node-a', 1], ['node-b', 2]]] },
    },
    {
      name: 'NodeTaintsPolicy honored with tolerated taints',
      pod: pod('p', {
        labels: foo,
        tolerations: [toleration('node.kubernetes.io/unschedulable')],
        spread: [spread(1, 'node', 'DoNotSchedule', barSelector, undefined, undefined, 'Honor')],
      }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c', bar: '' }, taints)],
      existing: [p('p-a', 'node-a', bar), p('p-b', 'node-b', bar), p('p-c', 'node-b', bar), p('p-d', 'node-c')],
      want: { tp: [{ 'node-a': 1, 'node-b': 2, 'node-c': 0 }], paths: [[['node-c', 0], ['node-a', 1]]] },
    },
    {
      name: 'two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore',
      pod: pod('p', {
        labels: foo,
        nodeSelector: { foo: '' },
        spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector, undefined, 'Ignore')],
      }),
      nodes: [
        node('node-a', { zone: 'zone1', node: 'node-a', foo: '' }),
        node('node-b', { zone: 'zone1', node: 'node-b' }),
        node('node-x', { zone: 'zone2', node: 'node-x', foo: '' }),
      ],
      existing: [p('p-b1', 'node-b', foo), p('p-b2', 'node-b', foo), p('p-x1', 'node-x', foo)],
      want: {
        tp: [
          { zone1: 0, zone2: 1 },
          { 'node-a': 0, 'node-b': 2, 'node-x': 1 },
        ],
        paths: [
          [['zone1', 0], ['zone2', 1]],
          [['node-a', 0], ['node-x', 1]],
        ],
      },
    },
    {
      name: 'two node inclusion Constraints, zone: honor/honor, node: honor/ignore',
      pod: pod('p', {
        labels: foo,
        spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector, undefined, undefined, 'Honor'), spread(1, 'node', 'DoNotSchedule', fooSelector)],
      }),
      nodes: [
        node('node-a', { zone: 'zone1', node: 'node-a', foo: '' }),
        node('node-b', { zone: 'zone1', node: 'node-b' }, taints),
        node('node-x', { zone: 'zone2', node: 'node-x', foo: '' }),
      ],
      existing: [p('p-b1', 'node-b', foo), p('p-b2', 'node-b', foo), p('p-x1', 'node-x', foo)],
      want: {
        tp: [
          { zone1: 0, zone2: 1 },
          { 'node-a': 0, 'node-b': 2, 'node-x': 1 },
        ],
        paths: [
          [['zone1', 0], ['zone2', 1]],
          [['node-a', 0], ['node-x', 1]],
        ],
      },
    },
    {
      name: 'two node inclusion Constraints, zone: honor/ignore, node: honor/ignore',
      pod: pod('p', { labels: foo, nodeSelector: { foo: '' }, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)] }),
      nodes: [
        node('node-a', { zone: 'zone1', node: 'node-a' }),
        node('node-b', { zone: 'zone1', node: 'node-b', foo: '' }, taints),
        node('node-x', { zone: 'zone2', node: 'node-x', foo: '' }),
        node('node-y', { zone: 'zone2', node: 'node-y' }),
      ],
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-x1', 'node-x', foo), p('p-y1', 'node-y', foo)],
      want: {
        tp: [
          { zone1: 0, zone2: 1 },
          { 'node-b': 0, 'node-x': 1 },
        ],
        paths: [
          [['zone1', 0], ['zone2', 1]],
          [['node-b', 0], ['node-x', 1]],
        ],
      },
    },
    {
      name: 'two node inclusion Constraints, zone: ignore/ignore, node: honor/honor',
      pod: pod('p', {
        labels: foo,
        nodeSelector: { foo: '' },
        spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector, undefined, 'Ignore'), spread(1, 'node', 'DoNotSchedule', fooSelector, undefined, undefined, 'Honor')],
      }),
      nodes: [
        node('node-a', { zone: 'zone1', node: 'node-a' }),
        node('node-b', { zone: 'zone1', node: 'node-b', foo: '' }, taints),
        node('node-x', { zone: 'zone2', node: 'node-x', foo: '' }),
        node('node-y', { zone: 'zone2', node: 'node-y', foo: '' }),
      ],
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-x1', 'node-x', foo), p('p-x2', 'node-x', foo), p('p-y1', 'node-y', foo)],
      want: {
        tp: [
          { zone1: 2, zone2: 3 },
          { 'node-x': 2, 'node-y': 1 },
        ],
        paths: [
          [['zone1', 2], ['zone2', 3]],
          [['node-y', 1], ['node-x', 2]],
        ],
      },
    },
    {
      name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
      pod: pod('p', { labels: { foo: '', bar: 'a' }, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector, undefined, undefined, undefined, ['bar'])] }),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', { foo: '', bar: 'a' }), p('p-b1', 'node-b', foo), p('p-y1', 'node-y', { foo: '', bar: 'a' }), p('p-y2', 'node-y', bar)],
      want: { tp: [{ zone1: 1, zone2: 1 }], paths: [[['zone1', 1], ['zone2', 1]]] },
      wantSelectors: ['bar=a,foo'],
    },
    {
      name: 'matchLabelKeys ANDed with LabelSelector when LabelSelector is empty',
      pod: pod('p', { labels: { foo: 'a' }, spread: [spread(1, 'zone', 'DoNotSchedule', {}, undefined, undefined, undefined, ['foo'])] }),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', { foo: 'a' }), p('p-a2', 'node-a', { foo: 'a' }), p('p-b1', 'node-b', { foo: 'a' }), p('p-y1', 'node-y', { foo: 'a' }), p('p-y2', 'node-y', { foo: 'a' })],
      want: { tp: [{ zone1: 3, zone2: 2 }], paths: [[['zone2', 2], ['zone1', 3]]] },
      wantSelectors: ['foo=a'],
    },
    {
      name: 'key in matchLabelKeys is ignored when LabelSelector is nil when feature gate enabled',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', null, undefined, undefined, undefined, ['bar'])] }),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', { foo: 'a' }), p('p-a2', 'node-a', { foo: 'a' }), p('p-b1', 'node-b', { foo: 'a' }), p('p-y1', 'node-y', { foo: 'a' }), p('p-y2', 'node-y', { foo: 'a' })],
      want: { tp: [{ zone1: 0, zone2: 0 }], paths: [[['zone1', 0], ['zone2', 0]]] },
    },
    {
      name: "key in matchLabelKeys is ignored when it isn't exist in pod.labels",
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector, undefined, undefined, undefined, ['bar'])] }),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', { foo: 'a' }), p('p-a2', 'node-a', { foo: 'a' }), p('p-b1', 'node-b', { foo: 'a' }), p('p-y1', 'node-y', { foo: 'a' }), p('p-y2', 'node-y', { foo: 'a' })],
      want: { tp: [{ zone1: 3, zone2: 2 }], paths: [[['zone2', 2], ['zone1', 3]]] },
      wantSelectors: ['foo'],
    },
    {
      name: 'two spreadConstraints with the same topologyKey',
      pod: pod('p', { labels: foobar, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'zone', 'DoNotSchedule', barSelector)] }),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foobar), p('p-b1', 'node-b', foo), p('p-x1', 'node-x', bar), p('p-y1', 'node-y', foobar), p('p-y2', 'node-y', bar)],
      want: {
        tp: [
          { zone1: 2, zone2: 1 },
          { zone1: 1, zone2: 3 },
        ],
        paths: [
          [['zone2', 1], ['zone1', 2]],
          [['zone1', 1], ['zone2', 3]],
        ],
      },
    },
    {
      name: 'skip if not specified',
      pod: pod('p', { labels: foo }),
      nodes: [node('node-a', { zone: 'zone1', node: 'node-a' })],
      wantSkip: true,
    },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      const { pl, infos } = setup(tc.existing ?? [], tc.nodes ?? [], tc.defaults, tc.objs);
      const cs = new CycleState();
      const { status } = pl.preFilter(cs, tc.pod, infos);
      if (tc.wantSkip) {
        expect(status?.code).toBe('Skip');
        return;
      }
      expect(status).toBeNull();
      const s = cs.read(PRE_FILTER_STATE_KEY)!;
      expect(summarize(s)).toEqual(tc.want);
      if (tc.wantSelectors) {
        const printed = s.constraints.map((c) => (c.selector.type === 'Nothing' ? '<nothing>' : c.selector.requirements.map((r) => (r.operator === 'exists' ? r.key : `${r.key}=${r.values[0]}`)).join(',')));
        expect(printed).toEqual(tc.wantSelectors);
      }
    });
  }

  it('the constraints carry the defaults (minDomains 1, Honor/Ignore) and a null selector selects nothing', () => {
    const { pl, infos } = setup([], n4());
    const cs = new CycleState();
    pl.preFilter(cs, pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', null)] }), infos);
    const c = cs.read(PRE_FILTER_STATE_KEY)!.constraints[0]!;
    expect(c).toEqual({ maxSkew: 1, topologyKey: 'zone', selector: { type: 'Nothing' }, minDomains: 1, nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore' });
  });

  it('a bad selector is an Error status', () => {
    const { pl, infos } = setup([], n4());
    const bad = pod('p', { spread: [spread(1, 'zone', 'DoNotSchedule', { matchExpressions: [{ key: 'foo', operator: 'Bogus' }] })] });
    const { status } = pl.preFilter(new CycleState(), bad, infos);
    expect(status?.code).toBe('Error');
    expect(status?.reasons[0]).toBe(`get constraints from pod: obtaining pod's hard topology spread constraints: "Bogus" is not a valid pod selector operator`);
  });
});

// TestPreFilterStateAddPod / TestPreFilterStateRemovePod.
describe('PodTopologySpread PreFilterExtensions', () => {
  const zoneNode = (policy?: { aff?: 'NotIn'; tol?: boolean }) =>
    pod('p', {
      labels: foo,
      ...(policy?.aff ? { affinity: nodeAffinity('foo', 'NotIn', ['bar']) } : {}),
      ...(policy?.tol ? { tolerations: [toleration('node.kubernetes.io/unschedulable')] } : {}),
      spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector)],
    });
  const nodeOnly = pod('p', { labels: foo, spread: [spread(1, 'node', 'DoNotSchedule', fooSelector)] });
  const zoneAndNode = pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)] });
  const zoneFooNodeBar = pod('p', { labels: foobar, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', barSelector)] });
  const ab = () => [node('node-a', { zone: 'zone1', node: 'node-a' }), node('node-b', { zone: 'zone1', node: 'node-b' })];
  const ax = () => [node('node-a', { zone: 'zone1', node: 'node-a' }), node('node-x', { zone: 'zone2', node: 'node-x' })];
  const abx = () => [node('node-a', { zone: 'zone1', node: 'node-a' }), node('node-b', { zone: 'zone1', node: 'node-b' }), node('node-x', { zone: 'zone2', node: 'node-x' })];
  const affNodes = () => [node('node-a', { zone: 'zone1', node: 'node-a', foo: 'bar' }), node('node-b', { zone: 'zone2', node: 'node-b', foo: '' })];
  const taintNodes = () => [node('node-a', { zone: 'zone1', node: 'node-a' }, taints), node('node-b', { zone: 'zone2', node: 'node-b' })];

  interface AddCase {
    name: string;
    preemptor: Pod;
    added: Pod;
    existing: Pod[];
    nodeIdx: number;
    nodes: Node[];
    want: { tp: Record<string, number>[]; paths: Paths[] };
  }
  const addCases: AddCase[] = [
    {
      name: 'node a and b both impact current min match',
      preemptor: nodeOnly,
      added: p('p-a1', 'node-a', foo),
      existing: [],
      nodeIdx: 0,
      nodes: ab(),
      want: { tp: [{ 'node-a': 1, 'node-b': 0 }], paths: [[['node-b', 0], ['node-a', 1]]] },
    },
    {
      name: 'only node a impacts current min match',
      preemptor: nodeOnly,
      added: p('p-a1', 'node-a', foo),
      existing: [p('p-b1', 'node-b', foo)],
      nodeIdx: 0,
      nodes: ab(),
      want: { tp: [{ 'node-a': 1, 'node-b': 1 }], paths: [[['node-a', 1], ['node-b', 1]]] },
    },
    {
      name: "add a pod in a different namespace doesn't change topologyKeyToMinPodsMap",
      preemptor: nodeOnly,
      added: p('p-a1', 'node-a', foo, 'ns1'),
      existing: [p('p-b1', 'node-b', foo)],
      nodeIdx: 0,
      nodes: ab(),
      want: { tp: [{ 'node-a': 0, 'node-b': 1 }], paths: [[['node-a', 0], ['node-b', 1]]] },
    },
    {
      name: "add pod on non-critical node won't trigger re-calculation",
      preemptor: nodeOnly,
      added: p('p-b2', 'node-b', foo),
      existing: [p('p-b1', 'node-b', foo)],
      nodeIdx: 1,
      nodes: ab(),
      want: { tp: [{ 'node-a': 0, 'node-b': 2 }], paths: [[['node-a', 0], ['node-b', 2]]] },
    },
    {
      name: 'node a and x both impact topologyKeyToMinPodsMap on zone and node',
      preemptor: zoneAndNode,
      added: p('p-a1', 'node-a', foo),
      existing: [],
      nodeIdx: 0,
      nodes: ax(),
      want: {
        tp: [
          { zone1: 1, zone2: 0 },
          { 'node-a': 1, 'node-x': 0 },
        ],
        paths: [
          [['zone2', 0], ['zone1', 1]],
          [['node-x', 0], ['node-a', 1]],
        ],
      },
    },
    {
      name: 'only node a impacts topologyKeyToMinPodsMap on zone and node',
      preemptor: zoneAndNode,
      added: p('p-a1', 'node-a', foo),
      existing: [p('p-x1', 'node-x', foo)],
      nodeIdx: 0,
      nodes: ax(),
      want: {
        tp: [
          { zone1: 1, zone2: 1 },
          { 'node-a': 1, 'node-x': 1 },
        ],
        paths: [
          [['zone1', 1], ['zone2', 1]],
          [['node-a', 1], ['node-x', 1]],
        ],
      },
    },
    {
      name: 'node a impacts topologyKeyToMinPodsMap on node, node x impacts topologyKeyToMinPodsMap on zone',
      preemptor: zoneAndNode,
      added: p('p-a1', 'node-a', foo),
      existing: [p('p-b1', 'node-b', foo), p('p-b2', 'node-b', foo), p('p-x1', 'node-x', foo)],
      nodeIdx: 0,
      nodes: abx(),
      want: {
        tp: [
          { zone1: 3, zone2: 1 },
          { 'node-a': 1, 'node-b': 2, 'node-x': 1 },
        ],
        paths: [
          [['zone2', 1], ['zone1', 3]],
          [['node-a', 1], ['node-x', 1]],
        ],
      },
    },
    {
      name: 'Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on zone',
      preemptor: zoneFooNodeBar,
      added: p('p-a1', 'node-a', foo),
      existing: [p('p-b1', 'node-b', foobar), p('p-x1', 'node-x', foobar), p('p-x2', 'node-x', bar)],
      nodeIdx: 0,
      nodes: abx(),
      want: {
        tp: [
          { zone1: 2, zone2: 1 },
          { 'node-a': 0, 'node-b': 1, 'node-x': 2 },
        ],
        paths: [
          [['zone2', 1], ['zone1', 2]],
          [['node-a', 0], ['node-b', 1]],
        ],
      },
    },
    {
      name: 'Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on both zone and node',
      preemptor: zoneFooNodeBar,
      added: p('p-a1', 'node-a', foobar),
      existing: [p('p-b1', 'node-b', bar), p('p-x1', 'node-x', foobar), p('p-x2', 'node-x', bar)],
      nodeIdx: 0,
      nodes: abx(),
      want: {
        tp: [
          { zone1: 1, zone2: 1 },
          { 'node-a': 1, 'node-b': 1, 'node-x': 2 },
        ],
        paths: [
          [['zone1', 1], ['zone2', 1]],
          [['node-a', 1], ['node-b', 1]],
        ],
      },
    },
    {
      name: 'add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled',
      preemptor: zoneNode({ aff: 'NotIn' }),
      added: p('p-a1', 'node-a', { foo: '', zone: 'zone1' }),
      existing: [p('p-a2', 'node-a', { foo: '', zone: 'zone1' }), p('p-b1', 'node-b', { foo: '', zone: 'zone2' })],
      nodeIdx: 0,
      nodes: affNodes(),
      want: { tp: [{ zone2: 1 }], paths: [[['zone2', 1], ['', MAX_INT32]]] },
    },
    {
      name: 'add a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled',
      preemptor: zoneNode(),
      added: p('p-b1', 'node-b', { foo: '', zone: 'zone2' }),
      existing: [p('p-a1', 'node-a', { foo: '', zone: 'zone1' }), p('p-b2', 'node-b', { foo: '', zone: 'zone2' })],
      nodeIdx: 1,
      nodes: affNodes(),
      want: { tp: [{ zone1: 1, zone2: 2 }], paths: [[['zone1', 1], ['zone2', 2]]] },
    },
    {
      name: 'add a label selector not matched pod when with NodeInclusionPolicy enabled',
      preemptor: zoneNode(),
      added: p('p-b1', 'node-b', { zone: 'zone2' }),
      existing: [p('p-a1', 'node-a', { foo: '', zone: 'zone1' }), p('p-b2', 'node-b', { foo: '', zone: 'zone2' })],
      nodeIdx: 1,
      nodes: affNodes(),
      want: { tp: [{ zone1: 1, zone2: 1 }], paths: [[['zone1', 1], ['zone2', 1]]] },
    },
    {
      name: 'add a pod when scheduling taint untolerated pod (taints ignored by default)',
      preemptor: zoneNode(),
      added: p('p-b1', 'node-b', { foo: '', zone: 'zone2' }),
      existing: [p('p-a1', 'node-a', { foo: '', zone: 'zone1' }), p('p-b2', 'node-b', { foo: '', zone: 'zone2' })],
      nodeIdx: 1,
      nodes: taintNodes(),
      want: { tp: [{ zone1: 1, zone2: 2 }], paths: [[['zone1', 1], ['zone2', 2]]] },
    },
    {
      name: 'add a pod when scheduling taint tolerated pod with NodeInclusionPolicy enabled',
      preemptor: zoneNode({ tol: true }),
      added: p('p-b1', 'node-b', { foo: '', zone: 'zone2' }),
      existing: [p('p-a1', 'node-a', { foo: '', zone: 'zone1' }), p('p-b2', 'node-b', { foo: '', zone: 'zone2' })],
      nodeIdx: 1,
      nodes: taintNodes(),
      want: { tp: [{ zone1: 1, zone2: 2 }], paths: [[['zone1', 1], ['zone2', 2]]] },
    },
  ];

  for (const tc of addCases) {
    it(`AddPod: ${tc.name}`, () => {
      const { pl, infos } = setup(tc.existing, tc.nodes);
      const cs = new CycleState();
      expect(pl.preFilter(cs, tc.preemptor, infos).status).toBeNull();
      expect(pl.addPod(cs, tc.preemptor, new PodInfo(tc.added), infos[tc.nodeIdx]!)).toBeNull();
      expect(summarize(cs.read(PRE_FILTER_STATE_KEY)!)).toEqual(tc.want);
    });
  }

  interface RemoveCase {
    name: string;
    preemptor: Pod;
    nodes: Node[];
    existing: Pod[];
    /** existing[deletedPodIdx] when in range, else deletedPod (upstream's rule; the index defaults to 0). */
    deletedPodIdx?: number;
    deletedPod?: Pod;
    nodeIdx: number;
    want: { tp: Record<string, number>[]; paths: Paths[] };
  }
  const zoneOnly = pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector)] });
  const removeCases: RemoveCase[] = [
    {
      name: 'one spreadConstraint on zone, topologyKeyToMinPodsMap unchanged',
      preemptor: zoneOnly,
      nodes: abx(),
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-x1', 'node-x', foo)],
      deletedPodIdx: 0,
      nodeIdx: 0,
      want: { tp: [{ zone1: 1, zone2: 1 }], paths: [[['zone1', 1], ['zone2', 1]]] },
    },
    {
      name: 'one spreadConstraint on node, topologyKeyToMinPodsMap changed',
      preemptor: zoneOnly,
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-x1', 'node-x', foo), p('p-y1', 'node-y', foo)],
      deletedPodIdx: 0,
      nodeIdx: 0,
      want: { tp: [{ zone1: 1, zone2: 2 }], paths: [[['zone1', 1], ['zone2', 2]]] },
    },
    {
      name: "delete an irrelevant pod won't help",
      preemptor: zoneOnly,
      nodes: n4(),
      existing: [p('p-a0', 'node-a', bar), p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-x1', 'node-x', foo), p('p-y1', 'node-y', foo)],
      deletedPodIdx: 0,
      nodeIdx: 0,
      want: { tp: [{ zone1: 2, zone2: 2 }], paths: [[['zone1', 2], ['zone2', 2]]] },
    },
    {
      name: "delete a non-existing pod won't help",
      preemptor: zoneOnly,
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-x1', 'node-x', foo), p('p-y1', 'node-y', foo)],
      deletedPodIdx: -1,
      deletedPod: p('p-a0', 'node-a', bar),
      nodeIdx: 0,
      want: { tp: [{ zone1: 2, zone2: 2 }], paths: [[['zone1', 2], ['zone2', 2]]] },
    },
    {
      name: 'two spreadConstraints',
      preemptor: zoneAndNode,
      nodes: abx(),
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-x1', 'node-x', foo), p('p-x2', 'node-x', foo)],
      deletedPodIdx: 3,
      nodeIdx: 2,
      want: {
        tp: [
          { zone1: 3, zone2: 1 },
          { 'node-a': 2, 'node-b': 1, 'node-x': 1 },
        ],
        paths: [
          [['zone2', 1], ['zone1', 3]],
          [['node-b', 1], ['node-x', 1]],
        ],
      },
    },
    {
      name: 'remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled',
      preemptor: zoneNode({ aff: 'NotIn' }),
      nodes: affNodes(),
      existing: [p('p-a2', 'node-a', { foo: '', zone: 'zone1' }), p('p-b1', 'node-b', { foo: '', zone: 'zone2' })],
      deletedPod: p('p-a1', 'node-a', { foo: '', zone: 'zone1' }),
      nodeIdx: 0,
      want: { tp: [{ zone2: 1 }], paths: [[['zone2', 1], ['', MAX_INT32]]] },
    },
    {
      name: 'remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled',
      preemptor: zoneNode(),
      nodes: affNodes(),
      existing: [p('p-a1', 'node-a', { foo: '', zone: 'zone1' }), p('p-b2', 'node-b', { foo: '', zone: 'zone2' })],
      deletedPod: p('p-b1', 'node-b', { foo: '', zone: 'zone2' }),
      nodeIdx: 1,
      want: { tp: [{ zone1: 1, zone2: 0 }], paths: [[['zone2', 0], ['zone1', 1]]] },
    },
  ];

  for (const tc of removeCases) {
    it(`RemovePod: ${tc.name}`, () => {
      const { pl, infos } = setup(tc.existing, tc.nodes);
      const cs = new CycleState();
      expect(pl.preFilter(cs, tc.preemptor, infos).status).toBeNull();
      const idx = tc.deletedPodIdx ?? 0;
      const deleted = idx >= 0 && idx < tc.existing.length ? tc.existing[idx]! : tc.deletedPod!;
      expect(pl.removePod(cs, tc.preemptor, new PodInfo(deleted), infos[tc.nodeIdx]!)).toBeNull();
      expect(summarize(cs.read(PRE_FILTER_STATE_KEY)!)).toEqual(tc.want);
    });
  }

  it('clone() copies the counts: a what-if on the copy leaves the original alone', () => {
    const { pl, infos } = setup([p('p-b1', 'node-b', foo)], ab());
    const cs = new CycleState();
    pl.preFilter(cs, nodeOnly, infos);
    const copy = cs.clone();
    pl.addPod(copy, nodeOnly, new PodInfo(p('p-a1', 'node-a', foo)), infos[0]!);
    expect(summarize(copy.read(PRE_FILTER_STATE_KEY)!).tp).toEqual([{ 'node-a': 1, 'node-b': 1 }]);
    expect(summarize(cs.read(PRE_FILTER_STATE_KEY)!).tp).toEqual([{ 'node-a': 0, 'node-b': 1 }]);
    // node-b: 1 + 1 - 0 > 1 on the original; 1 + 1 - 1 <= 1 on the copy, where node-a now holds a pod too.
    expect(pl.filter(cs, nodeOnly, infos[1]!)?.reasons).toEqual([ERR_REASON_CONSTRAINTS_NOT_MATCH]);
    expect(pl.filter(copy, nodeOnly, infos[1]!)).toBeNull();
  });
});

describe('PodTopologySpread Filter', () => {
  interface Case {
    name: string;
    pod: Pod;
    nodes: Node[];
    existing?: Pod[];
    want: Record<string, Code | 'Success'>;
  }
  const S = 'Success' as const;
  const U: Code = 'Unschedulable';
  const UU: Code = 'UnschedulableAndUnresolvable';
  const zoneFoo = (max = 1, extra: Partial<TopologySpreadConstraint> = {}) => ({ ...spread(max, 'zone', 'DoNotSchedule', fooSelector), ...extra });
  const nodeFoo = (max = 1, extra: Partial<TopologySpreadConstraint> = {}) => ({ ...spread(max, 'node', 'DoNotSchedule', fooSelector), ...extra });
  const nodesOnly = (ys?: { yLabels?: Record<string, string>; yTaints?: boolean }) => [
    node('node-a', { node: 'node-a', foo: '' }),
    node('node-b', { node: 'node-b', foo: '' }),
    node('node-x', { node: 'node-x', foo: '' }),
    node('node-y', { node: 'node-y', ...(ys?.yLabels ?? {}) }, ys?.yTaints ? taints : undefined),
  ];
  const abOnly = [p('p-b1', 'node-a', foo), p('p-b2', 'node-b', foo), p('p-y1', 'node-y', foo)];
  const spread2103 = () => [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-y1', 'node-y', foo), p('p-y2', 'node-y', foo), p('p-y3', 'node-y', foo)];

  // TestSingleConstraint
  const single: Case[] = [
    { name: 'no existing pods', pod: pod('p', { labels: foo, spread: [zoneFoo()] }), nodes: n4(), want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S } },
    {
      name: "no existing pods, incoming pod doesn't match itself",
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', barSelector)] }),
      nodes: n4(),
      want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    },
    {
      name: 'existing pods in a different namespace do not count',
      pod: pod('p', { labels: foo, spread: [zoneFoo()] }),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo, 'ns1'), p('p-b1', 'node-a', foo, 'ns2'), p('p-x1', 'node-x', foo), p('p-y1', 'node-y', foo)],
      want: { 'node-a': S, 'node-b': S, 'node-x': U, 'node-y': U },
    },
    {
      name: 'existing pods do not match null selector',
      pod: pod('p', { labels: foo, spread: [spread(1, 'zone', 'DoNotSchedule', null)] }),
      nodes: n4(),
      existing: [p('p-x1', 'node-x', foo), p('p-y1', 'node-y', foo)],
      want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    },
    {
      name: 'pods spread across zones as 3/3, all nodes fit',
      pod: pod('p', { labels: foo, spread: [zoneFoo()] }),
      nodes: n4(),
      existing: spread2103(),
      want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    },
    {
      name: "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
      pod: pod('p', { labels: foo, spread: [zoneFoo()] }),
      nodes: [node('node-a', { zone: 'zone1', node: 'node-a' }), node('node-b', { zon: 'zone1', node: 'node-b' }), node('node-x', { zone: 'zone2', node: 'node-x' }), node('node-y', { zone: 'zone2', node: 'node-y' })],
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-x1', 'node-x', foo), p('p-y1', 'node-y', foo)],
      want: { 'node-a': S, 'node-b': UU, 'node-x': U, 'node-y': U },
    },
    {
      name: "pod cannot be scheduled as all nodes don't have label 'rack'",
      pod: pod('p', { labels: foo, spread: [spread(1, 'rack', 'DoNotSchedule', fooSelector)] }),
      nodes: [node('node-a', { zone: 'zone1', node: 'node-a' }), node('node-x', { zone: 'zone2', node: 'node-x' })],
      want: { 'node-a': UU, 'node-x': UU },
    },
    {
      name: 'pods spread across nodes as 2/1/0/3, only node-x fits',
      pod: pod('p', { labels: foo, spread: [nodeFoo()] }),
      nodes: n4(),
      existing: spread2103(),
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit',
      pod: pod('p', { labels: foo, spread: [nodeFoo(2)] }),
      nodes: n4(),
      existing: spread2103(),
      want: { 'node-a': U, 'node-b': S, 'node-x': S, 'node-y': U },
    },
    {
      name: "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
      pod: pod('p', { labels: bar, spread: [nodeFoo()] }),
      nodes: n4(),
      existing: spread2103(),
      want: { 'node-a': U, 'node-b': S, 'node-x': S, 'node-y': U },
    },
    {
      name: 'incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits',
      pod: pod('p', { labels: foo, affinity: nodeAffinity('node', 'In', ['node-a', 'node-y']), spread: [nodeFoo()] }),
      nodes: n4(),
      existing: spread2103(),
      want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': U },
    },
    {
      name: 'terminating Pods should be excluded',
      pod: pod('p', { labels: foo, spread: [nodeFoo()] }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' })],
      existing: [pod('p-a', { node: 'node-a', labels: foo, terminating: true }), p('p-b', 'node-b', foo)],
      want: { 'node-a': S, 'node-b': U },
    },
    {
      name: 'incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits',
      pod: pod('p', { labels: foo, affinity: nodeAffinity('node', 'NotIn', ['node-b']), spread: [zoneFoo()] }),
      nodes: n4(),
      existing: [p('p-b1', 'node-b', foo), p('p-b2', 'node-b', foo), p('p-y1', 'node-y', foo)],
      want: { 'node-a': S, 'node-b': S, 'node-x': U, 'node-y': U },
    },
    {
      name: 'pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits',
      pod: pod('p', { labels: foo, spread: [nodeFoo(2, { minDomains: 4 })] }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c' })],
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-b2', 'node-b', foo), p('p-c1', 'node-c', foo)],
      want: { 'node-a': U, 'node-b': U, 'node-c': S },
    },
    {
      name: 'pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit',
      pod: pod('p', { labels: foo, spread: [nodeFoo(2, { minDomains: 2 })] }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c' })],
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-b2', 'node-b', foo), p('p-c1', 'node-c', foo)],
      want: { 'node-a': S, 'node-b': S, 'node-c': S },
    },
    {
      name: 'pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit',
      pod: pod('p', { labels: foo, spread: [zoneFoo(2, { minDomains: 3 })] }),
      nodes: n4(),
      existing: [p('p-b1', 'node-a', foo), p('p-b2', 'node-b', foo), p('p-y1', 'node-y', foo)],
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': S },
    },
    {
      name: 'pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit',
      pod: pod('p', { labels: foo, spread: [zoneFoo(2, { minDomains: 1 })] }),
      nodes: n4(),
      existing: [p('p-b1', 'node-a', foo), p('p-b2', 'node-b', foo), p('p-y1', 'node-y', foo)],
      want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    },
    {
      name: 'NodeAffinityPolicy honored with labelSelectors',
      pod: pod('p', { labels: foo, nodeSelector: { foo: '' }, spread: [nodeFoo()] }),
      nodes: nodesOnly(),
      existing: abOnly,
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': S },
    },
    {
      name: 'NodeAffinityPolicy ignored with labelSelectors',
      pod: pod('p', { labels: foo, nodeSelector: { foo: '' }, spread: [nodeFoo(1, { nodeAffinityPolicy: 'Ignore' })] }),
      nodes: nodesOnly(),
      existing: abOnly,
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'NodeAffinityPolicy honored with nodeAffinity',
      pod: pod('p', { labels: foo, affinity: nodeAffinity('foo', 'In', ['']), spread: [nodeFoo()] }),
      nodes: nodesOnly(),
      existing: abOnly,
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': S },
    },
    {
      name: 'NodeAffinityPolicy ignored with nodeAffinity',
      pod: pod('p', { labels: foo, affinity: nodeAffinity('foo', 'In', ['']), spread: [nodeFoo(1, { nodeAffinityPolicy: 'Ignore' })] }),
      nodes: nodesOnly(),
      existing: abOnly,
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'NodeTaintsPolicy honored',
      pod: pod('p', { labels: foo, spread: [nodeFoo(1, { nodeTaintsPolicy: 'Honor' })] }),
      nodes: nodesOnly({ yTaints: true }),
      existing: abOnly,
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': S },
    },
    {
      name: 'NodeTaintsPolicy ignored',
      pod: pod('p', { labels: foo, spread: [nodeFoo()] }),
      nodes: nodesOnly({ yTaints: true }),
      existing: abOnly,
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
  ];

  // TestMultipleConstraints
  const fooAndBar = (lbls: Record<string, string> = foobar) => pod('p', { labels: lbls, spread: [zoneFoo(), spread(1, 'node', 'DoNotSchedule', barSelector)] });
  const multiple: Case[] = [
    {
      name: 'two Constraints on zone and node, spreads = [3/3, 2/1/0/3]',
      pod: zoneAndNodeFoo(),
      nodes: n4(),
      existing: spread2103(),
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'two Constraints on zone and node, spreads = [3/4, 2/1/0/4]',
      pod: zoneAndNodeFoo(),
      nodes: n4(),
      existing: [...spread2103(), p('p-y4', 'node-y', foo)],
      want: { 'node-a': U, 'node-b': U, 'node-x': U, 'node-y': U },
    },
    {
      name: 'Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]',
      pod: fooAndBar(),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo), p('p-y1', 'node-y', bar)],
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]',
      pod: fooAndBar(),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo), p('p-x1', 'node-x', bar), p('p-y1', 'node-y', bar)],
      want: { 'node-a': U, 'node-b': U, 'node-x': U, 'node-y': U },
    },
    {
      name: 'Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]',
      pod: fooAndBar(),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo), p('p-a2', 'node-a', foobar), p('p-y1', 'node-y', foo), p('p-y2', 'node-y', foobar), p('p-y3', 'node-y', foo)],
      want: { 'node-a': U, 'node-b': S, 'node-x': U, 'node-y': U },
    },
    {
      name: "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
      pod: fooAndBar(bar),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foo), p('p-x1', 'node-x', bar), p('p-y1', 'node-y', bar)],
      want: { 'node-a': S, 'node-b': S, 'node-x': U, 'node-y': U },
    },
    {
      name: "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
      pod: zoneAndNodeFoo(),
      nodes: [node('node-a', { zone: 'zone1', node: 'node-a' }), node('node-b', { zone: 'zone1', node: 'node-b' }), node('node-x', { zone: 'zone2' }), node('node-y', { zone: 'zone2', node: 'node-y' })],
      existing: [p('p-a1', 'node-a', foo), p('p-y3', 'node-y', foo)],
      want: { 'node-a': U, 'node-b': S, 'node-x': UU, 'node-y': U },
    },
    {
      name: 'two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore',
      pod: pod('p', { labels: foo, nodeSelector: { foo: '' }, spread: [zoneFoo(), nodeFoo(1, { nodeAffinityPolicy: 'Ignore' })] }),
      nodes: [
        node('node-a', { zone: 'zone1', node: 'node-a', foo: '' }),
        node('node-b', { zone: 'zone1', node: 'node-b', foo: '' }),
        node('node-x', { zone: 'zone2', node: 'node-x', foo: '' }),
        node('node-y', { zone: 'zone2', node: 'node-y' }),
      ],
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-y1', 'node-y', foo)],
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'two node inclusion Constraints, zone: honor/honor, node: honor/ignore',
      pod: pod('p', { labels: foo, spread: [zoneFoo(1, { nodeTaintsPolicy: 'Honor' }), nodeFoo()] }),
      nodes: [
        node('node-a', { zone: 'zone1', node: 'node-a', foo: '' }),
        node('node-b', { zone: 'zone1', node: 'node-b', foo: '' }),
        node('node-x', { zone: 'zone2', node: 'node-x', foo: '' }),
        node('node-y', { zone: 'zone2', node: 'node-y' }, taints),
      ],
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-y1', 'node-y', foo)],
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'two node inclusion Constraints, zone: honor/ignore, node: honor/ignore',
      pod: pod('p', { labels: foo, nodeSelector: { foo: '' }, spread: [zoneFoo(), nodeFoo()] }),
      nodes: [
        node('node-a', { zone: 'zone1', node: 'node-a', foo: '' }),
        node('node-b', { zone: 'zone1', node: 'node-b' }),
        node('node-x', { zone: 'zone2', node: 'node-x', foo: '' }),
        node('node-y', { zone: 'zone2', node: 'node-y', foo: '' }, taints),
      ],
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-y1', 'node-y', foo)],
      want: { 'node-a': U, 'node-b': S, 'node-x': S, 'node-y': U },
    },
    {
      name: 'two node inclusion Constraints, zone: honor/honor, node: ignore/ignore',
      pod: pod('p', { labels: foo, nodeSelector: { foo: '' }, spread: [zoneFoo(1, { nodeTaintsPolicy: 'Honor' }), nodeFoo(1, { nodeAffinityPolicy: 'Ignore' })] }),
      nodes: [
        node('node-a', { zone: 'zone1', node: 'node-a', foo: '' }),
        node('node-b', { zone: 'zone1', node: 'node-b' }),
        node('node-x', { zone: 'zone2', node: 'node-x', foo: '' }),
        node('node-y', { zone: 'zone2', node: 'node-y', foo: '' }, taints),
      ],
      existing: [p('p-a1', 'node-a', foo), p('p-b1', 'node-b', foo), p('p-y1', 'node-y', foo)],
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'two Constraints on zone, spreads = [3/3, 2/1]',
      pod: pod('p', { labels: foobar, spread: [spread(1, 'zone', 'DoNotSchedule', barSelector), zoneFoo()] }),
      nodes: n4(),
      existing: [p('p-a1', 'node-a', foobar), p('p-a2', 'node-a', foo), p('p-b1', 'node-b', foobar), p('p-y1', 'node-y', foo), p('p-y2', 'node-y', foobar), p('p-y3', 'node-y', foo)],
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': S },
    },
    {
      name: 'two Constraints on zone, spreads = [3/4, 2/1]',
      pod: pod('p', { labels: foobar, spread: [spread(1, 'zone', 'DoNotSchedule', barSelector), zoneFoo()] }),
      nodes: n4(),
      existing: [
        p('p-a1', 'node-a', foobar),
        p('p-a2', 'node-a', foo),
        p('p-b1', 'node-b', foobar),
        p('p-y1', 'node-y', foo),
        p('p-y2', 'node-y', foobar),
        p('p-y3', 'node-y', foo),
        p('p-y4', 'node-y', foo),
      ],
      want: { 'node-a': U, 'node-b': U, 'node-x': U, 'node-y': U },
    },
  ];

  function zoneAndNodeFoo(): Pod {
    return pod('p', { labels: foo, spread: [zoneFoo(), nodeFoo()] });
  }

  for (const [suite, cases] of [
    ['TestSingleConstraint', single],
    ['TestMultipleConstraints', multiple],
  ] as const) {
    for (const tc of cases) {
      it(`${suite}: ${tc.name}`, () => {
        const { pl, infos } = setup(tc.existing ?? [], tc.nodes);
        const cs = new CycleState();
        expect(pl.preFilter(cs, tc.pod, infos).status).toBeNull();
        const got: Record<string, string> = {};
        for (const ni of infos) got[ni.name] = pl.filter(cs, tc.pod, ni)?.code ?? 'Success';
        expect(got).toEqual(tc.want);
      });
    }
  }

  it('reasons are upstream text', () => {
    const { pl, infos } = setup(spread2103(), [...n4(), node('node-z', { zone: 'zone3' })]);
    const cs = new CycleState();
    const tp = zoneAndNodeFoo();
    pl.preFilter(cs, tp, infos);
    expect(pl.filter(cs, tp, infos[0]!)).toEqual({ code: 'Unschedulable', reasons: ["node(s) didn't match pod topology spread constraints"] });
    expect(pl.filter(cs, tp, infos[4]!)).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match pod topology spread constraints (missing required label)"] });
    expect(ERR_REASON_NODE_LABEL_NOT_MATCH).toBe(ERR_REASON_CONSTRAINTS_NOT_MATCH + ' (missing required label)');
  });

  it('a topology key named like an Object.prototype member is absent unless the node has it', () => {
    const { pl, infos } = setup([], [node('node-a', {}), node('node-b', { constructor: 'c1' })]);
    const cs = new CycleState();
    const tp = pod('p', { labels: foo, spread: [spread(1, 'constructor', 'DoNotSchedule', fooSelector)] });
    pl.preFilter(cs, tp, infos);
    expect(pl.filter(cs, tp, infos[0]!)?.code).toBe('UnschedulableAndUnresolvable');
    expect(pl.filter(cs, tp, infos[1]!)).toBeNull();
  });

  it('TestPreFilterDisabled: Filter without PreFilter is an Error', () => {
    const { pl, infos } = setup([], n4());
    expect(pl.filter(new CycleState(), pod('p'), infos[0]!)).toEqual({ code: 'Error', reasons: ['reading "PreFilterPodTopologySpread" from cycleState: not found'] });
  });
});
