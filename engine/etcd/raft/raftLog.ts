// The Raft log: persisted entries (MemoryStorage) followed by unstable ones
// (upstream log.go, v3.5). committed/applied are the two cursors.
import { registerClass } from '../../sim/serial';
import { Unstable } from './logUnstable';
import type { MemoryStorage } from './storage';
import type { Entry, RaftError, RaftTraceEvent, Snapshot } from './types';
import { ErrCompacted, ErrUnavailable } from './types';
import { entrySize, max, min, noEntries, panic, pushTrace } from './util';

export const noLimit = Infinity;

export class RaftLog {
  storage: MemoryStorage;
  unstable: Unstable;
  /** Highest index known to be committed on a quorum. */
  committed: number;
  /** Highest index the application has been told to apply. applied <= committed. */
  applied: number;
  /** Bound on the total size of nextEnts() (upstream maxNextEntsSize). */
  maxNextEntsSize: number;
  /** Shared with the owning Raft: receives a 'commit' event whenever committed advances. */
  trace: RaftTraceEvent[];
  /** Whether commitTo records 'commit' events (Config.traceCommits). */
  traceCommits: boolean;

  constructor(storage: MemoryStorage, maxNextEntsSize: number, trace: RaftTraceEvent[], traceCommits = true) {
    this.storage = storage;
    this.maxNextEntsSize = maxNextEntsSize;
    this.trace = trace;
    this.traceCommits = traceCommits;
    const firstIndex = storage.firstIndex();
    const lastIndex = storage.lastIndex();
    this.unstable = new Unstable(lastIndex + 1);
    // Initialize committed and applied to the time of the last compaction.
    this.committed = firstIndex - 1;
    this.applied = firstIndex - 1;
  }

  /**
   * Appends ents after (index, logTerm) if that entry matches, truncating
   * conflicts. Returns the last new index, or undefined when it does not match.
   */
  maybeAppend(index: number, logTerm: number, committed: number, ents: readonly Entry[]): number | undefined {
    if (!this.matchTerm(index, logTerm)) return undefined;
    const lastnewi = index + ents.length;
    const ci = this.findConflict(ents);
    if (ci === 0) {
      // no conflict, all entries already present
    } else if (ci <= this.committed) {
      panic(`entry ${ci} conflict with committed entry [committed(${this.committed})]`);
    } else {
      const offset = index + 1;
      this.append(ci - offset === 0 ? ents : ents.slice(ci - offset));
    }
    this.commitTo(min(committed, lastnewi));
    return lastnewi;
  }

  /** Appends ents; the log may keep the array itself: the caller must not change it afterwards. */
  append(ents: readonly Entry[]): number {
    if (ents.length === 0) return this.lastIndex();
    const after = ents[0]!.index - 1;
    if (after < this.committed) panic(`after(${after}) is out of range [committed(${this.committed})]`);
    this.unstable.truncateAndAppend(ents);
    return this.lastIndex();
  }

  /**
   * The index of the first entry of ents that conflicts with the log (same
   * index, different term), or of the first new entry; 0 if all are present.
   */
  findConflict(ents: readonly Entry[]): number {
    // Indexed loops over entry lists: they may be the shared frozen empty
    // list, and for-of over mixed frozen/plain arrays is not optimized.
    for (let i = 0; i < ents.length; i++) {
      const ne = ents[i]!;
      if (!this.matchTerm(ne.index, ne.term)) return ne.index;
    }
    return 0;
  }

  /**
   * The largest index <= index whose term is <= term (or that is compacted):
   * the point at which two logs could still agree (upstream findConflictByTerm).
   */
  findConflictByTerm(index: number, term: number): number {
    const li = this.lastIndex();
    if (index > li) {
      // NB: such calls should not exist, but since there is a straightforward
      // way to recover, do it (as upstream).
      return index;
    }
    for (;;) {
      const logTerm = this.term(index);
      if (typeof logTerm !== 'number' || logTerm <= term) break;
      index--;
    }
    return index;
  }

  /** The unstable entries (Ready.entries): read-only, the log copies before changing them. */
  unstableEntries(): Entry[] {
    return this.unstable.entries.length === 0 ? noEntries : this.unstable.takeShared();
  }

  hasUnstableEntries(): boolean {
    return this.unstable.entries.length !== 0;
  }

  /** Committed entries not yet handed out for applying, bounded by maxNextEntsSize. */
  nextEnts(): Entry[] {
    const off = max(this.applied + 1, this.firstIndex());
    if (this.committed + 1 > off) {
      const ents = this.slice(off, this.committed + 1, this.maxNextEntsSize);
      if (!Array.isArray(ents)) panic(`unexpected error when getting unapplied entries (${ents.message})`);
      return ents;
    }
    return noEntries;
  }

  hasNextEnts(): boolean {
    return this.committed + 1 > max(this.applied + 1, this.firstIndex());
  }

  hasPendingSnapshot(): boolean {
    const s = this.unstable.snapshot;
    return s !== undefined && s.metadata.index !== 0;
  }

  snapshot(): Snapshot | RaftError {
    if (this.unstable.snapshot !== undefined) return this.unstable.snapshot;
    return this.storage.snapshot();
  }

  firstIndex(): number {
    const i = this.unstable.maybeFirstIndex();
    return i !== undefined ? i : this.storage.firstIndex();
  }

  lastIndex(): number {
    const i = this.unstable.maybeLastIndex();
    return i !== undefined ? i : this.storage.lastIndex();
  }

  commitTo(tocommit: number): void {
    // never decrease commit
    if (this.committed < tocommit) {
      if (this.lastIndex() < tocommit) {
        panic(
          `tocommit(${tocommit}) is out of range [lastIndex(${this.lastIndex()})]. Was the raft log corrupted, truncated, or lost?`,
        );
      }
      this.committed = tocommit;
      if (this.traceCommits) pushTrace(this.trace, { type: 'commit', index: tocommit, term: this.zeroTermOnErrCompacted(this.term(tocommit)) });
    }
  }

  appliedTo(i: number): void {
    if (i === 0) return;
    if (this.committed < i || i < this.applied) {
      panic(`applied(${i}) is out of range [prevApplied(${this.applied}), committed(${this.committed})]`);
    }
    this.applied = i;
  }

  stableTo(i: number, t: number): void {
    this.unstable.stableTo(i, t);
  }

  stableSnapTo(i: number): void {
    this.unstable.stableSnapTo(i);
  }

  lastTerm(): number {
    const t = this.term(this.lastIndex());
    if (typeof t !== 'number') panic(`unexpected error when getting the last term (${t.message})`);
    return t;
  }

  /** The term of entry i; 0 outside [dummy index, last index] (as upstream). */
  term(i: number): number | RaftError {
    // the valid term range is [index of dummy entry, last index]
    const dummyIndex = this.firstIndex() - 1;
    if (i < dummyIndex || i > this.lastIndex()) return 0;
    const t = this.unstable.maybeTerm(i);
    if (t !== undefined) return t;
    const st = this.storage.term(i);
    if (typeof st === 'number') return st;
    if (st.type === 'ErrCompacted' || st.type === 'ErrUnavailable') return st;
    return panic(st.message);
  }

  /** Entries from i on, limited to maxSize. */
  entries(i: number, maxSize: number): Entry[] | RaftError {
    if (i > this.lastIndex()) return noEntries;
    return this.slice(i, this.lastIndex() + 1, maxSize);
  }

  /** Every entry from the first index (tests and debugging). */
  allEntries(): Entry[] {
    const ents = this.entries(this.firstIndex(), noLimit);
    if (Array.isArray(ents)) return ents;
    return panic(ents.message);
  }

  /** Whether a candidate with last entry (lasti, term) is at least as up to date as this log. */
  isUpToDate(lasti: number, term: number): boolean {
    const lt = this.lastTerm();
    return term > lt || (term === lt && lasti >= this.lastIndex());
  }

  matchTerm(i: number, term: number): boolean {
    const t = this.term(i);
    return typeof t === 'number' && t === term;
  }

  /** Commits maxIndex if the entry there is from `term` (Raft §5.4.2); see Raft.maybeCommit. */
  maybeCommit(maxIndex: number, term: number): boolean {
    if (maxIndex > this.committed && this.zeroTermOnErrCompacted(this.term(maxIndex)) === term) {
      this.commitTo(maxIndex);
      return true;
    }
    return false;
  }

  /** TEST-ONLY (unsafeCommitPreviousTermEntries): commit by quorum regardless of the entry's term. */
  maybeCommitAnyTerm(maxIndex: number): boolean {
    if (maxIndex > this.committed && maxIndex <= this.lastIndex()) {
      this.commitTo(maxIndex);
      return true;
    }
    return false;
  }

  restore(s: Snapshot): void {
    this.committed = s.metadata.index;
    this.unstable.restore(s);
    if (this.traceCommits) pushTrace(this.trace, { type: 'commit', index: s.metadata.index, term: s.metadata.term });
  }

  /** Entries in [lo, hi), limited to maxSize (at least one entry when lo < hi). */
  slice(lo: number, hi: number, maxSize: number): Entry[] | RaftError {
    const err = this.mustCheckOutOfBounds(lo, hi);
    if (err !== undefined) return err;
    if (lo === hi) return noEntries;
    const off = this.unstable.offset;
    let ents: Entry[] = [];
    if (lo < off) {
      const upto = min(hi, off);
      const stored = this.storage.entries(lo, upto, maxSize);
      if (!Array.isArray(stored)) {
        if (stored.type === 'ErrCompacted') return stored;
        if (stored.type === 'ErrUnavailable') panic(`entries[${lo}:${upto}) is unavailable from storage`);
        return panic(stored.message);
      }
      // check if ents has reached the size limitation
      if (stored.length < upto - lo) return stored;
      ents = stored;
    }
    if (hi > off) {
      // Append unstable entries while the total stays within maxSize (the
      // first entry overall is always included), as limitSize would.
      let size = 0;
      for (let i = 0; i < ents.length; i++) size += entrySize(ents[i]!);
      const u = this.unstable;
      u.mustCheckOutOfBounds(max(lo, off), hi);
      for (let i = max(lo, off); i < hi; i++) {
        const e = u.entries[i - off]!;
        size += entrySize(e);
        if (ents.length > 0 && size > maxSize) break;
        ents.push(e);
      }
    }
    return ents;
  }

  /** l.firstIndex <= lo <= hi <= l.lastIndex+1 */
  mustCheckOutOfBounds(lo: number, hi: number): RaftError | undefined {
    if (lo > hi) panic(`invalid slice ${lo} > ${hi}`);
    const fi = this.firstIndex();
    if (lo < fi) return ErrCompacted;
    const length = this.lastIndex() + 1 - fi;
    if (hi > fi + length) panic(`slice[${lo},${hi}) out of bound [${fi},${this.lastIndex()}]`);
    return undefined;
  }

  zeroTermOnErrCompacted(t: number | RaftError): number {
    if (typeof t === 'number') return t;
    if (t.type === 'ErrCompacted') return 0;
    return panic(`unexpected error (${t.message})`);
  }

  /** Whether any entry in (applied, committed] is a conf change (hup's pending-conf check, without copying). */
  hasPendingConfInUnapplied(): boolean {
    for (let i = this.applied + 1; i <= this.committed; i++) {
      const e = this.entryAt(i);
      if (e !== undefined && e.type === 'EntryConfChange') return true;
    }
    return false;
  }

  /** The entry at index i if it is in the log (no copy). */
  entryAt(i: number): Entry | undefined {
    const u = this.unstable;
    if (i >= u.offset) return u.entries[i - u.offset];
    const st = this.storage;
    const base = st.ents[0]!.index;
    if (i <= base) return undefined;
    return st.ents[i - base];
  }
}

registerClass('RaftLog', RaftLog);
