// The state machine against a naive model that keeps every change in a list
// and answers reads by scanning it. Random sequences of puts, deletes, txns,
// ranges at old revisions, compactions, watches (live and from history) and
// syncs; then a snapshot restore and a cloneState copy must agree with it too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrCompacted, ErrFutureRev, isEtcdError } from '../api/errors';
import type { DeleteRangeResponse, Event, KeyValue, PutResponse, RangeResponse, RequestOp, TxnResponse } from '../api/rpc';
import { checkTxn } from '../api/validate';
import { cloneState } from '../../sim/serial';
import { EtcdStateMachine } from './applier';

// ---- the model ----

interface Change {
  rev: number;
  key: string;
  value: string | null; // null = delete
}

function inRange(k: string, key: string, end: string | null): boolean {
  if (end === null) return k === key;
  if (end === '\0') return k >= key;
  return k >= key && k < end;
}

class Model {
  changes: Change[] = [];
  rev = 1;
  compactRev = -1;
  /**
   * Each compaction with the number of watch responses delivered before it: a
   * revision compacted before a watch read it keeps only each key's last change
   * in that revision (a txn can write a key twice, through a put and a delete).
   */
  compactions: Array<{ rev: number; mark: number }> = [];

  stateAt(key: string, atRev: number): KeyValue | null {
    let kv = null as KeyValue | null;
    for (const c of this.changes) {
      if (c.rev > atRev) break;
      if (c.key !== key) continue;
      const prev: KeyValue | null = kv;
      if (c.value === null) kv = null;
      else if (prev !== null) kv = { ...prev, modRevision: c.rev, version: prev.version + 1, value: c.value };
      else kv = { key, createRevision: c.rev, modRevision: c.rev, version: 1, value: c.value, lease: 0 };
    }
    return kv;
  }

  keys(): string[] {
    return [...new Set(this.changes.map((c) => c.key))].sort();
  }

  live(key: string, end: string | null, atRev: number): KeyValue[] {
    return this.keys()
      .filter((k) => inRange(k, key, end))
      .map((k) => this.stateAt(k, atRev))
      .filter((kv): kv is KeyValue => kv !== null);
  }

  range(key: string, end: string | null, rev: number, limit: number) {
    if (rev > this.rev) return ErrFutureRev;
    const at = rev <= 0 ? this.rev : rev;
    if (at < this.compactRev) return ErrCompacted;
    const all = this.live(key, end, at);
    const kvs = limit > 0 ? all.slice(0, limit) : all;
    return { kvs, count: all.length, more: limit > 0 && all.length > limit, revision: this.rev };
  }

  /** One write txn: ops see earlier ops; the revision moves only if something changed. */
  write(ops: ReadonlyArray<{ put?: [string, string]; del?: [string, string | null] }>): { rev: number; deleted: number[] } {
    const r = this.rev + 1;
    let changed = false;
    const deleted: number[] = [];
    for (const op of ops) {
      if (op.put) {
        this.changes.push({ rev: r, key: op.put[0], value: op.put[1] });
        changed = true;
      } else if (op.del) {
        const doomed = this.live(op.del[0], op.del[1], r).map((kv) => kv.key);
        for (const k of doomed) this.changes.push({ rev: r, key: k, value: null });
        if (doomed.length > 0) changed = true;
        deleted.push(doomed.length);
      }
    }
    if (changed) this.rev = r;
    return { rev: this.rev, deleted };
  }

  /**
   * Events a watcher of [key, end) from startRev should see; compactedRevs are
   * the revisions it read only after they were compacted.
   */
  events(key: string, end: string | null, startRev: number, compactedRevs: ReadonlySet<number> = new Set()): Array<[string, number, string | null]> {
    const all = this.changes.filter((c) => c.rev >= startRev && inRange(c.key, key, end));
    const kept = all.filter((c) => {
      if (!compactedRevs.has(c.rev)) return true;
      // what a compaction at this revision keeps of a key's changes in it: the
      // delete ending the generation before it (if the txn began with one) and
      // the last change, when that one is a put or the txn began with a put
      const mine = all.filter((d) => d.rev === c.rev && d.key === c.key);
      const first = mine[0]!;
      const last = mine[mine.length - 1]!;
      if (first.value === null) return c === first || (c === last && last.value !== null);
      return c === last;
    });
    return kept.map((c) => [c.key, c.rev, c.value]);
  }
}

// ---- random operations ----

const keyArb = fc.constantFrom('a', 'b', 'c', 'ab', 'b\x00', '\xff', 'c/1', 'c/2');
const endArb = fc.oneof(fc.constant(null), fc.constant('\0'), keyArb);
const valArb = fc.constantFrom('', 'x', 'y', 'zz', '\x00\xff');

type Op =
  | { t: 'put'; key: string; value: string }
  | { t: 'del'; key: string; end: string | null }
  | { t: 'txn'; ops: Array<{ put?: [string, string]; del?: [string, string | null] }> }
  | { t: 'range'; key: string; end: string | null; back: number; limit: number }
  | { t: 'compact'; back: number }
  | { t: 'watch'; key: string; end: string | null; back: number; prevKv: boolean }
  | { t: 'sync'; maxRevs: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('put' as const), key: keyArb, value: valArb }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('del' as const), key: keyArb, end: endArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('txn' as const),
      ops: fc.array(
        fc.oneof(
          fc.record({ put: fc.tuple(keyArb, valArb) }),
          fc.record({ del: fc.tuple(keyArb, endArb) }),
        ),
        { minLength: 1, maxLength: 4 },
      ),
    })
      // only what the server lets through: no key put twice or put and deleted in one txn
      .filter((op) => checkTxn({ success: op.ops.map(toOp) }) === null),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('range' as const),
      key: keyArb,
      end: endArb,
      back: fc.integer({ min: -1, max: 8 }),
      limit: fc.integer({ min: 0, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('compact' as const), back: fc.integer({ min: 0, max: 6 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('watch' as const),
      key: keyArb,
      end: endArb,
      back: fc.integer({ min: -1, max: 10 }),
      prevKv: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('sync' as const), maxRevs: fc.constantFrom(1, 2, 1000) }) },
);

// ---- the run ----

interface WatchTrack {
  stream: string;
  id: number;
  key: string;
  end: string | null;
  start: number;
  prevKv: boolean;
  got: Array<{ resp: number; ev: Event }>;
  canceledAt: number | null;
}

const toOp = (o: { put?: [string, string]; del?: [string, string | null] }): RequestOp =>
  o.put
    ? { requestPut: { key: o.put[0], value: o.put[1] } }
    : { requestDeleteRange: { key: o.del![0], rangeEnd: o.del![1] ?? undefined } };

type Concrete =
  | { kind: 'apply'; body: object; op: Op }
  | { kind: 'read'; key: string; end: string | null; rev: number; limit: number }
  | { kind: 'watch'; stream: string; key: string; end: string | null; start: number; prevKv: boolean; liveFrom: number }
  | { kind: 'sync'; maxRevs: number };

/** Turns a random op into a request, using the model's state before the op. */
function concretize(op: Op, model: Model, nWatches: number): Concrete {
  switch (op.t) {
    case 'put':
      return { kind: 'apply', op, body: { put: { key: op.key, value: op.value } } };
    case 'del':
      return { kind: 'apply', op, body: { deleteRange: { key: op.key, rangeEnd: op.end ?? undefined } } };
    case 'txn':
      return { kind: 'apply', op, body: { txn: { success: op.ops.map(toOp) } } };
    case 'compact':
      return { kind: 'apply', op, body: { compaction: { revision: Math.max(1, model.rev - op.back) } } };
    case 'range': {
      const rev = op.back < 0 ? model.rev + 1 : op.back === 0 ? 0 : model.rev - op.back;
      return { kind: 'read', key: op.key, end: op.end, rev, limit: op.limit };
    }
    case 'watch': {
      // back -1: live; otherwise a start revision in history (the compacted one included)
      const start = op.back < 0 ? 0 : Math.max(1, model.rev - op.back);
      return { kind: 'watch', stream: `w${nWatches % 3}`, key: op.key, end: op.end, start, prevKv: op.prevKv, liveFrom: model.rev + 1 };
    }
    case 'sync':
      return { kind: 'sync', maxRevs: op.maxRevs };
  }
}

/** Runs a request; returns its transcript line and raw result. */
function exec(sm: EtcdStateMachine, c: Concrete, n: number): { line: string; result: unknown } {
  let result: unknown;
  switch (c.kind) {
    case 'apply':
      result = sm.apply({ header: { id: n }, ...c.body }, 1, n).response;
      break;
    case 'read':
      result = sm.read({ key: c.key, rangeEnd: c.end ?? undefined, revision: c.rev, limit: c.limit });
      break;
    case 'watch':
      result = sm.watch(c.stream, { key: c.key, rangeEnd: c.end ?? undefined, startRevision: c.start, prevKv: c.prevKv });
      break;
    case 'sync':
      result = sm.kv.syncWatchers(512, c.maxRevs);
      break;
  }
  return { line: JSON.stringify(result), result };
}

/** Checks a result against the model and advances the model. */
function checkStep(model: Model, c: Concrete, result: unknown, watches: WatchTrack[]): void {
  switch (c.kind) {
    case 'apply': {
      const op = c.op;
      if (op.t === 'compact') {
        const rev = Math.max(1, model.rev - op.back);
        if (rev <= model.compactRev) expect(result).toBe(ErrCompacted);
        else {
          expect(isEtcdError(result)).toBe(false);
          model.compactRev = rev;
        }
        return;
      }
      const writes = op.t === 'put' ? [{ put: [op.key, op.value] as [string, string] }] : op.t === 'del' ? [{ del: [op.key, op.end] as [string, string | null] }] : op.t === 'txn' ? op.ops : [];
      const m = model.write(writes);
      if (op.t === 'put') expect((result as PutResponse).header.revision).toBe(m.rev);
      if (op.t === 'del') {
        expect((result as DeleteRangeResponse).header.revision).toBe(m.rev);
        expect((result as DeleteRangeResponse).deleted).toBe(m.deleted[0]);
      }
      if (op.t === 'txn') {
        const r = result as TxnResponse;
        expect(r.header.revision).toBe(m.rev);
        expect(r.responses.filter((x) => x.responseDeleteRange).map((x) => x.responseDeleteRange!.deleted)).toEqual(m.deleted);
      }
      return;
    }
    case 'read': {
      const m = model.range(c.key, c.end, c.rev, c.limit);
      if (isEtcdError(m)) expect(result).toBe(m);
      else {
        const rr = result as RangeResponse;
        expect({ kvs: rr.kvs, count: rr.count, more: rr.more, revision: rr.header.revision }).toEqual(m);
      }
      return;
    }
    case 'watch': {
      const id = result as number;
      if (id >= 0) {
        watches.push({
          stream: c.stream,
          id,
          key: c.key,
          end: c.end,
          start: c.start === 0 ? c.liveFrom : c.start,
          prevKv: c.prevKv,
          got: [],
          canceledAt: null,
        });
      }
      return;
    }
    case 'sync':
      return;
  }
}

function collect(sm: EtcdStateMachine, watches: WatchTrack[], respCounter: { n: number }): string {
  const ds = sm.takeWatchResponses();
  for (const d of ds) {
    const w = watches.find((x) => x.stream === d.streamId && x.id === d.response.watchId && x.canceledAt === null);
    if (!w) continue; // created responses of watches rejected up front
    if (d.response.canceled && d.response.compactRevision > 0) w.canceledAt = d.response.compactRevision;
    const n = respCounter.n++;
    for (const ev of d.response.events) w.got.push({ resp: n, ev });
  }
  return JSON.stringify(ds);
}

function checkWatches(model: Model, watches: WatchTrack[]): void {
  for (const w of watches) {
    const readBefore = (rev: number, mark: number) => w.got.some((g) => g.ev.kv.modRevision === rev && g.resp < mark);
    const compacted = new Set(model.compactions.filter((c) => c.rev >= w.start && !readBefore(c.rev, c.mark)).map((c) => c.rev));
    const want = model.events(w.key, w.end, w.start, compacted);
    const got = w.got.map((g) => [g.ev.kv.key, g.ev.kv.modRevision, g.ev.type === 'DELETE' ? null : g.ev.kv.value]);
    if (w.canceledAt !== null) {
      expect(got).toEqual(want.slice(0, got.length));
      expect(w.start).toBeLessThan(w.canceledAt);
    } else {
      expect(got).toEqual(want);
    }
    // Atomic: a revision's events are never split across responses.
    const respOfRev = new Map<number, number>();
    for (const g of w.got) {
      const r = respOfRev.get(g.ev.kv.modRevision);
      if (r === undefined) respOfRev.set(g.ev.kv.modRevision, g.resp);
      else expect(r).toBe(g.resp);
    }
    // prev_kv: the key's value just before the event, when still readable.
    for (const { ev } of w.got) {
      if (!w.prevKv) expect(ev.prevKv).toBeUndefined();
      else if (ev.prevKv) expect(ev.prevKv).toEqual(model.stateAt(ev.kv.key, ev.kv.modRevision - 1));
      else if (!(ev.type === 'PUT' && ev.kv.createRevision === ev.kv.modRevision)) {
        const prev = model.stateAt(ev.kv.key, ev.kv.modRevision - 1);
        if (prev) expect(ev.kv.modRevision - 1).toBeLessThan(model.compactRev);
      }
    }
  }
}

function drain(sm: EtcdStateMachine, watches: WatchTrack[], counter: { n: number }): void {
  // small batches, so catching up always spans several responses
  for (let i = 0; i < 1000 && sm.kv.syncWatchers(512, 2) > 0; i++) collect(sm, watches, counter);
  collect(sm, watches, counter);
}

describe('MvccStore vs a naive model', () => {
  it('agrees on every response, watch stream, snapshot and clone', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), fc.nat(), (ops, cloneAtRaw) => {
        const sm = new EtcdStateMachine({ clusterId: 1, memberId: 1 });
        const model = new Model();
        const watches: WatchTrack[] = [];
        const counter = { n: 0 };
        // a watcher of everything from the start
        sm.watch('all', { key: '\0', rangeEnd: '\0', prevKv: true });
        watches.push({ stream: 'all', id: 0, key: '\0', end: '\0', start: 2, prevKv: true, got: [], canceledAt: null });
        const cloneAt = cloneAtRaw % ops.length;
        let clone: EtcdStateMachine | null = null;
        const tail: string[] = [];
        const cloneTail: string[] = [];
        const cloneWatches: WatchTrack[] = [];
        ops.forEach((op, i) => {
          if (i === cloneAt) {
            clone = cloneState(sm);
            for (const w of watches) cloneWatches.push({ ...w, got: [...w.got] });
          }
          const c = concretize(op, model, watches.length);
          const out = exec(sm, c, i);
          const compactedBefore = model.compactRev;
          checkStep(model, c, out.result, watches);
          if (model.compactRev !== compactedBefore) model.compactions.push({ rev: model.compactRev, mark: counter.n });
          tail.push(out.line, collect(sm, watches, counter));
          if (clone) cloneTail.push(exec(clone, c, i).line, collect(clone, cloneWatches, { n: 0 }));
        });
        drain(sm, watches, counter);
        checkWatches(model, watches);

        // the clone made mid-run produced the same transcript from there on
        expect(cloneTail).toEqual(tail.slice(2 * cloneAt));
        expect((clone as unknown as EtcdStateMachine).hash()).toEqual(sm.hash());

        // a snapshot restore answers every readable revision the same way
        const restored = EtcdStateMachine.restore(sm.snapshot(), { clusterId: 1, memberId: 1 });
        expect(restored.currentRevision()).toBe(sm.currentRevision());
        expect(restored.compactRevision()).toBe(sm.compactRevision());
        expect(restored.hash()).toEqual(sm.hash());
        for (let rev = Math.max(1, model.compactRev); rev <= model.rev; rev++) {
          const want = sm.read({ key: '\0', rangeEnd: '\0', revision: rev }, 1);
          expect(restored.read({ key: '\0', rangeEnd: '\0', revision: rev }, 1)).toEqual(want);
        }
        // and keeps going identically
        for (const m2 of [sm, restored]) m2.apply({ header: { id: 999 }, put: { key: 'a', value: 'after' } }, 1, 0);
        expect(restored.read({ key: '\0', rangeEnd: '\0' })).toEqual(sm.read({ key: '\0', rangeEnd: '\0' }));
        expect(restored.hash()).toEqual(sm.hash());
      }),
      {
        numRuns: Number(process.env.MVCC_RUNS ?? 150),
        examples: [
          // A delete at the compaction revision, seen by a watch still catching up to it (etcd-io/etcd#18274).
          [
            [
              { t: 'put', key: 'c/2', value: '' },
              { t: 'del', key: 'a', end: '\u0000' },
              { t: 'put', key: 'a', value: '' },
              { t: 'put', key: 'a', value: '' },
              { t: 'watch', key: 'c/2', end: null, back: 3, prevKv: false },
              { t: 'sync', maxRevs: 1 },
              { t: 'put', key: 'a', value: '' },
              { t: 'compact', back: 3 },
            ],
            0,
          ],
          // One txn deletes a key (a range ending in "\0") and puts it again; a compaction at that
          // revision must keep the tombstone and the new value both.
          [
            [
              { t: 'txn', ops: [{ put: ['\u00ff', ''] }, { del: ['a', 'a'] }] },
              { t: 'txn', ops: [{ del: ['a', '\u0000'] }, { put: ['\u00ff', ''] }] },
              { t: 'txn', ops: [{ put: ['a', ''] }] },
              { t: 'put', key: 'a', value: '' },
              { t: 'compact', back: 2 },
              { t: 'del', key: 'a', end: 'a' },
            ],
            0,
          ],
          // ... and deletes it once more in that txn: the generation inside the revision goes.
          [
            [
              { t: 'put', key: 'c', value: '' },
              { t: 'txn', ops: [{ del: ['a', '\u0000'] }, { put: ['c', ''] }, { del: ['a', '\u0000'] }, { del: ['a', null] }] },
              { t: 'compact', back: 0 },
            ],
            0,
          ],
          // A watch that reads such a revision only after its compaction gets what was kept.
          [
            [
              { t: 'txn', ops: [{ put: ['c/1', ''] }] },
              { t: 'txn', ops: [{ del: ['a', '\u0000'] }, { put: ['c/1', ''] }] },
              { t: 'watch', key: 'c/1', end: null, back: 0, prevKv: false },
              { t: 'compact', back: 0 },
              { t: 'del', key: 'a', end: 'a' },
            ],
            0,
          ],
        ],
      },
    );
  });
});

