// Small models for testing the linearizability checker (and for harness
// tests that want a trivially correct object): a single integer register with
// read, write and compare-and-set, a non-deterministic write, and a keyed
// variant that partitions by key (P-compositionality, as Porcupine's kv
// example does).
import { assertNever } from '../assert';
import type { Model, Operation, StepResult } from './linearizability';

export type RegisterInput =
  | { type: 'write'; value: number }
  | { type: 'read' }
  | { type: 'cas'; from: number; to: number }
  /** Writes one of `values`, which one is not known: a non-deterministic step. */
  | { type: 'writeOneOf'; values: number[] };

export type RegisterOutput = { type: 'write' } | { type: 'read'; value: number } | { type: 'cas'; ok: boolean };

/** The register's reply and next state, given its current value. */
export function applyRegister(value: number, input: RegisterInput): { value: number; output: RegisterOutput }[] {
  switch (input.type) {
    case 'write':
      return [{ value: input.value, output: { type: 'write' } }];
    case 'read':
      return [{ value, output: { type: 'read', value } }];
    case 'cas':
      return value === input.from
        ? [{ value: input.to, output: { type: 'cas', ok: true } }]
        : [{ value, output: { type: 'cas', ok: false } }];
    case 'writeOneOf':
      return input.values.map((v) => ({ value: v, output: { type: 'write' } }));
    default:
      return assertNever(input, 'register input');
  }
}

function outputsEqual(a: RegisterOutput, b: RegisterOutput): boolean {
  switch (a.type) {
    case 'write':
      return b.type === 'write';
    case 'read':
      return b.type === 'read' && a.value === b.value;
    case 'cas':
      return b.type === 'cas' && a.ok === b.ok;
    default:
      return assertNever(a, 'register output');
  }
}

function stepRegister(value: number, input: RegisterInput, output: RegisterOutput | undefined): StepResult<number>[] {
  return applyRegister(value, input).map((r) => ({
    ok: output === undefined || outputsEqual(r.output, output),
    state: r.value,
  }));
}

function describeRegister(input: RegisterInput, output: RegisterOutput | undefined): string {
  const out = output === undefined ? 'unknown' : output.type === 'read' ? String(output.value) : output.type === 'cas' ? String(output.ok) : 'ok';
  switch (input.type) {
    case 'write':
      return `write(${input.value}) -> ${out}`;
    case 'read':
      return `read() -> ${out}`;
    case 'cas':
      return `cas(${input.from}, ${input.to}) -> ${out}`;
    case 'writeOneOf':
      return `writeOneOf(${input.values.join('|')}) -> ${out}`;
    default:
      return assertNever(input, 'register input');
  }
}

export const registerModel: Model<number, RegisterInput, RegisterOutput> = {
  init: () => 0,
  step: stepRegister,
  key: (s) => String(s),
  describe: describeRegister,
  describeState: (s) => `value ${s}`,
};

export type KeyedInput = RegisterInput & { key: string };

/** Keyed registers as one object; `partitioned` adds the per-key partition. */
export function keyedRegisterModel(
  partitioned: boolean,
): Model<Readonly<Record<string, number>>, KeyedInput, RegisterOutput> {
  return {
    init: () => ({}),
    step: (state, input, output) =>
      stepRegister(state[input.key] ?? 0, input, output).map((r) => ({ ok: r.ok, state: { ...state, [input.key]: r.state } })),
    key: (state) =>
      Object.keys(state)
        .sort()
        .filter((k) => state[k] !== 0)
        .map((k) => `${k}=${state[k]}`)
        .join(','),
    partition: partitioned
      ? (ops: Operation<KeyedInput, RegisterOutput>[]) => {
          const byKey = new Map<string, Operation<KeyedInput, RegisterOutput>[]>();
          for (const op of ops) {
            const list = byKey.get(op.input.key) ?? [];
            if (list.length === 0) byKey.set(op.input.key, list);
            list.push(op);
          }
          return [...byKey.keys()].sort().map((k) => byKey.get(k) as Operation<KeyedInput, RegisterOutput>[]);
        }
      : undefined,
    describe: (input, output) => `[${input.key}] ${describeRegister(input, output)}`,
  };
}
