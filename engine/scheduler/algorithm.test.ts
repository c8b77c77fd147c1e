import { describe, expect, it } from 'vitest';
import { Rng } from '../sim/rng';
import { fitErrorMessage, numFeasibleNodesToFind, selectHost, type Diagnosis } from './algorithm';
import { unresolvable, unschedulable } from './framework/status';
import { nodeInfoOf, makeNode } from './testing/fixtures';

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
