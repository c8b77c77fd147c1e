// The etcd requests behind the generic registry (k8s.io/apiserver/pkg/storage/
// etcd3/store.go): create only if absent, update and delete only if the mod
// revision is still the one we read (optimistic concurrency), reading the
// current value back when the compare fails so the caller can retry.
import type { RangeRequest, TxnRequest } from '../../etcd/api/rpc';
import type { KObject } from '../../apimachinery/types';
import type { ResourceInfo } from '../registry/resources';
import { storageKey } from '../registry/resources';
import { encodeObject, keyBytes } from '../storage/codec';

export function objectKey(r: ResourceInfo, obj: KObject): string {
  return storageKey(r, obj.metadata.namespace, obj.metadata.name!);
}

/** An object written with the request's own, at the resourceVersion it was read at (a quota admission charged). */
export interface SideWrite {
  key: string;
  obj: KObject;
}

type Ops = Required<Pick<TxnRequest, 'compare' | 'success' | 'failure'>>;

function withSideWrites(txn: Ops, side: readonly SideWrite[]): TxnRequest {
  for (const w of side) {
    const key = keyBytes(w.key);
    txn.compare.push({ key, target: 'MOD', result: 'EQUAL', modRevision: Number(w.obj.metadata.resourceVersion) });
    txn.success.push({ requestPut: { key, value: encodeObject(w.obj) } });
    txn.failure.push({ requestRange: { key } });
  }
  return txn;
}

/** `encoded`: the object's encoding when the caller already made it (encodeObject(obj)). */
export function createTxn(r: ResourceInfo, obj: KObject, side: readonly SideWrite[] = [], encoded?: string): TxnRequest {
  const key = keyBytes(objectKey(r, obj));
  return withSideWrites(
    {
      compare: [{ key, target: 'MOD', result: 'EQUAL', modRevision: 0 }],
      success: [{ requestPut: { key, value: encoded ?? encodeObject(obj) } }],
      failure: [{ requestRange: { key } }],
    },
    side,
  );
}

export function updateTxn(key: string, obj: KObject, expectedModRevision: number, side: readonly SideWrite[] = [], encoded?: string): TxnRequest {
  const k = keyBytes(key);
  return withSideWrites(
    {
      compare: [{ key: k, target: 'MOD', result: 'EQUAL', modRevision: expectedModRevision }],
      success: [{ requestPut: { key: k, value: encoded ?? encodeObject(obj) } }],
      failure: [{ requestRange: { key: k } }],
    },
    side,
  );
}

export function deleteTxn(key: string, expectedModRevision: number): TxnRequest {
  const k = keyBytes(key);
  return {
    compare: [{ key: k, target: 'MOD', result: 'EQUAL', modRevision: expectedModRevision }],
    success: [{ requestDeleteRange: { key: k, prevKv: true } }],
    failure: [{ requestRange: { key: k } }],
  };
}

export function getRequest(key: string): RangeRequest {
  return { key: keyBytes(key) };
}
