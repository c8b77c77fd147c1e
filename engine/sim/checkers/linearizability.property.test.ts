import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bruteForceLinearizable } from './bruteForce';
import type { EtcdRequest, EtcdResponse, EtcdState } from './etcdModel';
import { applyRequest, etcdModel, initialEtcdState } from './etcdModel';
import type { Model, Operation } from './linearizability';
import { checkOperations } from './linearizability';
import type { KeyedInput, RegisterInput, RegisterOutput } from './registerModel';
import { applyRegister, keyedRegisterModel, registerModel } from './registerModel';
import type { OpPlan } from './testHistories';
import { simulate } from './testHistories';

// Raw material for one operation; the history is built from these
// deterministically so fast-check can shrink it.
const rawOp = fc.record({
  client: fc.integer({ min: 0, max: 2 }),
  kind: fc.integer({ min: 0, max: 99 }),
  key: fc.integer({ min: 0, max: 1 }),
  arg: fc.integer({ min: 0, max: 3 }),
  call: fc.integer({ min: 0, max: 12 }),
  duration: fc.integer({ min: 0, max: 8 }),
  point: fc.double({ min: 0, max: 1, noNaN: true }),
  outcome: fc.integer({ min: 0, max: 99 }),
  finiteUnknown: fc.boolean(),
  choice: fc.integer({ min: 0, max: 1 }),
});
type RawOp = typeof rawOp extends fc.Arbitrary<infer T> ? T : never;

const corruption = fc.record({ apply: fc.integer({ min: 0, max: 2 }), which: fc.nat(), how: fc.nat() });

function plan<I>(r: RawOp, input: I): OpPlan<I> {
  const outcome = r.outcome < 12 ? 'applied' : r.outcome < 24 ? 'lost' : 'ok';
  return { clientId: r.client, input, call: r.call, duration: r.duration, point: outcome === 'applied' ? r.point * 1.5 : r.point, outcome, choice: r.choice };
}

/** Unknown ops sometimes get a finite return: the client saw an ambiguous error then. */
function finishUnknowns<I, O>(ops: Operation<I, O>[], raws: RawOp[]): Operation<I, O>[] {
  return ops.map((op, i) => {
    const r = raws[i] as RawOp;
    if (op.output !== undefined || !r.finiteUnknown) return op;
    // Only when the op (if applied) took effect before that error.
    if (r.outcome < 12 && r.point * 1.5 > 1) return op;
    return { ...op, return: op.call + r.duration };
  });
}

function registerInput(r: RawOp): RegisterInput {
  if (r.kind < 35) return { type: 'read' };
  if (r.kind < 70) return { type: 'write', value: r.arg + 1 };
  if (r.kind < 90) return { type: 'cas', from: r.arg % 3, to: r.arg + 1 };
  return { type: 'writeOneOf', values: [r.arg + 1, r.arg + 5] };
}

function corruptRegister(ops: Operation<RegisterInput, RegisterOutput>[], c: { apply: number; which: number; how: number }): Operation<RegisterInput, RegisterOutput>[] {
  if (c.apply === 0 || ops.length === 0) return ops;
  const i = c.which % ops.length;
  const op = ops[i] as Operation<RegisterInput, RegisterOutput>;
  if (op.output === undefined) return ops;
  let output: RegisterOutput = op.output;
  if (op.output.type === 'read') output = { type: 'read', value: (op.output.value + 1 + (c.how % 4)) % 6 };
  else if (op.output.type === 'cas') output = { type: 'cas', ok: !op.output.ok };
  const copy = ops.slice();
  copy[i] = { ...op, output };
  return copy;
}

function agree<S, I, O>(model: Model<S, I, O>, history: Operation<I, O>[]): void {
  const fast = checkOperations(model, history);
  const slow = bruteForceLinearizable(model, history);
  expect(fast.ok, JSON.stringify(history)).toBe(slow);
}

const registerApply = (s: number, input: RegisterInput, choice: number): { state: number; output: RegisterOutput } => {
  const outs = applyRegister(s, input);
  const r = outs[choice % outs.length] as { value: number; output: RegisterOutput };
  return { state: r.value, output: r.output };
};

describe('checkOperations agrees with brute force', () => {
  it('register model', () => {
    let illegal = 0;
    fc.assert(
      fc.property(fc.array(rawOp, { minLength: 1, maxLength: 7 }), corruption, (raws, c) => {
        const ops = simulate(0, registerApply, raws.map((r) => plan(r, registerInput(r))));
        const history = corruptRegister(finishUnknowns(ops, raws), c);
        const fast = checkOperations(registerModel, history);
        if (fast.ok === false) illegal++;
        expect(fast.ok).toBe(bruteForceLinearizable(registerModel, history));
      }),
      { numRuns: 400, seed: 42 },
    );
    // The generator must exercise both verdicts.
    expect(illegal).toBeGreaterThan(40);
  });

  it('keyed register model, partitioned by key', () => {
    fc.assert(
      fc.property(fc.array(rawOp, { minLength: 1, maxLength: 7 }), corruption, (raws, c) => {
        const apply = (s: Readonly<Record<string, number>>, input: KeyedInput, choice: number) => {
          const r = registerApply(s[input.key] ?? 0, input, choice);
          return { state: { ...s, [input.key]: r.state }, output: r.output };
        };
        const ops = simulate<Readonly<Record<string, number>>, KeyedInput, RegisterOutput>(
          {},
          apply,
          raws.map((r) => plan(r, { ...registerInput(r), key: `k${r.key}` })),
        );
        const history = corruptRegister(finishUnknowns(ops, raws) as never, c) as unknown as Operation<KeyedInput, RegisterOutput>[];
        const partitioned = checkOperations(keyedRegisterModel(true), history);
        expect(partitioned.ok).toBe(bruteForceLinearizable(keyedRegisterModel(false), history));
        expect(partitioned.ok).toBe(checkOperations(keyedRegisterModel(false), history).ok);
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('etcd model', () => {
    let illegal = 0;
    fc.assert(
      fc.property(fc.array(rawOp, { minLength: 1, maxLength: 7 }), corruption, (raws, c) => {
        const inputs = raws.map((r, i): EtcdRequest => {
          const key = `k${r.key}`;
          if (r.kind < 30) return { type: 'get', key };
          if (r.kind < 55) return { type: 'put', key, value: `v${i}` };
          if (r.kind < 63) return { type: 'delete', key };
          if (r.kind < 83) {
            return {
              type: 'txn',
              compare: { key, target: r.choice ? 'VERSION' : 'MOD', result: 'EQUAL', value: r.arg },
              onSuccess: { type: 'put', key, value: `v${i}` },
              onFailure: { type: 'get', key },
            };
          }
          if (r.kind < 88) return { type: 'leaseGrant', id: 1 + (r.arg % 2), ttl: 30 };
          if (r.kind < 95) return { type: 'put', key, value: `v${i}`, leaseId: 1 + (r.arg % 2) };
          return { type: 'leaseRevoke', id: 1 + (r.arg % 2) };
        });
        const ops = simulate<EtcdState, EtcdRequest, EtcdResponse>(
          initialEtcdState(),
          (s, input) => {
            const a = applyRequest(s, input);
            return { state: a.state, output: a.response };
          },
          raws.map((r, i) => plan(r, inputs[i] as EtcdRequest)),
        );
        const history = corruptEtcd(finishUnknowns(ops, raws), c);
        const fast = checkOperations(etcdModel, history);
        if (fast.ok === false) illegal++;
        expect(fast.ok).toBe(bruteForceLinearizable(etcdModel, history));
      }),
      { numRuns: 400, seed: 1234 },
    );
    expect(illegal).toBeGreaterThan(40);
  });
});

function corruptEtcd(ops: Operation<EtcdRequest, EtcdResponse>[], c: { apply: number; which: number; how: number }): Operation<EtcdRequest, EtcdResponse>[] {
  if (c.apply === 0 || ops.length === 0) return ops;
  const i = c.which % ops.length;
  const op = ops[i] as Operation<EtcdRequest, EtcdResponse>;
  const out = op.output;
  if (out === undefined || out.type === 'error') return ops;
  let output: EtcdResponse;
  const how = c.how % 3;
  if (how === 0) output = { ...out, header: { revision: out.header.revision + (c.how % 2 ? 1 : -1) } };
  else if (out.type === 'get') output = out.kv ? { type: 'get', header: out.header } : { ...out, kv: { key: (op.input as { key: string }).key, value: 'ghost', createRevision: 1, modRevision: 1, version: 1 } };
  else if (out.type === 'txn') output = { ...out, succeeded: !out.succeeded, responses: [] };
  else output = { type: 'error', error: 'etcdserver: requested lease not found' };
  const copy = ops.slice();
  copy[i] = { ...op, output };
  return copy;
}

// Keep `agree` referenced for ad-hoc debugging of a shrunk counterexample.
void agree;
