import { describe, expect, it } from 'vitest';
import { parseFault } from './control';

describe('parseFault', () => {
  it('accepts every fault shape', () => {
    expect(parseFault({ action: 'crash', target: 'etcd-1' })).toEqual({ action: 'crash', target: 'etcd-1' });
    expect(parseFault({ action: 'restart', target: 'etcd-1' })).toEqual({ action: 'restart', target: 'etcd-1' });
    expect(parseFault({ action: 'partition', groups: [['etcd-0'], ['etcd-1', 'etcd-2']] })).toEqual({ action: 'partition', groups: [['etcd-0'], ['etcd-1', 'etcd-2']] });
    expect(parseFault({ action: 'heal' })).toEqual({ action: 'heal' });
    expect(parseFault({ action: 'slow-disk', target: 'etcd-2', fsyncMs: 200 })).toEqual({ action: 'slow-disk', target: 'etcd-2', fsyncMs: 200 });
    expect(parseFault({ action: 'block', from: 'etcd-0', to: 'etcd-1' })).toEqual({ action: 'block', from: 'etcd-0', to: 'etcd-1' });
    expect(parseFault({ action: 'link', to: 'etcd-1', loss: 0.5, minMs: 1, maxMs: 5, reorder: true })).toEqual({ action: 'link', to: 'etcd-1', loss: 0.5, minMs: 1, maxMs: 5, reorder: true });
    expect(parseFault({ action: 'heal', id: 3 })).toEqual({ action: 'heal', id: 3 });
    expect(parseFault({ action: 'heal-all' })).toEqual({ action: 'heal-all' });
    expect(parseFault({ action: 'node-loss', target: 'node-1' })).toEqual({ action: 'node-loss', target: 'node-1' });
    expect(parseFault({ action: 'partition-node', target: 'node-2' })).toEqual({ action: 'partition-node', target: 'node-2' });
    expect(parseFault({ action: 'kubelet-restart', target: 'node-3' })).toEqual({ action: 'kubelet-restart', target: 'node-3' });
    expect(parseFault({ action: 'cut', from: 'kube-apiserver-0', to: 'etcd' })).toEqual({ action: 'cut', from: 'kube-apiserver-0', to: 'etcd' });
  });
  it('says what a fault needs', () => {
    expect(parseFault({ action: 'node-loss' })).toBe('"node-loss" needs a "target" node name, like {"action":"node-loss","target":"node-1"}');
    expect(parseFault({ action: 'cut', from: 'kube-apiserver-0' })).toBe('"cut" needs "from" and "to": component names or kinds, like {"action":"cut","from":"kube-apiserver-0","to":"etcd"}');
    expect(parseFault({ action: 'heal', id: 'x' })).toBe('"id" must be the number of an active fault (GET /playground/v1/faults lists them)');
    expect(parseFault({ action: 'heal', target: 'etcd-1' })).toBe('"heal" takes only "id" (an active fault\'s number from GET faults), not "target"');
    expect(parseFault({ action: 'nuke' })).toBe('unknown fault action "nuke" (crash, restart, partition, block, heal, heal-all, slow-disk, link, node-loss, partition-node, kubelet-restart, cut)');
  });
  it('refuses malformed faults with a message', () => {
    for (const bad of [null, [], 'crash', { action: 'explode' }, { action: 'crash' }, { action: 'crash', target: 3 }, { action: 'partition', groups: ['etcd-0'] }, { action: 'slow-disk', target: 'etcd-0', fsyncMs: '200' }, { action: 'link', loss: 'x' }, { action: 'link', reorder: 1 }]) {
      expect(typeof parseFault(bad), JSON.stringify(bad)).toBe('string');
    }
  });
});
