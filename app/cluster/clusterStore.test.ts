import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { ClusterView } from '../../engine/host/protocol';
import { ClusterPoller, type ClusterState } from './clusterStore';
import { formatMs, mostRecentlyActive } from './ControllersPanel';

const fresh = () => create<ClusterState>()(() => ({ cluster: null, controllers: null, reads: 0, readError: null, selectedController: null }));

describe('ClusterPoller', () => {
  it('reads both views; a refresh asked for mid-read runs once after it', async () => {
    let calls = 0;
    let release: (() => void) | null = null;
    const view: ClusterView = { nodes: [], pods: [], components: [] };
    const store = fresh();
    const p = new ClusterPoller(
      {
        cluster: () => {
          calls++;
          return new Promise((r) => (release = () => r(view)));
        },
        controllers: async () => ({ controllers: [] }),
      },
      store,
    );
    const first = p.refresh();
    void p.refresh();
    void p.refresh();
    release!();
    await new Promise((r) => setTimeout(r, 0));
    release!();
    await first;
    expect(calls).toBe(2);
    expect(store.getState().reads).toBe(2);
    expect(store.getState().cluster).toBe(view);
  });
  it('keeps the last views and records a failed read', async () => {
    const store = fresh();
    const p = new ClusterPoller({ cluster: async () => Promise.reject(new Error('worker restarting')), controllers: async () => null }, store);
    await p.refresh();
    expect(store.getState().readError).toBe('worker restarting');
    expect(store.getState().reads).toBe(0);
  });
});

describe('controllers panel helpers', () => {
  it('picks the controller with the newest reconcile', () => {
    const c = (name: string, ts: number[]) => ({ name, informers: [], depth: 0, adds: 0, retries: 0, meanQueueMs: 0, meanWorkMs: 0, recent: ts.map((t) => ({ t, key: 'k', what: 'w' })) });
    expect(mostRecentlyActive([c('a', [5]), c('b', [1, 9]), c('c', [])])).toBe('b');
    expect(mostRecentlyActive([c('a', [])])).toBe('a');
    expect(mostRecentlyActive([])).toBeNull();
  });
  it('formats durations', () => {
    expect(formatMs(0)).toBe('0');
    expect(formatMs(0.25)).toBe('0.25 ms');
    expect(formatMs(12.4)).toBe('12 ms');
    expect(formatMs(1500)).toBe('1.50 s');
  });
});
