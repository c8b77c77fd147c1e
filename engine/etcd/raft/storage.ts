// MemoryStorage: the in-memory Storage of etcd-io/raft (storage.go, v3.5).
// ents[0] is a dummy entry holding the index/term of the last compaction (or
// of the snapshot); ents[i] has log position ents[0].index + i.
import { registerClass } from '../../sim/serial';
import {
  ErrCompacted,
  ErrSnapOutOfDate,
  ErrUnavailable,
  type ConfState,
  type Entry,
  type HardState,
  type RaftError,
  type Snapshot,
  type SnapshotData,
} from './types';
import { emptySnapshot, entrySize, panic } from './util';

export class MemoryStorage {
  hardState: HardState;
  snap: Snapshot;
  ents: Entry[];

  /**
   * A fresh storage. `confState`, when given, seeds the member list the way
   * upstream tests do (`withPeers`): it is the ConfState of the (empty) initial snapshot.
   */
  constructor(confState?: ConfState) {
    this.hardState = { term: 0, vote: 0, commit: 0 };
    this.snap = emptySnapshot();
    if (confState) {
      this.snap.metadata.confState = { voters: [...confState.voters], learners: [...confState.learners] };
    }
    this.ents = [{ term: 0, index: 0, type: 'EntryNormal', data: '' }];
  }

  initialState(): { hardState: HardState; confState: ConfState } {
    return { hardState: { ...this.hardState }, confState: this.snap.metadata.confState };
  }

  setHardState(hs: HardState): void {
    this.hardState = { term: hs.term, vote: hs.vote, commit: hs.commit };
  }

  /** Entries in [lo, hi), limited to maxSize total (at least one entry is returned). */
  entries(lo: number, hi: number, maxSize: number): Entry[] | RaftError {
    const offset = this.ents[0]!.index;
    if (lo <= offset) return ErrCompacted;
    if (hi > this.lastIndex() + 1) panic(`entries' hi(${hi}) is out of bound lastindex(${this.lastIndex()})`);
    // only contains the dummy entry
    if (this.ents.length === 1) return ErrUnavailable;
    // Find the size limit before copying so a huge range is never copied.
    const start = lo - offset;
    const end = hi - offset;
    if (start >= end) return [];
    let size = entrySize(this.ents[start]!);
    let stop = start + 1;
    for (; stop < end; stop++) {
      size += entrySize(this.ents[stop]!);
      if (size > maxSize) break;
    }
    return this.ents.slice(start, stop);
  }

  term(i: number): number | RaftError {
    const offset = this.ents[0]!.index;
    if (i < offset) return ErrCompacted;
    const e = this.ents[i - offset];
    if (e === undefined) return ErrUnavailable;
    return e.term;
  }

  lastIndex(): number {
    return this.ents[0]!.index + this.ents.length - 1;
  }

  firstIndex(): number {
    return this.ents[0]!.index + 1;
  }

  snapshot(): Snapshot {
    return this.snap;
  }

  /** Overwrites the contents of this storage with the snapshot (the log is discarded). */
  applySnapshot(snap: Snapshot): void | RaftError {
    if (this.snap.metadata.index >= snap.metadata.index) return ErrSnapOutOfDate;
    this.snap = snap;
    this.ents = [{ term: snap.metadata.term, index: snap.metadata.index, type: 'EntryNormal', data: '' }];
    return undefined;
  }

  /**
   * Makes a snapshot at index i (which must be applied by the caller) with the
   * given ConfState (undefined keeps the previous one) and state-machine data.
   */
  createSnapshot(i: number, cs: ConfState | undefined, data: SnapshotData): Snapshot | RaftError {
    if (i <= this.snap.metadata.index) return ErrSnapOutOfDate;
    const offset = this.ents[0]!.index;
    if (i > this.lastIndex()) panic(`snapshot ${i} is out of bound lastindex(${this.lastIndex()})`);
    const confState = cs ? { voters: [...cs.voters], learners: [...cs.learners] } : this.snap.metadata.confState;
    this.snap = { metadata: { index: i, term: this.ents[i - offset]!.term, confState }, data };
    return this.snap;
  }

  /** Discards all entries before compactIndex; compactIndex becomes the dummy entry. */
  compact(compactIndex: number): void | RaftError {
    const offset = this.ents[0]!.index;
    if (compactIndex <= offset) return ErrCompacted;
    if (compactIndex > this.lastIndex()) panic(`compact ${compactIndex} is out of bound lastindex(${this.lastIndex()})`);
    const i = compactIndex - offset;
    const at = this.ents[i]!;
    const ents: Entry[] = [{ term: at.term, index: at.index, type: 'EntryNormal', data: '' }];
    for (let k = i + 1; k < this.ents.length; k++) ents.push(this.ents[k]!);
    this.ents = ents;
    return undefined;
  }

  /** Appends entries, truncating any conflicting suffix first (entries must be contiguous). */
  append(entries: readonly Entry[]): void {
    if (entries.length === 0) return;
    const first = this.firstIndex();
    const e0 = entries[0]!.index;
    const last = e0 + entries.length - 1;
    // shortcut if there is no new entry.
    if (last < first) return;
    // truncate compacted entries
    const skip = first > e0 ? first - e0 : 0;
    const startIndex = e0 + skip;
    const offset = startIndex - this.ents[0]!.index;
    if (this.ents.length > offset) {
      this.ents.length = offset;
    } else if (this.ents.length < offset) {
      panic(`missing log entry [last: ${this.lastIndex()}, append at: ${startIndex}]`);
    }
    for (let k = skip; k < entries.length; k++) this.ents.push(entries[k]!);
  }
}

registerClass('RaftMemoryStorage', MemoryStorage);
