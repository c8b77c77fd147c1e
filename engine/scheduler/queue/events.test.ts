import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../framework/api';
import type { ClusterEvent } from '../framework/interface';
import { makeNode } from '../testing/fixtures';
import { isPodUpdated, matchClusterEvent, nodeUpdateClusterEvents, nodeUpdateEvents, podSchedulingPropertiesChange, podUpdateEvents, publicEvent, type QueueClusterEvent } from './events';
import { KeyedHeap, type Order } from './heap';
import { pod } from './testFakes';

describe('matchClusterEvent (ClusterEvent.Match, TestClusterEventMatch)', () => {
  const cases: [string, ClusterEvent, QueueClusterEvent, boolean][] = [
    ['wildcard registration matches anything', { resource: 'WildCard', actions: ['All'] }, { resource: 'Node', actions: ['UpdateNodeLabel'] }, true],
    ['incoming wildcard matches only a wildcard registration', { resource: 'Node', actions: ['All'] }, { resource: 'WildCard', actions: ['All'] }, false],
    ['resource "*" with a specific action', { resource: 'WildCard', actions: ['Add'] }, { resource: 'Node', actions: ['Add'] }, true],
    ['resource "*" with another action', { resource: 'WildCard', actions: ['Add'] }, { resource: 'Node', actions: ['Delete'] }, false],
    ['All matches a specific update', { resource: 'Node', actions: ['All'] }, { resource: 'Node', actions: ['UpdateNodeTaint'] }, true],
    ['Update matches a specific update', { resource: 'Node', actions: ['Update'] }, { resource: 'Node', actions: ['UpdateNodeTaint'] }, true],
    ['a specific update matches an incoming generic Update', { resource: 'Node', actions: ['UpdateNodeLabel'] }, { resource: 'Node', actions: ['Update'] }, true],
    ['Add does not match Update', { resource: 'Node', actions: ['Add'] }, { resource: 'Node', actions: ['Update'] }, false],
    ['different update types', { resource: 'Node', actions: ['UpdateNodeLabel'] }, { resource: 'Node', actions: ['UpdateNodeTaint'] }, false],
    ['different resources', { resource: 'Node', actions: ['All'] }, { resource: 'PersistentVolume', actions: ['Add'] }, false],
    ['Pod matches AssignedPod', { resource: 'Pod', actions: ['Add'] }, { resource: 'AssignedPod', actions: ['Add'] }, true],
    ['Pod matches UnscheduledPod', { resource: 'Pod', actions: ['UpdatePodLabel'] }, { resource: 'UnscheduledPod', actions: ['UpdatePodLabel'] }, true],
    ['AssignedPod does not match UnscheduledPod', { resource: 'AssignedPod', actions: ['All'] }, { resource: 'UnscheduledPod', actions: ['Add'] }, false],
    ['UpdatePodOther matches only a general Update', { resource: 'Pod', actions: ['UpdatePodLabel'] }, { resource: 'UnscheduledPod', actions: ['UpdatePodOther'] }, false],
    ['UpdatePodOther matches Update', { resource: 'Pod', actions: ['Update'] }, { resource: 'UnscheduledPod', actions: ['UpdatePodOther'] }, true],
    ['several registered actions', { resource: 'Node', actions: ['Add', 'UpdateNodeTaint'] }, { resource: 'Node', actions: ['UpdateNodeTaint'] }, true],
  ];
  it.each(cases)('%s', (_name, reg, incoming, want) => {
    expect(matchClusterEvent(reg, incoming)).toBe(want);
  });

  it('plugins see UpdatePodOther as Update', () => {
    expect(publicEvent({ resource: 'UnscheduledPod', actions: ['UpdatePodOther'] })).toEqual({ resource: 'UnscheduledPod', actions: ['Update'] });
  });
});

function withNode(n: Node, f: (n: Node) => void): Node {
  const c = structuredClone(n);
  f(c);
  return c;
}

describe('nodeUpdateEvents (NodeSchedulingPropertiesChange, TestNodeSchedulingPropertiesChange)', () => {
  const base = makeNode('n1', { labels: { zone: 'a' }, allocatable: { cpu: '4', memory: '1Gi', pods: '110' } });
  it.each<[string, (n: Node) => void, string[]]>([
    ['no change', () => {}, []],
    ['allocatable, same quantity spelled differently', (n) => (n.status!.allocatable = { cpu: '4000m', memory: '1024Mi', pods: '110' }), []],
    ['allocatable changed', (n) => (n.status!.allocatable = { cpu: '8', memory: '1Gi', pods: '110' }), ['UpdateNodeAllocatable']],
    ['labels', (n) => (n.metadata.labels = { ...n.metadata.labels, zone: 'b' }), ['UpdateNodeLabel']],
    ['taints', (n) => (n.spec = { taints: [{ key: 'k', effect: 'NoSchedule' }] }), ['UpdateNodeTaint']],
    ['condition status', (n) => (n.status!.conditions = [{ type: 'Ready', status: 'False' }]), ['UpdateNodeCondition']],
    ['annotations', (n) => (n.metadata.annotations = { a: 'b' }), ['UpdateNodeAnnotation']],
    [
      'several, in upstream order',
      (n) => {
        n.metadata.annotations = { a: 'b' };
        n.spec = { taints: [{ key: 'k', effect: 'NoExecute' }] };
        n.metadata.labels = {};
      },
      ['UpdateNodeLabel', 'UpdateNodeTaint', 'UpdateNodeAnnotation'],
    ],
  ])('%s', (_name, change, want) => {
    expect(nodeUpdateEvents(base, withNode(base, change))).toEqual(want);
  });

  it('spec.unschedulable turned off reads as UpdateNodeTaint; turned on is no event', () => {
    const cordoned = withNode(base, (n) => (n.spec = { unschedulable: true }));
    expect(nodeUpdateEvents(cordoned, base)).toEqual(['UpdateNodeTaint']);
    expect(nodeUpdateEvents(base, cordoned)).toEqual([]);
  });

  it('each action is its own ClusterEvent', () => {
    const changed = withNode(base, (n) => {
      n.metadata.labels = {};
      n.status!.conditions = [{ type: 'Ready', status: 'Unknown' }];
    });
    expect(nodeUpdateClusterEvents(base, changed)).toEqual([
      { resource: 'Node', actions: ['UpdateNodeLabel'] },
      { resource: 'Node', actions: ['UpdateNodeCondition'] },
    ]);
  });
});

describe('podUpdateEvents (PodSchedulingPropertiesChange)', () => {
  const base = pod('p', { labels: { a: '1' }, requests: { cpu: '200m', memory: '1Gi' }, spec: { schedulingGates: [{ name: 'g' }], tolerations: [] } });
  const edit = (f: (p: Pod) => void): Pod => {
    const c = structuredClone(base);
    f(c);
    return c;
  };
  it('names the specific updates in upstream order, else UpdatePodOther', () => {
    expect(podUpdateEvents(base, edit((p) => (p.metadata.labels = { a: '2' })))).toEqual(['UpdatePodLabel']);
    expect(podUpdateEvents(base, edit((p) => (p.spec.containers[0]!.resources = { requests: { cpu: '100m', memory: '1Gi' } })))).toEqual(['UpdatePodScaleDown']);
    expect(podUpdateEvents(base, edit((p) => (p.spec.containers[0]!.resources = { requests: { memory: '1Gi' } })))).toEqual(['UpdatePodScaleDown']);
    expect(podUpdateEvents(base, edit((p) => (p.spec.containers[0]!.resources = { requests: { cpu: '300m', memory: '1Gi' } })))).toEqual(['UpdatePodOther']);
    expect(podUpdateEvents(base, edit((p) => (p.spec.schedulingGates = [])))).toEqual(['UpdatePodSchedulingGatesEliminated']);
    expect(podUpdateEvents(base, edit((p) => (p.spec.tolerations = [{ key: 'k', operator: 'Exists' }])))).toEqual(['UpdatePodTolerations']);
    expect(podUpdateEvents(base, edit((p) => (p.metadata.annotations = { x: 'y' })))).toEqual(['UpdatePodOther']);
    expect(
      podUpdateEvents(
        base,
        edit((p) => {
          p.spec.tolerations = [{ key: 'k', operator: 'Exists' }];
          p.spec.schedulingGates = undefined;
          p.metadata.labels = {};
        }),
      ),
    ).toEqual(['UpdatePodLabel', 'UpdatePodSchedulingGatesEliminated', 'UpdatePodTolerations']);
  });

  it('events are on UnscheduledPod or AssignedPod by the new pod’s nodeName', () => {
    expect(podSchedulingPropertiesChange(base, edit((p) => (p.metadata.labels = {})))).toEqual([{ resource: 'UnscheduledPod', actions: ['UpdatePodLabel'] }]);
    expect(podSchedulingPropertiesChange(base, edit((p) => (p.spec.nodeName = 'n1')))).toEqual([{ resource: 'AssignedPod', actions: ['UpdatePodOther'] }]);
  });

  it('isPodUpdated ignores status, resourceVersion, generation, managedFields and finalizers', () => {
    expect(isPodUpdated(base, edit((p) => {
      p.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False' }] };
      p.metadata.resourceVersion = '9';
      p.metadata.generation = 3;
      p.metadata.finalizers = ['f'];
    }))).toBe(false);
    expect(isPodUpdated(base, edit((p) => (p.metadata.annotations = { x: 'y' })))).toBe(true);
  });
});

class ByValue implements Order<{ v: number }> {
  less(a: { v: number }, b: { v: number }): boolean {
    return a.v < b.v;
  }
}

describe('KeyedHeap (container/heap parity)', () => {
  it('equal elements come out as Go’s heap gives them (a, c, b)', () => {
    const h = new KeyedHeap(new ByValue());
    for (const k of ['a', 'b', 'c']) h.addOrUpdate(k, { v: 0, k } as { v: number });
    expect(h.popOrder().map((x) => (x as unknown as { k: string }).k)).toEqual(['a', 'c', 'b']);
    const popped: string[] = [];
    for (let x = h.pop(); x; x = h.pop()) popped.push((x as unknown as { k: string }).k);
    expect(popped).toEqual(['a', 'c', 'b']);
  });

  it('addOrUpdate re-sifts, delete removes from the middle', () => {
    const h = new KeyedHeap(new ByValue());
    [5, 3, 8, 1, 9].forEach((v, i) => h.addOrUpdate(`k${i}`, { v }));
    h.addOrUpdate('k2', { v: 0 });
    expect(h.delete('k3')).toBe(true);
    expect(h.delete('k3')).toBe(false);
    expect(h.popOrder().map((x) => x.v)).toEqual([0, 3, 5, 9]);
    expect(h.length).toBe(4);
  });
});
