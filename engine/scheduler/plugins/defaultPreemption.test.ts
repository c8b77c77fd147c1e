import { describe, expect, it } from 'vitest';
import { FieldPath } from '../../apimachinery/fieldErrors';
import { Rng } from '../../sim/rng';
import { cloneState } from '../../sim/serial';
import type { Node, Pod } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import type { ApiAction, EventAction, NodeToStatus } from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import { errorStatus, unschedulable, type MaybeStatus } from '../framework/status';
import type { PodDisruptionBudget } from '../preemption/types';
import {
  capNode,
  cluster,
  LARGE,
  MEDIUM,
  PRIORITY,
  ScriptedRng,
  SMALL,
  statusOf,
  testHandle,
  tpod,
  VERY_LARGE,
  type TestHandleOpts,
} from '../preemption/testHandle';
import { DefaultPreemption, defaultDefaultPreemptionArgs, defaultPreemptionDefinition, validateDefaultPreemptionArgs, type DefaultPreemptionArgs } from './defaultPreemption';

// Tables after pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go
// (v1.32): TestPostFilter, TestDryRunPreemption, TestSelectBestCandidate,
// TestPodEligibleToPreemptOthers, TestPreempt. NodeResourcesFit is replaced by
// the test handle's fit filter (pods, cpu, memory).

const { neg, low, mid, high, veryHigh } = PRIORITY;
const ONE_POD = { pods: '1' };
const NODE_RES = { cpu: '200m', memory: '400' };

function pdb(name: string, matchLabels: Record<string, string>, disruptionsAllowed: number, disruptedPods?: Record<string, string>, namespace = 'default'): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace },
    spec: { selector: { matchLabels } },
    status: { disruptionsAllowed, ...(disruptedPods ? { disruptedPods } : {}) },
  };
}

function setup(nodes: Node[], pods: Pod[], o: TestHandleOpts & { args?: Partial<DefaultPreemptionArgs> } = {}) {
  const infos = cluster(nodes, pods);
  const handle = testHandle(infos, o);
  const pl = new DefaultPreemption(defaultDefaultPreemptionArgs(o.args), handle);
  return { infos, handle, pl };
}

const unsched = (...names: string[]): NodeToStatus => new Map(names.map((n) => [n, statusOf('Unschedulable')]));

describe('DefaultPreemption.postFilter (TestPostFilter)', () => {
  interface Case {
    name: string;
    pod: Pod;
    pods: Pod[];
    nodes: Node[];
    pdbs?: PodDisruptionBudget[];
    statuses: NodeToStatus;
    opts?: TestHandleOpts;
    wantNominated: string | undefined;
    wantStatus: MaybeStatus;
  }
  const removeFails = (_p: Pod, _r: unknown, ni: NodeInfo): MaybeStatus =>
    ni.node?.metadata.labels?.error === 'true' ? errorStatus('running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: p') : null;
  const cases: Case[] = [
    {
      name: 'pod with higher priority can be made schedulable',
      pod: tpod('p', { priority: high }),
      pods: [tpod('p1', { nodeName: 'node1' })],
      nodes: [capNode('node1', ONE_POD)],
      statuses: unsched('node1'),
      wantNominated: 'node1',
      wantStatus: null,
    },
    {
      name: 'pod with tied priority is still unschedulable',
      pod: tpod('p'),
      pods: [tpod('p1', { nodeName: 'node1' })],
      nodes: [capNode('node1', ONE_POD)],
      statuses: unsched('node1'),
      wantNominated: '',
      wantStatus: unschedulable('preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.'),
    },
    {
      name: 'preemption should respect filteredNodesStatuses',
      pod: tpod('p', { priority: high }),
      pods: [tpod('p1', { nodeName: 'node1' })],
      nodes: [capNode('node1', ONE_POD)],
      statuses: new Map([['node1', statusOf('UnschedulableAndUnresolvable')]]),
      wantNominated: '',
      wantStatus: unschedulable('preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.'),
    },
    {
      name: 'an absent entry means UnschedulableAndUnresolvable',
      pod: tpod('p', { priority: high }),
      pods: [tpod('p1', { nodeName: 'node1' })],
      nodes: [capNode('node1', ONE_POD)],
      statuses: new Map(),
      wantNominated: '',
      wantStatus: unschedulable('preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.'),
    },
    {
      name: 'pod can be made schedulable on one node',
      pod: tpod('p', { priority: mid }),
      pods: [tpod('p1', { nodeName: 'node1', priority: high }), tpod('p2', { nodeName: 'node2', priority: low })],
      nodes: [capNode('node1', ONE_POD), capNode('node2', ONE_POD)],
      statuses: unsched('node1', 'node2'),
      wantNominated: 'node2',
      wantStatus: null,
    },
    {
      name: 'pod can be made schedulable on minHighestPriority node',
      pod: tpod('p', { priority: veryHigh }),
      pods: [
        tpod('p1', { nodeName: 'node1', priority: high, labels: { pdb: 'non-violating' } }),
        tpod('p2', { nodeName: 'node1', priority: low, labels: { pdb: 'violating' } }),
        tpod('p3', { nodeName: 'node2', priority: mid, labels: { pdb: 'violating' } }),
      ],
      pdbs: [pdb('violating-pdb', { pdb: 'violating' }, 0), pdb('non-violating-pdb', { pdb: 'non-violating' }, 2147483647)],
      nodes: [capNode('node1', ONE_POD), capNode('node2', ONE_POD)],
      statuses: unsched('node1', 'node2'),
      wantNominated: 'node2',
      wantStatus: null,
    },
    {
      name: 'no candidate nodes found, not enough resource after removing low priority pods',
      pod: tpod('p', { priority: high, requests: LARGE }),
      pods: [tpod('p1', { nodeName: 'node1' }), tpod('p2', { nodeName: 'node2' })],
      nodes: [capNode('node1', NODE_RES), capNode('node2', NODE_RES)],
      statuses: unsched('node1', 'node2'),
      wantNominated: '',
      wantStatus: unschedulable('preemption: 0/2 nodes are available: 2 Insufficient cpu.'),
    },
    {
      name: 'no candidate nodes found with mixed reasons, no lower priority pod and not enough CPU',
      pod: tpod('p', { priority: high, requests: LARGE }),
      pods: [tpod('p1', { nodeName: 'node1', priority: high }), tpod('p2', { nodeName: 'node2' }), tpod('p3', { nodeName: 'node3', priority: high })],
      nodes: [capNode('node1', ONE_POD), capNode('node2', NODE_RES), capNode('node3', ONE_POD)],
      statuses: unsched('node1', 'node2', 'node3'),
      wantNominated: '',
      wantStatus: unschedulable('preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.'),
    },
    {
      name: 'mixed reasons: 2 nodes not helpful (one unresolvable, one absent), 2 lack CPU',
      pod: tpod('p', { priority: high, requests: LARGE }),
      pods: [tpod('p1', { nodeName: 'node1' }), tpod('p2', { nodeName: 'node2' })],
      nodes: ['node1', 'node2', 'node3', 'node4'].map((n) => capNode(n, NODE_RES)),
      statuses: new Map([
        ['node1', statusOf('Unschedulable')],
        ['node2', statusOf('Unschedulable')],
        ['node4', statusOf('UnschedulableAndUnresolvable')],
      ]),
      wantNominated: '',
      wantStatus: unschedulable('preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.'),
    },
    {
      name: "the brief's example: one node without victims, four not helpful",
      pod: tpod('p', { priority: mid }),
      pods: [tpod('p1', { nodeName: 'node1', priority: high })],
      nodes: ['node1', 'node2', 'node3', 'node4', 'node5'].map((n) => capNode(n, ONE_POD)),
      statuses: new Map([
        ['node1', statusOf('Unschedulable', 'Too many pods')],
        ['node2', statusOf('UnschedulableAndUnresolvable', "node(s) didn't match Pod's node affinity/selector")],
      ]),
      wantNominated: '',
      wantStatus: unschedulable('preemption: 0/5 nodes are available: 1 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.'),
    },
    {
      name: 'only one node but RemovePod fails: an Error, no result',
      pod: tpod('p', { priority: high, requests: LARGE }),
      pods: [tpod('p1', { nodeName: 'node1' })],
      nodes: [capNode('node1', LARGE, { error: 'true' })],
      statuses: unsched('node1'),
      opts: { removePod: removeFails },
      wantNominated: undefined,
      wantStatus: errorStatus('preemption: running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: p'),
    },
    {
      name: 'one node fails with an error and the other passes',
      pod: tpod('p', { priority: high, requests: LARGE }),
      pods: [tpod('p1', { nodeName: 'node1' }), tpod('p2', { nodeName: 'node2', requests: MEDIUM })],
      nodes: [capNode('node1', LARGE, { error: 'true' }), capNode('node2', LARGE)],
      statuses: unsched('node1', 'node2'),
      opts: { removePod: removeFails },
      wantNominated: 'node2',
      wantStatus: null,
    },
    {
      name: 'preemptionPolicy Never: not eligible, no result',
      pod: tpod('p', { priority: high, spec: { preemptionPolicy: 'Never' } }),
      pods: [tpod('p1', { nodeName: 'node1' })],
      nodes: [capNode('node1', ONE_POD)],
      statuses: unsched('node1'),
      wantNominated: undefined,
      wantStatus: unschedulable('preemption: not eligible due to preemptionPolicy=Never.'),
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { pl } = setup(c.nodes, c.pods, { ...c.opts, objects: { poddisruptionbudgets: c.pdbs ?? [] } });
      const out = pl.postFilter(new CycleState(), c.pod, c.statuses);
      expect(out.status).toEqual(c.wantStatus);
      expect(out.result?.nominatedNodeName).toBe(c.wantNominated);
    });
  }

  it('an absent-nodes status of Unschedulable (a PreFilter rejection) lets preemption try every node', () => {
    const { pl } = setup([capNode('node1', ONE_POD)], [tpod('p1', { nodeName: 'node1' })]);
    const out = pl.postFilter(new CycleState(), tpod('p', { priority: high }), new Map(), statusOf('Unschedulable', 'x'));
    expect(out.status).toBeNull();
    expect(out.result?.nominatedNodeName).toBe('node1');
  });

  it('no nodes at all: an Error', () => {
    const { pl } = setup([], []);
    expect(pl.postFilter(new CycleState(), tpod('p', { priority: high }), new Map()).status).toEqual(errorStatus('preemption: no nodes available'));
  });
});

describe('dry run (TestDryRunPreemption)', () => {
  interface Case {
    name: string;
    args?: Partial<DefaultPreemptionArgs>;
    nodeNames: string[];
    testPods: Pod[];
    initPods: Pod[];
    pdbs?: PodDisruptionBudget[];
    filter?: TestHandleOpts['filter'];
    expected: { name: string; victims: string[]; numPDBViolations: number }[][];
    expectedNumFilterCalled: number[];
  }
  const fooPod = (name: string, node: string) => tpod(name, { nodeName: node, labels: { app: 'foo' }, priority: mid, requests: MEDIUM });
  const cases: Case[] = [
    {
      name: 'a pod that does not fit on any node',
      nodeNames: ['node1', 'node2'],
      testPods: [tpod('p', { priority: high })],
      initPods: [tpod('p1', { nodeName: 'node1', priority: mid }), tpod('p2', { nodeName: 'node2', priority: mid })],
      filter: () => unschedulable('FalseFilter'),
      expected: [[]],
      expectedNumFilterCalled: [2],
    },
    {
      name: 'a pod that fits on both nodes when lower priority pods are preempted',
      nodeNames: ['node1', 'node2'],
      testPods: [tpod('p', { priority: high, requests: LARGE })],
      initPods: [tpod('p1', { nodeName: 'node1', priority: mid, requests: LARGE }), tpod('p2', { nodeName: 'node2', priority: mid, requests: LARGE })],
      expected: [
        [
          { name: 'node1', victims: ['p1'], numPDBViolations: 0 },
          { name: 'node2', victims: ['p2'], numPDBViolations: 0 },
        ],
      ],
      expectedNumFilterCalled: [4],
    },
    {
      name: 'other pods running are higher priority: no preemption',
      nodeNames: ['node1', 'node2'],
      testPods: [tpod('p', { priority: low, requests: LARGE })],
      initPods: [tpod('p1', { nodeName: 'node1', priority: mid, requests: LARGE }), tpod('p2', { nodeName: 'node2', priority: mid, requests: LARGE })],
      expected: [[]],
      expectedNumFilterCalled: [0],
    },
    {
      name: 'medium priority pod is preempted, but lower priority one stays as it is small',
      nodeNames: ['node1', 'node2'],
      testPods: [tpod('p', { priority: high, requests: LARGE })],
      initPods: [
        tpod('p1.1', { nodeName: 'node1', priority: low, requests: SMALL }),
        tpod('p1.2', { nodeName: 'node1', priority: mid, requests: LARGE }),
        tpod('p2', { nodeName: 'node2', priority: mid, requests: LARGE }),
      ],
      expected: [
        [
          { name: 'node1', victims: ['p1.2'], numPDBViolations: 0 },
          { name: 'node2', victims: ['p2'], numPDBViolations: 0 },
        ],
      ],
      expectedNumFilterCalled: [5],
    },
    {
      name: 'mixed priority pods are preempted',
      nodeNames: ['node1', 'node2'],
      testPods: [tpod('p', { priority: high, requests: LARGE })],
      initPods: [
        tpod('p1.1', { nodeName: 'node1', priority: mid, requests: SMALL }),
        tpod('p1.2', { nodeName: 'node1', priority: low, requests: SMALL }),
        tpod('p1.3', { nodeName: 'node1', priority: mid, requests: MEDIUM }),
        tpod('p1.4', { nodeName: 'node1', priority: high, requests: SMALL }),
        tpod('p2', { nodeName: 'node2', priority: high, requests: LARGE }),
      ],
      expected: [[{ name: 'node1', victims: ['p1.2', 'p1.3'], numPDBViolations: 0 }]],
      expectedNumFilterCalled: [4],
    },
    {
      name: 'mixed priority pods are preempted, pick later StartTime one when priorities are equal',
      nodeNames: ['node1', 'node2'],
      testPods: [tpod('p', { priority: high, requests: LARGE })],
      initPods: [
        tpod('p1.1', { nodeName: 'node1', priority: low, requests: SMALL, start: 5 }),
        tpod('p1.2', { nodeName: 'node1', priority: low, requests: SMALL, start: 4 }),
        tpod('p1.3', { nodeName: 'node1', priority: mid, requests: MEDIUM, start: 3 }),
        tpod('p1.4', { nodeName: 'node1', priority: high, requests: SMALL, start: 2 }),
        tpod('p2', { nodeName: 'node2', priority: high, requests: LARGE, start: 1 }),
      ],
      expected: [[{ name: 'node1', victims: ['p1.1', 'p1.3'], numPDBViolations: 0 }]],
      expectedNumFilterCalled: [4],
    },
    {
      name: 'preemption with violation of same pdb',
      nodeNames: ['node1'],
      testPods: [tpod('p', { priority: high, requests: VERY_LARGE })],
      initPods: [fooPod('p1.1', 'node1'), fooPod('p1.2', 'node1')],
      pdbs: [pdb('pdb', { app: 'foo' }, 1)],
      expected: [[{ name: 'node1', victims: ['p1.1', 'p1.2'], numPDBViolations: 1 }]],
      expectedNumFilterCalled: [3],
    },
    {
      name: 'pdb with an already processed eviction of another pod: still a violation',
      nodeNames: ['node1'],
      testPods: [tpod('p', { priority: high, requests: VERY_LARGE })],
      initPods: [fooPod('p1.1', 'node1'), fooPod('p1.2', 'node1')],
      pdbs: [pdb('pdb', { app: 'foo' }, 1, { p2: '2025-01-01T00:00:00Z' })],
      expected: [[{ name: 'node1', victims: ['p1.1', 'p1.2'], numPDBViolations: 1 }]],
      expectedNumFilterCalled: [3],
    },
    {
      name: 'pdb whose disruptedPods lists the victim: not a violation',
      nodeNames: ['node1'],
      testPods: [tpod('p', { priority: high, requests: VERY_LARGE })],
      initPods: [fooPod('p1.1', 'node1'), fooPod('p1.2', 'node1')],
      pdbs: [pdb('pdb', { app: 'foo' }, 1, { 'p1.2': '2025-01-01T00:00:00Z' })],
      expected: [[{ name: 'node1', victims: ['p1.1', 'p1.2'], numPDBViolations: 0 }]],
      expectedNumFilterCalled: [3],
    },
    {
      name: "a victim in disruptedPods is 'nonViolating'",
      nodeNames: ['node1'],
      testPods: [tpod('p', { priority: high, requests: VERY_LARGE })],
      initPods: [fooPod('p1.1', 'node1'), fooPod('p1.2', 'node1'), fooPod('p1.3', 'node1')],
      pdbs: [pdb('pdb', { app: 'foo' }, 1, { 'p1.3': '2025-01-01T00:00:00Z' })],
      expected: [[{ name: 'node1', victims: ['p1.1', 'p1.2', 'p1.3'], numPDBViolations: 1 }]],
      expectedNumFilterCalled: [4],
    },
    {
      name: 'all nodes are possible candidates, but DefaultPreemptionArgs limits to 2',
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
      nodeNames: ['node1', 'node2', 'node3', 'node4', 'node5'],
      testPods: [tpod('p', { priority: high, requests: LARGE })],
      initPods: [1, 2, 3, 4, 5].map((i) => tpod(`p${i}`, { nodeName: `node${i}`, priority: mid, requests: LARGE })),
      // offset 4 => node5 (yes), node1 (yes)
      expected: [
        [
          { name: 'node1', victims: ['p1'], numPDBViolations: 0 },
          { name: 'node5', victims: ['p5'], numPDBViolations: 0 },
        ],
      ],
      expectedNumFilterCalled: [4],
    },
    {
      name: 'some nodes are not possible candidates, DefaultPreemptionArgs limits to 2',
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
      nodeNames: ['node1', 'node2', 'node3', 'node4', 'node5'],
      testPods: [tpod('p', { priority: high, requests: LARGE })],
      initPods: [1, 2, 3, 4, 5].map((i) => tpod(`p${i}`, { nodeName: `node${i}`, priority: i === 2 || i === 5 ? veryHigh : mid, requests: LARGE })),
      // offset 4 => node5 (no), node1 (yes), node2 (no), node3 (yes)
      expected: [
        [
          { name: 'node1', victims: ['p1'], numPDBViolations: 0 },
          { name: 'node3', victims: ['p3'], numPDBViolations: 0 },
        ],
      ],
      expectedNumFilterCalled: [4],
    },
    {
      name: 'preemption offset across multiple scheduling cycles and wrap around',
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
      nodeNames: ['node1', 'node2', 'node3', 'node4', 'node5'],
      testPods: ['tp1', 'tp2', 'tp3'].map((n) => tpod(n, { priority: high, requests: LARGE })),
      initPods: [1, 2, 3, 4, 5].map((i) => tpod(`p${i}`, { nodeName: `node${i}`, priority: mid, requests: LARGE })),
      expected: [
        [
          { name: 'node1', victims: ['p1'], numPDBViolations: 0 },
          { name: 'node5', victims: ['p5'], numPDBViolations: 0 },
        ],
        [
          { name: 'node2', victims: ['p2'], numPDBViolations: 0 },
          { name: 'node3', victims: ['p3'], numPDBViolations: 0 },
        ],
        [
          { name: 'node4', victims: ['p4'], numPDBViolations: 0 },
          { name: 'node5', victims: ['p5'], numPDBViolations: 0 },
        ],
      ],
      expectedNumFilterCalled: [4, 4, 4],
    },
    {
      name: 'preemption looks past numCandidates until a non-PDB violating node is found',
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 2 },
      nodeNames: ['node1', 'node2', 'node3', 'node4', 'node5'],
      testPods: [tpod('p', { priority: high, requests: LARGE })],
      initPods: [1, 2, 3, 4, 5].map((i) => tpod(`p${i}`, { nodeName: `node${i}`, priority: mid, requests: LARGE, ...(i === 3 || i === 4 ? {} : { labels: { app: 'foo' } }) })),
      pdbs: [pdb('pdb', { app: 'foo' }, 0)],
      // offset 4 => node5 (yes, pdb), node1 (yes, pdb), node2 (yes, pdb: beyond the list's capacity), node3 (yes)
      expected: [
        [
          { name: 'node1', victims: ['p1'], numPDBViolations: 1 },
          { name: 'node3', victims: ['p3'], numPDBViolations: 0 },
          { name: 'node5', victims: ['p5'], numPDBViolations: 1 },
        ],
      ],
      expectedNumFilterCalled: [8],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const nodes = c.nodeNames.map((n) => capNode(n, VERY_LARGE));
      // Upstream seeds getOffsetRand with 4: Int31n(5) then yields 4, 1, 3.
      const { infos, handle, pl } = setup(nodes, c.initPods, { rng: new ScriptedRng([4, 1, 3]), ...(c.filter ? { filter: c.filter } : {}), args: c.args });
      let prev = 0;
      c.testPods.forEach((pod, cycle) => {
        const { offset, numCandidates } = pl.getOffsetAndNumCandidates(infos.length);
        const got = pl.evaluator.dryRunPreemption(new CycleState(), pod, infos, c.pdbs ?? [], offset, numCandidates);
        const candidates = got.candidates
          .map((x) => ({ name: x.name, victims: x.victims.pods.map((p) => p.metadata.name!).sort(), numPDBViolations: x.victims.numPDBViolations }))
          .sort((a, b) => (a.name < b.name ? -1 : 1));
        expect(candidates).toEqual(c.expected[cycle]);
        expect(handle.filterCalls - prev).toBe(c.expectedNumFilterCalled[cycle]);
        prev = handle.filterCalls;
      });
    });
  }

  it('leaves the scheduler snapshot untouched (victims are removed from copies)', () => {
    const { infos, pl } = setup([capNode('node1', VERY_LARGE)], [tpod('p1', { nodeName: 'node1', priority: low, requests: LARGE })]);
    const before = infos[0]!.requested.milliCPU;
    const got = pl.evaluator.dryRunPreemption(new CycleState(), tpod('p', { priority: high, requests: LARGE }), infos, [], 0, 1);
    expect(got.candidates).toHaveLength(1);
    expect(infos[0]!.pods).toHaveLength(1);
    expect(infos[0]!.requested.milliCPU).toBe(before);
  });
});

describe('SelectCandidate (TestSelectBestCandidate)', () => {
  interface Case {
    name: string;
    nodeNames: string[];
    pod: Pod;
    pods: Pod[];
    expected: string;
  }
  const v = (name: string, node: string, priority: number, requests = MEDIUM, start = 0) => tpod(name, { nodeName: node, priority, requests, start });
  const cases: Case[] = [
    {
      name: 'node with min highest priority pod is picked',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: tpod('p', { priority: high, requests: VERY_LARGE }),
      pods: [v('p1.1', 'node1', mid), v('p1.2', 'node1', mid, LARGE), v('p2.1', 'node2', mid), v('p2.2', 'node2', low), v('p3.1', 'node3', low), v('p3.2', 'node3', low)],
      expected: 'node3',
    },
    {
      name: 'when highest priorities are the same, minimum sum of priorities is picked',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: tpod('p', { priority: high, requests: VERY_LARGE }),
      pods: [v('p1.1', 'node1', mid), v('p1.2', 'node1', mid, LARGE), v('p2.1', 'node2', mid, LARGE), v('p2.2', 'node2', low), v('p3.1', 'node3', mid), v('p3.2', 'node3', mid)],
      expected: 'node2',
    },
    {
      name: 'when highest priority and sum are the same, minimum number of pods is picked',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: tpod('p', { priority: high, requests: VERY_LARGE }),
      pods: [
        v('p1.1', 'node1', mid, SMALL),
        v('p1.2', 'node1', neg, SMALL),
        v('p1.3', 'node1', mid, SMALL),
        v('p1.4', 'node1', neg, SMALL),
        v('p2.1', 'node2', mid, LARGE),
        v('p2.2', 'node2', neg),
        v('p3.1', 'node3', mid),
        v('p3.2', 'node3', neg, SMALL),
        v('p3.3', 'node3', low, SMALL),
      ],
      expected: 'node2',
    },
    {
      name: 'sum of adjusted priorities is considered',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: tpod('p', { priority: high, requests: VERY_LARGE }),
      pods: [
        v('p1.1', 'node1', mid, SMALL),
        v('p1.2', 'node1', neg, SMALL),
        v('p1.3', 'node1', neg, SMALL),
        v('p2.1', 'node2', mid, LARGE),
        v('p2.2', 'node2', neg),
        v('p3.1', 'node3', mid),
        v('p3.2', 'node3', neg, SMALL),
        v('p3.3', 'node3', low, SMALL),
      ],
      expected: 'node2',
    },
    {
      name: 'non-overlapping lowest high priority, sum priorities, and number of pods',
      nodeNames: ['node1', 'node2', 'node3', 'node4'],
      pod: tpod('p', { priority: veryHigh, requests: VERY_LARGE }),
      pods: [
        v('p1.1', 'node1', mid, SMALL),
        v('p1.2', 'node1', low, SMALL),
        v('p1.3', 'node1', low, SMALL),
        v('p2.1', 'node2', high, LARGE),
        v('p3.1', 'node3', mid),
        v('p3.2', 'node3', low, SMALL),
        v('p3.3', 'node3', low, SMALL),
        v('p3.4', 'node3', low),
        v('p4.1', 'node4', mid),
        v('p4.2', 'node4', mid, SMALL),
        v('p4.3', 'node4', mid, SMALL),
        v('p4.4', 'node4', neg, SMALL),
      ],
      expected: 'node1',
    },
    {
      name: 'same priority, same number of victims, different start time for each node',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: tpod('p', { priority: high, requests: VERY_LARGE }),
      pods: [v('p1.1', 'node1', mid, MEDIUM, 2), v('p1.2', 'node1', mid, MEDIUM, 2), v('p2.1', 'node2', mid, MEDIUM, 3), v('p2.2', 'node2', mid, MEDIUM, 3), v('p3.1', 'node3', mid, MEDIUM, 1), v('p3.2', 'node3', mid, MEDIUM, 1)],
      expected: 'node2',
    },
    {
      name: 'same priority, same number of victims, different start time for all pods',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: tpod('p', { priority: high, requests: VERY_LARGE }),
      pods: [v('p1.1', 'node1', mid, MEDIUM, 4), v('p1.2', 'node1', mid, MEDIUM, 2), v('p2.1', 'node2', mid, MEDIUM, 5), v('p2.2', 'node2', mid, MEDIUM, 1), v('p3.1', 'node3', mid, MEDIUM, 3), v('p3.2', 'node3', mid, MEDIUM, 6)],
      expected: 'node3',
    },
    {
      name: 'different priority, same number of victims, different start time for all pods',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: tpod('p', { priority: high, requests: VERY_LARGE }),
      pods: [v('p1.1', 'node1', low, MEDIUM, 4), v('p1.2', 'node1', mid, MEDIUM, 2), v('p2.1', 'node2', mid, MEDIUM, 6), v('p2.2', 'node2', low, MEDIUM, 1), v('p3.1', 'node3', low, MEDIUM, 3), v('p3.2', 'node3', mid, MEDIUM, 5)],
      expected: 'node2',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { infos, pl } = setup(
        c.nodeNames.map((n) => capNode(n, VERY_LARGE)),
        c.pods,
        { now: 3_600_000 },
      );
      const { offset, numCandidates } = pl.getOffsetAndNumCandidates(infos.length);
      const { candidates } = pl.evaluator.dryRunPreemption(new CycleState(), c.pod, infos, [], offset, numCandidates);
      expect(pl.evaluator.selectCandidate(candidates)?.name).toBe(c.expected);
    });
  }

  it('a pod that fits on both nodes: either is fine, and the choice does not depend on the offset', () => {
    const pods = [tpod('p1', { nodeName: 'node1', priority: mid, requests: LARGE, start: 0 }), tpod('p2', { nodeName: 'node2', priority: mid, requests: LARGE, start: 0 })];
    const picks = new Set<string>();
    for (const offset of [0, 1]) {
      const { infos, pl } = setup([capNode('node1', VERY_LARGE), capNode('node2', VERY_LARGE)], pods);
      const { candidates } = pl.evaluator.dryRunPreemption(new CycleState(), tpod('p', { priority: high, requests: LARGE }), infos, [], offset, 2);
      picks.add(pl.evaluator.selectCandidate(candidates)!.name);
    }
    // Ties go to the first candidate in dry-run order, which is the non-PDB list in node order from the offset.
    expect([...picks].every((n) => n === 'node1' || n === 'node2')).toBe(true);
  });
});

describe('podEligibleToPreemptOthers (TestPodEligibleToPreemptOthers)', () => {
  const terminatingByPreemption = { conditions: [{ type: 'DisruptionTarget', status: 'True' as const, reason: 'PreemptionByScheduler' }] };
  const cases: { name: string; pod: Pod; pods: Pod[]; nodes: string[]; nominatedNodeStatus: MaybeStatus; expected: boolean; message?: string }[] = [
    {
      name: 'pod with nominated node whose status is UnschedulableAndUnresolvable',
      pod: tpod('p_with_nominated_node', { priority: high, nominated: 'node1' }),
      pods: [tpod('p1', { priority: low, nodeName: 'node1', terminating: true, conditions: terminatingByPreemption })],
      nodes: ['node1'],
      nominatedNodeStatus: statusOf('UnschedulableAndUnresolvable', "node(s) had untolerated taint {foo: bar}"),
      expected: true,
    },
    { name: 'pod without nominated node', pod: tpod('p_without_nominated_node', { priority: high }), pods: [], nodes: [], nominatedNodeStatus: null, expected: true },
    {
      name: "pod with 'PreemptNever' preemption policy",
      pod: tpod('p_with_preempt_never_policy', { priority: high, spec: { preemptionPolicy: 'Never' } }),
      pods: [],
      nodes: [],
      nominatedNodeStatus: null,
      expected: false,
      message: 'not eligible due to preemptionPolicy=Never.',
    },
    {
      name: 'preemption victim pod terminating, as indicated by the DisruptionTarget condition',
      pod: tpod('p_with_nominated_node', { priority: high, nominated: 'node1' }),
      pods: [tpod('p1', { priority: low, nodeName: 'node1', terminating: true, conditions: terminatingByPreemption })],
      nodes: ['node1'],
      nominatedNodeStatus: null,
      expected: false,
      message: 'not eligible due to a terminating pod on the nominated node.',
    },
    {
      name: 'non-victim pods terminating',
      pod: tpod('p_with_nominated_node', { priority: high, nominated: 'node1' }),
      pods: [tpod('p1', { priority: low, nodeName: 'node1', terminating: true })],
      nodes: ['node1'],
      nominatedNodeStatus: null,
      expected: true,
    },
    {
      name: 'a terminating victim of equal priority does not hold the pod back',
      pod: tpod('p_with_nominated_node', { priority: high, nominated: 'node1' }),
      pods: [tpod('p1', { priority: high, nodeName: 'node1', terminating: true, conditions: terminatingByPreemption })],
      nodes: ['node1'],
      nominatedNodeStatus: null,
      expected: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { pl } = setup(c.nodes.map((n) => capNode(n, VERY_LARGE)), c.pods);
      const got = pl.podEligibleToPreemptOthers(c.pod, c.nominatedNodeStatus);
      expect(got.eligible).toBe(c.expected);
      if (c.message) expect(got.message).toBe(c.message);
    });
  }

  it('postFilter: a pod waiting for its victims to terminate is Unschedulable with no result', () => {
    const { pl } = setup(
      [capNode('node1', ONE_POD)],
      [tpod('p1', { priority: low, nodeName: 'node1', terminating: true, conditions: { conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }] } })],
    );
    const out = pl.postFilter(new CycleState(), tpod('p', { priority: high, nominated: 'node1' }), unsched('node1'));
    expect(out).toEqual({ status: unschedulable('preemption: not eligible due to a terminating pod on the nominated node.') });
  });
});

describe('Preempt: the REST calls (TestPreempt)', () => {
  const nodes = () => ['node1', 'node2', 'node3'].map((n) => capNode(n, VERY_LARGE));
  const pods = () => [
    tpod('p1.1', { nodeName: 'node1', priority: low, requests: SMALL }),
    tpod('p1.2', { nodeName: 'node1', priority: low, requests: SMALL }),
    tpod('p2.1', { nodeName: 'node2', priority: high, requests: LARGE }),
    tpod('p3.1', { nodeName: 'node3', priority: mid, requests: MEDIUM }),
  ];

  it('basic preemption logic: node1, p1.1 and p1.2 marked, deleted and evented; lower nominated pods cleared', () => {
    const lowNominated = tpod('waiting-low', { priority: low, nominated: 'node1' });
    const highNominated = tpod('waiting-high', { priority: veryHigh, nominated: 'node1' });
    const { pl } = setup(nodes(), pods(), { now: 5_250, nominated: new Map([['node1', [lowNominated, highNominated]]]) });
    const pod = tpod('p', { priority: high, requests: VERY_LARGE, spec: { preemptionPolicy: 'PreemptLowerPriority', schedulerName: 'default-scheduler' } });
    const out = pl.postFilter(new CycleState(), pod, unsched('node1', 'node2', 'node3'));
    expect(out.status).toBeNull();
    const r = out.result!;
    expect(r.nominatedNodeName).toBe('node1');
    expect(r.victims).toEqual(['default/p1.1', 'default/p1.2']);
    // Candidate order follows the random offset; compare as a set.
    expect([...r.candidates!].sort((a, b) => (a.node < b.node ? -1 : 1))).toEqual([
      { node: 'node1', victims: ['default/p1.1', 'default/p1.2'], numPDBViolations: 0 },
      { node: 'node3', victims: ['default/p3.1'], numPDBViolations: 0 },
    ]);
    const calls = r.actions!.map((a) => ('event' in a ? `event ${a.event.reason} ${a.event.regarding.metadata.name}` : `${a.method} ${a.path}`));
    expect(calls).toEqual([
      'PATCH /api/v1/namespaces/default/pods/p1.1/status',
      'DELETE /api/v1/namespaces/default/pods/p1.1',
      'event Preempted p1.1',
      'PATCH /api/v1/namespaces/default/pods/p1.2/status',
      'DELETE /api/v1/namespaces/default/pods/p1.2',
      'event Preempted p1.2',
      'PATCH /api/v1/namespaces/default/pods/waiting-low/status',
    ]);
    const rest = r.actions!.filter((a) => !('event' in a)) as ApiAction[];
    const [patch] = rest;
    expect(patch!.contentType).toBe('application/strategic-merge-patch+json');
    expect(patch!.body).toEqual({
      status: {
        conditions: [
          {
            lastProbeTime: null,
            lastTransitionTime: '2025-01-01T00:00:05Z',
            message: 'default-scheduler: preempting to accommodate a higher priority pod',
            reason: 'PreemptionByScheduler',
            status: 'True',
            type: 'DisruptionTarget',
          },
        ],
      },
    });
    const event = r.actions![2] as EventAction;
    expect(event.event).toMatchObject({ type: 'Normal', reason: 'Preempted', action: 'Preempting', note: 'Preempted by pod uid-p on node node1' });
    expect(event.event.related?.metadata.name).toBe('p');
    expect(rest[4]!.body).toEqual({ status: { nominatedNodeName: null } });
  });

  it('PreemptionPolicy is nil: preempts as PreemptLowerPriority', () => {
    const { pl } = setup(nodes(), pods());
    const out = pl.postFilter(new CycleState(), tpod('p', { priority: high, requests: VERY_LARGE }), unsched('node1', 'node2', 'node3'));
    expect(out.result?.nominatedNodeName).toBe('node1');
    expect(out.result?.actions?.filter((a) => !('event' in a) && a.method === 'DELETE').map((a) => (a as ApiAction).path)).toEqual(['/api/v1/namespaces/default/pods/p1.1', '/api/v1/namespaces/default/pods/p1.2']);
  });

  it('no preempting pod (preemptionPolicy Never): no calls at all', () => {
    const { pl } = setup(nodes(), pods());
    const out = pl.postFilter(new CycleState(), tpod('p', { priority: high, requests: VERY_LARGE, spec: { preemptionPolicy: 'Never' } }), unsched('node1', 'node2', 'node3'));
    expect(out.result).toBeUndefined();
    expect(out.status?.code).toBe('Unschedulable');
  });
});

describe('candidate counts and args', () => {
  it('calculateNumCandidates: percentage of the nodes, at least the absolute, at most all', () => {
    const cases: [Partial<DefaultPreemptionArgs>, number, number][] = [
      [{}, 10, 10],
      [{}, 500, 100],
      [{}, 1000, 100],
      [{}, 5000, 500],
      [{ minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 }, 5, 2],
      [{ minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 2 }, 3, 2],
      [{ minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 7 }, 10, 7],
      [{ minCandidateNodesPercentage: 33, minCandidateNodesAbsolute: 0 }, 10, 3],
    ];
    for (const [args, n, want] of cases) {
      const pl = new DefaultPreemption(defaultDefaultPreemptionArgs(args), testHandle([]));
      expect(pl.calculateNumCandidates(n), `${JSON.stringify(args)} ${n}`).toBe(want);
    }
  });

  it('the offset comes from the handle rng, uniformly in [0, n)', () => {
    const pl = new DefaultPreemption(defaultDefaultPreemptionArgs({}), testHandle([], { rng: new Rng(42) }));
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const { offset } = pl.getOffsetAndNumCandidates(7);
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(7);
      seen.add(offset);
    }
    expect(seen.size).toBe(7);
  });

  it('defaults: 10% and 100', () => {
    expect(defaultDefaultPreemptionArgs(undefined)).toEqual({ minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 });
    expect(defaultDefaultPreemptionArgs({ minCandidateNodesAbsolute: 0 })).toEqual({ minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 0 });
  });

  it('validation as ValidateDefaultPreemptionArgs', () => {
    const path = FieldPath.root('profiles').index(0).child('pluginConfig').index(0).child('args');
    const v = (a: DefaultPreemptionArgs) => validateDefaultPreemptionArgs(a, path).map((e) => `${e.field}: ${String(e.badValue)}: ${e.detail}`);
    expect(v({ minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 })).toEqual([]);
    expect(v({ minCandidateNodesPercentage: -1, minCandidateNodesAbsolute: -1 })).toEqual([
      'profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: -1: not in valid range [0, 100]',
      'profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: -1: not in valid range [0, inf)',
    ]);
    expect(v({ minCandidateNodesPercentage: 900, minCandidateNodesAbsolute: 1 })).toEqual(['profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: 900: not in valid range [0, 100]']);
    expect(v({ minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0 })).toEqual([
      'profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: 0: cannot be zero at the same time as minCandidateNodesAbsolute',
      'profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: 0: cannot be zero at the same time as minCandidateNodesPercentage',
    ]);
    expect(defaultPreemptionDefinition.name).toBe('DefaultPreemption');
    expect(defaultPreemptionDefinition.argsKind).toBe('DefaultPreemptionArgs');
  });

  it('registers no events and never gates pods (asynchronous preemption is off in v1.32)', () => {
    const pl = defaultPreemptionDefinition.factory(defaultDefaultPreemptionArgs({}), testHandle([])) as DefaultPreemption;
    expect(pl.eventsToRegister()).toEqual([]);
    expect(pl.preEnqueue(tpod('p'))).toBeNull();
  });
});

describe('determinism', () => {
  // The plugin holds only its args and the Handle; what evolves across cycles is
  // the scheduler's Rng. A clone of it taken mid-run must drive identical decisions.
  function run(rng: Rng, cycles: number): unknown[] {
    const names = Array.from({ length: 40 }, (_, i) => `node${i}`);
    const pods = names.map((n, i) => tpod(`v${i}`, { nodeName: n, priority: i % 3 === 0 ? low : mid, requests: LARGE, start: i }));
    const { pl } = setup(names.map((n) => capNode(n, VERY_LARGE)), pods, { rng, args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 3 } });
    const out: unknown[] = [];
    for (let c = 0; c < cycles; c++) {
      const r = pl.postFilter(new CycleState(), tpod(`p${c}`, { priority: high, requests: LARGE }), unsched(...names));
      out.push({ node: r.result?.nominatedNodeName, candidates: r.result?.candidates });
    }
    return out;
  }

  it('a clone of the rng taken mid-run continues identically', () => {
    const rng = new Rng(7);
    run(rng, 2);
    const copy = cloneState(rng);
    expect(run(copy, 4)).toEqual(run(rng, 4));
  });

  it('the result is plain data (snapshots clone it)', () => {
    const { pl } = setup(['node1'].map((n) => capNode(n, VERY_LARGE)), [tpod('v', { nodeName: 'node1', requests: LARGE })]);
    const r = pl.postFilter(new CycleState(), tpod('p', { priority: high, requests: LARGE }), unsched('node1'));
    expect(cloneState(r)).toEqual(r);
  });
});
