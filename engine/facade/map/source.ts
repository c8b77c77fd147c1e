// The cluster map reads the first ready API server's watch caches (an
// observer's read: no requests), so the map keeps working while one replica is
// down or cut off.
import type { KObject } from '../../apimachinery/types';
import { resourceFor } from '../../apiserver/registry/resources';
import type { ApiServer } from '../../apiserver/server/apiserver';
import type { Engine } from '../engine';
import type { MapSource } from './feed';

/** The first API server that is up with its caches filled, if any. */
export function readyApiServer(e: Engine): ApiServer | null {
  for (let i = 0; i < e.options.apiServers; i++) {
    const s = e.sim.actor<ApiServer>(`kube-apiserver-${i}`);
    if (s?.ready) return s;
  }
  return null;
}

/** An API server's cached objects of one resource, by etcd key. */
export function cachedStore(s: ApiServer | null, group: string, resource: string): ReadonlyMap<string, KObject> | null {
  const r = resourceFor(group, resource);
  return (r && s?.cacheOf(r)?.store) ?? null;
}

export function engineMapSource(e: Engine): MapSource {
  return {
    pods: () => cachedStore(readyApiServer(e), '', 'pods'),
    nodes: () => cachedStore(readyApiServer(e), '', 'nodes'),
    components: () => e.controlPlaneComponents(),
  };
}
