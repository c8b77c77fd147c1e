// How objects sit in etcd: JSON text under /registry/<resource>/<ns>/<name>.
// (Real clusters store built-in kinds as protobuf behind a `k8s\0` prefix; JSON
// keeps the etcd view readable and is what the apiserver uses for CRDs.)
// metadata.resourceVersion is never stored: it is the key's mod revision.
import { binaryToUtf8, utf8ToBinary } from '../../etcd/api/bytes';
import { prefixEnd, type KeyValue } from '../../etcd/api/rpc';
import type { KObject } from '../../apimachinery/types';

export function encodeObject(obj: KObject): string {
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  return utf8ToBinary(JSON.stringify({ ...obj, metadata: meta }));
}

/** The object stored in a key-value, with its resourceVersion = mod revision. */
export function decodeObject(kv: KeyValue): KObject {
  // A fresh parse: set the version in place (stored metadata never holds one, so it lands last, as a copy would).
  const obj = JSON.parse(binaryToUtf8(kv.value)) as KObject;
  if (obj.metadata && typeof obj.metadata === 'object') obj.metadata.resourceVersion = String(kv.modRevision);
  else obj.metadata = { resourceVersion: String(kv.modRevision) };
  return obj;
}

export function keyBytes(key: string): string {
  return utf8ToBinary(key);
}

export function keyText(key: string): string {
  return binaryToUtf8(key);
}

/** [prefix/, end) covering every key below a prefix. */
export function prefixRange(prefix: string): { key: string; rangeEnd: string } {
  const key = utf8ToBinary(prefix.endsWith('/') ? prefix : `${prefix}/`);
  return { key, rangeEnd: prefixEnd(key) };
}

/** Byte size of what would be written (etcd's request limit applies to it). */
export function encodedSize(obj: KObject): number {
  return encodeObject(obj).length;
}
