// The five safety properties of Raft (Ongaro & Ousterhout, Figure 3), checked
// by an observer that looks at every member after every kernel step. It never
// influences the run. Cheap checks run at every step; the full pairwise Log
// Matching sweep runs every `sweepEvery` steps and at the end.
//
// Besides checking, it records the committed log as the cluster applied it
// (index → entry, and when it was first applied): the ground truth the
// harness replays for watches and for resolving unknown client outcomes.
import type { Engine } from '../../facade/engine';
import type { EtcdMember, MemberDurable } from '../server/member';
import type { Entry } from '../raft';
import { registerClass } from '../../sim/serial';

export type Property =
  | 'Election Safety'
  | 'Leader Append-Only'
  | 'Log Matching'
  | 'Leader Completeness'
  | 'State Machine Safety'
  | 'Linearizability'
  | 'Watch'
  | 'Liveness'
  | 'Serializable reads'
  /** The engine threw (a raft panic, an apply that failed). */
  | 'Engine exception'
  /** The harness could not observe what it needs (a bug in the harness or an engine contract). */
  | 'Harness';

export interface Violation {
  property: Property;
  at: number;
  message: string;
}

/** Cache of entry fingerprints: entries are shared, immutable objects in the logs. */
const fingerprints = new WeakMap<Entry, string>();

/** An entry's identity: term, kind and a hash of its data. */
export function fingerprint(e: Entry): string {
  const cached = fingerprints.get(e);
  if (cached !== undefined) return cached;
  let h = 0x811c9dc5;
  for (let i = 0; i < e.data.length; i++) h = Math.imul(h ^ e.data.charCodeAt(i), 0x01000193);
  const fp = `${e.term}:${e.type === 'EntryConfChange' ? 'c' : 'n'}:${(h >>> 0).toString(16)}:${e.data.length}`;
  fingerprints.set(e, fp);
  return fp;
}

export class RaftSafetyChecker {
  readonly violations: Violation[] = [];
  /** term → the member that led it. */
  private leaders = new Map<number, string>();
  /** index → fingerprint of the entry applied there (by anyone). */
  readonly applied = new Map<number, string>();
  /** index → the applied entry itself (for the ground-truth replay). */
  readonly appliedEntries = new Map<number, Entry>();
  /** index → virtual time at which some member first applied it. */
  readonly appliedAt = new Map<number, number>();
  /**
   * index → the entry some member held there when it first counted it as
   * committed. Entries are read at commit time because a member may apply
   * and compact them (small snapshotCatchUpEntries) within one kernel step.
   */
  private committed = new Map<number, Entry>();
  private lastApplied = new Map<string, number>();
  private lastCommitted = new Map<string, number>();
  /** Per member, the leader log tail we saw while it led: term, index, fingerprint. */
  private leaderTail = new Map<string, { term: number; index: number; fp: string }>();
  private steps = 0;
  private readonly names: string[];

  constructor(
    private readonly engine: Engine,
    private readonly sweepEvery = 50,
  ) {
    this.names = engine.memberNames();
  }

  /** Call after every kernel step (and after commands that crash or restart members). */
  observe(): void {
    const now = this.engine.sim.now;
    this.steps++;
    for (const name of this.names) {
      const m = this.engine.member(name);
      if (!m) {
        this.leaderTail.delete(name);
        this.lastApplied.delete(name);
        this.lastCommitted.delete(name);
        continue;
      }
      this.checkElection(name, m, now);
      this.checkLeaderAppendOnly(name, m, now);
      this.recordCommitted(name, m);
      this.checkApplied(name, m, now);
    }
    if (this.steps % this.sweepEvery === 0) this.sweep();
  }

  private fail(property: Property, at: number, message: string): void {
    if (this.violations.length < 20) this.violations.push({ property, at, message });
  }

  private checkElection(name: string, m: EtcdMember, now: number): void {
    const r = m.node.raft;
    if (r.state !== 'StateLeader') return;
    const prev = this.leaders.get(r.term);
    if (prev === undefined) {
      this.leaders.set(r.term, name);
      this.checkLeaderCompleteness(name, m, now);
    } else if (prev !== name) {
      this.fail('Election Safety', now, `two leaders in term ${r.term}: ${prev} and ${name}`);
    }
  }

  /** A new leader's log holds every entry applied (hence committed) anywhere so far. */
  private checkLeaderCompleteness(name: string, m: EtcdMember, now: number): void {
    const log = m.node.raft.raftLog;
    const first = log.firstIndex();
    for (const [index, fp] of this.applied) {
      if (index < first) continue; // inside its snapshot: covered by State Machine Safety
      const e = log.entryAt(index);
      if (!e) {
        this.fail('Leader Completeness', now, `${name} became leader of term ${m.node.raft.term} without committed entry ${index} (${fp})`);
        return;
      }
      if (fingerprint(e) !== fp) {
        this.fail('Leader Completeness', now, `${name} became leader of term ${m.node.raft.term} with entry ${index} = ${fingerprint(e)}, but ${fp} was committed there`);
        return;
      }
    }
  }

  private checkLeaderAppendOnly(name: string, m: EtcdMember, now: number): void {
    const r = m.node.raft;
    if (r.state !== 'StateLeader') {
      this.leaderTail.delete(name);
      return;
    }
    const seen = this.leaderTail.get(name);
    if (seen && seen.term === r.term) {
      const e = r.raftLog.entryAt(seen.index);
      if (seen.index >= r.raftLog.firstIndex() && (!e || fingerprint(e) !== seen.fp)) {
        this.fail('Leader Append-Only', now, `leader ${name} (term ${r.term}) lost or rewrote its entry ${seen.index}`);
      }
    }
    const last = r.raftLog.lastIndex();
    const e = r.raftLog.entryAt(last);
    if (e) this.leaderTail.set(name, { term: r.term, index: last, fp: fingerprint(e) });
  }

  /**
   * Records each entry when a member first counts it as committed, so that
   * one applied and compacted within a single step can still be read. The
   * latest wins: this is not checked, because etcd v3.5's leader counts its
   * own not-yet-durable append toward the quorum (raft before async storage
   * writes), so an in-memory commit index can name an entry that a crash then
   * loses before anyone applied it. What members apply is checked below.
   */
  private recordCommitted(name: string, m: EtcdMember): void {
    const log = m.node.raft.raftLog;
    const committedNow = log.committed;
    const before = this.lastCommitted.get(name) ?? 0;
    this.lastCommitted.set(name, committedNow);
    if (committedNow <= before) return;
    for (let i = Math.max(before + 1, log.firstIndex()); i <= committedNow; i++) {
      const e = log.entryAt(i);
      if (e) this.committed.set(i, e);
    }
  }

  private checkApplied(name: string, m: EtcdMember, now: number): void {
    const appliedNow = m.sm.appliedIndex;
    const before = this.lastApplied.get(name) ?? 0;
    this.lastApplied.set(name, appliedNow);
    if (appliedNow <= before) return;
    const log = m.node.raft.raftLog;
    const storage = this.engine.sim.durable<MemberDurable>(name).storage;
    for (let i = before + 1; i <= appliedNow; i++) {
      const e = log.entryAt(i) ?? entryFromStorage(storage, i);
      if (!e) {
        // Came in a snapshot (someone else applied it from a log), or was
        // applied and compacted within this step (then it was seen at commit).
        const c = this.committed.get(i);
        if (c && !this.applied.has(i)) this.record(i, c, now);
        continue;
      }
      const fp = fingerprint(e);
      const prev = this.applied.get(i);
      if (prev === undefined) this.record(i, e, now);
      else if (prev !== fp) {
        this.fail('State Machine Safety', now, `${name} applied ${fp} at index ${i}, another member applied ${prev}`);
      }
    }
  }

  private record(i: number, e: Entry, now: number): void {
    this.applied.set(i, fingerprint(e));
    this.appliedEntries.set(i, e);
    this.appliedAt.set(i, now);
  }

  /** Log Matching over every pair of live members: same index and term ⇒ same entries up to there. */
  sweep(): void {
    const now = this.engine.sim.now;
    const logs: { name: string; first: number; last: number; at: (i: number) => Entry | undefined }[] = [];
    for (const name of this.names) {
      const m = this.engine.member(name);
      if (!m) continue;
      const log = m.node.raft.raftLog;
      logs.push({ name, first: log.firstIndex(), last: log.lastIndex(), at: (i) => log.entryAt(i) });
    }
    for (let a = 0; a < logs.length; a++) {
      for (let b = a + 1; b < logs.length; b++) {
        const x = logs[a]!;
        const y = logs[b]!;
        const lo = Math.max(x.first, y.first);
        const hi = Math.min(x.last, y.last);
        // Find the highest index where terms agree; everything from lo up to it must be identical.
        let agree = -1;
        for (let i = hi; i >= lo; i--) {
          const ex = x.at(i);
          const ey = y.at(i);
          if (ex && ey && ex.term === ey.term) {
            agree = i;
            break;
          }
        }
        for (let i = lo; i <= agree; i++) {
          const ex = x.at(i);
          const ey = y.at(i);
          if (ex === ey) continue; // the same object: trivially identical
          if (!ex || !ey || fingerprint(ex) !== fingerprint(ey)) {
            this.fail('Log Matching', now, `${x.name} and ${y.name} agree on the term at index ${agree} but differ at index ${i}: ${ex ? fingerprint(ex) : '-'} vs ${ey ? fingerprint(ey) : '-'}`);
            break;
          }
        }
      }
    }
  }

  /** The applied log in index order (the committed history as the cluster executed it). */
  committedLog(): Entry[] {
    return [...this.appliedEntries.keys()].sort((a, b) => a - b).map((i) => this.appliedEntries.get(i)!);
  }

  /** Indexes below `upTo` that some member applied but the checker never saw. */
  gaps(upTo: number): number[] {
    const out: number[] = [];
    for (let i = 1; i <= upTo; i++) if (!this.appliedEntries.has(i)) out.push(i);
    return out;
  }
}

function entryFromStorage(storage: MemberDurable['storage'], i: number): Entry | undefined {
  if (i < storage.firstIndex() || i > storage.lastIndex()) return undefined;
  const r = storage.entries(i, i + 1, Infinity);
  return Array.isArray(r) ? r[0] : undefined;
}

registerClass('harness.RaftSafetyChecker', RaftSafetyChecker);
