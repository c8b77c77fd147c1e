// The per-node memo of matching-pod counts against counting afresh, over random
// sequences of pods added to and removed from nodes (and updated: removed, then
// added with other labels), asked about with selectors rebuilt each time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector, type LabelSelector } from '../../../apimachinery/selectors/labels';
import { NodeInfo } from '../../framework/nodeInfo';
import { countMatchingOnNode, countPodsMatchSelector } from './common';
import { node, pod } from './testHelpers';

const labels = fc.dictionary(fc.constantFrom('app', 'tier', 'pod-template-hash'), fc.constantFrom('a', 'b', 'c'), { maxKeys: 3 });
const selectors: LabelSelector[] = [
  { matchLabels: { app: 'a' } },
  { matchLabels: { app: 'a', 'pod-template-hash': 'b' } },
  { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'c'] }] },
  { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
  {},
];
const op = fc.oneof(
  fc.record({ type: fc.constant('add' as const), node: fc.nat(2), labels, ns: fc.constantFrom('default', 'other'), terminating: fc.boolean() }),
  fc.record({ type: fc.constant('remove' as const), node: fc.nat(2), which: fc.nat() }),
  fc.record({ type: fc.constant('relabel' as const), node: fc.nat(2), which: fc.nat(), labels }),
  fc.record({ type: fc.constant('ask' as const), node: fc.nat(2), selector: fc.nat(selectors.length - 1), ns: fc.constantFrom('default', 'other') }),
);

describe('countMatchingOnNode', () => {
  it('always equals counting the node’s pods afresh', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const nodes = [0, 1, 2].map((i) => {
          const ni = new NodeInfo(`n${i}`);
          ni.setNode(node(`n${i}`));
          return ni;
        });
        let seq = 0;
        for (const o of ops) {
          const ni = nodes[o.node]!;
          if (o.type === 'add') ni.addPod(pod(`p${seq++}`, { node: ni.name, labels: o.labels, ns: o.ns, terminating: o.terminating }));
          else if (o.type === 'remove') {
            if (ni.pods.length) ni.removePod(ni.pods[o.which % ni.pods.length]!.pod);
          } else if (o.type === 'relabel') {
            if (!ni.pods.length) continue;
            const old = ni.pods[o.which % ni.pods.length]!.pod;
            ni.removePod(old);
            ni.addPod({ ...old, metadata: { ...old.metadata, labels: o.labels } });
          } else {
            const sel = labelSelectorAsSelector(selectors[o.selector]!);
            if (!sel.ok) throw new Error(sel.error);
            expect(countMatchingOnNode(ni, sel.selector, o.ns)).toBe(countPodsMatchSelector(ni.pods, sel.selector, o.ns));
          }
          // After every step, the same two questions on every node (fewer than the memo holds: asked again right after a change).
          for (const n of nodes) {
            for (const ls of selectors.slice(0, 2)) {
              const sel = labelSelectorAsSelector(ls);
              if (!sel.ok) throw new Error(sel.error);
              expect(countMatchingOnNode(n, sel.selector, 'default')).toBe(countPodsMatchSelector(n.pods, sel.selector, 'default'));
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
