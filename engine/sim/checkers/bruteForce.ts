// Reference checker for tests: tries every order of the operations that
// respects real time (a before b when a returns strictly before b is called),
// with no memoisation, no linked list and no known/unknown ordering. Unknown
// outcomes fork the set of possible states (took effect here / did not), as
// etcd's non-deterministic model does. Exponential: for histories of a
// handful of operations only.
import type { Model, Operation } from './linearizability';

export function bruteForceLinearizable<S, I, O>(model: Model<S, I, O>, history: readonly Operation<I, O>[]): boolean {
  const n = history.length;
  const placed = new Uint8Array(n);
  const ready = (i: number): boolean => {
    const op = history[i] as Operation<I, O>;
    for (let j = 0; j < n; j++) {
      if (j !== i && !placed[j] && (history[j] as Operation<I, O>).return < op.call) return false;
    }
    return true;
  };
  const search = (states: S[], count: number): boolean => {
    if (states.length === 0) return false;
    if (count === n) return true;
    for (let i = 0; i < n; i++) {
      if (placed[i] || !ready(i)) continue;
      const op = history[i] as Operation<I, O>;
      const next = new Map<string, S>();
      for (const s of states) {
        if (op.output === undefined) next.set(model.key(s), s);
        for (const r of model.step(s, op.input, op.output)) if (r.ok) next.set(model.key(r.state), r.state);
      }
      placed[i] = 1;
      const ok = search([...next.values()], count + 1);
      placed[i] = 0;
      if (ok) return true;
    }
    return false;
  };
  return search([model.init()], 0);
}
