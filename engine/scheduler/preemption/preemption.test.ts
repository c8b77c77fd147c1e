import { describe, expect, it } from 'vitest';
import { podPriority, type Pod } from '../framework/api';
import type { ApiAction, EventAction } from '../framework/interface';
import { statusOf, tpod, capNode, cluster, SMALL } from './testHandle';
import { fitErrorMessage } from './fitError';
import { snapshotNodeInfo } from './nodeInfoSnapshot';
import { filterPodsWithPDBViolation } from './pdb';
import { pickOneNodeForPreemption } from './pickOneNode';
import { clearNominatedNodeNameActions, preemptPodActions, updatePodCondition } from './prepare';
import type { PodDisruptionBudget, Victims } from './types';
import { aggregateMessage, earliestPodStartTime, moreImportantPod, podStartTime } from './util';
import { nodesWherePreemptionMightHelp } from './evaluator';
import { nodeInfoOf } from '../testing/fixtures';

describe('fitErrorMessage (FitError.Error)', () => {
  it('counts reasons per node, adds the absent nodes, sorts as strings', () => {
    const statuses = new Map([
      ['a', statusOf('Unschedulable', 'Insufficient cpu', 'Insufficient memory')],
      ['b', statusOf('Unschedulable', 'Insufficient cpu')],
      ['c', statusOf('UnschedulableAndUnresolvable', 'No preemption victims found for incoming pod')],
    ]);
    expect(fitErrorMessage(5, statuses, statusOf('UnschedulableAndUnresolvable', 'Preemption is not helpful for scheduling'))).toBe(
      '0/5 nodes are available: 1 Insufficient memory, 1 No preemption victims found for incoming pod, 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.',
    );
  });
  it('"10 x" sorts before "2 y" (Go sort.Strings)', () => {
    const statuses = new Map(Array.from({ length: 10 }, (_, i) => [`n${i}`, statusOf('Unschedulable', 'Too many pods')] as const));
    expect(fitErrorMessage(12, new Map(statuses), statusOf('UnschedulableAndUnresolvable', 'Preemption is not helpful for scheduling'))).toBe(
      '0/12 nodes are available: 10 Too many pods, 2 Preemption is not helpful for scheduling.',
    );
  });
  it('no reasons at all: just the count', () => {
    expect(fitErrorMessage(1, new Map([['a', statusOf('Unschedulable')]]), statusOf('UnschedulableAndUnresolvable'))).toBe('0/1 nodes are available:');
  });
});

describe('pickOneNodeForPreemption', () => {
  const pod = (name: string, priority: number, start = 0) => tpod(name, { priority, start });
  const victims = (numPDBViolations: number, ...pods: Pod[]): Victims => ({ pods, numPDBViolations });
  const cases: { name: string; map: [string, Victims][]; want: string }[] = [
    { name: 'no candidates', map: [], want: '' },
    {
      name: 'fewest PDB violations first, whatever the priorities',
      map: [
        ['n1', victims(1, pod('a', -100))],
        ['n2', victims(0, pod('b', 1000), pod('c', 1000))],
      ],
      want: 'n2',
    },
    {
      name: 'then the lowest highest-priority victim',
      map: [
        ['n1', victims(0, pod('a', 100))],
        ['n2', victims(0, pod('b', 50), pod('c', 50), pod('d', 50))],
      ],
      want: 'n2',
    },
    {
      name: 'then the smallest sum of priorities',
      map: [
        ['n1', victims(0, pod('a', 100), pod('b', 100))],
        ['n2', victims(0, pod('c', 100), pod('d', 0))],
      ],
      want: 'n2',
    },
    {
      name: 'the MaxInt32+1 offset: more negative-priority pods do not win the sum',
      map: [
        ['n1', victims(0, pod('a', -100), pod('b', -100))],
        ['n2', victims(0, pod('c', -100))],
      ],
      want: 'n2',
    },
    {
      name: 'the offset keeps huge priorities comparable',
      map: [
        ['n1', victims(0, pod('a', 2_000_000_000), pod('b', -2_000_000_000))],
        ['n2', victims(0, pod('c', 2_000_000_000), pod('d', -1_999_999_999))],
      ],
      want: 'n1',
    },
    {
      name: 'then the fewest victims',
      map: [
        ['n1', victims(0, pod('a', 100), pod('b', 0), pod('c', 0))],
        ['n2', victims(0, pod('d', 100), pod('e', 0))],
      ],
      // Sums differ: n2 has the smaller one; equal-sum case below.
      want: 'n2',
    },
    {
      name: 'equal sums: fewest victims',
      map: [
        ['n1', victims(0, pod('a', 100), pod('b', 0), pod('c', 0))],
        ['n2', victims(0, pod('d', 100), pod('e', 0), pod('f', 0))],
        ['n3', victims(0, pod('g', 100), pod('h', 0))],
      ],
      want: 'n3',
    },
    {
      name: 'then the latest start among the highest-priority victims',
      map: [
        ['n1', victims(0, pod('a', 100, 10), pod('b', 100, 5), pod('x', 0, 99))],
        ['n2', victims(0, pod('c', 100, 7), pod('d', 100, 8), pod('y', 0, 1))],
      ],
      want: 'n2',
    },
    {
      name: 'still tied: the first node',
      map: [
        ['n2', victims(0, pod('a', 100, 3))],
        ['n1', victims(0, pod('b', 100, 3))],
      ],
      want: 'n2',
    },
  ];
  for (const c of cases) it(c.name, () => expect(pickOneNodeForPreemption(new Map(c.map), null, 0)).toBe(c.want));

  it('custom score functions replace the defaults', () => {
    const map = new Map<string, Victims>([
      ['n1', victims(0, pod('a', 0))],
      ['n2', victims(5, pod('b', 1000))],
    ]);
    expect(pickOneNodeForPreemption(map, [(n) => (n === 'n2' ? 1 : 0)], 0)).toBe('n2');
  });
});

describe('filterPodsWithPDBViolation', () => {
  const pdb = (name: string, sel: Record<string, string> | null | undefined, allowed: number, extra: Partial<PodDisruptionBudget> = {}): PodDisruptionBudget => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: sel === undefined ? {} : { selector: sel === null ? null : { matchLabels: sel } },
    status: { disruptionsAllowed: allowed },
    ...extra,
  });
  const names = (r: { violating: Pod[]; nonViolating: Pod[] }) => ({ violating: r.violating.map((p) => p.metadata.name), nonViolating: r.nonViolating.map((p) => p.metadata.name) });
  const foo = (name: string, ns = 'default') => tpod(name, { labels: { app: 'foo' }, namespace: ns });

  it('spends each budget pod by pod', () => {
    expect(names(filterPodsWithPDBViolation([foo('a'), foo('b'), foo('c')], [pdb('p', { app: 'foo' }, 1)]))).toEqual({ violating: ['b', 'c'], nonViolating: ['a'] });
  });
  it('pods without labels, other namespaces, nil or empty selectors match nothing', () => {
    const pods = [tpod('nolabels'), foo('elsewhere', 'other'), foo('a')];
    expect(names(filterPodsWithPDBViolation(pods, [pdb('nil', null, 0), pdb('empty', {}, 0), pdb('none', undefined, 0)]))).toEqual({ violating: [], nonViolating: ['nolabels', 'elsewhere', 'a'] });
    expect(names(filterPodsWithPDBViolation(pods, [pdb('p', { app: 'foo' }, 0)]))).toEqual({ violating: ['a'], nonViolating: ['nolabels', 'elsewhere'] });
  });
  it('a pod in disruptedPods spends nothing and does not violate', () => {
    const p = pdb('p', { app: 'foo' }, 0, { status: { disruptionsAllowed: 0, disruptedPods: { a: '2025-01-01T00:00:00Z' } } });
    expect(names(filterPodsWithPDBViolation([foo('a'), foo('b')], [p]))).toEqual({ violating: ['b'], nonViolating: ['a'] });
  });
  it('one exhausted PDB among several is enough to violate', () => {
    const pods = [tpod('a', { labels: { app: 'foo', tier: 'x' } })];
    expect(names(filterPodsWithPDBViolation(pods, [pdb('ok', { app: 'foo' }, 5), pdb('tight', { tier: 'x' }, 0)]))).toEqual({ violating: ['a'], nonViolating: [] });
  });
});

describe('pod ordering helpers', () => {
  it('MoreImportantPod: priority, then earlier start; unstarted pods count as started now', () => {
    expect(moreImportantPod(tpod('a', { priority: 10 }), tpod('b', { priority: 5, start: 0 }), 100_000)).toBe(true);
    expect(moreImportantPod(tpod('a', { start: 1 }), tpod('b', { start: 2 }), 100_000)).toBe(true);
    expect(moreImportantPod(tpod('a', { start: 2 }), tpod('b', { start: 2 }), 100_000)).toBe(false);
    expect(moreImportantPod(tpod('a', { start: 50 }), tpod('b'), 100_000)).toBe(true);
    expect(podStartTime(tpod('b'), 1234)).toBe(1234);
  });
  it('GetEarliestPodStartTime: among the highest-priority victims only', () => {
    const vs = [tpod('a', { priority: 1, start: 1 }), tpod('b', { priority: 5, start: 9 }), tpod('c', { priority: 5, start: 7 })];
    expect(earliestPodStartTime(vs, 0)).toBe(7000);
    expect(earliestPodStartTime([], 0)).toBeUndefined();
  });
  it('aggregate error messages', () => {
    expect(aggregateMessage([])).toBe('');
    expect(aggregateMessage(['x'])).toBe('x');
    expect(aggregateMessage(['x', 'x'])).toBe('x');
    expect(aggregateMessage(['x', 'y', 'x'])).toBe('[x, y]');
  });
});

describe('snapshotNodeInfo', () => {
  it('changes to the copy do not reach the original', () => {
    const pods = [tpod('a', { nodeName: 'n', requests: SMALL }), tpod('b', { nodeName: 'n', requests: SMALL, spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 8080 }] }] } })];
    const orig = nodeInfoOf(capNode('n', { cpu: '1' }), pods);
    const copy = snapshotNodeInfo(orig);
    expect(copy.requested).toEqual(orig.requested);
    copy.removePod(pods[1]!);
    copy.removePod(pods[0]!);
    expect(copy.pods).toHaveLength(0);
    expect(copy.usedPorts.size).toBe(0);
    expect(orig.pods).toHaveLength(2);
    expect(orig.requested.milliCPU).toBe(100);
    expect(orig.usedPorts.get('0.0.0.0')?.has('TCP/8080')).toBe(true);
  });
});

describe('nodesWherePreemptionMightHelp', () => {
  const infos = cluster(['a', 'b', 'c'].map((n) => capNode(n, {})), []);
  it('only Unschedulable nodes; absent ones take the absent status', () => {
    const m = new Map([
      ['a', statusOf('Unschedulable', 'Insufficient cpu')],
      ['b', statusOf('UnschedulableAndUnresolvable', 'x')],
    ]);
    expect(nodesWherePreemptionMightHelp(infos, m, statusOf('UnschedulableAndUnresolvable')).map((n) => n.name)).toEqual(['a']);
    expect(nodesWherePreemptionMightHelp(infos, m, statusOf('Unschedulable')).map((n) => n.name)).toEqual(['a', 'c']);
  });
});

describe('prepare: REST calls', () => {
  const preemptor = tpod('big', { priority: 1000, spec: { schedulerName: 'my-scheduler' } });

  it('a victim with conditions: the patch keeps their order ($setElementOrder) and adds DisruptionTarget', () => {
    const victim = tpod('v', { conditions: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z' }] } });
    const [patch, del, event] = preemptPodActions(preemptor, victim, 'node-a', 61_000) as [ApiAction, ApiAction, EventAction];
    expect(patch!.body).toEqual({
      status: {
        '$setElementOrder/conditions': [{ type: 'Ready' }, { type: 'DisruptionTarget' }],
        conditions: [
          {
            lastProbeTime: null,
            lastTransitionTime: '2025-01-01T00:01:01Z',
            message: 'my-scheduler: preempting to accommodate a higher priority pod',
            reason: 'PreemptionByScheduler',
            status: 'True',
            type: 'DisruptionTarget',
          },
        ],
      },
    });
    expect(del).toMatchObject({ method: 'DELETE', path: '/api/v1/namespaces/default/pods/v' });
    expect(del!.body).toBeUndefined();
    // The event is the profile recorder's to write (it names and counts it).
    expect(event.event).toEqual({ regarding: victim, related: preemptor, type: 'Normal', reason: 'Preempted', action: 'Preempting', note: 'Preempted by pod uid-big on node node-a' });
  });

  it('a victim already marked the same way is not patched again, only deleted', () => {
    const cond = {
      type: 'DisruptionTarget',
      status: 'True' as const,
      reason: 'PreemptionByScheduler',
      message: 'my-scheduler: preempting to accommodate a higher priority pod',
      lastProbeTime: null,
      lastTransitionTime: '2025-01-01T00:00:00Z',
    };
    const victim = tpod('v', { conditions: { conditions: [cond] } });
    expect(updatePodCondition(victim.status!, { ...cond, lastTransitionTime: '2025-01-01T01:00:00Z' })).toBeNull();
    const actions = preemptPodActions(preemptor, victim, 'node-a', 61_000);
    expect(actions.map((a) => ('event' in a ? 'event' : a.method))).toEqual(['DELETE', 'event']);
  });

  it('clearing nominations skips pods without one', () => {
    const acts = clearNominatedNodeNameActions([tpod('x'), tpod('y', { nominated: 'n1' })]);
    expect(acts).toHaveLength(1);
    expect(acts[0]).toMatchObject({ method: 'PATCH', path: '/api/v1/namespaces/default/pods/y/status', body: { status: { nominatedNodeName: null } } });
  });

  it('priority helper sanity', () => expect(podPriority(preemptor)).toBe(1000));
});
