// History generators for the checker tests: run operations against a
// sequential model at chosen linearization points, so the result is
// linearizable by construction; tests then corrupt it to make violations.
import { Rng } from '../rng';
import type { EtcdRequest, EtcdResponse, EtcdState } from './etcdModel';
import { applyRequest, initialEtcdState, kvOf } from './etcdModel';
import type { RevisionEvents, WatchEvent } from './etcdTypes';
import type { Operation } from './linearizability';

export interface OpPlan<I> {
  clientId: number;
  input: I;
  call: number;
  /** Time from call to reply, or to the client giving up. */
  duration: number;
  /** Where in [call, call + duration] the operation takes effect, as a fraction. */
  point: number;
  /** 'lost' and 'applied' both time out: the client sees no reply. */
  outcome: 'ok' | 'applied' | 'lost';
  /** Picks among the outcomes of a non-deterministic operation. */
  choice?: number;
}

export function simulate<S, I, O>(
  init: S,
  apply: (state: S, input: I, choice: number) => { state: S; output: O },
  plans: readonly OpPlan<I>[],
  onApply?: (before: S, after: S, at: number) => void,
): Operation<I, O>[] {
  const order = plans
    .map((p, i) => ({ i, at: p.call + p.point * p.duration }))
    .sort((a, b) => a.at - b.at || a.i - b.i);
  const outputs: (O | undefined)[] = plans.map(() => undefined);
  let state = init;
  for (const { i, at } of order) {
    const plan = plans[i] as OpPlan<I>;
    if (plan.outcome === 'lost') continue;
    const r = apply(state, plan.input, plan.choice ?? 0);
    onApply?.(state, r.state, at);
    state = r.state;
    if (plan.outcome === 'ok') outputs[i] = r.output;
  }
  return plans.map((p, i) => ({
    clientId: p.clientId,
    input: p.input,
    call: p.call,
    output: outputs[i],
    return: p.outcome === 'ok' ? p.call + p.duration : Infinity,
  }));
}

/** Watch events for the change from `before` to `after` (one revision). */
export function diffEvents(before: EtcdState, after: EtcdState): WatchEvent[] {
  const events: WatchEvent[] = [];
  const keys = new Set([...before.kvs.keys(), ...after.kvs.keys()]);
  for (const key of [...keys].sort()) {
    const a = kvOf(before, key);
    const b = kvOf(after, key);
    if (b && (!a || a.modRevision !== b.modRevision)) events.push({ type: 'PUT', kv: b });
    else if (a && !b) {
      events.push({ type: 'DELETE', kv: { key, value: '', createRevision: 0, modRevision: after.revision, version: 0 } });
    }
  }
  return events;
}

export interface EtcdHistoryOptions {
  clients?: number;
  ops?: number;
  keys?: number;
  /** Chance that a client times out on a request. */
  timeoutRate?: number;
}

export interface GeneratedEtcdHistory {
  operations: Operation<EtcdRequest, EtcdResponse>[];
  /** Every committed revision with its events. */
  revisions: RevisionEvents[];
}

/**
 * A realistic run: `clients` sequential clients issuing a mix of puts, gets,
 * deletes, CAS txns and lease operations on a few keys; timed-out requests
 * take effect half the time, possibly after the client gave up.
 */
export function generateEtcdHistory(seed: number, opts: EtcdHistoryOptions = {}): GeneratedEtcdHistory {
  const rng = new Rng(seed);
  const clients = opts.clients ?? 5;
  const total = opts.ops ?? 300;
  const keys = opts.keys ?? 8;
  const timeoutRate = opts.timeoutRate ?? 0.03;
  const plans: OpPlan<EtcdRequest>[] = [];
  const clock = new Array<number>(clients).fill(0);
  let nextLease = 1;
  let valueSeq = 0;
  for (let n = 0; n < total; n++) {
    const c = rng.int(0, clients);
    const key = `k${rng.int(0, keys)}`;
    const roll = rng.float();
    let input: EtcdRequest;
    if (roll < 0.35) input = { type: 'get', key };
    else if (roll < 0.6) input = { type: 'put', key, value: `v${valueSeq++}` };
    else if (roll < 0.68) input = { type: 'delete', key };
    else if (roll < 0.88) {
      input = {
        type: 'txn',
        compare: { key, target: 'MOD', result: 'EQUAL', value: rng.int(0, 3 + Math.floor(n / 2)) },
        onSuccess: { type: 'put', key, value: `v${valueSeq++}` },
        onFailure: { type: 'get', key },
      };
    } else if (roll < 0.93) input = { type: 'leaseGrant', id: nextLease++, ttl: 60 };
    else if (roll < 0.97) input = { type: 'put', key, value: `v${valueSeq++}`, leaseId: rng.int(1, nextLease + 1) };
    else input = { type: 'leaseRevoke', id: rng.int(1, nextLease + 1) };
    const call = (clock[c] as number) + rng.int(0, 5);
    const duration = rng.int(1, 20);
    const timedOut = rng.chance(timeoutRate);
    plans.push({
      clientId: c,
      input,
      call,
      duration,
      point: timedOut ? rng.float() * 3 : rng.float(),
      outcome: timedOut ? (rng.chance(0.5) ? 'applied' : 'lost') : 'ok',
    });
    clock[c] = call + duration;
  }
  const revisions: RevisionEvents[] = [];
  const operations = simulate<EtcdState, EtcdRequest, EtcdResponse>(
    initialEtcdState(),
    (state, input) => {
      const r = applyRequest(state, input);
      return { state: r.state, output: r.response };
    },
    plans,
    (before, after, at) => {
      if (after.revision !== before.revision) {
        revisions.push({ revision: after.revision, events: diffEvents(before, after), committedAt: at });
      }
    },
  );
  return { operations, revisions };
}
