import { describe, expect, it } from 'vitest';
import { ClusterFeed } from '../../engine/facade/map/feed';
import { FakeSource, nodeObj, podObj } from '../../engine/facade/map/testing';
import { MapData } from './mapData';
import { describePod, formatCpu, formatMemory, nodeFacts, podFacts, summary } from './model';

describe('the words of the map', () => {
  const src = new FakeSource();
  src.node(nodeObj('node-1', { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] }));
  src.node(nodeObj('node-2', { ready: 'False' }));
  src.pod(podObj('web-1', { node: 'node-1', cpu: '250m', owner: 'web-7d9' }));
  src.pod(podObj('web-2', { node: 'node-1', ready: false, reason: 'CrashLoopBackOff', phase: 'Running' }));
  src.pod(podObj('huge', { phase: 'Pending', ready: false }));
  const d = new MapData();
  d.apply(new ClusterFeed(src).next());
  it('summarises nodes, pods and components for the canvas', () => {
    expect(summary(d)).toBe(
      'Cluster map: 2 nodes (1 Ready, 1 NotReady, 0 Unknown); 3 pods (1 running and ready, 0 running not ready, 1 pending, 1 failed, 0 terminating, 0 succeeded; 1 unscheduled); 1 of 1 control-plane components up',
    );
  });
  it('tells a pod and a node in words', () => {
    const crashing = d.pod(d.podByKey.get('default/web-2')!);
    expect(describePod(crashing)).toBe('Running, not Ready · CrashLoopBackOff');
    expect(podFacts(d.pod(d.podByKey.get('default/web-1')!))).toEqual([
      ['Node', 'node-1'],
      ['Phase', 'Running, Ready'],
      ['Reason', '—'],
      ['Owner', 'web-7d9'],
    ]);
    expect(podFacts(d.pod(d.podByKey.get('default/huge')!))[0]).toEqual(['Node', 'none (unscheduled)']);
    const facts = Object.fromEntries(nodeFacts(d.node(d.nodeByName.get('node-1')!)));
    expect(facts).toMatchObject({ Status: '✓ Ready', 'CPU requested': '350m of 4 (9%)', Pods: '2 of 110', Taints: '⚑ node.kubernetes.io/unreachable:NoExecute', Labels: 'kubernetes.io/hostname=node-1' });
  });
  it('finds nodes and pods by name', () => {
    expect(d.find('node-2')).toEqual({ kind: 'node', name: 'node-2' });
    expect(d.find(' default/web-1 ')).toEqual({ kind: 'pod', name: 'default/web-1' });
    expect(d.find('huge')).toEqual({ kind: 'pod', name: 'default/huge' });
    expect(d.find('nope')).toBeNull();
    expect(d.find('')).toBeNull();
  });
  it('prints quantities as kubectl describe does', () => {
    expect(formatCpu(1500)).toBe('1500m');
    expect(formatCpu(2000)).toBe('2');
    expect(formatMemory(64 * 1024 ** 2)).toBe('64Mi');
    expect(formatMemory(1536 * 1024 ** 2)).toBe('1.5Gi');
    expect(formatMemory(1_000_000_000)).toBe('953.7Mi');
  });
});
