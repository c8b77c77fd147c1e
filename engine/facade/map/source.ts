// The cluster map reads the first ready API server's watch caches (an
// observer's read: no requests), so the map keeps working while one replica is
// down or cut off. Between deltas it reads only the cache's recent events;
// when those are gone (a burst beyond the event window, a relist, another
// API server) the feed scans the store again.
import type { KObject } from '../../apimachinery/types';
import type { WatchCache } from '../../apiserver/cache/watchCache';
import { resourceFor, storageKey } from '../../apiserver/registry/resources';
import type { ApiServer } from '../../apiserver/server/apiserver';
import type { Engine } from '../engine';
import type { MapChanges, MapResource, MapSource } from './feed';

/** The first API server that is up with its caches filled, if any. */
export function readyApiServer(e: Engine): ApiServer | null {
  for (let i = 0; i < e.options.apiServers; i++) {
    const s = e.sim.actor<ApiServer>(`kube-apiserver-${i}`);
    if (s?.ready) return s;
  }
  return null;
}

function watchCache(s: ApiServer | null, group: string, resource: string): WatchCache | null {
  const r = resourceFor(group, resource);
  return (r && s?.cacheOf(r)) ?? null;
}

/** An API server's cached objects of one resource, by etcd key. */
export function cachedStore(s: ApiServer | null, group: string, resource: string): ReadonlyMap<string, KObject> | null {
  return watchCache(s, group, resource)?.store ?? null;
}

interface Cursor {
  cache: WatchCache;
  listRv: number;
  rv: number;
}

/** The etcd key of an object: the key of the cache's store. */
function keyOf(resource: MapResource, o: KObject): string {
  return storageKey(resourceFor('', resource)!, o.metadata.namespace, o.metadata.name ?? '');
}

export function engineMapSource(e: Engine): MapSource {
  const cache = (r: MapResource) => watchCache(readyApiServer(e), '', r);
  return {
    pods: () => cachedStore(readyApiServer(e), '', 'pods'),
    nodes: () => cachedStore(readyApiServer(e), '', 'nodes'),
    components: () => e.controlPlaneComponents(),
    cursor: (r) => {
      const c = cache(r);
      return c ? ({ cache: c, listRv: c.listRv, rv: c.rv } satisfies Cursor) : undefined;
    },
    changesSince: (r, at): MapChanges | null => {
      const from = at as Cursor | undefined;
      const c = cache(r);
      if (!c || !from || from.cache !== c || from.listRv !== c.listRv) return null;
      const events = c.eventsSince(from.rv);
      if (events === 'expired') return null;
      // The last event of each key decides (objects are the store's own, so unchanged ones compare equal).
      const last = new Map<string, KObject | null>();
      for (const ev of events) last.set(keyOf(r, ev.object), ev.type === 'DELETED' ? null : ev.object);
      const changed: [string, KObject][] = [];
      const deleted: string[] = [];
      for (const [k, o] of last) if (o) changed.push([k, o]);
      else deleted.push(k);
      return { changed, deleted, cursor: { cache: c, listRv: c.listRv, rv: c.rv } satisfies Cursor };
    },
  };
}
