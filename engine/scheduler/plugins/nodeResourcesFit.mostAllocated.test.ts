// Ported from pkg/scheduler/framework/plugins/noderesources/most_allocated_test.go (v1.32).
import { describe, expect, it } from 'vitest';
import { FieldPath } from '../../apimachinery/fieldErrors';
import type { Node, Pod } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { MIN_NODE_SCORE } from '../framework/interface';
import { makePodW, snapshot, stNode } from './helper/noderesourcesTesting';
import { mostRequestedScore, type ResourceSpec } from './helper/resourceAllocation';
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
    name: 'nothing scheduled, nothing requested',
    requestedPod: makePodW().obj(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '4000', memory: '10000' })],
    expectedScores: [MIN_NODE_SCORE, MIN_NODE_SCORE],
    resources: defaultResources,
  },
  {
    // node1: cpu 3000*100/4000 = 75, memory 50 → 62; node2: 50, 50 → 50
    name: 'nothing scheduled, resources requested, differently sized nodes',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })],
    expectedScores: [62, 50],
    resources: defaultResources,
  },
  {
    name: 'Resources not set, pods scheduled with error',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })],
    resources: [],
    wantError: true,
  },
  {
    // node1: cpu 60, memory 0 → 30; node2: cpu 60, memory 25 → 42
    name: 'no resources requested, pods scheduled with resources',
    requestedPod: makePodW().obj(),
    nodes: [stNode('node1', { cpu: '10000', memory: '20000' }), stNode('node2', { cpu: '10000', memory: '20000' })],
    existingPods: [
      makePodW().node('node1').req({ cpu: '3000', memory: '0' }).obj(),
      makePodW().node('node1').req({ cpu: '3000', memory: '0' }).obj(),
      makePodW().node('node2').req({ cpu: '3000', memory: '0' }).obj(),
      makePodW().node('node2').req({ cpu: '3000', memory: '5000' }).obj(),
    ],
    expectedScores: [30, 42],
    resources: defaultResources,
  },
  {
    // node1: 60, 25 → 42; node2: 60, 50 → 55
    name: 'resources requested, pods scheduled with resources',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '10000', memory: '20000' }), stNode('node2', { cpu: '10000', memory: '20000' })],
    existingPods: [makePodW().node('node1').req({ cpu: '3000', memory: '0' }).obj(), makePodW().node('node2').req({ cpu: '3000', memory: '5000' }).obj()],
    expectedScores: [42, 55],
    resources: defaultResources,
  },
  {
    // node1: 100, 90 → 95; node2: 50, 100 → 75
    name: 'resources requested equal node capacity',
    requestedPod: makePodW().req({ cpu: '2000', memory: '4000' }).req({ cpu: '3000', memory: '5000' }).obj(),
    nodes: [stNode('node1', { cpu: '5000', memory: '10000' }), stNode('node2', { cpu: '10000', memory: '9000' })],
    expectedScores: [95, 75],
    resources: defaultResources,
  },
  {
    // (75 * 1 + 50 * 2) / 3 = 58; (50 + 100) / 3 = 50
    name: 'nothing scheduled, resources requested, differently sized nodes, different weights',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })],
    expectedScores: [58, 50],
    resources: [
      { name: 'memory', weight: 2 },
      { name: 'cpu', weight: 1 },
    ],
  },
  {
    // Containers without requests count 100m / 200Mi: node1 cpu 300/250 → 100, memory 600/1000 → 60 → 80;
    // node2 cpu 100/250 → 40, memory 200/1000 → 20 → 30
    name: 'no resources requested, pods scheduled, nonzero request for resource',
    requestedPod: makePodW().container('container').obj(),
    nodes: [stNode('node1', { cpu: '250m', memory: '1000Mi' }), stNode('node2', { cpu: '250m', memory: '1000Mi' })],
    existingPods: [makePodW().node('node1').container('container').obj(), makePodW().node('node1').container('container').obj()],
    expectedScores: [80, 30],
    resources: defaultResources,
  },
  {
    name: 'resource with negative weight',
    requestedPod: twoReqPod(),
    nodes: [stNode('node2', { cpu: '4000', memory: '10000' })],
    resources: [
      { name: 'memory', weight: -1 },
      { name: 'cpu', weight: 1 },
    ],
    wantErrFields: ['scoringStrategy.resources[0].weight'],
  },
  {
    name: 'resource with zero weight',
    requestedPod: twoReqPod(),
    nodes: [stNode('node2', { cpu: '4000', memory: '10000' })],
    resources: [
      { name: 'memory', weight: 1 },
      { name: 'cpu', weight: 0 },
    ],
    wantErrFields: ['scoringStrategy.resources[1].weight'],
  },
  {
    name: 'resource weight larger than MaxNodeScore',
    requestedPod: twoReqPod(),
    nodes: [stNode('node2', { cpu: '4000', memory: '10000' })],
    resources: [{ name: 'memory', weight: 101 }],
    wantErrFields: ['scoringStrategy.resources[0].weight'],
  },
  {
    name: 'bypass extended resource if the pod does not request',
    requestedPod: twoReqPod(),
    nodes: [stNode('node1', { cpu: '6000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '4' })],
    expectedScores: [50, 50],
    resources: extendedResourceSet,
  },
  {
    // extended: node1 2/4 → 50, node2 2/10 → 20: (50+50+50)/3 = 50, (50+50+20)/3 = 40
    name: 'honor extended resource if the pod request',
    requestedPod: makePodW().node('node1').req({ cpu: '3000', memory: '5000', [extendedRes]: '2' }).obj(),
    nodes: [stNode('node1', { cpu: '6000', memory: '10000', [extendedRes]: '4' }), stNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '10' })],
    expectedScores: [50, 40],
    resources: extendedResourceSet,
  },
  {
    // (50 + 40) / 2 = 45 on both
    name: "if the node doesn't have a resource",
    requestedPod: makePodW().node('node1').req({ cpu: '3000', memory: '4000' }).obj(),
    nodes: [stNode('node1', { cpu: '6000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '4' })],
    expectedScores: [45, 45],
    resources: [
      { name: extendedRes, weight: 2 },
      { name: 'cpu', weight: 1 },
      { name: 'memory', weight: 1 },
    ],
  },
];

describe('TestMostAllocatedScoringStrategy', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const args = { scoringStrategy: { type: 'MostAllocated' as const, resources: tc.resources } };
      const errs = validateNodeResourcesFitArgs(args, FieldPath.root(''));
      expect(errs.map((e) => e.field)).toEqual(tc.wantErrFields ?? []);
      if (errs.length) return;
      const p = new NodeResourcesFit(args, null);
      const state = new CycleState();
      expect(p.preScore(state, tc.requestedPod)).toBeNull();
      const got = snapshot(tc.existingPods ?? [], tc.nodes).map((ni) => p.score(state, tc.requestedPod, ni));
      if (tc.wantError) expect(got).toEqual(tc.nodes.map(() => ({ code: 'Error', reasons: ['resources not found'] })));
      else expect(got).toEqual(tc.expectedScores);
    });
  }
});

describe('mostRequestedScore', () => {
  it('caps requests at capacity and truncates', () => {
    expect(mostRequestedScore(300, 250)).toBe(100);
    expect(mostRequestedScore(1, 3)).toBe(33);
    expect(mostRequestedScore(5, 0)).toBe(0);
  });
});
