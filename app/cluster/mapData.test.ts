// The map's data, merged from the real feed's deltas, always equals a picture
// built directly from the source: pod states, pods per node in key order,
// unscheduled pods, node order, counts and requests; over random histories.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClusterFeed } from '../../engine/facade/map/feed';
import { FakeSource, nodeObj, podObj } from '../../engine/facade/map/testing';
import { MapData, nodeStateOf, podStateOf, POD_STATES } from './mapData';

const byName = new Intl.Collator('en', { numeric: true });

/** What the map must show, computed from the source alone. */
function expected(src: FakeSource) {
  const nodes = [...src.nodeStore.values()].map((n) => n.metadata.name!).sort(byName.compare);
  const pods = [...src.podStore.values()].map((p) => {
    const st = p.status as { phase: string; conditions: { type: string; status: string }[]; containerStatuses?: { state: { waiting: { reason: string } } }[] };
    const node = (p.spec as { nodeName?: string }).nodeName ?? '';
    return {
      key: `${p.metadata.namespace}/${p.metadata.name}`,
      node,
      state: podStateOf(st.phase, st.conditions.some((c) => c.type === 'Ready' && c.status === 'True'), !!p.metadata.deletionTimestamp, st.containerStatuses?.[0]?.state.waiting.reason ?? ''),
    };
  });
  const onNode = new Map(nodes.map((n) => [n, pods.filter((p) => p.node === n).map((p) => p.key).sort()]));
  const unscheduled = pods.filter((p) => !nodes.includes(p.node)).map((p) => p.key).sort();
  const counts = POD_STATES.map((s) => pods.filter((p) => p.state === s).length);
  const taints = new Map([...src.nodeStore.values()].map((n) => [n.metadata.name!, ((n.spec as { taints?: { key: string; effect: string }[] }).taints ?? []).map((t) => `${t.key}:${t.effect}`)]));
  return { nodes, onNode, unscheduled, counts, states: new Map(pods.map((p) => [p.key, p.state])), taints };
}

function picture(d: MapData) {
  const nodes = d.order.map((s) => d.nodeNameOf(s));
  const onNode = new Map(d.order.map((s) => [d.nodeNameOf(s), d.podsOn(s).map((p) => d.podKey[p]!)]));
  const unscheduled = d.unscheduled.map((p) => d.podKey[p]!);
  const states = new Map<string, string>();
  for (const [key, slot] of d.podByKey) states.set(key, d.pod(slot).state);
  const taints = new Map(d.order.map((s) => [d.nodeNameOf(s), d.node(s).taints]));
  return { nodes, onNode, unscheduled, counts: [...d.podCounts], states, taints };
}

type Op = { t: 'pod'; name: number; node: number; phase: number; ready: boolean; reason: boolean; deleting: boolean } | { t: 'delPod'; name: number } | { t: 'node'; name: number; ready: number; taints: number } | { t: 'delNode'; name: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('pod' as const), name: fc.nat(30), node: fc.integer({ min: -1, max: 11 }), phase: fc.nat(3), ready: fc.boolean(), reason: fc.boolean(), deleting: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('delPod' as const), name: fc.nat(30) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('node' as const), name: fc.nat(11), ready: fc.nat(2), taints: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('delNode' as const), name: fc.nat(11) }) },
);

const PHASE = ['Pending', 'Running', 'Succeeded', 'Failed'];
const TAINTS = [
  { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
];

function run(src: FakeSource, o: Op): void {
  switch (o.t) {
    case 'pod':
      src.pod(podObj(`p-${o.name}`, { node: o.node < 0 ? undefined : `node-${o.node}`, phase: PHASE[o.phase], ready: o.ready, reason: o.reason ? 'CrashLoopBackOff' : undefined, deleting: o.deleting, cpu: `${100 + o.name}m` }));
      return;
    case 'delPod':
      src.podStore.delete(`/registry/pods/default/p-${o.name}`);
      return;
    case 'node':
      src.node(nodeObj(`node-${o.name}`, { ready: ['True', 'False', 'Unknown'][o.ready], taints: TAINTS.slice(0, o.taints) }));
      return;
    case 'delNode':
      src.nodeStore.delete(`/registry/minions/node-${o.name}`);
      return;
  }
}

describe('MapData from the feed', () => {
  it('equals the source after every delta, over random histories (some deltas lost: the feed resends all); scanning or reading a change log', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(op, { maxLength: 8 }), fc.boolean()), { minLength: 1, maxLength: 25 }), fc.constantFrom(undefined, 4, 1000), fc.constantFrom(3, 20_000), (steps, window, perDelta) => {
        const src = new FakeSource(window);
        const feed = new ClusterFeed(src, perDelta);
        const data = new MapData();
        for (const [ops, lose] of steps) {
          for (const o of ops) run(src, o);
          let d = feed.next(data.epoch, data.seq);
          if (lose && !d.full) continue; // the consumer never saw it: its next read gets everything
          data.apply(d);
          // A delta in parts: the rest follows at once.
          while (d.more) data.apply((d = feed.next(data.epoch, data.seq)));
          expect(picture(data)).toEqual(expected(src));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('merges big deltas in bulk: lists still in key order, in parts or whole', () => {
    const src = new FakeSource();
    for (const n of ['node-1', 'node-2', 'node-3']) src.node(nodeObj(n));
    for (let i = 0; i < 1500; i++) src.pod(podObj(`p-${(i * 7919) % 1500}`, { node: `node-${(i % 3) + 1}` }));
    for (const perDelta of [20_000, 600]) {
      const feed = new ClusterFeed(src, perDelta);
      const data = new MapData();
      let d = feed.next();
      data.apply(d);
      while (d.more) data.apply((d = feed.next(data.epoch, data.seq)));
      expect(picture(data)).toEqual(expected(src));
    }
  });

  it('sums requests per node and carries taints, labels and readiness', () => {
    const src = new FakeSource();
    src.node(nodeObj('node-10', { taints: [{ key: 'k', effect: 'NoSchedule' }], unschedulable: true }));
    src.node(nodeObj('node-2', { ready: 'Unknown' }));
    src.pod(podObj('a', { node: 'node-10', cpu: '1500m', memory: '1Gi' }));
    src.pod(podObj('b', { node: 'node-10', cpu: '500m', memory: '1Gi' }));
    const feed = new ClusterFeed(src);
    const data = new MapData();
    data.apply(feed.next());
    expect(data.order.map((s) => data.nodeNameOf(s))).toEqual(['node-2', 'node-10']);
    const n10 = data.node(data.nodeByName.get('node-10')!);
    expect(n10).toMatchObject({ state: 'ready', unschedulable: true, taints: ['k:NoSchedule'], labels: { 'kubernetes.io/hostname': 'node-10' }, requested: { cpu: 2000, memory: 2 * 1024 ** 3 }, pods: 2 });
    expect(data.node(data.nodeByName.get('node-2')!).state).toBe('unknown');
    expect([...data.nodeCounts]).toEqual([1, 0, 1]);
    const v = data.version;
    data.apply(feed.next(data.epoch, data.seq));
    expect(data.version).toBe(v);
    expect(() => data.apply({ ...feed.next(data.epoch, data.seq), epoch: 999 })).toThrow(/feed 999/);
  });

  it('states: shape follows phase, readiness, deletion and failing reasons', () => {
    expect(podStateOf('Running', true, false, '')).toBe('ready');
    expect(podStateOf('Running', false, false, '')).toBe('notReady');
    expect(podStateOf('Pending', false, false, 'ContainerCreating')).toBe('pending');
    expect(podStateOf('Running', false, false, 'CrashLoopBackOff')).toBe('failed');
    expect(podStateOf('Pending', false, false, 'ImagePullBackOff')).toBe('failed');
    expect(podStateOf('Running', true, true, '')).toBe('terminating');
    expect(podStateOf('Succeeded', false, false, 'Completed')).toBe('succeeded');
    expect(nodeStateOf('True')).toBe('ready');
    expect(nodeStateOf('False')).toBe('notReady');
    expect(nodeStateOf('')).toBe('unknown');
  });
});
