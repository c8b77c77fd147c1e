// The event queue against a naive model: whatever the mix of pushes and pops
// (near-future traffic, long monotone timers that go to the lane, same-instant
// ties), events come out in (time, insertion) order, and a snapshot taken
// mid-run continues identically.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventQueue } from './eventQueue';
import { cloneState } from './serial';

type Op = { t: 'push'; delay: number } | { t: 'pop' } | { t: 'clone' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('push' as const), delay: fc.constantFrom(0, 0, 0.5, 1, 1.5, 2, 7, 100) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('push' as const), delay: fc.constantFrom(8000, 8000.5) }) },
  { weight: 6, arbitrary: fc.constant({ t: 'pop' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'clone' as const }) },
);

describe('EventQueue', () => {
  it('pops in (time, insertion) order, like a sorted list', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 600 }), (ops) => {
        let q = new EventQueue<number>();
        const model: { time: number; id: number }[] = [];
        let now = 0;
        let id = 0;
        for (const op of ops) {
          if (op.t === 'push') {
            q.push(now + op.delay, id);
            model.push({ time: now + op.delay, id });
            id++;
          } else if (op.t === 'pop') {
            model.sort((a, b) => a.time - b.time || a.id - b.id);
            const want = model.shift();
            expect(q.peekTime()).toBe(want?.time);
            expect(q.popEvent()).toBe(want?.id);
            if (want) now = want.time;
          } else {
            q = cloneState(q);
          }
          expect(q.size).toBe(model.length);
        }
        model.sort((a, b) => a.time - b.time || a.id - b.id);
        expect(q.items().map((s) => s.event).sort((a, b) => a - b)).toEqual(model.map((m) => m.id).sort((a, b) => a - b));
        const rest: number[] = [];
        for (let it = q.pop(); it; it = q.pop()) rest.push(it.event);
        expect(rest).toEqual(model.map((m) => m.id));
        expect(q.peekTime()).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('keeps order across thousands of pending long timers (lane compaction)', () => {
    const q = new EventQueue<string>();
    const out: string[] = [];
    let now = 0;
    for (let i = 0; i < 20_000; i++) {
      q.push(now + 8000, `timer-${i}`);
      q.push(now + 1, `msg-${i}`);
      now += 1;
      while (q.peekTime()! <= now) out.push(q.popEvent()!);
    }
    while (q.size > 0) out.push(q.popEvent()!);
    expect(out.length).toBe(40_000);
    expect(out.slice(0, 3)).toEqual(['msg-0', 'msg-1', 'msg-2']);
    expect(out.indexOf('timer-0')).toBeLessThan(out.indexOf('timer-1'));
    expect(out.slice(-2)).toEqual(['timer-19998', 'timer-19999']);
  });
});
