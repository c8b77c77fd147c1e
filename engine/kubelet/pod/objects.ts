// The kubelet's cache of the ConfigMaps and Secrets its pods use
// (pkg/kubelet/configmap, pkg/kubelet/secret): fetched from the API as
// system:node (the Node authorizer lets a node read what its pods refer to),
// kept while pods use them, fetched again when they are older than the TTL or
// were missing when last asked (so creating a missing ConfigMap lets a stuck
// pod start on its next retry).
import { registerClass } from '../../sim/serial';
import type { KObject } from '../../apimachinery/types';

export type ObjectKind = 'configmaps' | 'secrets';

interface Entry {
  /** undefined: never answered; null: not found. */
  obj: KObject | null | undefined;
  fetchedAt: number;
  inFlight: boolean;
}

/** A present object is refetched after this long; a missing one on every retry. */
export const OBJECT_TTL_MS = 60_000;

export class ObjectCache {
  readonly entries = new Map<string, Entry>();

  static key(kind: ObjectKind, ns: string, name: string): string {
    return `${kind}/${ns}/${name}`;
  }

  /** The object (null: not found; undefined: not known yet). */
  get(kind: ObjectKind, ns: string, name: string): KObject | null | undefined {
    return this.entries.get(ObjectCache.key(kind, ns, name))?.obj;
  }

  /** Keys to (re)fetch now among `wanted`; marks them in flight. */
  due(wanted: readonly string[], now: number): string[] {
    const out: string[] = [];
    for (const key of wanted) {
      const e = this.entries.get(key);
      if (e?.inFlight) continue;
      if (e && e.obj !== undefined && e.obj !== null && now - e.fetchedAt < OBJECT_TTL_MS) continue;
      if (e && e.obj === null && now - e.fetchedAt < 1000) continue;
      this.entries.set(key, { obj: e?.obj, fetchedAt: e?.fetchedAt ?? now, inFlight: true });
      out.push(key);
    }
    return out;
  }

  /** An answer came: the object, null for 404, undefined for an error (asked again later). */
  answered(key: string, obj: KObject | null | undefined, now: number): void {
    const e = this.entries.get(key);
    this.entries.set(key, { obj: obj === undefined ? e?.obj : obj, fetchedAt: now, inFlight: false });
  }
}

registerClass('ObjectCache', ObjectCache);
