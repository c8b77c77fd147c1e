// The kubelet's cache of the ConfigMaps and Secrets its pods use
// (pkg/kubelet/configmap, pkg/kubelet/secret): fetched from the API as
// system:node (the Node authorizer lets a node read what its pods refer to),
// kept while pods use them, fetched again when they are older than the TTL,
// were missing when last asked (so creating a missing ConfigMap lets a stuck
// pod start on its next retry), or a pod refers to them for the first time.
import { registerClass } from '../../sim/serial';
import type { KObject } from '../../apimachinery/types';

export type ObjectKind = 'configmaps' | 'secrets';

interface Entry {
  /** undefined: never answered; null: not found. */
  obj: KObject | null | undefined;
  fetchedAt: number;
  inFlight: boolean;
  /** The pods that have referred to it (uids). */
  pods?: string[];
}

/** A present object is refetched after this long; a missing one on every retry. */
export const OBJECT_TTL_MS = 60_000;
const MAX_REFERRERS = 64;

export class ObjectCache {
  readonly entries = new Map<string, Entry>();

  static key(kind: ObjectKind, ns: string, name: string): string {
    return `${kind}/${ns}/${name}`;
  }

  /** The object (null: not found; undefined: not known yet). */
  get(kind: ObjectKind, ns: string, name: string): KObject | null | undefined {
    return this.entries.get(ObjectCache.key(kind, ns, name))?.obj;
  }

  /**
   * Keys to (re)fetch now among `wanted` by pod `podUid`; marks them in
   * flight. A pod that refers to an object for the first time has it fetched
   * afresh (cache_based_manager.go's AddReference drops the cached data), so
   * a new pod never starts with an old ConfigMap.
   */
  due(wanted: readonly string[], now: number, podUid = ''): string[] {
    const out: string[] = [];
    for (const key of wanted) {
      const e = this.entries.get(key);
      const pods = e?.pods ?? [];
      const newPod = podUid !== '' && !pods.includes(podUid);
      if (newPod) {
        // The pods that referred to it lately (a bounded list: deleted pods' uids fall off).
        pods.push(podUid);
        if (pods.length > MAX_REFERRERS) pods.shift();
        if (e) {
          e.pods = pods;
          // An answer already on its way is as fresh as a new fetch.
          if (!e.inFlight) e.obj = undefined;
        }
      }
      if (e?.inFlight) continue;
      if (e && e.obj !== undefined && e.obj !== null && now - e.fetchedAt < OBJECT_TTL_MS) continue;
      if (e && e.obj === null && now - e.fetchedAt < 1000) continue;
      this.entries.set(key, { obj: e?.obj, fetchedAt: e?.fetchedAt ?? now, inFlight: true, pods });
      out.push(key);
    }
    return out;
  }

  /** An answer came: the object, null for 404, undefined for an error (asked again later). */
  answered(key: string, obj: KObject | null | undefined, now: number): void {
    const e = this.entries.get(key);
    this.entries.set(key, { obj: obj === undefined ? e?.obj : obj, fetchedAt: now, inFlight: false, ...(e?.pods ? { pods: e.pods } : {}) });
  }
}

registerClass('ObjectCache', ObjectCache);
