import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { WorkQueue } from './queue';

type Op = { type: 'add'; key: string } | { type: 'get' } | { type: 'done'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ type: fc.constant('add' as const), key: fc.constantFrom('a', 'b', 'c', 'd') }),
  fc.record({ type: fc.constant('get' as const) }),
  fc.record({ type: fc.constant('done' as const), pick: fc.nat() }),
);

describe('WorkQueue properties', () => {
  it('matches a naive model: fair, stingy, never two workers on one key', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const q = new WorkQueue();
        // Naive model: an ordered list of waiting keys, a set being processed, keys to redo after done.
        const waiting: string[] = [];
        const inWork = new Set<string>();
        const redo = new Set<string>();
        let t = 0;
        for (const o of ops) {
          t++;
          if (o.type === 'add') {
            q.add(o.key, t);
            if (inWork.has(o.key)) redo.add(o.key);
            else if (!waiting.includes(o.key)) waiting.push(o.key);
          } else if (o.type === 'get') {
            const got = q.get(t);
            const want = waiting.shift() ?? null;
            expect(got).toBe(want);
            if (want) inWork.add(want);
          } else {
            const busy = [...inWork];
            if (!busy.length) continue;
            const k = busy[o.pick % busy.length]!;
            q.done(k, t);
            inWork.delete(k);
            if (redo.delete(k)) waiting.push(k);
          }
          expect(q.pending()).toEqual(waiting);
          expect([...q.processing].sort()).toEqual([...inWork].sort());
          expect(q.metrics.depth).toBe(waiting.length + redo.size);
        }
      }),
      { numRuns: 300 },
    );
  });
});
