import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { ClusterFeed } from './feed';
import { engineMapSource } from './source';
import { NO_STRING, POD_READY, POD_TERMINATING, READY_STATUS, type MapDelta } from './protocol';
import { FakeSource, nodeObj, podObj } from './testing';

const str = (d: MapDelta[], id: number) => {
  const table: string[] = [];
  for (const x of d) x.strings.forEach((s, i) => (table[x.stringsFrom + i] = s));
  return id === NO_STRING ? '' : table[id];
};

describe('ClusterFeed', () => {
  it('sends everything first, then only what changed', () => {
    const src = new FakeSource();
    src.node(nodeObj('node-1'));
    src.node(nodeObj('node-2', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }));
    src.pod(podObj('a', { node: 'node-1', cpu: '250m', owner: 'web-1' }));
    src.pod(podObj('b', { node: 'node-1', cpu: '500m', owner: 'web-1' }));
    src.pod(podObj('c'));
    const feed = new ClusterFeed(src);
    const all: MapDelta[] = [];
    const d1 = feed.next();
    all.push(d1);
    expect(d1.full).toBe(true);
    expect(d1.podCount).toBe(3);
    expect(d1.podNames!.keys.split('\n').sort()).toEqual(['default/a', 'default/b', 'default/c']);
    expect(d1.pods!.slot).toHaveLength(3);
    const n1 = [...d1.nodes!.slot].findIndex((_, i) => str(all, d1.nodes!.name[i]!) === 'node-1');
    expect(d1.nodes!.reqCpu[n1]).toBe(750);
    expect(d1.nodes!.allocCpu[n1]).toBe(4000);
    expect(READY_STATUS[d1.nodes!.ready[n1]!]).toBe('True');
    expect(d1.nodeMeta!.find((m) => m.taints.length)).toMatchObject({ taints: ['dedicated=gpu:NoSchedule'], labels: { 'kubernetes.io/hostname': 'node-2' } });
    const c = d1.podNames!.keys.split('\n').indexOf('default/c');
    expect(d1.pods!.node[c]).toBe(NO_STRING);
    expect(d1.components).toEqual(src.comps);

    // Nothing changed: an empty delta (the same objects are not even re-encoded).
    const d2 = feed.next(d1.epoch, d1.seq);
    all.push(d2);
    expect(d2).toMatchObject({ full: false, strings: [] });
    expect(d2.pods).toBeUndefined();
    expect(d2.nodes).toBeUndefined();
    expect(d2.components).toBeUndefined();

    // A new object that shows the same is not sent; a change of state is.
    src.pod(podObj('a', { node: 'node-1', cpu: '250m', owner: 'web-1' }));
    src.pod(podObj('b', { node: 'node-1', cpu: '500m', owner: 'web-1', ready: false, reason: 'CrashLoopBackOff' }));
    const d3 = feed.next(d2.epoch, d2.seq);
    all.push(d3);
    expect(d3.pods!.slot).toHaveLength(1);
    expect(d3.pods!.flags[0]! & POD_READY).toBe(0);
    expect(str(all, d3.pods!.reason[0]!)).toBe('CrashLoopBackOff');
    expect(d3.strings).toEqual(['CrashLoopBackOff']);
    expect(d3.nodes).toBeUndefined();

    // Binding c to node-2 moves its requests there; deleting a frees its slot, reused next time.
    src.pod(podObj('c', { node: 'node-2', cpu: '1', deleting: true }));
    src.podStore.delete('/registry/pods/default/a');
    const aSlot = d1.podNames!.slot[d1.podNames!.keys.split('\n').indexOf('default/a')]!;
    const d4 = feed.next(d3.epoch, d3.seq);
    all.push(d4);
    expect([...d4.podsRemoved!]).toEqual([aSlot]);
    expect(d4.pods!.flags[0]! & POD_TERMINATING).toBe(POD_TERMINATING);
    const req = new Map([...d4.nodes!.slot].map((_, i) => [str(all, d4.nodes!.name[i]!), d4.nodes!.reqCpu[i]]));
    expect(req).toEqual(new Map([['node-1', 500], ['node-2', 1000]]));
    src.pod(podObj('d', { node: 'node-2' }));
    const d5 = feed.next(d4.epoch, d4.seq);
    expect([...d5.podNames!.slot]).toEqual([aSlot]);
    expect(d5.podNames!.keys).toBe('default/d');

    // A second taint changes no column, only the node's metadata: that is sent (and only that).
    src.node(nodeObj('node-2', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] }));
    const d6 = feed.next(d5.epoch, d5.seq);
    expect(d6.nodes).toBeUndefined();
    expect(d6.nodeMeta).toEqual([{ slot: expect.any(Number), taints: ['dedicated=gpu:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute'], labels: { 'kubernetes.io/hostname': 'node-2' } }]);
    src.node(nodeObj('node-2', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] }));
    expect(feed.next(d6.epoch, d6.seq).nodeMeta).toBeUndefined();
  });

  it('sends a big first delta in parts, each with the names of its new pods', () => {
    const src = new FakeSource();
    src.node(nodeObj('node-1'));
    for (let i = 0; i < 8; i++) src.pod(podObj(`p${i}`, { node: 'node-1' }));
    const feed = new ClusterFeed(src, 3);
    const d1 = feed.next();
    expect(d1).toMatchObject({ full: true, more: true, podCount: 8 });
    expect(d1.pods!.slot).toHaveLength(3);
    expect(d1.nodes!.slot).toHaveLength(1);
    // A pod not sent yet is deleted: the consumer never hears of it.
    const unsent = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'].find((n) => !d1.podNames!.keys.split('\n').includes(`default/${n}`))!;
    src.podStore.delete(`/registry/pods/default/${unsent}`);
    const d2 = feed.next(d1.epoch, d1.seq);
    expect(d2).toMatchObject({ full: false, more: true });
    expect(d2.podsRemoved).toBeUndefined();
    expect(d2.podNames!.keys.split('\n')).toHaveLength(3);
    const d3 = feed.next(d2.epoch, d2.seq);
    expect(d3.more).toBeUndefined();
    expect(d3.pods!.slot).toHaveLength(1);
    const all = [d1, d2, d3].flatMap((d) => d.podNames?.keys.split('\n') ?? []);
    expect(all.sort()).toEqual([...src.podStore.values()].map((p) => `default/${p.metadata.name}`).sort());
  });

  it('a consumer that lost track gets everything again; finished pods free their node', () => {
    const src = new FakeSource();
    src.node(nodeObj('node-1'));
    src.pod(podObj('job-1', { node: 'node-1', cpu: '2', phase: 'Succeeded' }));
    src.pod(podObj('web', { node: 'node-1', cpu: '1' }));
    const feed = new ClusterFeed(src);
    const d1 = feed.next();
    expect(d1.nodes!.reqCpu[0]).toBe(1000);
    feed.next(d1.epoch, d1.seq);
    const again = feed.next(d1.epoch, d1.seq);
    expect(again.full).toBe(true);
    expect(again.stringsFrom).toBe(0);
    expect(again.pods!.slot).toHaveLength(2);
    expect(new ClusterFeed(src).epoch).not.toBe(feed.epoch);
  });

  it('follows a real cluster: nodes, a Deployment\'s pods and their requests, the components and leaders', { timeout: 60_000 }, () => {
    const e = controlPlane(5, { nodes: 2 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 2, 'Ready nodes', 60_000, 500);
    const src = engineMapSource(e);
    let fromEvents = 0;
    const feed = new ClusterFeed({
      ...src,
      changesSince: (r, c) => {
        const got = src.changesSince!(r, c);
        if (got) fromEvents++;
        return got;
      },
    });
    const labels = { app: 'web' };
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 3, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', resources: { requests: { cpu: '200m' } } }] } } } };
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', dep).status).toBe(201);
    const deltas: MapDelta[] = [feed.next()];
    runUntil(
      e,
      () => {
        const last = deltas[deltas.length - 1]!;
        deltas.push(feed.next(last.epoch, last.seq));
        return e.clusterView()!.pods.filter((p) => p.phase === 'Running' && p.ready).length === 3;
      },
      'three Running pods',
      120_000,
      500,
    );
    // Between deltas the feed read the watch cache's events, not the whole store.
    expect(fromEvents).toBeGreaterThan(deltas.length);
    // What the deltas said, merged, is what a fresh full read says.
    const merged = new Map<string, string>();
    const table: string[] = [];
    for (const d of deltas) {
      d.strings.forEach((x, i) => (table[d.stringsFrom + i] = x));
      const names = d.podNames ? d.podNames.keys.split('\n') : [];
      d.podNames?.slot.forEach((slot, i) => merged.set(String(slot), names[i]!));
    }
    const last = deltas[deltas.length - 1]!;
    const fresh = new ClusterFeed(src).next();
    expect([...merged.values()].sort()).toEqual(fresh.podNames!.keys.split('\n').sort());
    const final = feed.next(last.epoch, 0);
    expect(final.full).toBe(true);
    expect(final.podCount).toBe(3);
    expect(final.podNames!.keys.split('\n').every((k) => k.startsWith('default/web-'))).toBe(true);
    const total = [...final.nodes!.reqCpu].reduce((a, b) => a + b, 0);
    expect(total).toBe(600);
    expect(final.components!.filter((c) => c.leader).map((c) => c.kind).sort()).toEqual(['etcd', 'kube-controller-manager', 'kube-scheduler']);
    // The deltas on the way carried each pod's name once.
    const named = deltas.flatMap((d) => (d.podNames ? d.podNames.keys.split('\n') : []));
    expect(new Set(named).size).toBe(named.length);
  });
});

describe('ClusterFeed without an API server', () => {
  it('keeps the last picture (stale) instead of emptying the map, and rereads everything when one is back', () => {
    const src = new FakeSource(100);
    src.node(nodeObj('node-1'));
    src.pod(podObj('a', { node: 'node-1' }));
    let up = true;
    const feed = new ClusterFeed({ ...src, pods: () => (up ? src.podStore : null), nodes: () => (up ? src.nodeStore : null), components: () => src.comps, cursor: (r) => (up ? src.cursor(r) : undefined), changesSince: (r, c) => (up ? src.changesSince(r, c) : null) });
    const d1 = feed.next();
    up = false;
    const d2 = feed.next(d1.epoch, d1.seq);
    expect(d2).toMatchObject({ stale: true, full: false });
    expect(d2.podsRemoved).toBeUndefined();
    expect(d2.nodesRemoved).toBeUndefined();
    up = true;
    src.pod(podObj('b', { node: 'node-1' }));
    const d3 = feed.next(d2.epoch, d2.seq);
    expect(d3.stale).toBeUndefined();
    expect(d3.podNames!.keys).toBe('default/b');
  });
});
