// The owner index against a walk of the store, over random informer histories.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { PodOwnerIndex, podsOwnedByScan } from './podOwnerIndex';
import { NamespaceIndex } from './namespaceIndex';

const pod = (ns: string, name: string, owner: string | null, v: number): KObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: ns, name, resourceVersion: String(v), ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: owner, controller: true }] } : {}) },
});

describe('PodOwnerIndex', () => {
  it('answers as FilterPodsByOwner over the store', () => {
    const op = fc.record({ del: fc.boolean(), ns: fc.constantFrom('a', 'b'), name: fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p5'), owner: fc.constantFrom(null, 'rs1', 'rs2') });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const store = new Map<string, KObject>();
        const index = new PodOwnerIndex();
        ops.forEach((o, i) => {
          const key = `${o.ns}/${o.name}`;
          const old = store.get(key);
          let ev: ReflectorEvent | null = null;
          if (o.del) {
            if (old) {
              store.delete(key);
              ev = { type: 'DELETED', object: old };
            }
          } else {
            const p = pod(o.ns, o.name, o.owner, i);
            store.set(key, p);
            ev = old ? { type: 'MODIFIED', object: p, old } : { type: 'ADDED', object: p };
          }
          if (ev) index.apply(ev);
        });
        for (const ns of ['a', 'b']) for (const uid of ['rs1', 'rs2', 'none']) {
          const byName = (x: KObject[]) => [...x].sort((p, q) => (p.metadata.name! < q.metadata.name! ? -1 : 1));
          expect(byName(index.owned(ns, uid))).toEqual(byName(podsOwnedByScan(store, ns, uid)));
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('NamespaceIndex', () => {
  it('lists one namespace as a walk of the store does, in store order', () => {
    const op = fc.record({ del: fc.boolean(), ns: fc.constantFrom('a', 'b', ''), name: fc.constantFrom('x1', 'x2', 'x3', 'x4') });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const store = new Map<string, KObject>();
        const index = new NamespaceIndex();
        ops.forEach((o, i) => {
          const key = o.ns ? `${o.ns}/${o.name}` : o.name;
          const old = store.get(key);
          if (o.del) {
            if (!old) return;
            store.delete(key);
            index.apply('pods', { type: 'DELETED', object: old });
            return;
          }
          const p = pod(o.ns, o.name, null, i);
          if (!o.ns) delete p.metadata.namespace;
          store.set(key, p);
          index.apply('pods', old ? { type: 'MODIFIED', object: p, old } : { type: 'ADDED', object: p });
        });
        for (const ns of ['a', 'b', '']) expect(index.list('pods', ns)).toEqual([...store.values()].filter((p) => (p.metadata.namespace ?? '') === ns));
      }),
      { numRuns: 500 },
    );
  });
});
