// A synthetic cluster for the map benchmark, in the shape an API server's
// watch cache holds it (the objects the real feed reads): N nodes, P pods
// spread over them, and churn as a rolling update and crash loops make it
// (pods change phase and readiness, some are replaced). Seeded, so every run
// draws the same cluster.
import type { MapComponent } from '../../engine/facade/map/protocol';
import { FakeSource, nodeObj, podObj } from '../../engine/facade/map/testing';

/** The API server's watch-cache event window (DEFAULT_EVENT_WINDOW): beyond it the feed scans the store. */
const EVENT_WINDOW = 1000;

/** A small seeded generator (mulberry32): benchmarks must draw the same cluster every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATES = [
  { phase: 'Running', ready: true },
  { phase: 'Running', ready: false },
  { phase: 'Pending', ready: false, reason: 'ContainerCreating' },
  { phase: 'Running', ready: false, reason: 'CrashLoopBackOff' },
] as const;

export class SyntheticCluster extends FakeSource {
  private readonly random: () => number;
  private readonly keys: string[] = [];
  private generation = 0;

  constructor(
    readonly nodeCount: number,
    readonly podCount: number,
    seed = 7,
  ) {
    super(EVENT_WINDOW);
    this.random = rng(seed);
    for (let i = 1; i <= nodeCount; i++) {
      const n = nodeObj(`node-${i}`, i % 97 === 0 ? { taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] } : {});
      n.metadata.labels = { ...n.metadata.labels, 'topology.kubernetes.io/zone': `zone-${i % 3}` };
      this.nodeStore.set(`/registry/minions/node-${i}`, n);
    }
    for (let j = 0; j < podCount; j++) this.put(j, this.pick());
  }

  private pick(): (typeof STATES)[number] {
    const r = this.random();
    return r < 0.9 ? STATES[0] : r < 0.95 ? STATES[1] : r < 0.98 ? STATES[2] : STATES[3];
  }

  private put(j: number, s: (typeof STATES)[number]): void {
    const ns = `team-${j % 20}`;
    const app = `app-${Math.floor(j / 50)}`;
    const name = `${app}-${(j * 2654435761 + this.generation).toString(36).slice(-5)}`;
    const key = `/registry/pods/${ns}/${name}`;
    const node = `node-${(j % this.nodeCount) + 1}`;
    this.keys[j] = key;
    this.podStore.set(key, podObj(name, { ns, node, phase: s.phase, ready: s.ready, reason: 'reason' in s ? s.reason : undefined, owner: `${app}-7d9f8`, cpu: '100m', memory: '128Mi' }));
  }

  /** One step of churn: `n` pods change state, a tenth of those are replaced by new ones. */
  churn(n: number): void {
    this.generation++;
    for (let i = 0; i < n; i++) {
      const j = Math.floor(this.random() * this.podCount);
      if (i % 10 === 0) {
        this.podStore.delete(this.keys[j]!);
        this.put(j, STATES[2]);
        continue;
      }
      const key = this.keys[j]!;
      const old = this.podStore.get(key)!;
      const s = this.pick();
      const next = podObj(old.metadata.name!, { ns: old.metadata.namespace, node: (old.spec as { nodeName: string }).nodeName, phase: s.phase, ready: s.ready, reason: 'reason' in s ? s.reason : undefined, owner: old.metadata.ownerReferences?.[0]?.name, cpu: '100m', memory: '128Mi' });
      this.podStore.set(key, next);
    }
  }

  override components(): MapComponent[] {
    return [
      ...[0, 1, 2].map((i) => ({ name: `etcd-${i}`, kind: 'etcd', up: true, leader: i === 1 })),
      ...[0, 1, 2].map((i) => ({ name: `kube-apiserver-${i}`, kind: 'kube-apiserver', up: true, leader: false })),
      ...[0, 1].map((i) => ({ name: `kube-controller-manager-${i}`, kind: 'kube-controller-manager', up: true, leader: i === 0 })),
      ...[0, 1].map((i) => ({ name: `kube-scheduler-${i}`, kind: 'kube-scheduler', up: true, leader: i === 0 })),
    ];
  }
}
