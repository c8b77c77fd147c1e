// The watch cache's spec.nodeName index against filtering the whole cache, over
// random writes that create, move (bind, rebind) and delete pods, and relists.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KObject } from '../../apimachinery/types';
import { WatchCache } from './watchCache';

const NODES = ['', 'node-1', 'node-2', 'node-3'];
const pod = (name: string, nodeName: string): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: nodeName ? { nodeName } : {} });
const op = fc.oneof(
  fc.record({ k: fc.constant('put' as const), name: fc.integer({ min: 0, max: 7 }), node: fc.constantFrom(...NODES) }),
  fc.record({ k: fc.constant('delete' as const), name: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ k: fc.constant('replace' as const), names: fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.constantFrom(...NODES)), { maxLength: 5 }) }),
);

describe('WatchCache spec.nodeName index', () => {
  it('lists on a node exactly the pods filtering the whole cache finds, in key order', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const c = new WatchCache('/pods');
        c.replace([], 1);
        let rv = 1;
        for (const o of ops) {
          rv++;
          if (o.k === 'put') c.apply(`/registry/pods/default/p${o.name}`, 'PUT', pod(`p${o.name}`, o.node), rv);
          else if (o.k === 'delete') c.apply(`/registry/pods/default/p${o.name}`, 'DELETE', null, rv);
          else c.replace([...new Map(o.names.map(([n, node]) => [n, node])).entries()].map(([n, node]) => ({ key: `/registry/pods/default/p${n}`, obj: pod(`p${n}`, node) })), rv);
          for (const node of NODES) {
            const want = c.list().filter((p) => ((p.spec as { nodeName?: string }).nodeName ?? '') === node);
            expect(c.listOnNode(node)).toEqual(want);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('only pods are indexed', () => {
    expect(new WatchCache('/nodes').listOnNode('node-1')).toBeUndefined();
  });
});

describe('WatchCache event window', () => {
  it('resumes from a version as a plain list of the last `capacity` events would', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3 })), { maxLength: 30 }), fc.integer({ min: 0, max: 40 }), (capacity, ops, since) => {
        const c = new WatchCache('/configmaps', capacity);
        c.replace([], 1);
        const naive: { rv: number; name: string }[] = [];
        let rv = 1;
        for (const [del, n] of ops) {
          rv++;
          const key = `/registry/configmaps/default/c${n}`;
          const ev = c.apply(key, del ? 'DELETE' : 'PUT', del ? null : pod(`c${n}`, ''), rv);
          if (ev) naive.push({ rv, name: `c${n}` });
          while (naive.length > capacity) naive.shift();
        }
        expect(c.oldestRv()).toBe(naive.length > 0 ? naive[0]!.rv - 1 : rv);
        const got = c.eventsSince(since);
        const oldest = naive.length > 0 ? naive[0]!.rv - 1 : rv;
        if (since >= rv) expect(got).toEqual([]);
        else if (since < oldest || since < 1) expect(got).toBe('expired');
        else expect((got as { rv: number; object: KObject }[]).map((e) => ({ rv: e.rv, name: e.object.metadata.name }))).toEqual(naive.filter((e) => e.rv > since));
      }),
      { numRuns: 500 },
    );
  });
});
