// Progress and inflights (upstream tracker/progress_test.go, inflights_test.go)
// and quorum arithmetic checked against naive versions (quorum/quick_test.go).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { committedIndex, voteResult } from '../quorum/majority';
import { Inflights } from './inflights';
import { Progress } from './progress';

describe('Progress', () => {
  it('maybeDecrTo (TestProgressMaybeDecr)', () => {
    const cases = [
      // state replicate and rejected is not greater than match
      { state: 'StateReplicate' as const, m: 5, n: 10, rejected: 5, last: 5, w: false, wn: 10 },
      // state replicate and rejected is not greater than match
      { state: 'StateReplicate' as const, m: 5, n: 10, rejected: 4, last: 4, w: false, wn: 10 },
      // state replicate and rejected is greater than match: directly decrease to match+1
      { state: 'StateReplicate' as const, m: 5, n: 10, rejected: 9, last: 9, w: true, wn: 6 },
      // next-1 != rejected is always false
      { state: 'StateProbe' as const, m: 0, n: 0, rejected: 0, last: 0, w: false, wn: 0 },
      // next-1 != rejected is always false
      { state: 'StateProbe' as const, m: 0, n: 10, rejected: 5, last: 5, w: false, wn: 10 },
      // next>1 = decremented by 1
      { state: 'StateProbe' as const, m: 0, n: 10, rejected: 9, last: 9, w: true, wn: 9 },
      // next>1 = decremented by 1
      { state: 'StateProbe' as const, m: 0, n: 2, rejected: 1, last: 1, w: true, wn: 1 },
      // next<=1 = reset to 1
      { state: 'StateProbe' as const, m: 0, n: 1, rejected: 0, last: 0, w: true, wn: 1 },
      // decrease to min(rejected, last+1)
      { state: 'StateProbe' as const, m: 0, n: 10, rejected: 9, last: 2, w: true, wn: 3 },
      // rejected < 1, reset to 1
      { state: 'StateProbe' as const, m: 0, n: 10, rejected: 9, last: 0, w: true, wn: 1 },
    ];
    for (const tt of cases) {
      const p = new Progress(tt.n, tt.m, 256, false, false);
      p.state = tt.state;
      expect(p.maybeDecrTo(tt.rejected, tt.last), JSON.stringify(tt)).toBe(tt.w);
      expect(p.match).toBe(tt.m);
      expect(p.next, JSON.stringify(tt)).toBe(tt.wn);
    }
  });

  it('maybeUpdate, becomeProbe (from snapshot), isPaused', () => {
    const p = new Progress(6, 3, 2, false, false);
    expect(p.maybeUpdate(2)).toBe(false); // stale
    expect([p.match, p.next]).toEqual([3, 6]);
    p.probeSent = true;
    expect(p.isPaused()).toBe(true);
    expect(p.maybeUpdate(4)).toBe(true);
    expect([p.match, p.next, p.probeSent, p.isPaused()]).toEqual([4, 6, false, false]);
    expect(p.maybeUpdate(7)).toBe(true);
    expect(p.next).toBe(8);
    p.becomeSnapshot(20);
    expect([p.state, p.pendingSnapshot, p.isPaused()]).toEqual(['StateSnapshot', 20, true]);
    p.becomeProbe();
    expect([p.state, p.next, p.pendingSnapshot]).toEqual(['StateProbe', 21, 0]);
    p.becomeReplicate();
    expect([p.state, p.next]).toEqual(['StateReplicate', 8]);
    p.inflights.add(9);
    p.inflights.add(10);
    expect(p.isPaused()).toBe(true);
  });
});

describe('Inflights', () => {
  it('add, freeLE and wrap-around (TestInflightsAdd/FreeTo)', () => {
    const ins = new Inflights(10);
    for (let i = 0; i < 5; i++) ins.add(i);
    expect([ins.start, ins.count, ins.buffer.slice(0, 5)]).toEqual([0, 5, [0, 1, 2, 3, 4]]);
    for (let i = 5; i < 10; i++) ins.add(i);
    expect([ins.start, ins.count, ins.full()]).toEqual([0, 10, true]);
    expect(() => ins.add(10)).toThrow(/Full/);
    ins.freeLE(4);
    expect([ins.start, ins.count]).toEqual([5, 5]);
    ins.freeLE(8);
    expect([ins.start, ins.count]).toEqual([9, 1]);
    for (let i = 10; i < 15; i++) ins.add(i);
    ins.freeLE(12);
    expect([ins.start, ins.count]).toEqual([3, 2]);
    ins.freeLE(14);
    expect([ins.start, ins.count]).toEqual([0, 0]);
    ins.add(20);
    ins.freeFirstOne();
    expect(ins.count).toBe(0);
  });

  it('behaves like a naive FIFO on random operations', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.oneof(fc.constant({ op: 'add' as const }), fc.record({ op: fc.constant('free' as const), k: fc.nat(6) })), {
          maxLength: 60,
        }),
        (size, ops) => {
          const ins = new Inflights(size);
          const model: number[] = [];
          let next = 1;
          for (const o of ops) {
            if (o.op === 'add') {
              if (model.length === size) {
                expect(ins.full()).toBe(true);
                continue;
              }
              ins.add(next);
              model.push(next++);
            } else {
              const to = next - 1 - o.k;
              ins.freeLE(to);
              while (model.length > 0 && model[0]! <= to) model.shift();
            }
            expect(ins.count).toBe(model.length);
            expect(ins.full()).toBe(model.length === size);
            const got: number[] = [];
            for (let i = 0; i < ins.count; i++) got.push(ins.buffer[(ins.start + i) % ins.size]!);
            expect(got).toEqual(model);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('quorum (majority)', () => {
  it('committedIndex equals the naive definition on random inputs', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.nat(20), { nil: undefined }), { minLength: 1, maxLength: 7 }), (acked) => {
        const voters = acked.map((_, i) => i + 1);
        const progress = new Map<number, { match: number }>();
        acked.forEach((a, i) => {
          if (a !== undefined) progress.set(i + 1, { match: a });
        });
        const got = committedIndex(voters, progress);
        // naive: the largest index that a majority of voters has acked
        const q = Math.floor(voters.length / 2) + 1;
        let want = 0;
        for (let idx = 0; idx <= 20; idx++) {
          const n = acked.filter((a) => (a ?? 0) >= idx).length;
          if (n >= q) want = idx;
        }
        expect(got).toBe(want);
      }),
      { numRuns: 2000 },
    );
    expect(committedIndex([], new Map())).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('voteResult equals the naive definition on random inputs', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.boolean(), { nil: undefined }), { minLength: 1, maxLength: 7 }), (vs) => {
        const voters = vs.map((_, i) => i + 1);
        const votes = new Map<number, boolean>();
        vs.forEach((v, i) => {
          if (v !== undefined) votes.set(i + 1, v);
        });
        const q = Math.floor(voters.length / 2) + 1;
        const yes = vs.filter((v) => v === true).length;
        const missing = vs.filter((v) => v === undefined).length;
        const want = yes >= q ? 'VoteWon' : yes + missing >= q ? 'VotePending' : 'VoteLost';
        expect(voteResult(voters, votes)).toBe(want);
      }),
      { numRuns: 2000 },
    );
    expect(voteResult([], new Map())).toBe('VoteWon');
  });
});
