import { describe, expect, it } from 'vitest';
import { fiveNodeDecision, manyNodeDecision } from './fixtures';
import { buildTable, coverageText, DEFAULT_SORT, filterState, formatScore, nextSort, rowWindow, skippedEverywhere, sortRows } from './table';

describe('buildTable', () => {
  it('lists filter plugins in the order they ran, even when the first node was rejected early', () => {
    const t = buildTable(fiveNodeDecision());
    expect(t.filterPlugins).toEqual(['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'VolumeRestrictions']);
    expect(t.scorePlugins).toEqual(['TaintToleration', 'NodeResourcesFit', 'NodeResourcesBalancedAllocation']);
  });

  it('records the rejecting plugin and its reason, and marks the winner', () => {
    const t = buildTable(fiveNodeDecision());
    const n1 = t.rows.find((r) => r.node === 'node-1')!;
    expect(n1.failedPlugin).toBe('TaintToleration');
    expect(n1.reason).toContain('untolerated taint');
    expect(filterState(n1, 'NodeName')).toBe('pass');
    expect(filterState(n1, 'TaintToleration')).toBe('fail');
    expect(filterState(n1, 'NodePorts')).toBe('notRun');
    expect(n1.scores).toBeNull();
    expect(t.rows.filter((r) => r.winner).map((r) => r.node)).toEqual(['node-4']);
  });

  it('treats Skip as neither pass nor fail', () => {
    const d = fiveNodeDecision();
    d.nodes['node-3']!.filters.VolumeRestrictions = 'Skip';
    const r = buildTable(d).rows.find((x) => x.node === 'node-3')!;
    expect(filterState(r, 'VolumeRestrictions')).toBe('skip');
    expect(r.failedPlugin).toBeNull();
  });

  it('finds the filters PreFilter skipped on every node, and only those', () => {
    const d = fiveNodeDecision();
    for (const n of ['node-3', 'node-4', 'node-10']) d.nodes[n]!.filters.VolumeRestrictions = 'Skip';
    for (const n of Object.keys(d.nodes)) if (d.nodes[n]!.filters.NodeAffinity) d.nodes[n]!.filters.NodeAffinity = 'Skip';
    expect(skippedEverywhere(buildTable(d))).toEqual(['NodeAffinity', 'VolumeRestrictions']);
    d.nodes['node-4']!.filters.VolumeRestrictions = 'Success';
    expect(skippedEverywhere(buildTable(d))).toEqual(['NodeAffinity']);
  });
});

describe('sortRows', () => {
  const rows = buildTable(fiveNodeDecision()).rows;

  it('puts the best total first and infeasible nodes last by default', () => {
    expect(sortRows(rows, DEFAULT_SORT, 'weighted').map((r) => r.node)).toEqual(['node-4', 'node-3', 'node-10', 'node-1', 'node-2']);
  });

  it('sorts by a score column in the chosen mode, missing scores last either way', () => {
    const asc = sortRows(rows, { key: 's:TaintToleration', dir: 'asc' }, 'raw').map((r) => r.node);
    expect(asc).toEqual(['node-4', 'node-3', 'node-10', 'node-1', 'node-2']);
    const desc = sortRows(rows, { key: 's:TaintToleration', dir: 'desc' }, 'raw').map((r) => r.node);
    expect(desc.slice(0, 3)).toEqual(['node-10', 'node-3', 'node-4']);
    expect(desc.slice(3)).toEqual(['node-1', 'node-2']);
  });

  it('sorts node names naturally (node-3 before node-10)', () => {
    expect(sortRows(rows, { key: 'node', dir: 'asc' }, 'weighted').map((r) => r.node)).toEqual(['node-1', 'node-2', 'node-3', 'node-4', 'node-10']);
  });

  it('sorts a filter column with the rejected nodes first when descending', () => {
    const r = sortRows(rows, { key: 'f:NodeResourcesFit', dir: 'desc' }, 'weighted').map((x) => x.node);
    expect(r[0]).toBe('node-2');
    // node-1 never reached NodeResourcesFit: not run ranks between pass and fail.
    expect(r[1]).toBe('node-1');
  });

  it('flips direction on the same column and starts scores descending', () => {
    expect(nextSort({ key: 'total', dir: 'desc' }, 'total')).toEqual({ key: 'total', dir: 'asc' });
    expect(nextSort({ key: 'total', dir: 'desc' }, 's:ImageLocality')).toEqual({ key: 's:ImageLocality', dir: 'desc' });
    expect(nextSort({ key: 'total', dir: 'desc' }, 'node')).toEqual({ key: 'node', dir: 'asc' });
  });

  it('handles 5,000 rows', () => {
    const many = buildTable(manyNodeDecision(5000)).rows;
    const sorted = sortRows(many, DEFAULT_SORT, 'weighted');
    expect(sorted).toHaveLength(5000);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i - 1]!.total!).toBeGreaterThanOrEqual(sorted[i]!.total!);
    expect(sorted[0]!.winner).toBe(true);
  });
});

describe('rowWindow', () => {
  it('draws only the visible rows plus overscan, with spacers for the rest', () => {
    const w = rowWindow(2400, 480, 24, 500, 8);
    expect(w.start).toBe(92);
    expect(w.end).toBe(128);
    expect(w.padTop).toBe(92 * 24);
    expect(w.padTop + (w.end - w.start) * 24 + w.padBottom).toBe(500 * 24);
  });

  it('clamps at both ends', () => {
    expect(rowWindow(0, 300, 24, 5)).toEqual({ start: 0, end: 5, padTop: 0, padBottom: 0 });
    const end = rowWindow(1e6, 300, 24, 100);
    expect(end.end).toBe(100);
    expect(end.start).toBeLessThanOrEqual(100);
    expect(end.padBottom).toBe(0);
    expect(rowWindow(0, 300, 24, 0)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });
});

describe('text', () => {
  it('formats scores and coverage', () => {
    expect(formatScore(300)).toBe('300');
    expect(formatScore(12.5)).toBe('12.5');
    expect(formatScore(1 / 3)).toBe('0.33');
    expect(coverageText(fiveNodeDecision())).toBe('evaluated 5 of 5 nodes; 3 feasible');
    const d = { ...manyNodeDecision(10), numAllNodes: 500, numNodesToFind: 100, evaluatedNodes: 103, feasibleNodes: 100 };
    expect(coverageText(d)).toBe('evaluated 103 of 500 nodes (percentageOfNodesToScore: stop after 100 feasible); 100 feasible');
    const noScore = { ...manyNodeDecision(10), numAllNodes: 5, numNodesToFind: 1, evaluatedNodes: 3, feasibleNodes: 1, scoringSkipped: 'no Score plugins: the first feasible node is taken' };
    expect(coverageText(noScore)).toBe('evaluated 3 of 5 nodes (no Score plugins: stop at the first feasible); 1 feasible');
  });
});
