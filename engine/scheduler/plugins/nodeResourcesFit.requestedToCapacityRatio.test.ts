// Ported from pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio_test.go
// (v1.32) and helper/shape_score_test.go.
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { MAX_NODE_SCORE } from '../framework/interface';
import { makeNode, makePodW, snapshot, stNode } from './helper/noderesourcesTesting';
import type { ResourceSpec } from './helper/resourceAllocation';
import { brokenLinear, buildBrokenLinearFunction, type FunctionShapePoint } from './helper/shapeScore';
import { NodeResourcesFit, type UtilizationShapePoint } from './nodeResourcesFit';

const defaultResources: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

function scores(resources: ResourceSpec[], shape: UtilizationShapePoint[], pod: Pod, nodes: Node[], existing: Pod[], runPreScore = true): unknown[] {
  const p = new NodeResourcesFit({ scoringStrategy: { type: 'RequestedToCapacityRatio', resources, requestedToCapacityRatio: { shape } } }, null);
  const state = new CycleState();
  if (runPreScore) p.preScore(state, pod);
  return snapshot(existing, nodes).map((ni) => p.score(state, pod, ni));
}

describe('TestRequestedToCapacityRatioScoringStrategy', () => {
  const shape = [
    { utilization: 0, score: 10 },
    { utilization: 100, score: 0 },
  ];
  it('nothing scheduled, nothing requested (default - least requested nodes have priority)', () => {
    const nodes = [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '4000', memory: '10000' })];
    expect(scores(defaultResources, shape, makePodW().obj(), nodes, [makePodW().node('node1').obj(), makePodW().node('node1').obj()])).toEqual([MAX_NODE_SCORE, MAX_NODE_SCORE]);
  });
  it('nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)', () => {
    // node1: cpu 75% → 25, memory 50% → 50, round(37.5) = 38; node2: 50, 50 → 50
    const nodes = [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })];
    const pod = makePodW().req({ cpu: '1000', memory: '2000' }).req({ cpu: '2000', memory: '3000' }).obj();
    expect(scores(defaultResources, shape, pod, nodes, [makePodW().node('node1').obj(), makePodW().node('node1').obj()])).toEqual([38, 50]);
  });
  it('no resources requested, pods scheduled with resources (default - least requested nodes have priority)', () => {
    const nodes = [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })];
    const existing = [makePodW().node('node1').req({ cpu: '3000', memory: '5000' }).obj(), makePodW().node('node2').req({ cpu: '3000', memory: '5000' }).obj()];
    expect(scores(defaultResources, shape, makePodW().obj(), nodes, existing)).toEqual([38, 50]);
  });
  it('without PreScore the same scores', () => {
    const nodes = [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })];
    const existing = [makePodW().node('node1').req({ cpu: '3000', memory: '5000' }).obj(), makePodW().node('node2').req({ cpu: '3000', memory: '5000' }).obj()];
    expect(scores(defaultResources, shape, makePodW().obj(), nodes, existing, false)).toEqual([38, 50]);
  });
});

describe('TestBrokenLinearFunction', () => {
  const tests: { points: FunctionShapePoint[]; assertions: [number, number][] }[] = [
    {
      points: [
        { utilization: 10, score: 1 },
        { utilization: 90, score: 9 },
      ],
      assertions: [
        [-10, 1],
        [0, 1],
        [9, 1],
        [10, 1],
        [15, 1],
        [19, 1],
        [20, 2],
        [89, 8],
        [90, 9],
        [99, 9],
        [100, 9],
        [110, 9],
      ],
    },
    {
      points: [
        { utilization: 0, score: 2 },
        { utilization: 40, score: 10 },
        { utilization: 100, score: 0 },
      ],
      assertions: [
        [-10, 2],
        [0, 2],
        [20, 6],
        [30, 8],
        [40, 10],
        [70, 5],
        [100, 0],
        [110, 0],
      ],
    },
    {
      points: [
        { utilization: 0, score: 2 },
        { utilization: 40, score: 2 },
        { utilization: 100, score: 2 },
      ],
      assertions: [
        [-10, 2],
        [0, 2],
        [20, 2],
        [30, 2],
        [40, 2],
        [70, 2],
        [100, 2],
        [110, 2],
      ],
    },
  ];
  tests.forEach((t, i) => {
    it(`case_${i}`, () => {
      const f = buildBrokenLinearFunction(t.points);
      for (const [p, want] of t.assertions) {
        expect(f(p)).toBe(want);
        expect(brokenLinear(t.points, p)).toBe(want);
      }
    });
  });

  it('falling segments truncate toward zero, as Go int64 division', () => {
    // 100 + (0 - 100) * 33 / 100 = 100 - 33 (trunc of -33), not 100 - 34 (floor)
    const shape = [
      { utilization: 0, score: 100 },
      { utilization: 100, score: 0 },
    ];
    expect(brokenLinear(shape, 33)).toBe(67);
    expect(brokenLinear(shape, 75)).toBe(25);
  });
});

describe('TestResourceBinPackingSingleExtended', () => {
  const foo = 'intel.com/foo';
  const shape = [
    { utilization: 0, score: 0 },
    { utilization: 100, score: 1 },
  ];
  const resources = [{ name: foo, weight: 1 }];
  const nodes = () => [makeNode('node1', 4000, 10000 * 1024 * 1024, { [foo]: 8 }), makeNode('node2', 4000, 10000 * 1024 * 1024, { [foo]: 4 })];
  it('nothing scheduled, nothing requested', () => {
    expect(scores(resources, shape, makePodW().obj(), nodes(), [])).toEqual([0, 0]);
  });
  it('resources requested, pods scheduled with less resources', () => {
    // 2/8 → 25% → 10*25/100 = 2; 2/4 → 50% → 5
    expect(scores(resources, shape, makePodW().req({ [foo]: '2' }).obj(), nodes(), [makePodW().obj()])).toEqual([2, 5]);
  });
  it('resources requested, pods scheduled with resources, on node with existing pod running', () => {
    expect(scores(resources, shape, makePodW().req({ [foo]: '2' }).obj(), nodes(), [makePodW().req({ [foo]: '2' }).node('node2').obj()])).toEqual([2, 10]);
  });
  it('resources requested, pods scheduled with more resources', () => {
    expect(scores(resources, shape, makePodW().req({ [foo]: '4' }).obj(), nodes(), [makePodW().obj()])).toEqual([5, 10]);
  });
});

describe('TestResourceBinPackingMultipleExtended', () => {
  const foo = 'intel.com/foo';
  const bar = 'intel.com/bar';
  const shape = [
    { utilization: 0, score: 0 },
    { utilization: 100, score: 1 },
  ];
  const resources = [
    { name: foo, weight: 3 },
    { name: bar, weight: 5 },
  ];
  const nodes = () => [makeNode('node1', 4000, 10000 * 1024 * 1024, { [foo]: 8, [bar]: 4 }), makeNode('node2', 4000, 10000 * 1024 * 1024, { [foo]: 4, [bar]: 8 })];
  const pod1 = () => makePodW().req({ [foo]: '2', [bar]: '2' }).obj();
  const pod2 = () => makePodW().req({ [foo]: '4', [bar]: '2' }).obj();
  it('nothing scheduled, nothing requested', () => {
    expect(scores(resources, shape, makePodW().obj(), nodes(), [])).toEqual([0, 0]);
  });
  it('resources requested, pods scheduled with less resources', () => {
    // node1: foo 25% → 2, bar 50% → 5: round((2*3 + 5*5) / 8) = 4; node2: round((5*3 + 2*5) / 8) = 3
    expect(scores(resources, shape, pod1(), nodes(), [makePodW().obj()])).toEqual([4, 3]);
  });
  it('resources requested, pods scheduled with resources, on node with existing pod running', () => {
    // node2: foo (4+2)/4 → full → 10, bar (2+2)/8 → 5: round((30 + 25) / 8) = 7
    expect(scores(resources, shape, pod1(), nodes(), [makePodW().req({ [foo]: '4', [bar]: '2' }).node('node2').obj()])).toEqual([4, 7]);
  });
  it('resources requested, pods scheduled with more resources', () => {
    // node1: 50% → 5, 50% → 5: 5; node2: 100% → 10, 25% → 2: round(40 / 8) = 5
    expect(scores(resources, shape, pod2(), nodes(), [makePodW().obj()])).toEqual([5, 5]);
  });
});

describe('RequestedToCapacityRatio details', () => {
  it('resources scoring 0 carry no weight', () => {
    // cpu 100% → 0 (dropped, with its weight); memory 50% → 50: 50 / 1 = 50, not 25
    const nodes = [stNode('node1', { cpu: '1', memory: '10' })];
    const shape = [
      { utilization: 0, score: 10 },
      { utilization: 100, score: 0 },
    ];
    expect(scores(defaultResources, shape, makePodW().req({ cpu: '1', memory: '5' }).obj(), nodes, [])).toEqual([50]);
  });
  it('a request over capacity counts as full utilization', () => {
    const nodes = [stNode('node1', { cpu: '1', memory: '10' })];
    const shape = [
      { utilization: 0, score: 0 },
      { utilization: 100, score: 10 },
    ];
    expect(scores([{ name: 'cpu', weight: 1 }], shape, makePodW().req({ cpu: '2' }).obj(), nodes, [])).toEqual([100]);
  });
});
