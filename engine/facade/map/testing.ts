// Test helpers for the map feed: pods and nodes as the watch cache holds them,
// and a source over plain maps that replaces (never mutates) objects on change.
import type { KObject } from '../../apimachinery/types';
import type { MapChanges, MapResource, MapSource } from './feed';
import type { MapComponent } from './protocol';

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

/** The keys changed in a store, the newest `window` of them (a watch cache's event window). */
export class ChangeLog {
  private keys: string[] = [];
  private start = 0;

  constructor(readonly window: number) {}

  get head(): number {
    return this.start + this.keys.length;
  }

  record(key: string): void {
    this.keys.push(key);
    if (this.keys.length > this.window * 2) {
      const drop = this.keys.length - this.window;
      this.keys = this.keys.slice(drop);
      this.start += drop;
    }
  }

  /** The keys changed since `cursor`, each once; null when the log no longer reaches back that far. */
  since(cursor: number): string[] | null {
    if (cursor < this.start || this.head - cursor > this.window) return null;
    return [...new Set(this.keys.slice(cursor - this.start))];
  }

  /** A feed's changesSince over `store`, this log's changes. */
  changes(store: ReadonlyMap<string, KObject>, cursor: unknown): MapChanges | null {
    const keys = typeof cursor === 'number' ? this.since(cursor) : null;
    if (!keys) return null;
    const changed: [string, KObject][] = [];
    const deleted: string[] = [];
    for (const k of keys) {
      const o = store.get(k);
      if (o) changed.push([k, o]);
      else deleted.push(k);
    }
    return { changed, deleted, cursor: this.head };
  }
}

/** A Map that logs the keys set and deleted. */
export class LoggedMap<V> extends Map<string, V> {
  log: ChangeLog | null = null;
  override set(k: string, v: V): this {
    this.log?.record(k);
    return super.set(k, v);
  }
  override delete(k: string): boolean {
    this.log?.record(k);
    return super.delete(k);
  }
}

/** A source over plain maps, replaced (not mutated) on change as the watch cache does; with `window`, it also says what changed, as the engine's source does. */
export class FakeSource implements MapSource {
  readonly podStore = new LoggedMap<KObject>();
  readonly nodeStore = new LoggedMap<KObject>();
  comps: MapComponent[] = [{ name: 'kube-apiserver-0', kind: 'kube-apiserver', up: true, leader: false }];
  constructor(window?: number) {
    if (window !== undefined) {
      this.podStore.log = new ChangeLog(window);
      this.nodeStore.log = new ChangeLog(window);
    }
  }
  private store(r: MapResource) {
    return r === 'pods' ? this.podStore : this.nodeStore;
  }
  cursor(r: MapResource) {
    return this.store(r).log?.head;
  }
  changesSince(r: MapResource, cursor: unknown) {
    return this.store(r).log?.changes(this.store(r), cursor) ?? null;
  }
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
