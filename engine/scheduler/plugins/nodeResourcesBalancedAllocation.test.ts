// Ported from pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go (v1.32)
// and validation_pluginargs_test.go (NodeResourcesBalancedAllocationArgs).
import { describe, expect, it } from 'vitest';
import { errorString, FieldPath } from '../../apimachinery/fieldErrors';
import { cloneState } from '../../sim/serial';
import type { Node, Pod, PodSpec } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { MAX_NODE_SCORE } from '../framework/interface';
import { makeNode, makePodW, snapshot } from './helper/noderesourcesTesting';
import type { ResourceSpec } from './helper/resourceAllocation';
import {
  defaultNodeResourcesBalancedAllocationArgs,
  NodeResourcesBalancedAllocation,
  nodeResourcesBalancedAllocationDefinition,
  validateNodeResourcesBalancedAllocationArgs,
} from './nodeResourcesBalancedAllocation';

const podOf = (spec: PodSpec): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: structuredClone(spec) });

const cpuAndMemoryAndGPU: PodSpec = {
  containers: [
    { name: 'a', resources: { requests: { cpu: '1000m', memory: '2000' } } },
    { name: 'b', resources: { requests: { cpu: '2000m', memory: '3000', 'nvidia.com/gpu': '3' } } },
  ],
  nodeName: 'node1',
};
const cpuOnly: PodSpec = {
  nodeName: 'node1',
  containers: [
    { name: 'a', resources: { requests: { cpu: '1000m', memory: '0' } } },
    { name: 'b', resources: { requests: { cpu: '2000m', memory: '0' } } },
  ],
};
const cpuOnly2: PodSpec = { ...cpuOnly, nodeName: 'node2' };
const cpuAndMemory: PodSpec = {
  nodeName: 'node2',
  containers: [
    { name: 'a', resources: { requests: { cpu: '1000m', memory: '2000' } } },
    { name: 'b', resources: { requests: { cpu: '2000m', memory: '3000' } } },
  ],
};

const defaultSet: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];
const withGPU: ResourceSpec[] = [...defaultSet, { name: 'nvidia.com/gpu', weight: 1 }];
const scalarResource = { 'nvidia.com/gpu': 8 };

interface Case {
  name: string;
  pod: Pod;
  pods?: Pod[];
  nodes: Node[];
  expected: number[];
  resources: ResourceSpec[];
  runPreScore?: boolean;
}

const cases: Case[] = [
  {
    // v1.32 scores best-effort pods (fractions 0 and 0, std 0); the PreScore Skip came in v1.33.
    name: 'nothing scheduled, nothing requested',
    pod: makePodW().obj(),
    nodes: [makeNode('node1', 4000, 10000), makeNode('node2', 4000, 10000)],
    expected: [MAX_NODE_SCORE, MAX_NODE_SCORE],
    resources: defaultSet,
  },
  {
    // node1: cpu 3000/4000 = 0.75, memory 5000/10000 = 0.5, std 0.125 → 87; node2: 0.5, 0.5 → 100
    name: 'nothing scheduled, resources requested, differently sized nodes',
    pod: podOf(cpuAndMemory),
    nodes: [makeNode('node1', 4000, 10000), makeNode('node2', 6000, 10000)],
    expected: [87, MAX_NODE_SCORE],
    resources: defaultSet,
  },
  {
    // Plain requests, no 100m/200Mi defaults: containers without requests add nothing.
    name: 'no resources requested, pods with container scheduled',
    pod: makePodW().obj(),
    pods: [makePodW().node('node1').container('c').obj(), makePodW().node('node1').container('c').obj()],
    nodes: [makeNode('node1', 4000, 10000), makeNode('node2', 4000, 10000)],
    expected: [MAX_NODE_SCORE, MAX_NODE_SCORE],
    resources: defaultSet,
  },
  {
    // node1: cpu 3000/10000 = 0.3, memory 0 → std 0.15 → 85; node2: cpu 0.6, memory 5000/20000 = 0.25 → std 0.175 → 82
    name: 'no resources requested, pods scheduled with resources',
    pod: makePodW().obj(),
    pods: [podOf(cpuOnly), podOf(cpuOnly2), podOf(cpuAndMemory)],
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 20000)],
    expected: [85, 82],
    resources: defaultSet,
  },
  {
    // node1: 0.6, 0.25 → 82; node2: 0.6, 0.5 → 95
    name: 'resources requested, pods scheduled with resources',
    pod: podOf(cpuAndMemory),
    pods: [podOf(cpuOnly), podOf(cpuAndMemory)],
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 20000)],
    expected: [82, 95],
    resources: defaultSet,
  },
  {
    // node2: 0.6, 10000/50000 = 0.2 → 80
    name: 'resources requested, pods scheduled with resources, differently sized nodes',
    pod: podOf(cpuAndMemory),
    pods: [podOf(cpuOnly), podOf(cpuAndMemory)],
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 50000)],
    expected: [82, 80],
    resources: defaultSet,
  },
  {
    // node1: cpu 6000/6000 = 1, memory 0 → std 0.5 → 50; node2: 1, 0.5 → 75
    name: 'requested resources at node capacity',
    pod: podOf(cpuOnly),
    pods: [podOf(cpuOnly), podOf(cpuAndMemory)],
    nodes: [makeNode('node1', 6000, 10000), makeNode('node2', 6000, 10000)],
    expected: [50, 75],
    resources: defaultSet,
  },
  {
    // node1: 3000/3500, 5000/40000, gpu (3+1)/8 → std 0.2989 → 70; node2: gpu 1/8 → std 0.345 → 65
    name: 'include scalar resource on a node for balanced resource allocation',
    pod: makePodW().req({ memory: '0', 'nvidia.com/gpu': '1' }).obj(),
    pods: [podOf(cpuAndMemory), podOf(cpuAndMemoryAndGPU)],
    nodes: [makeNode('node1', 3500, 40000, scalarResource), makeNode('node2', 3500, 40000, scalarResource)],
    expected: [70, 65],
    resources: withGPU,
  },
  {
    // The pod does not request the GPU: it is skipped on both nodes. 0.857, 0.125 → std 0.366 → 63
    name: 'node without the scalar resource should skip the scalar resource',
    pod: podOf(cpuAndMemory),
    nodes: [makeNode('node1', 3500, 40000, scalarResource), makeNode('node2', 3500, 40000)],
    expected: [63, 63],
    resources: withGPU,
  },
  {
    name: 'resources requested, pods scheduled with resources if PreScore not called',
    pod: podOf(cpuAndMemory),
    pods: [podOf(cpuOnly), podOf(cpuAndMemory)],
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 20000)],
    expected: [82, 95],
    resources: defaultSet,
    runPreScore: false,
  },
];

describe('TestNodeResourcesBalancedAllocation', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const p = new NodeResourcesBalancedAllocation({ resources: tc.resources }, null);
      const state = new CycleState();
      if (tc.runPreScore !== false) expect(p.preScore(state, tc.pod)).toBeNull();
      expect(snapshot(tc.pods ?? [], tc.nodes).map((ni) => p.score(state, tc.pod, ni))).toEqual(tc.expected);
    });
  }

  it('three or more resources: root of the mean squared deviation, same float operations', () => {
    // Node1 of the scalar case: fractions 0.857…, 0.125, 0.5; mean 0.494; std 0.2989 → (1 - std) * 100 = 70.1 → 70.
    const fr = [3000 / 3500, 5000 / 40000, 4 / 8];
    const mean = (fr[0]! + fr[1]! + fr[2]!) / 3;
    let sum = 0;
    for (const f of fr) sum = sum + (f - mean) * (f - mean);
    expect(Math.trunc((1 - Math.sqrt(sum / 3)) * 100)).toBe(70);
  });

  it('fractions are capped at 1', () => {
    // cpu 8000/4000 → 1 (not 2), memory 0 → std 0.5 → 50
    const p = new NodeResourcesBalancedAllocation({ resources: defaultSet }, null);
    const pod = makePodW().req({ cpu: '8', memory: '0' }).obj();
    expect(p.score(new CycleState(), pod, snapshot([], [makeNode('n', 4000, 10000)])[0]!)).toBe(50);
  });

  it('no resources configured is an error', () => {
    const p = new NodeResourcesBalancedAllocation({ resources: [] }, null);
    expect(p.score(new CycleState(), makePodW().obj(), snapshot([], [makeNode('n', 4000, 10000)])[0]!)).toEqual({ code: 'Error', reasons: ['resources not found'] });
  });

  it('a cloned plugin scores identically', () => {
    const p = new NodeResourcesBalancedAllocation({ resources: withGPU }, null);
    const c = cloneState(p);
    expect(c).toBeInstanceOf(NodeResourcesBalancedAllocation);
    const infos = snapshot([podOf(cpuAndMemory), podOf(cpuAndMemoryAndGPU)], [makeNode('node1', 3500, 40000, scalarResource), makeNode('node2', 3500, 40000, scalarResource)]);
    const pod = makePodW().req({ memory: '0', 'nvidia.com/gpu': '1' }).obj();
    for (const plugin of [p, c]) {
      const s = new CycleState();
      plugin.preScore(s, pod);
      expect(infos.map((ni) => plugin.score(s, pod, ni))).toEqual([70, 65]);
    }
  });
});

describe('NodeResourcesBalancedAllocationArgs', () => {
  const root = FieldPath.root('');
  it('v1 defaults: cpu and memory; weight 0 means 1', () => {
    expect(defaultNodeResourcesBalancedAllocationArgs(undefined)).toEqual({ resources: defaultSet });
    expect(defaultNodeResourcesBalancedAllocationArgs({ resources: [] })).toEqual({ resources: defaultSet });
    expect(defaultNodeResourcesBalancedAllocationArgs({ resources: [{ name: 'cpu', weight: 0 }] })).toEqual({ resources: [{ name: 'cpu', weight: 1 }] });
  });
  it('valid config', () => {
    expect(validateNodeResourcesBalancedAllocationArgs({ resources: withGPU }, root)).toEqual([]);
  });
  it('invalid config: weight must be 1', () => {
    expect(validateNodeResourcesBalancedAllocationArgs({ resources: [{ name: 'cpu', weight: 2 }, { name: 'memory', weight: 1 }] }, root).map(errorString)).toEqual([
      'resources[0].weight: Invalid value: 2: must be 1',
    ]);
  });
  it('repeated resources', () => {
    expect(validateNodeResourcesBalancedAllocationArgs({ resources: [{ name: 'cpu', weight: 1 }, { name: 'cpu', weight: 1 }] }, root).map(errorString)).toEqual([
      'resources[1].name: Duplicate value: "cpu"',
    ]);
  });
  it('the PluginDefinition', () => {
    const d = nodeResourcesBalancedAllocationDefinition;
    expect([d.name, d.argsKind]).toEqual(['NodeResourcesBalancedAllocation', 'NodeResourcesBalancedAllocationArgs']);
    const p = d.factory(d.defaultArgs!(undefined), null as never) as NodeResourcesBalancedAllocation;
    expect(p.scorer.resources).toEqual(defaultSet);
    expect(p.scorer.useRequested).toBe(true);
  });
});
