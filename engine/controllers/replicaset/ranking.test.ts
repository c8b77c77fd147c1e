import { describe, it, expect } from 'vitest';
import { getPodsToDelete, lessRanked, sortRanked, deletionCost } from './ranking';
import { pod } from './testPods';

const HOUR = 3600_000;
const names = (ps: { metadata: { name?: string } }[]) => ps.map((p) => p.metadata.name);

// Cases after upstream's TestSortingActivePodsWithRanks (controller_utils_test.go).
describe('ActivePodsWithRanks', () => {
  const now = 10 * HOUR;
  it('orders by node, phase, readiness, cost, rank, ready time, restarts, age', () => {
    const unscheduled = pod('unscheduled', { phase: 'Pending' });
    const pending = pod('pending', { node: 'n1', phase: 'Pending' });
    const unknown = pod('unknown', { node: 'n1', phase: 'Unknown' });
    const notReady = pod('not-ready', { node: 'n1', phase: 'Running', ready: false });
    const lowCost = pod('low-cost', { node: 'n1', phase: 'Running', ready: true, readySince: 0, cost: -5 });
    const recentReady = pod('recent-ready', { node: 'n1', phase: 'Running', ready: true, readySince: now - 1000 });
    const restarts = pod('restarts', { node: 'n1', phase: 'Running', ready: true, readySince: 0, restarts: 3 });
    const newer = pod('newer', { node: 'n1', phase: 'Running', ready: true, readySince: 0, created: 2 * HOUR });
    const older = pod('older', { node: 'n1', phase: 'Running', ready: true, readySince: 0, created: 0 });
    const input = [older, newer, restarts, recentReady, lowCost, notReady, unknown, pending, unscheduled];
    const sorted = sortRanked(input.map((p) => ({ pod: p, rank: 0 })), now).map((r) => r.pod);
    expect(names(sorted)).toEqual(['unscheduled', 'pending', 'unknown', 'not-ready', 'low-cost', 'recent-ready', 'restarts', 'newer', 'older']);
  });

  it('deletes doubled-up pods first (rank) before looking at age', () => {
    const a = { pod: pod('a', { node: 'n1', phase: 'Running', ready: true, readySince: 0, created: 5 * HOUR }), rank: 1 };
    const b = { pod: pod('b', { node: 'n2', phase: 'Running', ready: true, readySince: 0, created: 0 }), rank: 3 };
    expect(lessRanked(b, a, now)).toBe(true);
    expect(lessRanked(a, b, now)).toBe(false);
  });

  it('treats ages in the same power-of-two bucket as equal and breaks the tie by uid', () => {
    // 8.0 h and 8.2 h old: same floor(log2(ns)) bucket, so uid decides.
    const x = { pod: pod('x', { node: 'n', phase: 'Running', created: now - 8 * HOUR }), rank: 0 };
    const y = { pod: pod('y', { node: 'n', phase: 'Running', created: now - 8.2 * HOUR }), rank: 0 };
    expect(lessRanked(x, y, now)).toBe(true);
    expect(lessRanked(y, x, now)).toBe(false);
  });

  it('reads pod-deletion-cost as int32, else 0', () => {
    expect(deletionCost(pod('a', { cost: 100 }))).toBe(100);
    const bad = pod('b');
    bad.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': 'abc' };
    expect(deletionCost(bad)).toBe(0);
    bad.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '99999999999' };
    expect(deletionCost(bad)).toBe(0);
  });

  it('getPodsToDelete ranks by related pods on the same node', () => {
    const p1 = pod('p1', { node: 'n1', phase: 'Running', ready: true, readySince: 0 });
    const p2 = pod('p2', { node: 'n2', phase: 'Running', ready: true, readySince: 0 });
    const related = [p1, p2, pod('r1', { node: 'n2', phase: 'Running' }), pod('r2', { node: 'n2', phase: 'Running' })];
    expect(names(getPodsToDelete([p1, p2], related, 1, now))).toEqual(['p2']);
    expect(names(getPodsToDelete([p1, p2], [], 2, now))).toEqual(['p1', 'p2']);
  });
});
