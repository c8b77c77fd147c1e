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
  });
  it('refuses malformed faults with a message', () => {
    for (const bad of [null, [], 'crash', { action: 'explode' }, { action: 'crash' }, { action: 'crash', target: 3 }, { action: 'partition', groups: ['etcd-0'] }, { action: 'slow-disk', target: 'etcd-0', fsyncMs: '200' }, { action: 'link', loss: 'x' }, { action: 'link', reorder: 1 }]) {
      expect(typeof parseFault(bad), JSON.stringify(bad)).toBe('string');
    }
  });
});
