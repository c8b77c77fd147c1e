// Ported from pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go (v1.32).
import { describe, expect, it } from 'vitest';
import { FieldPath } from '../../apimachinery/fieldErrors';
import type { Node, Pod } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { MAX_NODE_SCORE, MIN_NODE_SCORE } from '../framework/interface';
import { makePodW, snapshot, stNode } from './helper/noderesourcesTesting';
import { leastRequestedScore, type ResourceSpec } from './helper/resourceAllocation';
import { NodeResourcesFit, validateNodeResourcesFitArgs } from './nodeResourcesFit';

const extendedRes = 'abc.com/xyz';
const defaultResources: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];
const extendedResourceSet: ResourceSpec[] = [...defaultResources, { name: extendedRes, weight: 1 }];

interface Case {
  name: string;
  requestedPod: Pod;
  nodes: Node[];
  existingPods?: Pod[];
  expectedScores?: number[];
  resources: ResourceSpec[];
  wantErrFields?: string[];
  wantError?: boolean;
}

const twoReqPod = () => makePodW().req({ cpu: '1000', memory: '2000' }).req({ cpu: '2000', memory: '3000' }).obj();

const cases: Case[] = [
  {
    // CPU and memory both unused on both nodes: (100 + 100) / 2
    name: 'nothing scheduled, nothing requested',
    requestedPod: makePodW().obj(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '4000', memory: '10000' })],
    expectedScores: [MAX_NODE_SCORE, MAX_NODE_SCORE],
    resources: defaultResources,
  },
  {
    // node1: cpu (4000-3000)*100/4000 = 25, memory (10000-5000)*100/10000 = 50 → 37; node2: 50, 50 → 50
    name: 'nothing scheduled, resources requested, differently sized nodes',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })],
    expectedScores: [37, 50],
    resources: defaultResources,
  },
  {
    name: 'Resources not set, pods scheduled with error',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })],
    expectedScores: [MIN_NODE_SCORE, MIN_NODE_SCORE],
    resources: [],
    wantError: true,
  },
  {
    name: 'no resources requested, pods scheduled',
    requestedPod: makePodW().obj(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '4000', memory: '10000' })],
    existingPods: [makePodW().node('node1').obj(), makePodW().node('node1').obj(), makePodW().node('node2').obj(), makePodW().node('node2').obj()],
    expectedScores: [MAX_NODE_SCORE, MAX_NODE_SCORE],
    resources: defaultResources,
  },
  {
    // node1: cpu 40, memory 100 → 70; node2: cpu 40, memory 75 → 57
    name: 'no resources requested, pods scheduled with resources',
    requestedPod: makePodW().obj(),
    nodes: [stNode('node1', { cpu: '10000', memory: '20000' }), stNode('node2', { cpu: '10000', memory: '20000' })],
    existingPods: [
      makePodW().node('node1').req({ cpu: '3000', memory: '0' }).obj(),
      makePodW().node('node1').req({ cpu: '3000', memory: '0' }).obj(),
      makePodW().node('node2').req({ cpu: '3000', memory: '0' }).obj(),
      makePodW().node('node2').req({ cpu: '3000', memory: '5000' }).obj(),
    ],
    expectedScores: [70, 57],
    resources: defaultResources,
  },
  {
    // node1: cpu 40, memory 75 → 57; node2: cpu 40, memory 50 → 45
    name: 'resources requested, pods scheduled with resources',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '10000', memory: '20000' }), stNode('node2', { cpu: '10000', memory: '20000' })],
    existingPods: [makePodW().node('node1').req({ cpu: '3000', memory: '0' }).obj(), makePodW().node('node2').req({ cpu: '3000', memory: '5000' }).obj()],
    expectedScores: [57, 45],
    resources: defaultResources,
  },
  {
    // node1: cpu 40, memory 75 → 57; node2: cpu 40, memory (50000-10000)*100/50000 = 80 → 60
    name: 'resources requested, pods scheduled with resources, differently sized nodes',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '10000', memory: '20000' }), stNode('node2', { cpu: '10000', memory: '50000' })],
    existingPods: [makePodW().node('node1').req({ cpu: '3000', memory: '0' }).obj(), makePodW().node('node2').req({ cpu: '3000', memory: '5000' }).obj()],
    expectedScores: [57, 60],
    resources: defaultResources,
  },
  {
    // cpu over capacity scores 0: node1 (0 + 100) / 2 = 50; node2 (0 + 50) / 2 = 25
    name: 'requested resources exceed node capacity',
    requestedPod: makePodW().req({ cpu: '3000', memory: '0' }).obj(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '4000', memory: '10000' })],
    existingPods: [makePodW().node('node1').req({ cpu: '3000', memory: '0' }).obj(), makePodW().node('node2').req({ cpu: '3000', memory: '5000' }).obj()],
    expectedScores: [50, 25],
    resources: defaultResources,
  },
  {
    name: 'zero node resources, pods scheduled with resources',
    requestedPod: makePodW().obj(),
    nodes: [stNode('node1'), stNode('node2')],
    existingPods: [makePodW().node('node1').req({ cpu: '3000', memory: '0' }).obj(), makePodW().node('node2').req({ cpu: '3000', memory: '5000' }).obj()],
    expectedScores: [MIN_NODE_SCORE, MIN_NODE_SCORE],
    resources: defaultResources,
  },
  {
    // (25 * 1 + 50 * 2) / 3 = 41; (50 * 1 + 50 * 2) / 3 = 50
    name: 'nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes',
    requestedPod: makePodW().node('node1').req({ cpu: '1000', memory: '2000' }).req({ cpu: '2000', memory: '3000' }).obj(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })],
    expectedScores: [41, 50],
    resources: [
      { name: 'memory', weight: 2 },
      { name: 'cpu', weight: 1 },
    ],
  },
  {
    name: 'resource with negative weight',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' })],
    resources: [
      { name: 'memory', weight: -1 },
      { name: 'cpu', weight: 1 },
    ],
    wantErrFields: ['scoringStrategy.resources[0].weight'],
  },
  {
    name: 'resource with zero weight',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' })],
    resources: [
      { name: 'memory', weight: 1 },
      { name: 'cpu', weight: 0 },
    ],
    wantErrFields: ['scoringStrategy.resources[1].weight'],
  },
  {
    name: 'resource weight larger than MaxNodeScore',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' })],
    resources: [
      { name: 'memory', weight: 1 },
      { name: 'cpu', weight: 101 },
    ],
    wantErrFields: ['scoringStrategy.resources[1].weight'],
  },
  {
    // the extended resource the pod does not request is left out: (50 + 50) / 2 on both
    name: 'bypass extended resource if the pod does not request',
    requestedPod: makePodW().node('node1').req({ cpu: '1000', memory: '2000' }).req({ cpu: '2000', memory: '3000' }).obj(),
    nodes: [stNode('node1', { cpu: '6000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '4' })],
    expectedScores: [50, 50],
    resources: extendedResourceSet,
  },
  {
    // extended: node1 (4-2)/4 → 50, node2 (10-2)/10 → 80: (50+50+50)/3 = 50, (50+50+80)/3 = 60
    name: 'honor extended resource if the pod requests',
    requestedPod: makePodW().node('node1').req({ cpu: '3000', memory: '5000', [extendedRes]: '2' }).obj(),
    nodes: [stNode('node1', { cpu: '6000', memory: '10000', [extendedRes]: '4' }), stNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '10' })],
    expectedScores: [50, 60],
    resources: extendedResourceSet,
  },
  {
    // a node without the resource skips it: (50 + 60) / 2 = 55 on both
    name: "if the node doesn't have a resource",
    requestedPod: makePodW().node('node1').req({ cpu: '3000', memory: '4000' }).obj(),
    nodes: [stNode('node1', { cpu: '6000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '4' })],
    expectedScores: [55, 55],
    resources: [
      { name: extendedRes, weight: 2 },
      { name: 'cpu', weight: 1 },
      { name: 'memory', weight: 1 },
    ],
  },
];

describe('TestLeastAllocatedScoringStrategy', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const args = { scoringStrategy: { type: 'LeastAllocated' as const, resources: tc.resources } };
      const errs = validateNodeResourcesFitArgs(args, FieldPath.root(''));
      expect(errs.map((e) => e.field)).toEqual(tc.wantErrFields ?? []);
      if (errs.length) return;
      // NewFit with internal (already defaulted) args: empty resources stay empty.
      const p = new NodeResourcesFit(args, null);
      const state = new CycleState();
      expect(p.preScore(state, tc.requestedPod)).toBeNull();
      const got = snapshot(tc.existingPods ?? [], tc.nodes).map((ni) => p.score(state, tc.requestedPod, ni));
      if (tc.wantError) {
        expect(got).toEqual(tc.nodes.map(() => ({ code: 'Error', reasons: ['resources not found'] })));
      } else {
        expect(got).toEqual(tc.expectedScores);
      }
    });
  }
});

describe('leastRequestedScore', () => {
  it('truncates as int64 division, 0 past capacity or without capacity', () => {
    expect(leastRequestedScore(3000, 4000)).toBe(25);
    expect(leastRequestedScore(1, 3)).toBe(66);
    expect(leastRequestedScore(5, 4)).toBe(0);
    expect(leastRequestedScore(0, 0)).toBe(0);
    // Past 2^53 the product stays exact: (c - 1) * 100 / c is 99, where float division says 100.
    const c = 9007199254739930;
    expect(Math.trunc(((c - 1) * 100) / c)).toBe(100);
    expect(leastRequestedScore(1, c)).toBe(99);
  });
});
