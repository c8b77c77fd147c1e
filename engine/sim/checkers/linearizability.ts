// Linearizability checking: Wing & Gong's search with Lowe's memoisation of
// (linearized set, model state), in the shape of Porcupine
// (anishathalye/porcupine checker.go). Calls and returns sit in one doubly
// linked list sorted by time; linearizing an operation unlinks its call and
// return ("lift"), backtracking relinks them (dancing links). An operation
// may be linearized next only if its call precedes the first return still in
// the list.
//
// Additions to the classic algorithm:
// - Unknown outcome (output undefined, e.g. a client timeout): the operation
//   may take effect anywhere after its call and before its return (often
//   Infinity), or never. "Never" needs no search step for Infinity returns:
//   the check succeeds once every known operation is linearized. A finite
//   return of an unknown op is dropped when it becomes the first return.
// - Known operations are tried before unknown ones at each node, so a write
//   that timed out and never happened is not dragged through every branch of
//   a history that is linearizable without it; unknown ones are tried most
//   recently called first. An unknown operation that would leave the state
//   unchanged is not linearized (staying pending dominates it).
// - Even so, each unresolved unknown write can multiply the search; resolve
//   what you can from ground truth first (etcdModel.ts patchEtcdHistory).
// - Non-deterministic models: `step` returns every possible next state; each
//   is a branch.
// - A budget of search steps (not wall clock) bounds the work; running out
//   gives 'unknown'.

export interface Operation<I, O> {
  clientId: number;
  input: I;
  call: number;
  /** undefined = outcome unknown. */
  output: O | undefined;
  /** Infinity if the client never saw a reply. */
  return: number;
}

export interface StepResult<S> {
  ok: boolean;
  state: S;
}

export interface Model<S, I, O> {
  init(): S;
  /** Every possible outcome of applying `input` with observed `output` (undefined = unknown). */
  step(state: S, input: I, output: O | undefined): StepResult<S>[];
  /** Memoisation key: equal keys must mean interchangeable states. */
  key(state: S): string;
  /** P-compositionality: independent sub-histories, each checked alone. */
  partition?(ops: Operation<I, O>[]): Operation<I, O>[][];
  describe?(input: I, output: O | undefined): string;
  describeState?(state: S): string;
}

export type CheckResult = (
  | { ok: true }
  | { ok: false; partition: number; longestPrefix: Operation<any, any>[]; explanation: string }
  | { ok: 'unknown'; reason: 'timeout' }
) & { /** Search steps spent, for budgeting and regressions. */ steps: number };

export interface CheckOptions {
  /** Total search steps over all partitions before giving up with 'unknown'. */
  maxSteps?: number;
}

export const DEFAULT_MAX_STEPS = 1_000_000;

const HEAD = 0;
const NONE = -1;

export function checkOperations<S, I, O>(
  model: Model<S, I, O>,
  history: Operation<I, O>[],
  opts: CheckOptions = {},
): CheckResult {
  const maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
  const budget = { left: maxSteps };
  const partitions = model.partition ? model.partition(history) : [history];
  let timedOut = false;
  for (let p = 0; p < partitions.length && !timedOut; p++) {
    const ops = partitions[p] as Operation<I, O>[];
    const result = checkPartition(model, ops, budget);
    switch (result.type) {
      case 'ok':
        break;
      case 'timeout':
        // The budget is shared, so later partitions could not be checked either.
        timedOut = true;
        break;
      case 'illegal':
        return {
          ok: false,
          partition: p,
          longestPrefix: result.dead.prefix.map((i) => ops[i] as Operation<I, O>),
          explanation: explain(model, history, ops, p, result.dead),
          steps: maxSteps - budget.left,
        };
    }
  }
  const steps = maxSteps - budget.left;
  return timedOut ? { ok: 'unknown', reason: 'timeout', steps } : { ok: true, steps };
}

/** The deepest dead end seen: what the explanation is built from. */
interface DeadEnd<S> {
  /** Linearized operations (indices into the partition) in order. */
  prefix: number[];
  state: S;
  /** The operation whose return blocked every continuation. */
  blocker: number;
  /** Operations that could have been linearized next. */
  candidates: number[];
}

interface Frame<S> {
  /** Call entry of the operation. */
  call: number;
  prevState: S;
  /** Possible next states, or null when the (unknown) operation was dropped. */
  alts: S[] | null;
  altIndex: number;
  /** First return entry of the node this frame left (where its phase-1 scan started). */
  stop: number;
}

type PartitionResult<S> = { type: 'ok' } | { type: 'timeout' } | { type: 'illegal'; dead: DeadEnd<S> };

function checkPartition<S, I, O>(
  model: Model<S, I, O>,
  ops: Operation<I, O>[],
  budget: { left: number },
): PartitionResult<S> {
  const n = ops.length;
  let knownLeft = 0;
  const unknown = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const op = ops[i] as Operation<I, O>;
    if (!(op.return >= op.call)) throw new Error(`linearizability: operation ${i} returns (${op.return}) before its call (${op.call})`);
    if (op.output === undefined) unknown[i] = 1;
    else knownLeft++;
  }
  if (knownLeft === 0) return { type: 'ok' };
  const hasUnknown = knownLeft < n;

  // Entries 1..2n (0 is the head sentinel): sorted by time, calls before
  // returns at equal times so touching intervals count as concurrent.
  const order: number[] = [];
  for (let i = 0; i < n; i++) order.push(2 * i, 2 * i + 1);
  const timeOf = (e: number): number => {
    const op = ops[e >> 1] as Operation<I, O>;
    return (e & 1) === 0 ? op.call : op.return;
  };
  order.sort((a, b) => {
    const ta = timeOf(a);
    const tb = timeOf(b);
    if (ta !== tb) return ta < tb ? -1 : 1;
    const ka = a & 1;
    const kb = b & 1;
    if (ka !== kb) return ka - kb;
    return a - b;
  });
  const size = 2 * n + 1;
  const entOp = new Int32Array(size);
  const isCall = new Uint8Array(size);
  const match = new Int32Array(size); // call entry -> its return entry
  const callOf = new Int32Array(n);
  const next = new Int32Array(size);
  const prev = new Int32Array(size);
  const entryOf = new Int32Array(2 * n);
  for (let pos = 0; pos < order.length; pos++) entryOf[order[pos] as number] = pos + 1;
  for (let pos = 0; pos < order.length; pos++) {
    const code = order[pos] as number;
    const e = pos + 1;
    const op = code >> 1;
    entOp[e] = op;
    if ((code & 1) === 0) {
      isCall[e] = 1;
      match[e] = entryOf[code + 1] as number;
      callOf[op] = e;
    }
  }
  for (let e = 0; e < size; e++) {
    next[e] = e + 1 < size ? e + 1 : NONE;
    prev[e] = e - 1;
  }

  const lift = (c: number): void => {
    const r = match[c] as number;
    next[prev[c] as number] = next[c] as number;
    if (next[c] !== NONE) prev[next[c] as number] = prev[c] as number;
    next[prev[r] as number] = next[r] as number;
    if (next[r] !== NONE) prev[next[r] as number] = prev[r] as number;
  };
  const unlift = (c: number): void => {
    const r = match[c] as number;
    next[prev[r] as number] = r;
    if (next[r] !== NONE) prev[next[r] as number] = r;
    next[prev[c] as number] = c;
    if (next[c] !== NONE) prev[next[c] as number] = c;
  };

  // The linearized (or dropped) set as 16-bit words, turned into a string
  // prefix of the memo key: exact, and cheap for histories of hundreds of ops.
  const bits = new Uint16Array(Math.max(1, Math.ceil(n / 16)));
  const setBit = (i: number): void => {
    bits[i >> 4] = (bits[i >> 4] as number) | (1 << (i & 15));
  };
  const clearBit = (i: number): void => {
    bits[i >> 4] = (bits[i >> 4] as number) & ~(1 << (i & 15));
  };
  const bitsKey = (): string => String.fromCharCode.apply(null, bits as unknown as number[]);
  const memo = new Set<string>();
  /** Index of the first alternative from `from` not seen with the current set, recording it. */
  const firstFresh = (alts: S[], from: number): number => {
    if (from >= alts.length) return -1;
    const prefix = bitsKey();
    for (let i = from; i < alts.length; i++) {
      const k = prefix + model.key(alts[i] as S);
      if (!memo.has(k)) {
        memo.add(k);
        return i;
      }
    }
    return -1;
  };

  const stack: Frame<S>[] = [];
  let state = model.init();
  // Phase 0 walks forward from the head trying known operations. When it
  // meets the first return entry (`stop`), phase 1 walks backward from there
  // trying unknown operations, most recently called first: a write that timed
  // out long ago and was never needed is likely one that never happened.
  let phase = 0;
  let cursor = next[HEAD] as number;
  let stop = NONE;
  let dead: DeadEnd<S> | null = null;
  let deadDepth = -1;

  const recordDeadEnd = (blockerEntry: number): void => {
    if (stack.length <= deadDepth) return;
    deadDepth = stack.length;
    const prefix: number[] = [];
    for (const f of stack) if (f.alts !== null) prefix.push(entOp[f.call] as number);
    const candidates: number[] = [];
    for (let e = next[HEAD] as number; e !== NONE && e !== blockerEntry; e = next[e] as number) {
      if (isCall[e]) candidates.push(entOp[e] as number);
    }
    dead = { prefix, state, blocker: entOp[blockerEntry] as number, candidates };
  };

  /** Takes alternative `idx` of the frame's operation and restarts the scan from the head. */
  const descend = (frame: Frame<S>, idx: number): void => {
    const opIndex = entOp[frame.call] as number;
    frame.altIndex = idx;
    stack.push(frame);
    lift(frame.call);
    state = (frame.alts as S[])[idx] as S;
    if (!unknown[opIndex]) knownLeft--;
    phase = 0;
    cursor = next[HEAD] as number;
  };

  for (;;) {
    if (knownLeft === 0) return { type: 'ok' };
    if (budget.left <= 0) return { type: 'timeout' };
    budget.left--;

    if (phase === 0 && cursor !== NONE && !isCall[cursor]) {
      // Every known candidate failed here.
      if (hasUnknown) {
        phase = 1;
        stop = cursor;
        cursor = prev[cursor] as number;
        continue;
      }
      stop = cursor;
      cursor = HEAD; // dead end, below
    }
    if (phase === 0 && cursor === NONE) throw new Error('linearizability: list ended with known operations left');

    if (cursor !== HEAD) {
      const opIndex = entOp[cursor] as number;
      const wanted = isCall[cursor] === 1 && (unknown[opIndex] === 1) === (phase === 1);
      const here = cursor;
      cursor = (phase === 0 ? next[cursor] : prev[cursor]) as number;
      if (!wanted) continue;
      const op = ops[opIndex] as Operation<I, O>;
      const results = model.step(state, op.input, op.output);
      const alts: S[] = [];
      if (unknown[opIndex]) {
        // Taking effect without changing the state is no better than staying
        // pending (which keeps "later" and "never" open), so skip such branches.
        const stateKey = model.key(state);
        for (const r of results) if (r.ok && model.key(r.state) !== stateKey) alts.push(r.state);
      } else {
        for (const r of results) if (r.ok) alts.push(r.state);
      }
      setBit(opIndex);
      const idx = firstFresh(alts, 0);
      if (idx < 0) {
        clearBit(opIndex);
        continue;
      }
      descend({ call: here, prevState: state, alts, altIndex: idx, stop }, idx);
      continue;
    }

    // Dead end: no candidate before the first return entry `stop` can go next.
    recordDeadEnd(stop);
    // An unknown operation whose return blocks may instead never have happened.
    const blocker = entOp[stop] as number;
    if (unknown[blocker]) {
      setBit(blocker);
      if (firstFresh([state], 0) === 0) {
        const c = callOf[blocker] as number;
        stack.push({ call: c, prevState: state, alts: null, altIndex: 0, stop });
        lift(c);
        phase = 0;
        cursor = next[HEAD] as number;
        continue;
      }
      clearBit(blocker);
    }

    // Backtrack to the most recent choice that has an untried alternative.
    for (;;) {
      const frame = stack.pop();
      if (!frame) return { type: 'illegal', dead: dead as unknown as DeadEnd<S> };
      const opIndex = entOp[frame.call] as number;
      unlift(frame.call);
      state = frame.prevState;
      if (frame.alts === null) {
        // A drop is the last option at its node, so that node is exhausted too.
        clearBit(opIndex);
        continue;
      }
      if (!unknown[opIndex]) knownLeft++;
      const idx = firstFresh(frame.alts, frame.altIndex + 1);
      if (idx >= 0) {
        descend(frame, idx);
        break;
      }
      clearBit(opIndex);
      // Resume the scan of the parent node just past this operation.
      if (unknown[opIndex]) {
        phase = 1;
        stop = frame.stop;
        cursor = prev[frame.call] as number;
      } else {
        phase = 0;
        cursor = next[frame.call] as number;
      }
      break;
    }
  }
}

function explain<S, I, O>(
  model: Model<S, I, O>,
  history: Operation<I, O>[],
  ops: Operation<I, O>[],
  partition: number,
  dead: DeadEnd<S>,
): string {
  const historyIndex = new Map<Operation<I, O>, number>();
  history.forEach((op, i) => historyIndex.set(op, i));
  const fmt = (i: number): string => {
    const op = ops[i] as Operation<I, O>;
    const id = historyIndex.get(op) ?? i;
    const ret = op.return === Infinity ? '∞' : String(op.return);
    const what = model.describe
      ? model.describe(op.input, op.output)
      : `${JSON.stringify(op.input)} -> ${op.output === undefined ? 'unknown' : JSON.stringify(op.output)}`;
    return `#${id} client ${op.clientId} [${op.call}, ${ret}] ${what}`;
  };
  const stateText = model.describeState ? model.describeState(dead.state) : model.key(dead.state);
  const lines: string[] = [];
  lines.push(
    `not linearizable (partition ${partition}): at most ${dead.prefix.length} of ${ops.length} operations linearize in order.`,
  );
  lines.push(`state after the longest linearizable prefix: ${stateText}`);
  lines.push(`${fmt(dead.blocker)} must take effect before its return, but no pending operation can go next:`);
  for (const c of dead.candidates) {
    const op = ops[c] as Operation<I, O>;
    const fits = model.step(dead.state, op.input, op.output).some((r) => r.ok);
    lines.push(`  - ${fmt(c)}: ${fits ? 'fits this state, but every continuation fails' : 'contradicts this state'}`);
  }
  const tail = dead.prefix.slice(-5);
  if (tail.length > 0) {
    lines.push(`last operations of the prefix:`);
    for (const i of tail) lines.push(`  ${fmt(i)}`);
  }
  return lines.join('\n');
}
