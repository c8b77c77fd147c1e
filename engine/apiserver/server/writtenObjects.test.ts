import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import type { KeyValue } from '../../etcd/api/rpc';
import { decodeObject, encodeObject, keyBytes } from '../storage/codec';
import { WrittenObjects } from './writtenObjects';

const KEY = '/registry/leases/kube-node-lease/n1';
const lease = (renewTime: string): KObject => ({
  kind: 'Lease',
  apiVersion: 'coordination.k8s.io/v1',
  metadata: { name: 'n1', namespace: 'kube-node-lease', uid: 'u1', resourceVersion: '7', managedFields: [{ manager: 'kwok', fieldsV1: { 'f:spec': { 'f:renewTime': {} } } }] },
  spec: { holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime },
});
const kv = (obj: KObject, modRevision: number): KeyValue => ({ key: keyBytes(KEY), createRevision: 3, modRevision, version: 2, value: encodeObject(obj), lease: 0 });

describe('WrittenObjects', () => {
  it("gives the watch cache the object written at the event's revision, equal member for member (order included) to the event's decoding", () => {
    const w = new WrittenObjects();
    const obj = lease('2025-01-01T00:00:10.000000Z');
    w.note(KEY, 12, obj);
    const ev = kv(obj, 12);
    const got = w.objectOf(KEY, ev);
    expect(JSON.stringify(got)).toBe(JSON.stringify(decodeObject(ev)));
    expect(got.metadata.resourceVersion).toBe('12');
    expect(got.spec).toBe(obj.spec); // shared, not decoded
    expect(obj.metadata.resourceVersion).toBe('7'); // the written object itself is left as it was
    // Taken once: a second event for the key decodes.
    expect(w.objectOf(KEY, ev).spec).not.toBe(obj.spec);
  });

  it('decodes an event of another revision (a write by another apiserver, or one the watch has passed)', () => {
    const w = new WrittenObjects();
    const mine = lease('2025-01-01T00:00:10.000000Z');
    w.note(KEY, 12, mine);
    const theirs = lease('2025-01-01T00:00:11.000000Z');
    expect(w.objectOf(KEY, kv(theirs, 11)).spec).toEqual(theirs.spec);
    expect(w.objectOf(KEY, kv(theirs, 13)).spec).toEqual(theirs.spec);
    // The newer event dropped the older write.
    expect(w.objectOf(KEY, kv(mine, 12)).spec).not.toBe(mine.spec);
  });

  it('under the read-only checks, refuses an object decoding would not rebuild', () => {
    const w = new WrittenObjects();
    const obj = { ...lease('2025-01-01T00:00:10.000000Z'), status: undefined } as unknown as KObject;
    w.note(KEY, 12, obj);
    expect(() => w.objectOf(KEY, kv(obj, 12))).toThrow(/differs from its stored encoding/);
  });
});
