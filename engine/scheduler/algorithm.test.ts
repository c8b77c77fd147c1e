import { describe, expect, it } from 'vitest';
import { Rng } from '../sim/rng';
import { fitErrorMessage, numFeasibleNodesToFind, selectHost, type Diagnosis } from './algorithm';
import { unresolvable, unschedulable } from './framework/status';
import { nodeInfoOf, makeNode, makePod } from './testing/fixtures';
import { DirectScheduler } from './testing/direct';
import { decisionJson } from './records/decisionLog';

describe('numFeasibleNodesToFind (schedule_one.go)', () => {
  // Cases from upstream's TestNumFeasibleNodesToFind.
  it.each([
    [0, 10, 10],
    [0, 1000, 420],
    [40, 1000, 400],
    [0, 6000, 300],
    [40, 6000, 2400],
    [0, 5000, 500],
    [0, 500, 230],
    [0, 99, 99],
    [0, 100, 100],
    [10, 500, 100],
    [100, 5000, 5000],
    [0, 15000, 750],
  ])('percentage %i of %i nodes → %i', (pct, n, want) => {
    expect(numFeasibleNodesToFind(pct, n).count).toBe(want);
  });
});

function diag(entries: [string, ReturnType<typeof unschedulable>][], over: Partial<Diagnosis> = {}): Diagnosis {
  return { nodeToStatus: new Map(entries), absentNodesStatus: null, unschedulablePlugins: new Set(), pendingPlugins: new Set(), preFilterMsg: '', postFilterMsg: '', ...over };
}

describe('FitError message', () => {
  it('histograms the reasons, sorted as strings', () => {
    const d = diag([
      ['a', unschedulable('node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }')],
      ['b', unschedulable('Insufficient cpu')],
      ['c', unschedulable('Insufficient cpu')],
      ['d', unschedulable('Insufficient cpu', 'Insufficient memory')],
      ['e', unschedulable('Insufficient cpu')],
    ]);
    expect(fitErrorMessage(5, d)).toBe('0/5 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 4 Insufficient cpu.');
  });

  it('uses the PreFilter message alone when PreFilter rejected, and appends the PostFilter one', () => {
    const d = diag([], { preFilterMsg: 'pod has unbound immediate PersistentVolumeClaims', postFilterMsg: 'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.' });
    expect(fitErrorMessage(3, d)).toBe('0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
  });

  it('counts nodes left out by a PreFilterResult with the absent status', () => {
    const d = diag([['a', unschedulable('Insufficient cpu')]], { absentNodesStatus: unresolvable("node(s) didn't satisfy plugin(s) [NodeAffinity]") });
    expect(fitErrorMessage(4, d)).toBe("0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't satisfy plugin(s) [NodeAffinity].");
  });
});

describe('selectHost', () => {
  const nodes = ['a', 'b', 'c', 'd'].map((n) => nodeInfoOf(makeNode(n)));
  it('picks the highest total', () => {
    expect(selectHost(nodes, Float64Array.from([10, 30, 20, 5]), new Rng(1))).toBe(1);
  });
  it('breaks ties uniformly and reproducibly', () => {
    const counts = [0, 0, 0, 0];
    const rng = new Rng(7);
    for (let i = 0; i < 3000; i++) counts[selectHost(nodes, Float64Array.from([50, 10, 50, 50]), rng)]!++;
    expect(counts[1]).toBe(0);
    for (const i of [0, 2, 3]) expect(counts[i]).toBeGreaterThan(850);
    const again = new Rng(7);
    const first = selectHost(nodes, Float64Array.from([50, 10, 50, 50]), again);
    expect(first).toBe(selectHost(nodes, Float64Array.from([50, 10, 50, 50]), new Rng(7)));
  });
});

describe('findNodesThatPassFilters across cycles', () => {
  const NO_SCORE = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: '*'
`;

  it('starts each cycle where the last one stopped (round robin over 200 nodes, 100 to find)', () => {
    const s = new DirectScheduler(1);
    for (let i = 0; i < 200; i++) s.addNode(makeNode(`n-${String(i).padStart(3, '0')}`));
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const rec = s.schedule(makePod(`p-${i}`, { requests: { cpu: '10m' } }));
      // 200 nodes: 50 − 200/125 = 49% → 98, so at least 100.
      expect(rec.numNodesToFind).toBe(100);
      expect(rec.nodes).toHaveLength(100);
      starts.push(rec.startIndex);
      expect(rec.nodes[0]).toBe(`n-${String(rec.startIndex).padStart(3, '0')}`);
    }
    expect(starts).toEqual([0, 100, 0]);
  });

  it('counts rejected nodes too when advancing the start index', () => {
    const s = new DirectScheduler(1);
    for (let i = 0; i < 150; i++) s.addNode(makeNode(`n-${String(i).padStart(3, '0')}`, i < 20 ? { allocatable: { cpu: '1', memory: '1Gi', pods: '110' } } : {}));
    const rec = s.schedule(makePod('big', { requests: { cpu: '2' } }));
    // 20 nodes too small, then 100 feasible: 120 processed.
    expect(rec.nodes).toHaveLength(120);
    expect(rec.feasible).toHaveLength(100);
    expect(s.schedule(makePod('next', { requests: { cpu: '2' } })).startIndex).toBe(120);
  });

  it('looks for a single feasible node when the profile has no Score plugins', () => {
    const s = new DirectScheduler(1, NO_SCORE);
    for (let i = 0; i < 5; i++) s.addNode(makeNode(`n-${i}`, i < 2 ? { allocatable: { cpu: '1', memory: '1Gi', pods: '110' } } : {}));
    const rec = s.schedule(makePod('p', { requests: { cpu: '2' } }));
    expect(rec.numNodesToFind).toBe(1);
    expect(rec.nodes).toEqual(['n-0', 'n-1', 'n-2']);
    expect(rec.selected).toBe('n-2');
    expect(rec.scoringSkipped).toBe('no Score plugins: the first feasible node is taken');
    expect(s.schedule(makePod('q', { requests: { cpu: '2' } })).startIndex).toBe(3);
  });

  it('a nominated node that fails is part of the diagnosis and evaluated once', () => {
    const s = new DirectScheduler(1);
    s.addNode(makeNode('a', { allocatable: { cpu: '1', memory: '1Gi', pods: '110' } }));
    s.addNode(makeNode('b', { allocatable: { cpu: '1', memory: '1Gi', pods: '110' } }));
    const pod = makePod('p', { requests: { cpu: '2' } });
    pod.status = { phase: 'Pending', nominatedNodeName: 'b' };
    const rec = s.schedule(pod);
    expect(rec.nominatedNode).toBe('b');
    expect(rec.nodes).toEqual(['b', 'a']);
    expect(rec.message).toBe('0/2 nodes are available: 2 Insufficient cpu.');
    expect(decisionJson(rec).evaluatedNodes).toBe(2);
  });
});
