// Ported from pkg/scheduler/framework/plugins/noderesources/fit_test.go (v1.32)
// and validation_pluginargs_test.go (NodeResourcesFitArgs).
import { describe, expect, it } from 'vitest';
import { errorString, FieldPath } from '../../apimachinery/fieldErrors';
import { cloneState } from '../../sim/serial';
import type { Node, Pod } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import type { ClusterEvent } from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import type { Status } from '../framework/status';
import {
  computePodResourceRequest,
  defaultNodeResourcesFitArgs,
  fitsRequest,
  haveAnyRequestedResourcesIncreased,
  isFit,
  NodeResourcesFit,
  nodeResourcesFitDefinition,
  validateNodeResourcesFitArgs,
  type FitFeatures,
  type InsufficientResource,
  type NodeResourcesFitArgs,
} from './nodeResourcesFit';
import {
  makeAllocatableResources,
  makePodW,
  newResourceInitPod,
  newResourceOverheadPod,
  newResourcePod,
  nodeInfoWith,
  snapshot,
  stNode,
} from './helper/noderesourcesTesting';
import type { ResourceSpec } from './helper/resourceAllocation';

const extendedResourceA = 'example.com/aaa';
const extendedResourceB = 'example.com/bbb';
const kubernetesIOResourceA = 'kubernetes.io/something';
const kubernetesIOResourceB = 'subdomain.kubernetes.io/something';
const hugePageResourceA = 'hugepages-2Mi';
const reason = (r: string) => `Insufficient ${r}`;
const unsched = (...reasons: string[]): Status => ({ code: 'Unschedulable', reasons });
const defaultResources: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

function newFit(args: NodeResourcesFitArgs = {}, features: Partial<FitFeatures> = {}): NodeResourcesFit {
  return new NodeResourcesFit(defaultNodeResourcesFitArgs(args), null, features);
}

function ir(resourceName: string, requested: number, used: number, capacity: number, reasonText = reason(resourceName)): Omit<InsufficientResource, 'unresolvable'> {
  return { resourceName, reason: reasonText, requested, used, capacity };
}

function runFilter(p: NodeResourcesFit, pod: Pod, ni: NodeInfo): Status | null {
  const state = new CycleState();
  expect(p.preFilter(state, pod).status).toBeNull();
  return p.filter(state, pod, ni);
}

describe('TestEnoughRequests', () => {
  const alloc = makeAllocatableResources(10, 20, 32, 5, 20, 5);
  const cases: { name: string; pod: Pod; existing: Pod; args?: NodeResourcesFitArgs; wantStatus: Status | null; want: Omit<InsufficientResource, 'unresolvable'>[] }[] = [
    { name: 'no resources requested always fits', pod: makePodW().obj(), existing: newResourcePod({ milliCPU: 10, memory: 20 }), wantStatus: null, want: [] },
    {
      name: 'too many resources fails',
      pod: newResourcePod({ milliCPU: 1, memory: 1 }),
      existing: newResourcePod({ milliCPU: 10, memory: 20 }),
      wantStatus: unsched(reason('cpu'), reason('memory')),
      want: [ir('cpu', 1, 10, 10), ir('memory', 1, 20, 20)],
    },
    {
      name: 'too many resources fails due to init container cpu',
      pod: newResourceInitPod(newResourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 3, memory: 1 }),
      existing: newResourcePod({ milliCPU: 8, memory: 19 }),
      wantStatus: unsched(reason('cpu')),
      want: [ir('cpu', 3, 8, 10)],
    },
    {
      name: 'too many resources fails due to highest init container cpu',
      pod: newResourceInitPod(newResourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 3, memory: 1 }, { milliCPU: 2, memory: 1 }),
      existing: newResourcePod({ milliCPU: 8, memory: 19 }),
      wantStatus: unsched(reason('cpu')),
      want: [ir('cpu', 3, 8, 10)],
    },
    {
      name: 'too many resources fails due to init container memory',
      pod: newResourceInitPod(newResourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 1, memory: 3 }),
      existing: newResourcePod({ milliCPU: 9, memory: 19 }),
      wantStatus: unsched(reason('memory')),
      want: [ir('memory', 3, 19, 20)],
    },
    {
      name: 'too many resources fails due to highest init container memory',
      pod: newResourceInitPod(newResourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 1, memory: 3 }, { milliCPU: 1, memory: 2 }),
      existing: newResourcePod({ milliCPU: 9, memory: 19 }),
      wantStatus: unsched(reason('memory')),
      want: [ir('memory', 3, 19, 20)],
    },
    {
      name: "init container fits because it's the max, not sum, of containers and init containers",
      pod: newResourceInitPod(newResourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 1, memory: 1 }),
      existing: newResourcePod({ milliCPU: 9, memory: 19 }),
      wantStatus: null,
      want: [],
    },
    {
      name: "multiple init containers fit because it's the max, not sum, of containers and init containers",
      pod: newResourceInitPod(newResourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 1, memory: 1 }, { milliCPU: 1, memory: 1 }),
      existing: newResourcePod({ milliCPU: 9, memory: 19 }),
      wantStatus: null,
      want: [],
    },
    { name: 'both resources fit', pod: newResourcePod({ milliCPU: 1, memory: 1 }), existing: newResourcePod({ milliCPU: 5, memory: 5 }), wantStatus: null, want: [] },
    {
      name: 'one resource memory fits',
      pod: newResourcePod({ milliCPU: 2, memory: 1 }),
      existing: newResourcePod({ milliCPU: 9, memory: 5 }),
      wantStatus: unsched(reason('cpu')),
      want: [ir('cpu', 2, 9, 10)],
    },
    {
      name: 'one resource cpu fits',
      pod: newResourcePod({ milliCPU: 1, memory: 2 }),
      existing: newResourcePod({ milliCPU: 5, memory: 19 }),
      wantStatus: unsched(reason('memory')),
      want: [ir('memory', 2, 19, 20)],
    },
    { name: 'equal edge case', pod: newResourcePod({ milliCPU: 5, memory: 1 }), existing: newResourcePod({ milliCPU: 5, memory: 19 }), wantStatus: null, want: [] },
    {
      name: 'equal edge case for init container',
      pod: newResourceInitPod(newResourcePod({ milliCPU: 4, memory: 1 }), { milliCPU: 5, memory: 1 }),
      existing: newResourcePod({ milliCPU: 5, memory: 19 }),
      wantStatus: null,
      want: [],
    },
    { name: 'extended resource fits', pod: newResourcePod({ scalar: { [extendedResourceA]: 1 } }), existing: newResourcePod({}), wantStatus: null, want: [] },
    {
      name: 'extended resource fits for init container',
      pod: newResourceInitPod(newResourcePod({}), { scalar: { [extendedResourceA]: 1 } }),
      existing: newResourcePod({}),
      wantStatus: null,
      want: [],
    },
    {
      name: 'extended resource capacity enforced',
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 10 } }),
      existing: newResourcePod({ scalar: { [extendedResourceA]: 0 } }),
      wantStatus: unsched(reason(extendedResourceA)),
      want: [ir(extendedResourceA, 10, 0, 5)],
    },
    {
      name: 'extended resource capacity enforced for init container',
      pod: newResourceInitPod(newResourcePod({}), { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 10 } }),
      existing: newResourcePod({ scalar: { [extendedResourceA]: 0 } }),
      wantStatus: unsched(reason(extendedResourceA)),
      want: [ir(extendedResourceA, 10, 0, 5)],
    },
    {
      name: 'extended resource allocatable enforced',
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 1 } }),
      existing: newResourcePod({ scalar: { [extendedResourceA]: 5 } }),
      wantStatus: unsched(reason(extendedResourceA)),
      want: [ir(extendedResourceA, 1, 5, 5)],
    },
    {
      name: 'extended resource allocatable enforced for init container',
      pod: newResourceInitPod(newResourcePod({}), { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 1 } }),
      existing: newResourcePod({ scalar: { [extendedResourceA]: 5 } }),
      wantStatus: unsched(reason(extendedResourceA)),
      want: [ir(extendedResourceA, 1, 5, 5)],
    },
    {
      name: 'extended resource allocatable enforced for multiple containers',
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 3 } }, { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 3 } }),
      existing: newResourcePod({ scalar: { [extendedResourceA]: 2 } }),
      wantStatus: unsched(reason(extendedResourceA)),
      want: [ir(extendedResourceA, 6, 2, 5)],
    },
    {
      name: 'extended resource allocatable admits multiple init containers',
      pod: newResourceInitPod(newResourcePod({}), { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 3 } }, { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 3 } }),
      existing: newResourcePod({ scalar: { [extendedResourceA]: 2 } }),
      wantStatus: null,
      want: [],
    },
    {
      name: 'extended resource allocatable enforced for multiple init containers',
      pod: newResourceInitPod(newResourcePod({}), { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 6 } }, { milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 3 } }),
      existing: newResourcePod({ scalar: { [extendedResourceA]: 2 } }),
      wantStatus: unsched(reason(extendedResourceA)),
      want: [ir(extendedResourceA, 6, 2, 5)],
    },
    {
      name: 'extended resource allocatable enforced for unknown resource',
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceB]: 1 } }),
      existing: newResourcePod({}),
      wantStatus: unsched(reason(extendedResourceB)),
      want: [ir(extendedResourceB, 1, 0, 0)],
    },
    {
      name: 'extended resource allocatable enforced for unknown resource for init container',
      pod: newResourceInitPod(newResourcePod({}), { milliCPU: 1, memory: 1, scalar: { [extendedResourceB]: 1 } }),
      existing: newResourcePod({}),
      wantStatus: unsched(reason(extendedResourceB)),
      want: [ir(extendedResourceB, 1, 0, 0)],
    },
    {
      name: 'kubernetes.io resource capacity enforced',
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [kubernetesIOResourceA]: 10 } }),
      existing: newResourcePod({}),
      wantStatus: unsched(reason(kubernetesIOResourceA)),
      want: [ir(kubernetesIOResourceA, 10, 0, 0)],
    },
    {
      name: 'kubernetes.io resource capacity enforced for init container',
      pod: newResourceInitPod(newResourcePod({}), { milliCPU: 1, memory: 1, scalar: { [kubernetesIOResourceB]: 10 } }),
      existing: newResourcePod({}),
      wantStatus: unsched(reason(kubernetesIOResourceB)),
      want: [ir(kubernetesIOResourceB, 10, 0, 0)],
    },
    {
      name: 'hugepages resource capacity enforced',
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [hugePageResourceA]: 10 } }),
      existing: newResourcePod({ scalar: { [hugePageResourceA]: 0 } }),
      wantStatus: unsched(reason(hugePageResourceA)),
      want: [ir(hugePageResourceA, 10, 0, 5)],
    },
    {
      name: 'hugepages resource capacity enforced for init container',
      pod: newResourceInitPod(newResourcePod({}), { milliCPU: 1, memory: 1, scalar: { [hugePageResourceA]: 10 } }),
      existing: newResourcePod({ scalar: { [hugePageResourceA]: 0 } }),
      wantStatus: unsched(reason(hugePageResourceA)),
      want: [ir(hugePageResourceA, 10, 0, 5)],
    },
    {
      name: 'hugepages resource allocatable enforced for multiple containers',
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [hugePageResourceA]: 3 } }, { milliCPU: 1, memory: 1, scalar: { [hugePageResourceA]: 3 } }),
      existing: newResourcePod({ scalar: { [hugePageResourceA]: 2 } }),
      wantStatus: unsched(reason(hugePageResourceA)),
      want: [ir(hugePageResourceA, 6, 2, 5)],
    },
    {
      name: 'skip checking ignored extended resource',
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceB]: 1 } }),
      existing: newResourcePod({}),
      args: { ignoredResources: ['example.com/bbb'] },
      wantStatus: null,
      want: [],
    },
    {
      name: 'resources + pod overhead fits',
      pod: newResourceOverheadPod(newResourcePod({ milliCPU: 1, memory: 1 }), { cpu: '3m', memory: '13' }),
      existing: newResourcePod({ milliCPU: 5, memory: 5 }),
      wantStatus: null,
      want: [],
    },
    {
      name: 'requests + overhead does not fit for memory',
      pod: newResourceOverheadPod(newResourcePod({ milliCPU: 1, memory: 1 }), { cpu: '1m', memory: '15' }),
      existing: newResourcePod({ milliCPU: 5, memory: 5 }),
      wantStatus: unsched(reason('memory')),
      want: [ir('memory', 16, 5, 20)],
    },
    {
      name: 'skip checking ignored extended resource via resource groups',
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceB]: 1, [kubernetesIOResourceA]: 1 } }),
      existing: newResourcePod({}),
      args: { ignoredResourceGroups: ['example.com'] },
      wantStatus: unsched(reason(kubernetesIOResourceA)),
      want: [ir(kubernetesIOResourceA, 1, 0, 0)],
    },
    {
      name: 'skip checking extended resource request with quantity zero via resource groups',
      pod: newResourcePod({ milliCPU: 1, memory: 1, scalar: { [extendedResourceA]: 0 } }),
      existing: newResourcePod({ scalar: { [extendedResourceA]: 6 } }),
      wantStatus: null,
      want: [],
    },
    {
      name: 'skip checking resource request with quantity zero',
      pod: newResourcePod({ scalar: { [extendedResourceA]: 1 } }),
      existing: newResourcePod({ milliCPU: 20, memory: 30, scalar: { [extendedResourceA]: 1 } }),
      wantStatus: null,
      want: [],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const ni = nodeInfoWith(alloc, tc.existing);
      const p = newFit(tc.args ?? {});
      expect(runFilter(p, tc.pod, ni)).toEqual(tc.wantStatus);
      const got = fitsRequest(computePodResourceRequest(tc.pod), ni, p.ignoredResources, p.ignoredResourceGroups);
      expect(got.map(({ unresolvable: _u, ...r }) => r)).toEqual(tc.want);
    });
  }
});

describe('TestPreFilterDisabled', () => {
  it('Filter without PreFilter state is an error', () => {
    const p = newFit();
    const s = p.filter(new CycleState(), makePodW().obj(), nodeInfoWith({}));
    expect(s).toEqual({ code: 'Error', reasons: ['error reading "PreFilterNodeResourcesFit" from cycleState: not found'] });
  });
});

describe('TestNotEnoughRequests', () => {
  const alloc = makeAllocatableResources(10, 20, 1, 0, 0, 0);
  const cases: { name: string; pod: Pod; existing: Pod }[] = [
    { name: "even without specified resources, predicate fails when there's no space for additional pod", pod: makePodW().obj(), existing: newResourcePod({ milliCPU: 10, memory: 20 }) },
    { name: "even if both resources fit, predicate fails when there's no space for additional pod", pod: newResourcePod({ milliCPU: 1, memory: 1 }), existing: newResourcePod({ milliCPU: 5, memory: 5 }) },
    { name: "even for equal edge case, predicate fails when there's no space for additional pod", pod: newResourcePod({ milliCPU: 5, memory: 1 }), existing: newResourcePod({ milliCPU: 5, memory: 19 }) },
    {
      name: "even for equal edge case, predicate fails when there's no space for additional pod due to init container",
      pod: newResourceInitPod(newResourcePod({ milliCPU: 5, memory: 1 }), { milliCPU: 5, memory: 1 }),
      existing: newResourcePod({ milliCPU: 5, memory: 19 }),
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      expect(runFilter(newFit(), tc.pod, nodeInfoWith(alloc, tc.existing))).toEqual(unsched('Too many pods'));
    });
  }
});

describe('TestStorageRequests', () => {
  const alloc = makeAllocatableResources(10, 20, 32, 5, 20, 5);
  const cases: { name: string; pod: Pod; existing: Pod; want: Status | null }[] = [
    { name: 'empty storage requested, and pod fits', pod: newResourcePod({ milliCPU: 1, memory: 1 }), existing: newResourcePod({ milliCPU: 2, memory: 10 }), want: null },
    {
      name: 'storage ephemeral local storage request exceeds allocatable',
      pod: newResourcePod({ ephemeralStorage: 25 }),
      existing: newResourcePod({ milliCPU: 2, memory: 2 }),
      want: unsched(reason('ephemeral-storage')),
    },
    { name: 'ephemeral local storage is sufficient', pod: newResourceInitPod(newResourcePod({ ephemeralStorage: 5 })), existing: newResourcePod({ milliCPU: 2, memory: 2, ephemeralStorage: 10 }), want: null },
    { name: 'pod fits', pod: newResourcePod({ ephemeralStorage: 10 }), existing: newResourcePod({ milliCPU: 2, memory: 2 }), want: null },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      expect(runFilter(newFit(), tc.pod, nodeInfoWith(alloc, tc.existing))).toEqual(tc.want);
    });
  }
});

describe('TestRestartableInitContainers', () => {
  const newPod = (): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', uid: 'p' }, spec: { containers: [{ name: 'regular' }] } });
  const withSidecar = (request?: Record<string, string>, sidecarRequest?: Record<string, string>): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', uid: 'p' },
    spec: {
      containers: [{ name: 'regular', ...(request ? { resources: { requests: request } } : {}) }],
      initContainers: [{ name: 'restartable-init', restartPolicy: 'Always', ...(sidecarRequest ? { resources: { requests: sidecarRequest } } : {}) }],
    },
  });
  const cases: { name: string; pod: Pod; enableSidecarContainers: boolean; wantPreFilter: Status | null; wantFilter: Status | null }[] = [
    { name: 'allow pod without restartable init containers if sidecar containers is disabled', pod: newPod(), enableSidecarContainers: false, wantPreFilter: null, wantFilter: null },
    {
      name: 'not allow pod with restartable init containers if sidecar containers is disabled',
      pod: withSidecar(),
      enableSidecarContainers: false,
      wantPreFilter: { code: 'UnschedulableAndUnresolvable', reasons: ['Pod has a restartable init container and the SidecarContainers feature is disabled'] },
      wantFilter: null,
    },
    { name: 'allow pod without restartable init containers if sidecar containers is enabled', pod: newPod(), enableSidecarContainers: true, wantPreFilter: null, wantFilter: null },
    { name: 'allow pod with restartable init containers if sidecar containers is enabled', pod: withSidecar(), enableSidecarContainers: true, wantPreFilter: null, wantFilter: null },
    {
      name: "allow pod if the total requested resources do not exceed the node's allocatable resources",
      pod: withSidecar({ cpu: '1m' }, { cpu: '1m' }),
      enableSidecarContainers: true,
      wantPreFilter: null,
      wantFilter: null,
    },
    {
      name: "not allow pod if the total requested resources do exceed the node's allocatable resources",
      pod: withSidecar({ cpu: '1m' }, { cpu: '2m' }),
      enableSidecarContainers: true,
      wantPreFilter: null,
      wantFilter: unsched('Insufficient cpu'),
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const ni = nodeInfoWith(makeAllocatableResources(2, 0, 1, 0, 0, 0));
      const p = newFit({}, { enableSidecarContainers: tc.enableSidecarContainers });
      const state = new CycleState();
      const pre = p.preFilter(state, tc.pod);
      expect(pre.status).toEqual(tc.wantPreFilter);
      if (pre.status) return;
      expect(p.filter(state, tc.pod, ni)).toEqual(tc.wantFilter);
    });
  }
});

describe('TestFitScore', () => {
  const rtcr = (shape: { utilization: number; score: number }[]): NodeResourcesFitArgs => ({
    scoringStrategy: { type: 'RequestedToCapacityRatio', resources: defaultResources, requestedToCapacityRatio: { shape } },
  });
  const nodes = () => [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })];
  const existing = () => [makePodW().node('node1').req({ cpu: '2000', memory: '4000' }).obj(), makePodW().node('node2').req({ cpu: '1000', memory: '2000' }).obj()];
  const sidecarNodes = () => [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '4000', memory: '10000' })];
  const sidecarExisting = () => [
    makePodW().node('node1').req({ cpu: '1000', memory: '2000' }).sidecarReq({ cpu: '1000', memory: '2000' }).obj(),
    makePodW().node('node2').req({ cpu: '1000', memory: '2000' }).obj(),
  ];
  const small = () => makePodW().req({ cpu: '1000', memory: '2000' }).obj();
  const big = () => makePodW().req({ cpu: '3000', memory: '5000' }).obj();
  const shape10to0 = [
    { utilization: 0, score: 10 },
    { utilization: 100, score: 0 },
  ];
  const shape0to10 = [
    { utilization: 0, score: 0 },
    { utilization: 100, score: 10 },
  ];
  const cases: { name: string; requested: Pod; nodes: Node[]; existing: Pod[]; expected: number[]; args: NodeResourcesFitArgs; runPreScore: boolean }[] = [];
  for (const runPreScore of [true, false]) {
    const sfx = runPreScore ? '' : ' if PreScore is not called';
    cases.push(
      { name: `RequestedToCapacityRatio case1${sfx}`, requested: big(), nodes: nodes(), existing: existing(), expected: [10, 32], args: rtcr(shape10to0), runPreScore },
      { name: `RequestedToCapacityRatio case2${sfx}`, requested: big(), nodes: nodes(), existing: existing(), expected: [95, 68], args: rtcr(shape0to10), runPreScore },
      { name: `MostAllocated${sfx}`, requested: small(), nodes: nodes(), existing: existing(), expected: [67, 36], args: { scoringStrategy: { type: 'MostAllocated', resources: defaultResources } }, runPreScore },
      { name: `LeastAllocated${sfx}`, requested: small(), nodes: nodes(), existing: existing(), expected: [32, 63], args: { scoringStrategy: { type: 'LeastAllocated', resources: defaultResources } }, runPreScore },
    );
  }
  cases.push(
    {
      name: 'MostAllocated with sidecar container',
      requested: small(),
      nodes: sidecarNodes(),
      existing: sidecarExisting(),
      expected: [67, 45],
      args: { scoringStrategy: { type: 'MostAllocated', resources: defaultResources } },
      runPreScore: true,
    },
    {
      name: 'LeastAllocated with sidecar container',
      requested: small(),
      nodes: sidecarNodes(),
      existing: sidecarExisting(),
      expected: [32, 55],
      args: { scoringStrategy: { type: 'LeastAllocated', resources: defaultResources } },
      runPreScore: true,
    },
  );
  for (const tc of cases) {
    it(`test case for ScoringStrategy ${tc.name}`, () => {
      const infos = snapshot(tc.existing, tc.nodes);
      const p = newFit(tc.args);
      const state = new CycleState();
      if (tc.runPreScore) expect(p.preScore(state, tc.requested)).toBeNull();
      expect(infos.map((ni) => p.score(state, tc.requested, ni))).toEqual(tc.expected);
    });
  }
});

describe('TestEventsToRegister', () => {
  const cases: { name: string; features: Partial<FitFeatures>; want: ClusterEvent[] }[] = [
    {
      name: 'Register events with InPlacePodVerticalScaling feature enabled',
      features: { enableInPlacePodVerticalScaling: true, enableSchedulingQueueHint: false },
      want: [
        { resource: 'Pod', actions: ['Delete', 'UpdatePodScaleDown'] },
        { resource: 'Node', actions: ['Add', 'UpdateNodeAllocatable', 'UpdateNodeTaint', 'UpdateNodeLabel'] },
      ],
    },
    {
      name: 'Register events with SchedulingQueueHint feature enabled (the v1.32 default)',
      features: {},
      want: [
        { resource: 'Pod', actions: ['Delete'] },
        { resource: 'Node', actions: ['Add', 'UpdateNodeAllocatable'] },
      ],
    },
    {
      name: 'Register events with InPlacePodVerticalScaling feature disabled',
      features: { enableInPlacePodVerticalScaling: false, enableSchedulingQueueHint: false },
      want: [
        { resource: 'Pod', actions: ['Delete'] },
        { resource: 'Node', actions: ['Add', 'UpdateNodeAllocatable', 'UpdateNodeTaint', 'UpdateNodeLabel'] },
      ],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      expect(newFit({}, tc.features).eventsToRegister()).toEqual(tc.want);
    });
  }
});

describe('Test_isSchedulableAfterPodChange', () => {
  const pod = (name: string, cpu?: string, mem?: string) => {
    const w = makePodW(name).uid(name);
    if (cpu) w.req({ cpu });
    if (mem) w.req({ memory: mem });
    return w;
  };
  const empty = (): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { containers: [] } });
  const cases: { name: string; pod: Pod; oldObj?: unknown; newObj?: unknown; inPlace: boolean; want: 'Queue' | 'QueueSkip' }[] = [
    { name: 'backoff-wrong-old-object', pod: empty(), oldObj: 'not-a-pod', inPlace: true, want: 'Queue' },
    { name: 'backoff-wrong-new-object', pod: empty(), newObj: 'not-a-pod', inPlace: true, want: 'Queue' },
    { name: 'queue-on-other-pod-deleted', pod: pod('pod1', '1').obj(), oldObj: pod('pod2', '1').node('fake').obj(), inPlace: true, want: 'Queue' },
    { name: 'skip-queue-on-unscheduled-pod-deleted', pod: empty(), oldObj: empty(), inPlace: true, want: 'QueueSkip' },
    {
      name: 'skip-queue-on-disable-inplace-pod-vertical-scaling',
      pod: pod('pod1', '1').obj(),
      oldObj: pod('pod2', '2').node('fake').obj(),
      newObj: pod('pod2', '1').node('fake').obj(),
      inPlace: false,
      want: 'QueueSkip',
    },
    {
      name: 'skip-queue-on-other-unscheduled-pod',
      pod: pod('pod1', '1').uid('uid0').obj(),
      oldObj: pod('pod2', '2').uid('uid1').obj(),
      newObj: pod('pod2', '1').uid('uid1').obj(),
      inPlace: true,
      want: 'QueueSkip',
    },
    {
      name: 'skip-queue-on-other-pod-unrelated-resource-scaled-down',
      pod: pod('pod1', '1').obj(),
      oldObj: pod('pod2', undefined, '2').node('fake').obj(),
      newObj: pod('pod2', undefined, '1').node('fake').obj(),
      inPlace: true,
      want: 'QueueSkip',
    },
    {
      name: 'queue-on-other-pod-some-resource-scale-down',
      pod: pod('pod1', '1').obj(),
      oldObj: pod('pod2', '2').node('fake').obj(),
      newObj: pod('pod2', '1').node('fake').obj(),
      inPlace: true,
      want: 'Queue',
    },
    {
      name: 'queue-on-target-pod-some-resource-scale-down',
      pod: pod('pod1', '1').obj(),
      oldObj: pod('pod1', '2').obj(),
      newObj: pod('pod1', '1').obj(),
      inPlace: true,
      want: 'Queue',
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const p = newFit({}, { enableInPlacePodVerticalScaling: tc.inPlace });
      expect(p.isSchedulableAfterPodEvent(tc.pod, tc.oldObj, tc.newObj)).toBe(tc.want);
      // Through the EnqueueExtensions entry point too.
      expect(p.isSchedulableAfter({ resource: 'Pod', actions: ['Delete'] }, tc.pod, tc.oldObj as Pod, tc.newObj as Pod)).toBe(tc.want);
    });
  }
});

describe('Test_isSchedulableAfterNodeChange', () => {
  const podMemExtA = () => newResourcePod({ memory: 2, scalar: { [extendedResourceA]: 1 } });
  const node = (cap: Record<string, string>) => stNode('n', cap);
  const cases: { name: string; pod: Pod; oldObj?: unknown; newObj?: unknown; want: 'Queue' | 'QueueSkip' }[] = [
    { name: 'backoff-wrong-new-object', pod: makePodW().obj(), newObj: 'not-a-node', want: 'Queue' },
    { name: 'backoff-wrong-old-object', pod: makePodW().obj(), oldObj: 'not-a-node', newObj: { metadata: {} }, want: 'Queue' },
    { name: 'skip-queue-on-node-add-without-sufficient-resources', pod: newResourcePod({ memory: 2 }), newObj: node({ memory: '1' }), want: 'QueueSkip' },
    {
      name: 'skip-queue-on-node-add-without-required-resource-type',
      pod: newResourcePod({ scalar: { [extendedResourceA]: 1 } }),
      newObj: node({ [extendedResourceB]: '1' }),
      want: 'QueueSkip',
    },
    { name: 'queue-on-node-add-with-sufficient-resources', pod: podMemExtA(), newObj: node({ memory: '4', [extendedResourceA]: '2' }), want: 'Queue' },
    {
      name: 'skip-queue-on-node-unrelated-changes',
      pod: podMemExtA(),
      oldObj: node({ memory: '2', [extendedResourceA]: '2' }),
      newObj: node({ memory: '2', [extendedResourceA]: '1', [extendedResourceB]: '2' }),
      want: 'QueueSkip',
    },
    {
      name: 'queue-on-pod-requested-resources-increase',
      pod: podMemExtA(),
      oldObj: node({ memory: '2', [extendedResourceA]: '1' }),
      newObj: node({ memory: '2', [extendedResourceA]: '2' }),
      want: 'Queue',
    },
    {
      name: 'skip-queue-on-node-changes-from-suitable-to-unsuitable',
      pod: podMemExtA(),
      oldObj: node({ memory: '4', [extendedResourceA]: '2' }),
      newObj: node({ memory: '1', [extendedResourceA]: '2' }),
      want: 'QueueSkip',
    },
    {
      name: 'queue-on-node-changes-from-unsuitable-to-suitable',
      pod: podMemExtA(),
      oldObj: node({ memory: '1', [extendedResourceA]: '2' }),
      newObj: node({ memory: '4', [extendedResourceA]: '2' }),
      want: 'Queue',
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const p = newFit();
      expect(p.isSchedulableAfterNodeChange(tc.pod, tc.oldObj, tc.newObj)).toBe(tc.want);
      expect(p.isSchedulableAfter({ resource: 'Node', actions: ['Add'] }, tc.pod, tc.oldObj as Node, tc.newObj as Node)).toBe(tc.want);
    });
  }
});

describe('TestIsFit', () => {
  it('nil node', () => expect(isFit(makePodW().obj(), undefined)).toBe(false));
  it('insufficient resource', () => expect(isFit(makePodW().req({ cpu: '2' }).obj(), stNode('n', { cpu: '1' }))).toBe(false));
  it('sufficient resource', () => expect(isFit(makePodW().req({ cpu: '1' }).obj(), stNode('n', { cpu: '2' }))).toBe(true));
});

describe('TestHaveAnyRequestedResourcesIncreased', () => {
  const full = (pods: string, cpu: string, memory: string, eph: string, extA: string) => stNode('n', { pods, cpu, memory, 'ephemeral-storage': eph, [extendedResourceA]: extA });
  const part = (cpu: string, memory: string, eph: string, extA: string) => stNode('n', { cpu, memory, 'ephemeral-storage': eph, [extendedResourceA]: extA });
  const allReq = () => newResourcePod({ milliCPU: 2, memory: 2, ephemeralStorage: 2, scalar: { [extendedResourceA]: 2 } });
  const cpuMemReq = () => newResourcePod({ milliCPU: 2, memory: 2 });
  const cases: { name: string; pod: Pod; original: Node; modified: Node; want: boolean }[] = [
    { name: 'no-requested-resources', pod: newResourcePod({}), original: full('1', '1', '1', '1', '1'), modified: full('1', '2', '2', '2', '2'), want: false },
    { name: 'no-requested-resources-pods-increased', pod: newResourcePod({}), original: full('1', '1', '1', '1', '1'), modified: full('2', '1', '1', '1', '1'), want: true },
    { name: 'requested-resources-decreased', pod: allReq(), original: part('1', '2', '3', '4'), modified: part('1', '2', '1', '1'), want: false },
    { name: 'requested-resources-increased', pod: allReq(), original: part('1', '2', '3', '4'), modified: part('3', '4', '3', '4'), want: true },
    { name: 'non-requested-resources-decreased', pod: cpuMemReq(), original: part('1', '2', '3', '4'), modified: part('1', '2', '1', '1'), want: false },
    { name: 'non-requested-resources-increased', pod: cpuMemReq(), original: part('1', '2', '3', '4'), modified: part('1', '2', '5', '6'), want: false },
  ];
  for (const tc of cases) {
    it(tc.name, () => expect(haveAnyRequestedResourcesIncreased(tc.pod, tc.original, tc.modified)).toBe(tc.want));
  }
});

describe('Filter reasons and codes', () => {
  it('lists every shortfall in order: pods, cpu, memory, ephemeral-storage, scalars', () => {
    const ni = nodeInfoWith(makeAllocatableResources(10, 20, 1, 5, 20, 5), newResourcePod({ milliCPU: 10, memory: 20, ephemeralStorage: 20 }));
    const pod = newResourcePod({ milliCPU: 1, memory: 1, ephemeralStorage: 1, scalar: { [extendedResourceA]: 6, [hugePageResourceA]: 6 } });
    expect(runFilter(newFit(), pod, ni)).toEqual(
      unsched('Too many pods', 'Insufficient cpu', 'Insufficient memory', 'Insufficient ephemeral-storage', `Insufficient ${extendedResourceA}`, `Insufficient ${hugePageResourceA}`),
    );
  });

  it('v1.32 answers Unschedulable even when the request exceeds allocatable outright; the v1.34 rule is opt-in', () => {
    const ni = nodeInfoWith(makeAllocatableResources(10, 20, 32, 5, 20, 5));
    const pod = newResourcePod({ milliCPU: 11, memory: 1 });
    expect(runFilter(newFit(), pod, ni)).toEqual(unsched('Insufficient cpu'));
    expect(runFilter(newFit({}, { unresolvableWhenExceedsAllocatable: true }), pod, ni)).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: ['Insufficient cpu'] });
    // Exceeding only what is left (other pods hold the rest) stays resolvable by preemption.
    const busy = nodeInfoWith(makeAllocatableResources(10, 20, 32, 5, 20, 5), newResourcePod({ milliCPU: 5 }));
    const s = new CycleState();
    const p = newFit({}, { unresolvableWhenExceedsAllocatable: true });
    p.preFilter(s, newResourcePod({ milliCPU: 6 }));
    expect(p.filter(s, newResourcePod({ milliCPU: 6 }), busy)).toEqual(unsched('Insufficient cpu'));
    expect(p.insufficientResources(s, busy)).toEqual([{ resourceName: 'cpu', reason: 'Insufficient cpu', requested: 6, used: 5, capacity: 10, unresolvable: false }]);
  });

  it('a passing Filter allocates no status (null)', () => {
    const ni = nodeInfoWith(makeAllocatableResources(10, 20, 32, 5, 20, 5));
    expect(runFilter(newFit(), newResourcePod({ milliCPU: 1 }), ni)).toBeNull();
  });
});

describe('NodeResourcesFitArgs: v1 defaults', () => {
  it('no args: LeastAllocated over cpu and memory, weight 1', () => {
    expect(defaultNodeResourcesFitArgs(undefined)).toEqual({ scoringStrategy: { type: 'LeastAllocated', resources: defaultResources } });
  });
  it('a strategy without resources gets the default set; weight 0 becomes 1', () => {
    expect(defaultNodeResourcesFitArgs({ scoringStrategy: { type: 'MostAllocated' } }).scoringStrategy).toEqual({ type: 'MostAllocated', resources: defaultResources });
    expect(defaultNodeResourcesFitArgs({ scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 0 }] } }).scoringStrategy!.resources).toEqual([{ name: 'cpu', weight: 1 }]);
  });
  it('does not mutate its input', () => {
    const input: NodeResourcesFitArgs = { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 0 }] } };
    defaultNodeResourcesFitArgs(input);
    expect(input.scoringStrategy!.resources![0]!.weight).toBe(0);
  });
});

describe('TestValidateFitArgs and the scoring strategy validations (validation_pluginargs_test.go)', () => {
  const root = FieldPath.root('');
  const ds = { type: 'LeastAllocated' as const, resources: defaultResources };
  const errs = (a: NodeResourcesFitArgs) => validateNodeResourcesFitArgs(a, root).map(errorString);
  const fields = (a: NodeResourcesFitArgs) => validateNodeResourcesFitArgs(a, root).map((e) => `${e.type} ${e.field}`);

  it('IgnoredResources: too long value', () => {
    expect(errs({ ignoredResources: [`longvalue${'a'.repeat(64)}`], scoringStrategy: ds }).join()).toContain('name part must be no more than 63 characters');
  });
  it('IgnoredResources: name is empty', () => {
    expect(errs({ ignoredResources: ['example.com/'], scoringStrategy: ds }).join()).toContain('name part must be non-empty');
  });
  it('IgnoredResources: name has too many slash', () => {
    expect(errs({ ignoredResources: ['example.com/aaa/bbb'], scoringStrategy: ds }).join()).toContain('a qualified name must consist of alphanumeric characters');
  });
  it('IgnoredResources / IgnoredResourceGroups: valid args', () => {
    expect(errs({ ignoredResources: ['example.com'], scoringStrategy: ds })).toEqual([]);
    expect(errs({ ignoredResourceGroups: ['example.com'], scoringStrategy: ds })).toEqual([]);
  });
  it('IgnoredResourceGroups: illegal args', () => {
    expect(errs({ ignoredResourceGroups: ['example.com/'], scoringStrategy: ds }).join()).toContain('name part must be non-empty');
    expect(errs({ ignoredResourceGroups: ['a'.repeat(64)], scoringStrategy: ds }).join()).toContain('name part must be no more than 63 characters');
    expect(errs({ ignoredResourceGroups: ['example.com/aa'], scoringStrategy: ds })).toEqual([`ignoredResourceGroups[0]: Invalid value: "example.com/aa": resource group name can't contain '/'`]);
  });
  it('ScoringStrategy: type is unsupported', () => {
    expect(errs({ scoringStrategy: { type: 'Invalid' as 'LeastAllocated' } })).toEqual([
      'scoringStrategy.type: Unsupported value: "Invalid": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
    ]);
  });

  for (const type of ['LeastAllocated', 'MostAllocated'] as const) {
    it(`${type}: resource weights in (0, 100]`, () => {
      expect(fields({ scoringStrategy: { type } })).toEqual([]);
      expect(fields({ scoringStrategy: { type, resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 10 }] } })).toEqual([]);
      expect(errs({ scoringStrategy: { type, resources: [{ name: 'cpu', weight: 0 }] } })).toEqual([
        'scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid range (0, 100]',
      ]);
      expect(fields({ scoringStrategy: { type, resources: [{ name: 'cpu', weight: 101 }] } })).toEqual(['FieldValueInvalid scoringStrategy.resources[0].weight']);
      expect(fields({ scoringStrategy: { type, resources: [{ name: 'cpu', weight: 0 }, { name: 'memory', weight: 101 }] } })).toEqual([
        'FieldValueInvalid scoringStrategy.resources[0].weight',
        'FieldValueInvalid scoringStrategy.resources[1].weight',
      ]);
      // least/most_allocated_test.go: negative and over-max weights fail NewFit's validation.
      expect(fields({ scoringStrategy: { type, resources: [{ name: 'memory', weight: -1 }, { name: 'cpu', weight: 1 }] } })).toEqual(['FieldValueInvalid scoringStrategy.resources[0].weight']);
    });
  }

  it('RequestedToCapacityRatio: shape points', () => {
    const rtcr = (shape: { utilization: number; score: number }[], resources?: ResourceSpec[]): NodeResourcesFitArgs => ({
      scoringStrategy: { type: 'RequestedToCapacityRatio', ...(resources ? { resources } : {}), requestedToCapacityRatio: { shape } },
    });
    const defaultShape = [{ utilization: 30, score: 3 }];
    expect(fields(rtcr([]))).toEqual(['FieldValueRequired scoringStrategy.shape']);
    expect(errs(rtcr([]))).toEqual(['scoringStrategy.shape: Required value: at least one point must be specified']);
    expect(fields(rtcr(defaultShape, [{ name: 'cpu', weight: 101 }]))).toEqual(['FieldValueInvalid scoringStrategy.resources[0].weight']);
    expect(fields(rtcr(defaultShape, [{ name: 'cpu', weight: 0 }]))).toEqual(['FieldValueInvalid scoringStrategy.resources[0].weight']);
    expect(fields(rtcr(defaultShape))).toEqual([]);
    expect(errs(rtcr([{ utilization: -1, score: 3 }]))).toEqual(['scoringStrategy.shape[0].utilization: Invalid value: -1: not in valid range [0, 100]']);
    expect(fields(rtcr([{ utilization: 101, score: 3 }]))).toEqual(['FieldValueInvalid scoringStrategy.shape[0].utilization']);
    expect(errs(rtcr([{ utilization: 10, score: 3 }, { utilization: 10, score: 3 }]))).toEqual([
      'scoringStrategy.shape[1].utilization: Invalid value: 10: utilization values must be sorted in increasing order',
    ]);
    expect(fields(rtcr([{ utilization: 10, score: 3 }, { utilization: 20, score: 3 }, { utilization: 30, score: 3 }]))).toEqual([]);
    expect(fields(rtcr([{ utilization: 10, score: 3 }, { utilization: 20, score: 3 }, { utilization: 15, score: 3 }]))).toEqual(['FieldValueInvalid scoringStrategy.shape[2].utilization']);
    expect(errs(rtcr([{ utilization: 10, score: -1 }]))).toEqual(['scoringStrategy.shape[0].score: Invalid value: -1: not in valid range [0, 10]']);
    expect(fields(rtcr([{ utilization: 10, score: 11 }]))).toEqual(['FieldValueInvalid scoringStrategy.shape[0].score']);
  });

  it('RequestedToCapacityRatio without its parameter is rejected (upstream would crash in NewFit)', () => {
    expect(fields({ scoringStrategy: { type: 'RequestedToCapacityRatio', resources: defaultResources } })).toEqual(['FieldValueRequired scoringStrategy.shape']);
  });

  it('paths are relative to the one given', () => {
    const p = FieldPath.root('profiles').index(0).child('pluginConfig').index(1).child('args');
    expect(validateNodeResourcesFitArgs({ scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 0 }] } }, p)[0]!.field).toBe(
      'profiles[0].pluginConfig[1].args.scoringStrategy.resources[0].weight',
    );
  });
});

describe('definition, snapshot and the hot path', () => {
  it('the PluginDefinition wires defaults, validation and the factory', () => {
    const d = nodeResourcesFitDefinition;
    expect(d.name).toBe('NodeResourcesFit');
    expect(d.argsKind).toBe('NodeResourcesFitArgs');
    const args = d.defaultArgs!(undefined);
    expect(d.validateArgs!(args, FieldPath.root(''))).toEqual([]);
    const p = d.factory(args, null as never) as NodeResourcesFit;
    expect(p.name).toBe('NodeResourcesFit');
    expect(p.scorer.scorer).toBe('LeastAllocated');
  });

  it('a cloned plugin scores and filters identically', () => {
    const p = newFit({ ignoredResources: ['example.com/bbb'], scoringStrategy: { type: 'RequestedToCapacityRatio', resources: defaultResources, requestedToCapacityRatio: { shape: [{ utilization: 0, score: 0 }, { utilization: 100, score: 10 }] } } });
    const c = cloneState(p);
    expect(c).toBeInstanceOf(NodeResourcesFit);
    const infos = snapshot([makePodW().node('node1').req({ cpu: '1000', memory: '2000' }).obj()], [stNode('node1', { cpu: '4000', memory: '10000' }), stNode('node2', { cpu: '6000', memory: '10000' })]);
    const pod = makePodW().req({ cpu: '3000', memory: '5000', 'example.com/bbb': '1' }).obj();
    for (const plugin of [p, c]) {
      const s = new CycleState();
      plugin.preFilter(s, pod);
      plugin.preScore(s, pod);
      // node1: cpu (1000+3000)/4000 → 100, memory 7000/10000 → 70, round(85); node2: 50 and 50.
      expect(infos.map((ni) => [plugin.filter(s, pod, ni), plugin.score(s, pod, ni)])).toEqual([
        [null, 85],
        [null, 50],
      ]);
    }
  });

  it('5,000 nodes: the per-node path agrees with the itemised check on every node', () => {
    // Every 10th node carries a pod; every 3rd of those is full on cpu.
    const nodes = Array.from({ length: 5000 }, (_, i) => stNode(`n${i}`, { cpu: '4', memory: '32Gi', pods: '110' }));
    const pods = nodes.filter((_, i) => i % 10 === 0).map((n, i) => makePodW().node(n.metadata.name!).req({ cpu: i % 3 === 0 ? '3950m' : '1', memory: '1Gi' }).obj());
    const infos = snapshot(pods, nodes);
    const p = newFit();
    const pod = makePodW().req({ cpu: '100m', memory: '500Mi' }).obj();
    const s = new CycleState();
    p.preFilter(s, pod);
    p.preScore(s, pod);
    let feasible = 0;
    const seen = new Set<number>();
    for (const ni of infos) {
      const st = p.filter(s, pod, ni);
      expect(st === null).toBe(p.insufficientResources(s, ni).length === 0);
      if (st === null) {
        feasible++;
        seen.add(p.score(s, pod, ni) as number);
      }
    }
    expect(feasible).toBe(5000 - 167);
    // Empty nodes: cpu (4000-100)*100/4000 = 97, memory 98 → 97; with a 1-cpu pod: 72 and 95 → 83.
    expect([...seen].sort()).toEqual([83, 97]);
  });
});
