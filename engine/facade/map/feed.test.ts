import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { ClusterFeed, type MapSource } from './feed';
import { engineMapSource } from './source';
import { NO_STRING, POD_READY, POD_TERMINATING, READY_STATUS, type MapComponent, type MapDelta } from './protocol';

export function podObj(name: string, o: { node?: string; phase?: string; ready?: boolean; cpu?: string; memory?: string; reason?: string; owner?: string; deleting?: boolean; ns?: string } = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.ns ?? 'default',
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: o.owner, uid: `u-${o.owner}`, controller: true }] } : {}),
      ...(o.deleting ? { deletionTimestamp: '2025-01-01T00:01:00Z' } : {}),
    },
    spec: { ...(o.node ? { nodeName: o.node } : {}), containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: o.cpu ?? '100m', memory: o.memory ?? '64Mi' } } }] },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
      ...(o.reason ? { containerStatuses: [{ name: 'c', state: { waiting: { reason: o.reason } } }] } : {}),
    },
  };
}

export function nodeObj(name: string, o: { ready?: string; taints?: { key: string; value?: string; effect: string }[]; unschedulable?: boolean; cpu?: string } = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: { allocatable: { cpu: o.cpu ?? '4', memory: '16Gi', pods: '110' }, conditions: [{ type: 'Ready', status: o.ready ?? 'True' }] },
  };
}

/** A source over plain maps, replaced (not mutated) on change as the watch cache does. */
export class FakeSource implements MapSource {
  readonly podStore = new Map<string, KObject>();
  readonly nodeStore = new Map<string, KObject>();
  comps: MapComponent[] = [{ name: 'kube-apiserver-0', kind: 'kube-apiserver', up: true, leader: false }];
  pods() {
    return this.podStore;
  }
  nodes() {
    return this.nodeStore;
  }
  components() {
    return this.comps;
  }
  pod(p: KObject) {
    this.podStore.set(`/registry/pods/${p.metadata.namespace}/${p.metadata.name}`, p);
  }
  node(n: KObject) {
    this.nodeStore.set(`/registry/minions/${n.metadata.name}`, n);
  }
}

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
    const feed = new ClusterFeed(engineMapSource(e));
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
    const last = deltas[deltas.length - 1]!;
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
