import { describe, expect, it } from 'vitest';
import type { Node, Toleration } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { makeNode, makePod, nodeInfoOf } from '../testing/fixtures';
import { ERR_REASON_UNSCHEDULABLE, NodeUnschedulable } from './nodeUnschedulable';

const unschedulable = (name = 'n'): Node => makeNode(name, { unschedulable: true });

// Port of nodeunschedulable/node_unschedulable_test.go.
describe('NodeUnschedulable.filter (TestNodeUnschedulable)', () => {
  const pl = new NodeUnschedulable();
  const rejected = { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_UNSCHEDULABLE] };
  const cases: { name: string; tolerations?: Toleration[]; node: Node; want: unknown }[] = [
    { name: 'Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)', node: unschedulable(), want: rejected },
    { name: 'Schedule pod to normal node', node: makeNode('n'), want: null },
    { name: 'Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)', tolerations: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }], node: unschedulable(), want: null },
    { name: 'Exists toleration of every key', tolerations: [{ operator: 'Exists' }], node: unschedulable(), want: null },
    { name: 'toleration for another effect does not help', tolerations: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoExecute' }], node: unschedulable(), want: rejected },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pod = makePod('p', { spec: c.tolerations ? { tolerations: c.tolerations } : {} });
      expect(pl.filter(new CycleState(), pod, nodeInfoOf(c.node))).toEqual(c.want);
    });
  }
  it('reason text', () => expect(ERR_REASON_UNSCHEDULABLE).toBe('node(s) were unschedulable'));
});

describe('NodeUnschedulable queueing hints', () => {
  const pl = new NodeUnschedulable();
  const [nodeEv, podEv] = pl.eventsToRegister();
  it('registers Node Add|UpdateNodeTaint and Pod UpdatePodTolerations', () => {
    expect(pl.eventsToRegister()).toEqual([
      { resource: 'Node', actions: ['Add', 'UpdateNodeTaint'] },
      { resource: 'Pod', actions: ['UpdatePodTolerations'] },
    ]);
  });
  // TestIsSchedulableAfterNodeChange
  const pod = makePod('p');
  it('queue-on-add-schedulable-node', () => expect(pl.isSchedulableAfter(nodeEv!, pod, undefined, makeNode('n'))).toBe('Queue'));
  it('skip-on-add-unschedulable-node', () => expect(pl.isSchedulableAfter(nodeEv!, pod, undefined, unschedulable())).toBe('QueueSkip'));
  it('queue-on-node-turning-schedulable', () => expect(pl.isSchedulableAfter(nodeEv!, pod, unschedulable(), makeNode('n'))).toBe('Queue'));
  it('skip-on-node-staying-schedulable', () => expect(pl.isSchedulableAfter(nodeEv!, pod, makeNode('n'), makeNode('n', { labels: { a: 'b' } }))).toBe('QueueSkip'));
  it('skip-on-node-turning-unschedulable', () => expect(pl.isSchedulableAfter(nodeEv!, pod, makeNode('n'), unschedulable())).toBe('QueueSkip'));
  // TestIsSchedulableAfterPodTolerationChange
  it('skip-different-pod-update', () => {
    const other = makePod('q', { uid: 'other', spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] } });
    expect(pl.isSchedulableAfter(podEv!, pod, makePod('q', { uid: 'other' }), other)).toBe('QueueSkip');
  });
  it('queue-when-the-unsched-pod-gets-toleration', () => {
    const updated = makePod('p', { spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] } });
    expect(pl.isSchedulableAfter(podEv!, pod, pod, updated)).toBe('Queue');
  });
  it('skip-unrelated-toleration-change', () => {
    const updated = makePod('p', { spec: { tolerations: [{ key: 'foo', effect: 'NoSchedule' }] } });
    expect(pl.isSchedulableAfter(podEv!, pod, pod, updated)).toBe('QueueSkip');
  });
});
