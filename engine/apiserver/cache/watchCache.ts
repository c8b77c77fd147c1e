// The API server's watch cache for one resource (k8s.io/apiserver/pkg/storage/
// cacher/watch_cache.go): the current objects, kept up to date by one etcd
// watch on the resource's prefix, and a bounded window of recent events so a
// watch can resume from a recent resourceVersion. Asking for an older one is
// answered with 410 Expired, as upstream does.
import type { KObject } from '../../apimachinery/types';
import { registerClass } from '../../sim/serial';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface CacheEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KObject;
  prevObject?: KObject;
  /** The etcd revision of the change. */
  rv: number;
}

/** Upstream's default event window (defaultLowerBoundCapacity..UpperBound grows it; 100 is the floor). */
export const DEFAULT_EVENT_WINDOW = 1000;

export class WatchCache {
  /** Objects by etcd key (text), in no particular order; list() sorts. */
  readonly store = new Map<string, KObject>();
  /** Recent events: a ring of at most `capacity`, the oldest at `head` (0 until it is full). */
  private events: CacheEvent[] = [];
  private head = 0;
  /** The revision the cache reflects (the list revision, then each event's, or a progress notify's). */
  rv = 0;
  /** The revision of the list the cache was built from; events before it are not known. */
  listRv = 0;
  ready = false;
  /** The sorted list, kept until the next change (admission and RBAC read whole resources per request). */
  private sorted: readonly KObject[] | null = null;
  /**
   * Pods' keys by spec.nodeName (the pod registry's "spec.nodeName" index,
   * pkg/registry/core/pod: a kubelet's list of its own pods reads only them).
   */
  private readonly byNode: Map<string, Set<string>> | null;

  constructor(
    readonly resourceKey: string,
    readonly capacity = DEFAULT_EVENT_WINDOW,
  ) {
    this.byNode = resourceKey === '/pods' ? new Map() : null;
  }

  /** Replace everything with a fresh list (at start, and after the etcd watch was lost). */
  replace(objects: { key: string; obj: KObject }[], rv: number): void {
    this.store.clear();
    this.byNode?.clear();
    this.sorted = null;
    for (const o of objects) {
      this.store.set(o.key, o.obj);
      this.index(o.key, undefined, o.obj);
    }
    this.events = [];
    this.head = 0;
    this.rv = rv;
    this.listRv = rv;
    this.ready = true;
  }

  apply(key: string, type: 'PUT' | 'DELETE', obj: KObject | null, rv: number): CacheEvent | null {
    if (rv <= this.rv) return null; // a replayed event we already hold
    const prev = this.store.get(key);
    this.sorted = null;
    let ev: CacheEvent;
    if (type === 'DELETE') {
      if (!prev) {
        this.rv = rv;
        return null;
      }
      this.store.delete(key);
      this.index(key, prev, undefined);
      // A deleted object is reported in its last state with the delete's revision.
      const gone: KObject = { ...prev, metadata: { ...prev.metadata, resourceVersion: String(rv) } };
      ev = { type: 'DELETED', object: gone, prevObject: prev, rv };
    } else {
      this.store.set(key, obj!);
      this.index(key, prev, obj!);
      ev = prev ? { type: 'MODIFIED', object: obj!, prevObject: prev, rv } : { type: 'ADDED', object: obj!, rv };
    }
    this.rv = rv;
    // Once full, the newest takes the oldest's place (a shift would move the whole window).
    if (this.events.length < this.capacity) this.events.push(ev);
    else if (this.capacity > 0) {
      this.events[this.head] = ev;
      this.head = (this.head + 1) % this.capacity;
    }
    return ev;
  }

  /** A progress notification: nothing changed below the prefix up to rv. */
  progress(rv: number): void {
    if (rv > this.rv) this.rv = rv;
  }

  /** The oldest revision a watch may resume from (exclusive lower bound). */
  oldestRv(): number {
    return this.events.length > 0 ? this.events[this.head]!.rv - 1 : this.rv;
  }

  /**
   * Events after `rv`, or 'expired' when they have left the window
   * (upstream: `too old resource version: RV (OLDEST)`).
   */
  eventsSince(rv: number): CacheEvent[] | 'expired' {
    if (rv >= this.rv) return [];
    if (rv < this.oldestRv() || rv < this.listRv) return 'expired';
    const out: CacheEvent[] = [];
    const n = this.events.length;
    for (let k = 0; k < n; k++) {
      const e = this.events[(this.head + k) % n]!;
      if (e.rv > rv) out.push(e);
    }
    return out;
  }

  private index(key: string, prev: KObject | undefined, next: KObject | undefined): void {
    if (!this.byNode) return;
    const was = nodeNameOf(prev);
    const now = nodeNameOf(next);
    if (prev && (!next || was !== now)) {
      const keys = this.byNode.get(was)!;
      keys.delete(key);
      if (keys.size === 0) this.byNode.delete(was);
    }
    if (next && (!prev || was !== now)) {
      let keys = this.byNode.get(now);
      if (!keys) this.byNode.set(now, (keys = new Set()));
      keys.add(key);
    }
  }

  /** The pods whose spec.nodeName is `node`, in key order; undefined when this cache has no such index. */
  listOnNode(node: string): KObject[] | undefined {
    if (!this.byNode) return undefined;
    const keys = [...(this.byNode.get(node) ?? [])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return keys.map((k) => this.store.get(k)!);
  }

  /** The objects in key order (a shared, frozen array: copy it to change it). */
  list(): readonly KObject[] {
    this.sorted ??= Object.freeze([...this.store.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, o]) => o));
    return this.sorted;
  }
}

function nodeNameOf(o: KObject | undefined): string {
  const n = (o?.spec as { nodeName?: unknown } | undefined)?.nodeName;
  return typeof n === 'string' ? n : '';
}

registerClass('WatchCache', WatchCache);
