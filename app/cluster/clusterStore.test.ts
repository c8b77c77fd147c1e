import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { ClusterFeed } from '../../engine/facade/map/feed';
import { FakeSource, nodeObj, podObj } from '../../engine/facade/map/testing';
import { ClusterPoller, initialClusterState, type ClusterState } from './clusterStore';
import { formatMs, mostRecentlyActive } from './ControllersPanel';
import { MapData } from './mapData';

const fresh = () => create<ClusterState>()(() => initialClusterState);

describe('ClusterPoller', () => {
  it('applies the feed\'s deltas in order; a refresh asked for mid-read runs once after it', async () => {
    const src = new FakeSource();
    src.node(nodeObj('node-1'));
    const feed = new ClusterFeed(src);
    let calls = 0;
    let release: (() => void) | null = null;
    const store = fresh();
    const data = new MapData();
    const p = new ClusterPoller(
      {
        map: (epoch, seq) => {
          calls++;
          const d = feed.next(epoch, seq);
          return new Promise((r) => (release = () => r(d)));
        },
        controllers: async () => ({ controllers: [] }),
      },
      data,
      store,
    );
    const first = p.refresh();
    src.pod(podObj('a', { node: 'node-1' }));
    void p.refresh();
    void p.refresh();
    release!();
    await new Promise((r) => setTimeout(r, 0));
    release!();
    await first;
    expect(calls).toBe(2);
    expect(store.getState().reads).toBe(2);
    expect(data.podTotal).toBe(1);
    expect(store.getState().version).toBe(data.version);
    expect(store.getState().lastDelta).toMatchObject({ full: false });
    expect(store.getState().lastDelta!.bytes).toBeGreaterThan(0);
  });
  it('keeps the last data and records a failed read', async () => {
    const store = fresh();
    const p = new ClusterPoller({ map: async () => Promise.reject(new Error('worker restarting')), controllers: async () => null }, new MapData(), store);
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
