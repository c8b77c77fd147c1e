import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { podPriority, type Pod } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { nodeInfoOf } from '../testing/fixtures';
import { DefaultPreemption, defaultDefaultPreemptionArgs } from '../plugins/defaultPreemption';
import { snapshotNodeInfo } from './nodeInfoSnapshot';
import { capNode, fitFilter, testHandle, tpod } from './testHandle';
import { moreImportantPod } from './util';
import type { PodDisruptionBudget } from './types';

// SelectVictimsOnNode's guarantees, on random nodes: victims are lower
// priority, the pod fits once they are gone, none could have been spared
// alone (greedy reprieve is minimal in that sense), and they come most
// important first.
const podArb = fc.record({ priority: fc.integer({ min: -3, max: 3 }), cpu: fc.integer({ min: 1, max: 8 }), start: fc.integer({ min: 0, max: 5 }), foo: fc.boolean() });

describe('selectVictimsOnNode (property)', () => {
  it('victims are lower priority, sufficient, individually necessary, and ordered', () => {
    fc.assert(
      fc.property(
        fc.array(podArb, { maxLength: 10 }),
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 4, max: 16 }),
        fc.integer({ min: 0, max: 2 }),
        (specs, prio, cpu, nodeCpu, allowed) => {
          const pods: Pod[] = specs.map((s, i) =>
            tpod(`v${i}`, { nodeName: 'n', priority: s.priority * 100, requests: { cpu: `${s.cpu * 100}m` }, start: s.start, ...(s.foo ? { labels: { app: 'foo' } } : {}) }),
          );
          const node = capNode('n', { cpu: `${nodeCpu * 100}m`, memory: '1Gi' });
          const ni = nodeInfoOf(node, pods);
          const pdbs: PodDisruptionBudget[] = [{ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'foo' } } }, status: { disruptionsAllowed: allowed } }];
          const pod = tpod('p', { priority: prio * 100, requests: { cpu: `${cpu * 100}m` } });
          const pl = new DefaultPreemption(defaultDefaultPreemptionArgs({}), testHandle([ni], { now: 10_000 }));
          const sel = pl.selectVictimsOnNode(new CycleState(), pod, snapshotNodeInfo(ni), pdbs);
          const without = (gone: Pod[]) => {
            const copy = snapshotNodeInfo(ni);
            for (const g of gone) copy.removePod(g);
            return fitFilter(pod, copy);
          };
          const lower = pods.filter((p) => podPriority(p) < podPriority(pod));
          if (sel.status !== null) {
            if (lower.length === 0) expect(sel.status.code).toBe('UnschedulableAndUnresolvable');
            else expect(without(lower)).not.toBeNull();
            return;
          }
          for (const v of sel.victims) expect(podPriority(v)).toBeLessThan(podPriority(pod));
          expect(without(sel.victims)).toBeNull();
          for (const v of sel.victims) expect(without(sel.victims.filter((x) => x !== v))).not.toBeNull();
          for (let i = 1; i < sel.victims.length; i++) expect(moreImportantPod(sel.victims[i]!, sel.victims[i - 1]!, 10_000)).toBe(false);
          expect(sel.numPDBViolations).toBeLessThanOrEqual(sel.victims.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
