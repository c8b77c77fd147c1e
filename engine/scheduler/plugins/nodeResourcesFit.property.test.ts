// Properties of the node-resources arithmetic against naive versions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CycleState } from '../framework/cycleState';
import { podRequests } from '../framework/resources';
import { makeAllocatableResources, newResourceInitPod, newResourcePod, nodeInfoWith, type Usage } from './helper/noderesourcesTesting';
import { leastRequestedScore, mostRequestedScore, mulDivTrunc } from './helper/resourceAllocation';
import { NodeResourcesFit } from './nodeResourcesFit';
import { NodeResourcesBalancedAllocation } from './nodeResourcesBalancedAllocation';

const usage = fc.record({
  milliCPU: fc.integer({ min: 0, max: 12 }),
  memory: fc.integer({ min: 0, max: 24 }),
  ephemeralStorage: fc.integer({ min: 0, max: 24 }),
  scalar: fc.record({ 'example.com/aaa': fc.integer({ min: 0, max: 6 }), 'hugepages-2Mi': fc.integer({ min: 0, max: 6 }) }),
}) as fc.Arbitrary<Usage>;

describe('NodeResourcesFit Filter', () => {
  it('the allocation-free answer agrees with the itemised one, and Filter reports exactly those reasons', () => {
    fc.assert(
      fc.property(fc.array(usage, { minLength: 0, maxLength: 3 }), fc.array(usage, { maxLength: 2 }), fc.array(usage, { maxLength: 3 }), fc.integer({ min: 1, max: 4 }), (cs, inits, existing, pods) => {
        const pod = newResourceInitPod(newResourcePod(...cs), ...inits);
        const ni = nodeInfoWith(makeAllocatableResources(10, 20, pods, 5, 20, 5), ...existing.map((u) => newResourcePod(u)));
        const p = new NodeResourcesFit({ scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 1 }] } }, null);
        const s = new CycleState();
        p.preFilter(s, pod);
        const status = p.filter(s, pod, ni);
        const items = p.insufficientResources(s, ni);
        expect(status === null).toBe(items.length === 0);
        if (status) expect(status.reasons).toEqual(items.map((r) => r.reason));
        // Each item is a real shortfall: requested > capacity - used (or the pod count is full).
        for (const r of items) {
          if (r.resourceName === 'pods') expect(r.used + 1).toBeGreaterThan(r.capacity);
          else expect(r.requested).toBeGreaterThan(r.capacity - r.used);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('integer arithmetic', () => {
  it('mulDivTrunc is int64 a*b/c for any safe non-negative integers', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (a, b, c) => {
        expect(mulDivTrunc(a, b, c)).toBe(Number((BigInt(a) * BigInt(b)) / BigInt(c)));
      }),
    );
  });

  it('least + most requested scores stay within [0, 100] and mirror each other below capacity', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (req, cap) => {
        const l = leastRequestedScore(req, cap);
        const m = mostRequestedScore(req, cap);
        expect(l).toBeGreaterThanOrEqual(0);
        expect(l).toBeLessThanOrEqual(100);
        expect(m).toBeGreaterThanOrEqual(0);
        expect(m).toBeLessThanOrEqual(100);
        if (req <= cap) expect(l + m === 100 || l + m === 99).toBe(true);
      }),
    );
  });
});

describe('BalancedAllocation against the formula written out', () => {
  it('(1 - std) * 100 truncated, over capped fractions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64_000 }),
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.integer({ min: 0, max: 80_000 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (cpuCap, memCap, cpuReq, memReq) => {
          const ni = nodeInfoWith({ cpu: `${cpuCap}m`, memory: `${memCap}`, pods: '110' });
          const pod = newResourcePod({ milliCPU: cpuReq, memory: memReq });
          const p = new NodeResourcesBalancedAllocation({ resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] }, null);
          const f1 = Math.min(1, cpuReq / cpuCap);
          const f2 = Math.min(1, memReq / memCap);
          expect(p.score(new CycleState(), pod, ni)).toBe(Math.trunc((1 - Math.abs((f1 - f2) / 2)) * 100));
        },
      ),
    );
  });
});

describe('podRequests', () => {
  it('regular containers: the exact sum, rounded up once', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 5 }), (micro) => {
        // cpu in micro-cores: MilliValue of the sum rounds up once.
        const pod = newResourcePod();
        pod.spec.containers = micro.map((u, i) => ({ name: `c${i}`, resources: { requests: { cpu: `${u}u` } } }));
        const total = micro.reduce((a, b) => a + b, 0);
        expect(podRequests(pod).milliCPU).toBe(Math.ceil(total / 1000));
      }),
    );
  });
});
