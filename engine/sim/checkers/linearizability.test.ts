import { describe, expect, it } from 'vitest';
import type { Model, Operation } from './linearizability';
import { checkOperations } from './linearizability';
import type { KeyedInput, RegisterInput, RegisterOutput } from './registerModel';
import { keyedRegisterModel, registerModel } from './registerModel';

type Op = Operation<RegisterInput, RegisterOutput>;
const W = (clientId: number, call: number, ret: number, value: number): Op => ({
  clientId,
  call,
  return: ret,
  input: { type: 'write', value },
  output: { type: 'write' },
});
const R = (clientId: number, call: number, ret: number, value: number): Op => ({
  clientId,
  call,
  return: ret,
  input: { type: 'read' },
  output: { type: 'read', value },
});
const CAS = (clientId: number, call: number, ret: number, from: number, to: number, ok: boolean): Op => ({
  clientId,
  call,
  return: ret,
  input: { type: 'cas', from, to },
  output: { type: 'cas', ok },
});
/** A write whose client timed out: no reply, return unknown. */
const Wlost = (clientId: number, call: number, value: number, ret = Infinity): Op => ({
  clientId,
  call,
  return: ret,
  input: { type: 'write', value },
  output: undefined,
});

const check = (h: Op[]) => checkOperations(registerModel, h);

describe('checkOperations on a register', () => {
  it('accepts the empty history and a sequential one', () => {
    expect(check([]).ok).toBe(true);
    expect(check([W(0, 0, 1, 1), R(0, 2, 3, 1), W(0, 4, 5, 2), R(0, 6, 7, 2)]).ok).toBe(true);
  });

  it('rejects a stale read', () => {
    const r = check([W(0, 0, 10, 1), W(0, 20, 30, 2), R(1, 40, 50, 1)]);
    expect(r.ok).toBe(false);
    if (r.ok !== false) return;
    expect(r.partition).toBe(0);
    expect(r.longestPrefix.map((o) => o.input.type)).toEqual(['write', 'write']);
    expect(r.explanation).toContain('read() -> 1');
    expect(r.explanation).toContain('value 2');
    expect(r.explanation).toContain('contradicts this state');
  });

  it('rejects a lost write', () => {
    expect(check([W(0, 0, 10, 1), R(1, 20, 30, 0)]).ok).toBe(false);
  });

  it('accepts concurrent writes seen in either order, but not both orders', () => {
    const writes = [W(0, 0, 10, 1), W(1, 0, 10, 2)];
    expect(check([...writes, R(2, 20, 30, 1)]).ok).toBe(true);
    expect(check([...writes, R(2, 20, 30, 2)]).ok).toBe(true);
    expect(check([...writes, R(2, 20, 30, 1), R(2, 40, 50, 2)]).ok).toBe(false);
    // A read concurrent with both writes may see the old value, then the winner.
    expect(check([...writes, R(2, 5, 6, 0), R(2, 20, 30, 2)]).ok).toBe(true);
  });

  it('treats touching intervals as concurrent', () => {
    // The read returns at 10, exactly when the write is called.
    expect(check([R(0, 0, 10, 1), W(1, 10, 20, 1)]).ok).toBe(true);
    expect(check([R(0, 0, 9, 1), W(1, 10, 20, 1)]).ok).toBe(false);
  });

  it('lets a timed-out write take effect at any later point, or never', () => {
    expect(check([Wlost(0, 0, 1), R(1, 20, 30, 1)]).ok).toBe(true); // took effect early
    expect(check([Wlost(0, 0, 1), R(1, 20, 30, 0)]).ok).toBe(true); // never (so far)
    expect(check([Wlost(0, 0, 1), R(1, 20, 30, 0), R(1, 40, 50, 1)]).ok).toBe(true); // late
    expect(check([Wlost(0, 0, 1), R(1, 20, 30, 1), R(1, 40, 50, 0)]).ok).toBe(false); // once seen, stays
    expect(check([Wlost(0, 100, 1), R(1, 20, 30, 1)]).ok).toBe(false); // not before its call
  });

  it('bounds an unknown outcome by its return time when the client saw one', () => {
    // An ambiguous error at t=10: the write happened before 10 or never.
    expect(check([Wlost(0, 0, 1, 10), R(1, 20, 30, 1)]).ok).toBe(true);
    expect(check([Wlost(0, 0, 1, 10), R(1, 20, 30, 0)]).ok).toBe(true);
    expect(check([Wlost(0, 0, 1, 10), R(1, 20, 30, 0), R(1, 40, 50, 1)]).ok).toBe(false);
  });

  it('handles several timed-out writes, only some of which happened', () => {
    const h = [Wlost(0, 0, 1), Wlost(1, 5, 2), Wlost(2, 8, 3), R(3, 20, 30, 2), W(3, 31, 32, 4), R(3, 40, 50, 3)];
    expect(check(h).ok).toBe(true);
    expect(check([...h, R(3, 60, 70, 2)]).ok).toBe(false);
  });

  it('finds the compare-and-set race', () => {
    // Two concurrent CAS(0 -> x): exactly one may win.
    expect(check([CAS(0, 0, 10, 0, 1, true), CAS(1, 0, 10, 0, 2, false), R(2, 20, 30, 1)]).ok).toBe(true);
    expect(check([CAS(0, 0, 10, 0, 1, true), CAS(1, 0, 10, 0, 2, true)]).ok).toBe(false);
    expect(check([CAS(0, 0, 10, 0, 1, true), CAS(1, 0, 10, 0, 2, false), R(2, 20, 30, 2)]).ok).toBe(false);
    // The loser may also have run first and failed for another reason: never when it saw 0.
    expect(check([CAS(1, 0, 1, 0, 2, false)]).ok).toBe(false);
  });

  it('explores every outcome of a non-deterministic step', () => {
    const h: Op[] = [
      { clientId: 0, call: 0, return: 10, input: { type: 'writeOneOf', values: [1, 2] }, output: { type: 'write' } },
      R(1, 20, 30, 2),
    ];
    expect(check(h).ok).toBe(true);
    expect(check([...h.slice(0, 1), R(1, 20, 30, 3)]).ok).toBe(false);
  });

  it('checks partitions independently and names the failing one', () => {
    const K = (key: string, op: Op): Operation<KeyedInput, RegisterOutput> => ({ ...op, input: { ...op.input, key } });
    const h = [K('a', W(0, 0, 10, 1)), K('b', W(1, 0, 10, 5)), K('a', R(2, 20, 30, 1)), K('b', R(2, 20, 30, 4))];
    const r = checkOperations(keyedRegisterModel(true), h);
    expect(r.ok).toBe(false);
    if (r.ok === false) {
      expect(r.partition).toBe(1);
      expect(r.explanation).toContain('[b] read() -> 4');
      expect(r.explanation).toContain('#3'); // numbered by position in the whole history
    }
    expect(checkOperations(keyedRegisterModel(true), h.slice(0, 3)).ok).toBe(true);
  });

  it('returns unknown when the step budget runs out', () => {
    // Many concurrent writes and a read of a value nobody wrote: exhaustive search.
    const h: Op[] = [];
    for (let i = 0; i < 10; i++) h.push(W(i, 0, 100, i + 1));
    h.push(R(20, 200, 210, 99));
    const r = checkOperations(registerModel, h, { maxSteps: 500 });
    expect(r).toEqual({ ok: 'unknown', reason: 'timeout', steps: 500 });
    const full = checkOperations(registerModel, h);
    expect(full.ok).toBe(false);
    expect(full.steps).toBeGreaterThan(500);
  });

  it('rejects malformed operations loudly', () => {
    expect(() => check([W(0, 10, 5, 1)])).toThrow(/returns/);
  });

  it('uses the model key, not object identity, for memoisation', () => {
    let steps = 0;
    const counting: Model<number, RegisterInput, RegisterOutput> = {
      ...registerModel,
      step: (s, i, o) => {
        steps++;
        return registerModel.step(s, i, o);
      },
    };
    const h: Op[] = [];
    for (let i = 0; i < 12; i++) h.push(R(i, 0, 10, 0));
    h.push(R(99, 20, 30, 1));
    expect(checkOperations(counting, h).ok).toBe(false);
    // 2^12 subsets of reads at most, each tried against the 13 candidates.
    expect(steps).toBeLessThan(4096 * 13);
  });
});
