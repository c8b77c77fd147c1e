// The objects this kube-apiserver has just written, for its own watch cache.
//
// A write's watch event comes back from etcd moments after the answer to the
// write: the same bytes the apiserver encoded from an object it still holds.
// Rather than decode them again, the cache takes that object (a shallow copy
// with the event's resourceVersion, in the member order decoding gives). The
// write path is done with it by then, and cache objects are read-only (frozen
// under test). Under the read-only checks each taken object is compared with
// the event's real decoding, so a write whose object decoding would not
// rebuild exactly (an undefined member, say) fails its tests.
import type { KObject } from '../../apimachinery/types';
import type { KeyValue } from '../../etcd/api/rpc';
import { readonlyChecks } from '../../apimachinery/readonly';
import { sameJsonData } from '../../apimachinery/watchChunks';
import { registerClass } from '../../sim/serial';
import { decodeObject } from '../storage/codec';

/** Writes whose events have not come back (a watch that broke meanwhile leaves some): the oldest go past this. */
const LIMIT = 4096;

export class WrittenObjects {
  private readonly byKey = new Map<string, { rev: number; obj: KObject }>();

  /** `obj` was stored under `key` at revision `rev`, as encodeObject encoded it. */
  note(key: string, rev: number, obj: KObject): void {
    this.byKey.delete(key);
    if (this.byKey.size >= LIMIT) this.byKey.delete(this.byKey.keys().next().value!);
    this.byKey.set(key, { rev, obj });
  }

  /** The object of a PUT event: the one written, if this apiserver wrote that revision, else decoded. */
  objectOf(key: string, kv: KeyValue): KObject {
    const w = this.byKey.get(key);
    if (!w || w.rev > kv.modRevision) return decodeObject(kv);
    this.byKey.delete(key);
    if (w.rev < kv.modRevision) return decodeObject(kv);
    // The version is set after the copy, not in the literal: a spread literal adding a
    // member its source lacks takes V8's slow path (~6× this copy).
    const { resourceVersion: _rv, ...rest } = w.obj.metadata;
    const meta: KObject['metadata'] = rest;
    meta.resourceVersion = String(kv.modRevision);
    const obj = { ...w.obj, metadata: meta };
    if (readonlyChecks() && !sameJsonData(obj, decodeObject(kv))) throw new Error(`written object differs from its stored encoding: ${key}`);
    return obj;
  }
}

registerClass('apiserver.WrittenObjects', WrittenObjects);
