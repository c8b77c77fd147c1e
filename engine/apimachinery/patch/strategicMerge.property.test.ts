import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../types';
import { patchMetaFor } from './patchMeta';
import { applyStrategicMergePatch, createThreeWayMergePatch, createTwoWayMergePatch } from './strategicMerge';

const podMeta = patchMetaFor('', 'v1', 'Pod');
const word = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const names = (pool: readonly string[], max: number) => fc.uniqueArray(fc.constantFrom(...pool), { maxLength: max });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/**
 * Finalizers compared as the set they are: upstream's diff sorts a scalar
 * list in place before checking whether its order changed, so reordering one
 * into sorted order yields no patch (see the quirk test in strategicMerge.test.ts).
 */
function finalizersAsSet(r: unknown): unknown {
  const o = structuredClone(r) as { value?: { metadata?: { finalizers?: string[] } } };
  o.value?.metadata?.finalizers?.sort();
  return o;
}

/** Drops undefined members, so the generators can make fields optional. */
function compact<T extends Record<string, unknown>>(o: T): JsonObject {
  return JSON.parse(JSON.stringify(o)) as JsonObject;
}

const env = names(['A', 'B', 'C', 'D'], 4).chain((ns) => fc.tuple(...ns.map((n) => fc.record({ name: fc.constant(n), value: word }))));
const ports = names(['80', '443', '8080'], 3).chain((ps) => fc.tuple(...ps.map((p) => fc.record({ containerPort: fc.constant(Number(p)), protocol: fc.constantFrom('TCP', 'UDP') }))));
const container = (name: string) =>
  fc
    .record({ image: word, env: maybe(env), ports: maybe(ports), command: maybe(fc.array(word, { maxLength: 2 })) })
    .map((c) => compact({ name, ...c }));
const containers = names(['app', 'side', 'log', 'init'], 4).chain((ns) => fc.tuple(...ns.map(container)));
const pod = fc
  .record({
    labels: maybe(fc.dictionary(fc.constantFrom('app', 'tier', 'team'), word, { maxKeys: 3 })),
    finalizers: maybe(names(['f1', 'f2', 'f3'], 3)),
    containers: maybe(containers),
    tolerations: maybe(fc.array(fc.record({ key: word, operator: fc.constant('Exists') }), { maxLength: 2 })),
    nodeName: maybe(word),
  })
  .map((p) =>
    compact({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', labels: p.labels, finalizers: p.finalizers },
      spec: { containers: p.containers, tolerations: p.tolerations, nodeName: p.nodeName },
    }),
  );

describe('strategic merge patch properties on pods', () => {
  it('applying the two-way patch of (a, b) to a gives b, list orders included', () => {
    fc.assert(
      fc.property(pod, pod, (a, b) => {
        const patch = createTwoWayMergePatch(a, b, podMeta);
        expect(patch.ok).toBe(true);
        if (patch.ok) expect(finalizersAsSet(applyStrategicMergePatch(a, patch.value, podMeta))).toEqual(finalizersAsSet({ ok: true, value: b }));
      }),
      { numRuns: 300 },
    );
  });

  it('with no drift (current = last applied), the three-way patch turns current into the new configuration', () => {
    fc.assert(
      fc.property(pod, pod, (a, b) => {
        const patch = createThreeWayMergePatch(a, b, a, podMeta);
        expect(patch.ok).toBe(true);
        if (patch.ok) expect(finalizersAsSet(applyStrategicMergePatch(a, patch.value, podMeta))).toEqual(finalizersAsSet({ ok: true, value: b }));
      }),
      { numRuns: 300 },
    );
  });

  it('the two-way patch of a document with itself is empty', () => {
    fc.assert(
      fc.property(pod, (a) => {
        const p = createTwoWayMergePatch(a, structuredClone(a), podMeta);
        // Only an unsorted finalizers list yields a patch ($setElementOrder), as upstream.
        const f = ((a.metadata as JsonObject).finalizers ?? []) as string[];
        const sorted = [...f].sort().join() === f.join();
        if (sorted) expect(p).toEqual({ ok: true, value: {} });
      }),
      { numRuns: 200 },
    );
  });
});
