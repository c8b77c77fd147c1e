import { describe, expect, it } from 'vitest';
import { cloneState } from '../../sim/serial';
import { SchedulerCache } from './cache';
import { NodeTree } from './nodeTree';
import { makeNode, makePod } from '../testing/fixtures';

const zoned = (name: string, zone: string) => makeNode(name, { labels: { 'topology.kubernetes.io/zone': zone } });

describe('nodeTree', () => {
  it('lists zones round-robin (node_tree.go list)', () => {
    const t = new NodeTree();
    for (const [n, z] of [['a1', 'a'], ['a2', 'a'], ['a3', 'a'], ['b1', 'b'], ['c1', 'c'], ['c2', 'c']] as const) t.addNode(zoned(n, z));
    expect(t.list()).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
    t.removeNode('b1');
    expect(t.list()).toEqual(['a1', 'c1', 'a2', 'c2', 'a3']);
  });
});

describe('SchedulerCache', () => {
  it('accounts assumed pods, confirms them from the informer, forgets failed ones', () => {
    const c = new SchedulerCache();
    c.addNode(makeNode('n1'));
    const pod = makePod('p', { requests: { cpu: '500m', memory: '1Gi' } });
    c.assumePod({ ...pod, spec: { ...pod.spec, nodeName: 'n1' } });
    expect(c.get('n1')!.requested.milliCPU).toBe(500);
    expect(c.isAssumedPod(pod)).toBe(true);
    c.forgetPod(pod);
    expect(c.get('n1')!.requested.milliCPU).toBe(0);
    c.assumePod({ ...pod, spec: { ...pod.spec, nodeName: 'n1' } });
    c.addPod({ ...pod, spec: { ...pod.spec, nodeName: 'n1' } });
    expect(c.isAssumedPod(pod)).toBe(false);
    expect(c.get('n1')!.pods).toHaveLength(1);
    c.removePod({ ...pod, spec: { ...pod.spec, nodeName: 'n1' } });
    expect(c.get('n1')!.pods).toHaveLength(0);
  });

  it('counts nodes per image for ImageLocality', () => {
    const c = new SchedulerCache();
    c.addNode(makeNode('n1', { images: [{ names: ['nginx:1.25'], sizeBytes: 100 }] }));
    c.addNode(makeNode('n2', { images: [{ names: ['nginx:1.25'], sizeBytes: 100 }] }));
    c.addNode(makeNode('n3'));
    expect(c.get('n1')!.imageStates.get('nginx:1.25')).toEqual({ size: 100, numNodes: 2 });
    c.removeNode(makeNode('n2'));
    expect(c.get('n1')!.imageStates.get('nginx:1.25')!.numNodes).toBe(1);
    expect(c.list().map((n) => n.name)).toEqual(['n1', 'n3']);
  });

  it('keeps pods bound to an unknown node off the node list', () => {
    const c = new SchedulerCache();
    c.addPod(makePod('p', { nodeName: 'ghost' }));
    expect(c.list()).toHaveLength(0);
    expect(c.get('ghost')).toBeUndefined();
    c.addNode(makeNode('ghost'));
    expect(c.get('ghost')!.pods).toHaveLength(1);
  });

  it('survives a snapshot round-trip', () => {
    const c = new SchedulerCache();
    c.addNode(zoned('n1', 'a'));
    c.addPod(makePod('p', { nodeName: 'n1', requests: { cpu: '1' } }));
    const d = cloneState(c);
    d.addNode(zoned('n2', 'b'));
    expect(d.list().map((n) => n.name)).toEqual(['n1', 'n2']);
    expect(d.get('n1')!.requested.milliCPU).toBe(1000);
    expect(c.list()).toHaveLength(1);
  });
});
