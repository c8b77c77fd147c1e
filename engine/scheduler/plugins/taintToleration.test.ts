import { describe, expect, it } from 'vitest';
import { cloneState } from '../../sim/serial';
import type { Node, Pod, Taint, Toleration } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import type { NodeScore } from '../framework/interface';
import { fakeHandle, makeNode, makePod, nodeInfoOf } from '../testing/fixtures';
import { TaintToleration } from './taintToleration';

const nodeWithTaints = (name: string, taints: Taint[]): Node => makeNode(name, { taints });
const podWithTolerations = (name: string, tolerations: Toleration[]): Pod => makePod(name, { spec: { tolerations } });

function scoreAll(pod: Pod, nodes: Node[]): NodeScore[] {
  const infos = nodes.map((n) => nodeInfoOf(n));
  const pl = new TaintToleration(fakeHandle(infos));
  const state = new CycleState();
  expect(pl.preScore(state, pod, infos)).toBeNull();
  const list = infos.map((ni) => {
    const s = pl.score(state, pod, ni);
    if (typeof s !== 'number') throw new Error(`unexpected status ${JSON.stringify(s)}`);
    return { name: ni.name, score: s };
  });
  expect(pl.normalizeScore(state, pod, list)).toBeNull();
  return list;
}

// Port of tainttoleration/taint_toleration_test.go (TestTaintTolerationScore), v1.32 cases.
describe('TaintToleration score', () => {
  it('node with taints tolerated by the pod gets a higher score than nodes with intolerable taints', () => {
    const pod = podWithTolerations('pod1', [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }]);
    expect(scoreAll(pod, [nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }]), nodeWithTaints('nodeB', [{ key: 'foo', value: 'blah', effect: 'PreferNoSchedule' }])])).toEqual([
      { name: 'nodeA', score: 100 },
      { name: 'nodeB', score: 0 },
    ]);
  });
  it('nodes whose taints are all tolerated get the same score, however many taints', () => {
    const pod = podWithTolerations('pod1', [
      { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' },
      { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'PreferNoSchedule' },
    ]);
    expect(
      scoreAll(pod, [
        nodeWithTaints('nodeA', []),
        nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
        nodeWithTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ]),
      ]),
    ).toEqual([
      { name: 'nodeA', score: 100 },
      { name: 'nodeB', score: 100 },
      { name: 'nodeC', score: 100 },
    ]);
  });
  it('the more intolerable taints a node has, the lower its score', () => {
    const pod = podWithTolerations('pod1', [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }]);
    expect(
      scoreAll(pod, [
        nodeWithTaints('nodeA', []),
        nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
        nodeWithTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ]),
      ]),
    ).toEqual([
      { name: 'nodeA', score: 100 },
      { name: 'nodeB', score: 50 },
      { name: 'nodeC', score: 0 },
    ]);
  });
  it('only PreferNoSchedule taints and tolerations count', () => {
    const pod = podWithTolerations('pod1', [
      { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' },
      { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'NoSchedule' },
    ]);
    expect(
      scoreAll(pod, [
        nodeWithTaints('nodeA', []),
        nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }]),
        nodeWithTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ]),
      ]),
    ).toEqual([
      { name: 'nodeA', score: 100 },
      { name: 'nodeB', score: 100 },
      { name: 'nodeC', score: 0 },
    ]);
  });
  it('default behaviour: no taints and tolerations, lands on the node with no taints', () => {
    expect(scoreAll(podWithTolerations('pod1', []), [nodeWithTaints('nodeA', []), nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }])])).toEqual([
      { name: 'nodeA', score: 100 },
      { name: 'nodeB', score: 0 },
    ]);
  });
  it('a toleration with no effect tolerates PreferNoSchedule taints too', () => {
    const pod = podWithTolerations('pod1', [{ key: 'foo', operator: 'Exists' }]);
    expect(scoreAll(pod, [nodeWithTaints('nodeA', [{ key: 'foo', value: 'x', effect: 'PreferNoSchedule' }]), nodeWithTaints('nodeB', [{ key: 'bar', effect: 'PreferNoSchedule' }])])).toEqual([
      { name: 'nodeA', score: 100 },
      { name: 'nodeB', score: 0 },
    ]);
  });
  it('Score without PreScore is an error', () => {
    const ni = nodeInfoOf(makeNode('n'));
    const s = new TaintToleration(fakeHandle([ni])).score(new CycleState(), makePod('p'), ni);
    expect(typeof s === 'object' && s.code).toBe('Error');
  });
  it('a cloned cycle state scores the same', () => {
    const infos = [nodeInfoOf(nodeWithTaints('a', [{ key: 'k', effect: 'PreferNoSchedule' }])), nodeInfoOf(nodeWithTaints('b', []))];
    const pl = new TaintToleration(fakeHandle(infos));
    const pod = podWithTolerations('p', [{ key: 'x', operator: 'Exists', effect: 'PreferNoSchedule' }]);
    const state = new CycleState();
    pl.preScore(state, pod, infos);
    const copy = cloneState(state);
    expect(infos.map((n) => pl.score(copy, pod, n))).toEqual(infos.map((n) => pl.score(state, pod, n)));
    expect(infos.map((n) => pl.score(copy, pod, n))).toEqual([1, 0]);
  });
});

// Port of TestTaintTolerationFilter, with the v1.32 reason text.
describe('TaintToleration filter', () => {
  const rejected = (key: string, value: string) => ({ code: 'UnschedulableAndUnresolvable', reasons: [`node(s) had untolerated taint {${key}: ${value}}`] });
  const cases: { name: string; pod: Pod; node: Node; want: unknown }[] = [
    { name: "a pod having no tolerations can't be scheduled onto a node with nonempty taints", pod: podWithTolerations('pod1', []), node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]), want: rejected('dedicated', 'user1') },
    { name: 'a pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule', pod: podWithTolerations('pod1', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]), node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]), want: null },
    { name: "a pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule", pod: podWithTolerations('pod1', [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }]), node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]), want: rejected('dedicated', 'user1') },
    { name: 'a toleration with operator Exists tolerates the taints on the node', pod: podWithTolerations('pod1', [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }]), node: nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]), want: null },
    {
      name: 'multiple tolerations, multiple taints, all tolerated',
      pod: podWithTolerations('pod1', [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }, { key: 'foo', operator: 'Exists', effect: 'NoSchedule' }]),
      node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user2', effect: 'NoSchedule' }, { key: 'foo', value: 'bar', effect: 'NoSchedule' }]),
      want: null,
    },
    { name: "key and value match but the (non-empty) effect doesn't", pod: podWithTolerations('pod1', [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }]), node: nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]), want: rejected('foo', 'bar') },
    { name: 'key and value match and the toleration effect is empty', pod: podWithTolerations('pod1', [{ key: 'foo', operator: 'Equal', value: 'bar' }]), node: nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]), want: null },
    { name: "the toleration doesn't match but the taint is PreferNoSchedule", pod: podWithTolerations('pod1', [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }]), node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }]), want: null },
    { name: 'no toleration, but the taint is PreferNoSchedule', pod: podWithTolerations('pod1', []), node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }]), want: null },
    { name: 'NoExecute taints are filtered too; a taint without value prints empty', pod: podWithTolerations('pod1', []), node: nodeWithTaints('nodeA', [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]), want: rejected('node.kubernetes.io/not-ready', '') },
    {
      name: 'the first untolerated taint is reported',
      pod: podWithTolerations('pod1', [{ key: 'a', operator: 'Exists' }]),
      node: nodeWithTaints('nodeA', [{ key: 'a', value: '1', effect: 'NoSchedule' }, { key: 'b', value: '2', effect: 'NoSchedule' }, { key: 'c', value: '3', effect: 'NoExecute' }]),
      want: rejected('b', '2'),
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const ni = nodeInfoOf(c.node);
      expect(new TaintToleration(fakeHandle([ni])).filter(new CycleState(), c.pod, ni)).toEqual(c.want);
    });
  }
});

describe('TaintToleration queueing hints', () => {
  const pl = new TaintToleration(fakeHandle([]));
  const [nodeEv, podEv] = pl.eventsToRegister();
  it('registers Node Add|UpdateNodeTaint and Pod UpdatePodTolerations', () => {
    expect(pl.eventsToRegister()).toEqual([
      { resource: 'Node', actions: ['Add', 'UpdateNodeTaint'] },
      { resource: 'Pod', actions: ['UpdatePodTolerations'] },
    ]);
  });
  const pod = podWithTolerations('pod1', [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }]);
  // TestIsSchedulableAfterNodeChange
  it('node-taint-updated-to-tolerated', () => {
    expect(pl.isSchedulableAfter(nodeEv!, pod, nodeWithTaints('n', [{ key: 'x', effect: 'NoSchedule' }]), nodeWithTaints('n', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]))).toBe('Queue');
  });
  it('node-added-with-tolerated-taint', () => expect(pl.isSchedulableAfter(nodeEv!, pod, undefined, nodeWithTaints('n', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]))).toBe('Queue'));
  it('node-added-with-untolerated-taint', () => expect(pl.isSchedulableAfter(nodeEv!, pod, undefined, nodeWithTaints('n', [{ key: 'x', effect: 'NoSchedule' }]))).toBe('QueueSkip'));
  it('node-taint-updated-still-untolerated', () => {
    expect(pl.isSchedulableAfter(nodeEv!, pod, nodeWithTaints('n', [{ key: 'x', effect: 'NoSchedule' }]), nodeWithTaints('n', [{ key: 'y', effect: 'NoSchedule' }]))).toBe('QueueSkip');
  });
  it('node-was-already-tolerated', () => {
    expect(pl.isSchedulableAfter(nodeEv!, pod, nodeWithTaints('n', []), nodeWithTaints('n', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]))).toBe('QueueSkip');
  });
  // TestIsSchedulableAfterPodTolerationChange
  it('skip-updates-other-pod', () => {
    const other = makePod('other', { uid: 'other', spec: { tolerations: [{ key: 'foo', operator: 'Exists' }] } });
    expect(pl.isSchedulableAfter(podEv!, pod, makePod('other', { uid: 'other' }), other)).toBe('QueueSkip');
  });
  it('queue-on-toleration-added-to-the-pod', () => {
    expect(pl.isSchedulableAfter(podEv!, pod, pod, podWithTolerations('pod1', [...pod.spec.tolerations!, { key: 'x', operator: 'Exists' }]))).toBe('Queue');
  });
});
