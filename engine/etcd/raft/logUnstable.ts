// The not-yet-persisted part of the log (upstream log_unstable.go, v3.5):
// entries from `offset` on, plus an incoming snapshot. The caller persists them
// from Ready and raft then drops them here via stableTo/stableSnapTo.
import { registerClass } from '../../sim/serial';
import type { Entry, Snapshot } from './types';
import { panic } from './util';

export class Unstable {
  snapshot: Snapshot | undefined = undefined;
  entries: Entry[] = [];
  offset: number;
  /**
   * Whether `entries` was handed out (Ready.entries) and must not be mutated:
   * the next change copies it first. A Ready usually holds all the unstable
   * entries until they are stable, so most are never copied.
   */
  shared = false;

  constructor(offset: number) {
    this.offset = offset;
  }

  /** First index, if there is an unstable snapshot. */
  maybeFirstIndex(): number | undefined {
    return this.snapshot !== undefined ? this.snapshot.metadata.index + 1 : undefined;
  }

  maybeLastIndex(): number | undefined {
    const l = this.entries.length;
    if (l !== 0) return this.offset + l - 1;
    if (this.snapshot !== undefined) return this.snapshot.metadata.index;
    return undefined;
  }

  maybeTerm(i: number): number | undefined {
    if (i < this.offset) {
      if (this.snapshot !== undefined && this.snapshot.metadata.index === i) return this.snapshot.metadata.term;
      return undefined;
    }
    const last = this.maybeLastIndex();
    if (last === undefined || i > last) return undefined;
    return this.entries[i - this.offset]!.term;
  }

  stableTo(i: number, t: number): void {
    const gt = this.maybeTerm(i);
    if (gt === undefined) return;
    // If i < offset the term matched the snapshot; only unstable entries whose
    // term still matches are dropped (a later truncation may have replaced them).
    if (gt === t && i >= this.offset) {
      // A fresh array either way (the old one may be a Ready's): when all are
      // stable (the usual case) an empty one, else the remaining slice.
      const k = i + 1 - this.offset;
      const ents = this.entries;
      this.entries = k >= ents.length ? [] : ents.slice(k);
      this.shared = false;
      this.offset = i + 1;
    }
  }

  stableSnapTo(i: number): void {
    if (this.snapshot !== undefined && this.snapshot.metadata.index === i) this.snapshot = undefined;
  }

  restore(s: Snapshot): void {
    this.offset = s.metadata.index + 1;
    this.entries = [];
    this.shared = false;
    this.snapshot = s;
  }

  truncateAndAppend(ents: readonly Entry[]): void {
    const after = ents[0]!.index;
    if (after === this.offset + this.entries.length) {
      // after is the next index in u.entries: append directly (to a copy if a Ready holds it).
      // Nothing unstable yet (the usual case): adopt the caller's array, marked
      // shared: the log's callers hand over fresh arrays they never change
      // (a MsgApp's entries, a proposal's), so no copy is needed.
      if (this.entries.length === 0) {
        this.entries = ents as Entry[];
        this.shared = true;
        return;
      }
      if (this.shared) {
        // One exact-size copy, by hand (concat is slower) (the usual case under load: the last Ready's entries are still being written).
        const old = this.entries;
        const n = old.length;
        const out = new Array<Entry>(n + ents.length);
        for (let i = 0; i < n; i++) out[i] = old[i]!;
        for (let i = 0; i < ents.length; i++) out[n + i] = ents[i]!;
        this.entries = out;
        this.shared = false;
        return;
      }
      for (let i = 0; i < ents.length; i++) this.entries.push(ents[i]!);
    } else if (after <= this.offset) {
      // The log is being truncated to before our current offset portion, so
      // set the offset and replace the entries (adopted, shared: copied before any push).
      this.offset = after;
      this.entries = ents as Entry[];
      this.shared = true;
    } else {
      // truncate to after, then append
      this.entries = this.entries.slice(0, after - this.offset);
      this.shared = false;
      for (let i = 0; i < ents.length; i++) this.entries.push(ents[i]!);
    }
  }

  /** All the unstable entries, without copying: the array is marked shared and never mutated again. */
  takeShared(): Entry[] {
    this.shared = true;
    return this.entries;
  }

  /** A copy of the entries in [lo, hi). */
  slice(lo: number, hi: number): Entry[] {
    this.mustCheckOutOfBounds(lo, hi);
    return this.entries.slice(lo - this.offset, hi - this.offset);
  }

  /** u.offset <= lo <= hi <= u.offset+len(u.entries) */
  mustCheckOutOfBounds(lo: number, hi: number): void {
    if (lo > hi) panic(`invalid unstable.slice ${lo} > ${hi}`);
    const upper = this.offset + this.entries.length;
    if (lo < this.offset || hi > upper) panic(`unstable.slice[${lo},${hi}) out of bound [${this.offset},${upper}]`);
  }
}

registerClass('RaftUnstable', Unstable);
