import { describe, expect, it } from 'vitest';
import type { ClusterView } from '../../engine/host/protocol';
import { buildModel, formatCpu, formatMemory, nodeState, podState, summary, type ClusterPod } from './model';

const pod = (o: Partial<ClusterPod>): ClusterPod => ({ namespace: 'default', name: 'p', node: 'node-1', phase: 'Running', ready: true, reason: '', terminating: false, owner: '', ...o });
const node = (name: string, ready = 'True'): ClusterView['nodes'][number] => ({
  name,
  ready,
  unschedulable: false,
  taints: [],
  labels: {},
  allocatable: { cpu: 4000, memory: 8 * 1024 ** 3, pods: 110 },
  requested: { cpu: 0, memory: 0 },
});

describe('podState', () => {
  it('tells ready, not ready, pending, failing, terminating and succeeded apart', () => {
    expect(podState(pod({}))).toBe('ready');
    expect(podState(pod({ ready: false }))).toBe('notReady');
    expect(podState(pod({ phase: 'Pending', ready: false, reason: 'ContainerCreating' }))).toBe('pending');
    expect(podState(pod({ phase: 'Running', ready: false, reason: 'CrashLoopBackOff' }))).toBe('failed');
    expect(podState(pod({ phase: 'Failed', ready: false }))).toBe('failed');
    expect(podState(pod({ phase: 'Pending', reason: 'ImagePullBackOff' }))).toBe('failed');
    expect(podState(pod({ terminating: true }))).toBe('terminating');
    expect(podState(pod({ phase: 'Succeeded', ready: false }))).toBe('succeeded');
  });
});

describe('buildModel', () => {
  it('groups pods by node, keeps unscheduled ones apart and counts states', () => {
    const m = buildModel({
      nodes: [node('node-1'), node('node-2', 'Unknown'), node('node-3', 'False'), node('node-4', '')],
      pods: [pod({ name: 'a' }), pod({ name: 'b', node: 'node-2', ready: false }), pod({ name: 'c', node: '', phase: 'Pending', ready: false }), pod({ name: 'd', node: 'gone' })],
      components: [{ name: 'kube-scheduler-0', kind: 'kube-scheduler', up: true, leader: true }],
    });
    expect(m.podsByNode.get('node-1')!.map((p) => p.name)).toEqual(['a']);
    expect(m.unscheduled.map((p) => p.name)).toEqual(['c', 'd']);
    expect(m.counts.nodes).toEqual({ ready: 1, notReady: 1, unknown: 2 });
    expect(m.counts.pods.ready).toBe(2);
    expect(m.counts.pods.pending).toBe(1);
    expect(m.maxPodsPerNode).toBe(1);
    expect(nodeState(m.nodes[3]!)).toBe('unknown');
    const s = summary(m);
    expect(s).toContain('4 nodes (1 Ready, 1 NotReady, 2 Unknown)');
    expect(s).toContain('4 pods (2 running and ready');
    expect(s).toContain('2 unscheduled');
    expect(s).toContain('1 of 1 control-plane components up');
  });
  it('is empty without a view', () => {
    const m = buildModel(null);
    expect(m.nodes).toEqual([]);
    expect(summary(m)).toContain('0 nodes');
  });
});

describe('quantities', () => {
  it('prints cpu and memory as kubectl does', () => {
    expect(formatCpu(1500)).toBe('1500m');
    expect(formatCpu(4000)).toBe('4');
    expect(formatMemory(64 * 1024 ** 2)).toBe('64Mi');
    expect(formatMemory(8 * 1024 ** 3)).toBe('8Gi');
    expect(formatMemory(1.5 * 1024 ** 3)).toBe('1.5Gi');
    expect(formatMemory(0)).toBe('0');
  });
});
