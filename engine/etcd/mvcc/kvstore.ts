// The multi-version key-value store (server/mvcc/kvstore.go, kvstore_txn.go).
//
// State: `backend` is the key bucket — one record per change, ordered by
// revision (main, sub), never rewritten except by compaction; `kvindex` maps
// each key to its generations of revisions. A write txn makes all its
// changes at revision currentRev + 1 (subs 0, 1, ...) and bumps currentRev
// once at the end if it changed anything. A new store is at revision 1, so
// the first write is revision 2.
import { ErrCompacted, ErrFutureRev, type EtcdError } from '../api/errors';
import type { KeyValue } from '../api/rpc';
import { registerClass } from '../../sim/serial';
import { crc32cUpdate } from './hash';
import { kiGet, kiLive, kiPut, kiRestore, kiTombstone, newKeyIndex } from './keyIndex';
import { packRev, revMain, revSub, type Rev } from './revision';
import { TreeIndex } from './treeIndex';

export interface KvRecord {
  rev: Rev;
  /** For a tombstone only `key` is meaningful (the rest is zero). */
  kv: KeyValue;
  tombstone: boolean;
}

export interface RangeOptions {
  /** At most this many kvs (<= 0: no limit). */
  limit?: number;
  /** Read at this revision (<= 0: the txn's revision). */
  rev?: number;
  /** Only count. */
  count?: boolean;
}

export interface RangeResult {
  kvs: KeyValue[];
  /** The revision of the read view (not the requested one). */
  rev: number;
  /** Keys in range at the requested revision, not capped by limit. */
  count: number;
}

/** What the store needs from the lessor to keep key/lease attachments. */
export interface LeaseItems {
  getLease(key: string): number;
  attach(id: number, keys: readonly string[]): boolean;
  detach(id: number, keys: readonly string[]): boolean;
}

/** A read view (mvcc.TxnRead). */
export interface TxnRead {
  rev(): number;
  firstRev(): number;
  range(key: string, end: string | null, ro: RangeOptions): RangeResult | EtcdError;
  /**
   * range(key, null, {}) for one key, without the copies: the key-value at the
   * view's revision as the store holds it (read only), or null when absent.
   */
  get(key: string): KeyValue | null | EtcdError;
}

const ZeroKv = (key: string): KeyValue => ({ key, createRevision: 0, modRevision: 0, version: 0, value: '', lease: 0 });

// Records are immutable once written (readers copy, events share them read
// only), and every member of a cluster writes the same ones: the same
// committed entries in the same order give the same record at each revision.
// So members share record objects. The first store to write a change leaves
// its record in this small direct-mapped table; a store writing the same
// revision soon after reuses it when every field is equal, and otherwise
// allocates its own. A pure memo: content-checked, bounded, not store state
// (a miss behaves exactly as before). It removes four of five allocations per
// change in a five-member cluster, and most of the history's memory.
const SHARED_SLOTS = 1024; // a power of two
const sharedRecords: (KvRecord | undefined)[] = new Array<KvRecord | undefined>(SHARED_SLOTS).fill(undefined);

function sharedSlot(main: number, sub: number): number {
  return (main * 31 + sub) & (SHARED_SLOTS - 1);
}

function putRecord(main: number, sub: number, key: string, createRevision: number, version: number, value: string, lease: number): KvRecord {
  const rev = packRev(main, sub);
  const slot = sharedSlot(main, sub);
  const r = sharedRecords[slot];
  if (r !== undefined && r.rev === rev && !r.tombstone) {
    const kv = r.kv;
    if (kv.key === key && kv.createRevision === createRevision && kv.modRevision === main && kv.version === version && kv.value === value && kv.lease === lease) return r;
  }
  const fresh: KvRecord = { rev, kv: { key, createRevision, modRevision: main, version, value, lease }, tombstone: false };
  sharedRecords[slot] = fresh;
  return fresh;
}

function tombstoneRecord(main: number, sub: number, key: string): KvRecord {
  const rev = packRev(main, sub);
  const slot = sharedSlot(main, sub);
  const r = sharedRecords[slot];
  if (r !== undefined && r.rev === rev && r.tombstone && r.kv.key === key) return r;
  const fresh: KvRecord = { rev, kv: ZeroKv(key), tombstone: true };
  sharedRecords[slot] = fresh;
  return fresh;
}

export class MvccStore {
  /** Revision of the last completed write txn. */
  currentRev = 1;
  /** Main revision of the last compaction; -1 if never compacted. */
  compactMainRev = -1;
  protected kvindex = new TreeIndex();
  protected backend: KvRecord[] = [];
  /** The lessor (the KV keeps its key attachments up to date). */
  le: LeaseItems | null;

  constructor(le: LeaseItems | null = null) {
    this.le = le;
  }

  rev(): number {
    return this.currentRev;
  }

  firstRev(): number {
    return this.compactMainRev;
  }

  /** Number of keys in the index (including deleted keys not yet compacted). */
  indexSize(): number {
    return this.kvindex.size;
  }

  /** All records, in revision order (read only). */
  records(): readonly KvRecord[] {
    return this.backend;
  }

  read(): TxnRead {
    return new StoreTxnRead(this, this.compactMainRev, this.currentRev);
  }

  write(): StoreTxnWrite {
    return new StoreTxnWrite(this, this.currentRev);
  }

  /** Range on a fresh read view. */
  range(key: string, end: string | null, ro: RangeOptions = {}): RangeResult | EtcdError {
    return this.rangeKeys(key, end, this.currentRev, ro);
  }

  /** storeTxnRead.rangeKeys: curRev is the view's revision. */
  rangeKeys(key: string, end: string | null, curRev: number, ro: RangeOptions): RangeResult | EtcdError {
    let rev = ro.rev ?? 0;
    if (rev > curRev) return ErrFutureRev;
    if (rev <= 0) rev = curRev;
    if (rev < this.compactMainRev) return ErrCompacted;
    if (ro.count) return { kvs: [], count: this.kvindex.countRevisions(key, end, rev), rev: curRev };
    if (end === null) {
      const kv = this.kvAt(key, rev);
      return kv === null ? { kvs: [], count: 0, rev: curRev } : { kvs: [{ ...kv }], count: 1, rev: curRev };
    }
    const { revs, total } = this.kvindex.revisions(key, end, rev, ro.limit ?? 0);
    const kvs: KeyValue[] = new Array(revs.length);
    for (let i = 0; i < revs.length; i++) {
      const rec = this.recordAt(revs[i]!);
      if (!rec) throw new Error(`mvcc: range failed to find revision ${revMain(revs[i]!)}.${revSub(revs[i]!)}`);
      kvs[i] = { ...rec.kv };
    }
    return { kvs, count: total, rev: curRev };
  }

  /** rangeKeys(key, null, curRev, {}) without copying: the stored key-value (read only), or null. */
  getKey(key: string, curRev: number): KeyValue | null | EtcdError {
    if (curRev < this.compactMainRev) return ErrCompacted;
    return this.kvAt(key, curRev);
  }

  /** The stored key-value of key at main revision rev (read only), null when absent then. */
  private kvAt(key: string, rev: number): KeyValue | null {
    const ki = this.kvindex.keyIndex(key);
    if (ki === undefined) return null;
    // The last change is a put at or before rev: it is what a read there sees.
    const last = ki.rec;
    if (last != null && last.rev === ki.modified && ki.modified < rev + 1) return last.kv;
    const at = kiGet(ki, rev);
    if (!at) return null;
    const rec = this.recordAt(at.modified);
    if (!rec) throw new Error(`mvcc: range failed to find revision ${revMain(at.modified)}.${revSub(at.modified)}`);
    return rec.kv;
  }

  /** Index of the first record with revision >= rev. */
  lowerBoundRecord(rev: Rev): number {
    let lo = 0;
    let hi = this.backend.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.backend[mid]!.rev < rev) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  recordAt(rev: Rev): KvRecord | undefined {
    // Every main revision after the last compaction has at least one record,
    // so at least currentRev - main(rev) records come after rev's: it sits at
    // that many from the end when each txn since made one change (a Lease
    // renewal, most writes), and the binary search below would cost a dozen
    // dependent loads across a history of tens of thousands of records, each
    // a cache miss. Only a hint: checked, then searched as before.
    const backend = this.backend;
    const guess = backend.length - 1 - (this.currentRev - revMain(rev));
    if (guess >= 0 && guess < backend.length) {
      const g = backend[guess]!;
      if (g.rev === rev) return g;
    }
    const i = this.lowerBoundRecord(rev);
    const rec = backend[i];
    return rec && rec.rev === rev ? rec : undefined;
  }

  /** Appends a change; called by write txns only. */
  appendRecord(rec: KvRecord): void {
    this.backend.push(rec);
  }

  index(): TreeIndex {
    return this.kvindex;
  }

  /** Called by a write txn's end(). */
  endWrite(tw: StoreTxnWrite): void {
    if (tw.changes.length === 0) return;
    this.currentRev++;
    this.afterWrite(this.currentRev, tw.changes);
  }

  /** Hook for the watchable store: a write txn committed these changes at rev. */
  protected afterWrite(_rev: number, _changes: readonly KeyValue[]): void {}

  /**
   * Compact: forget history at and before rev, keeping for each key its
   * latest revision <= rev unless that is a delete. Done synchronously here
   * (upstream finishes the physical part in the background).
   */
  compact(rev: number): EtcdError | null {
    if (rev <= this.compactMainRev) return ErrCompacted;
    if (rev > this.currentRev) return ErrFutureRev;
    this.compactMainRev = rev;
    const keep = this.kvindex.compact(rev);
    this.backend = this.backend.filter((r) => revMain(r.rev) > rev || keep.has(r.rev));
    return null;
  }

  /**
   * HashByRev: a CRC-32C over the records a compaction at rev would keep and
   * every record after the last compaction, up to rev. Equal on members with
   * equal state. (Same idea as etcd's HashKV; not byte-identical to it.)
   */
  hashByRev(rev = 0): { hash: number; currentRev: number; compactRev: number } | EtcdError {
    const compactRev = this.compactMainRev;
    const currentRev = this.currentRev;
    if (rev > 0 && rev <= compactRev) return ErrCompacted;
    if (rev > 0 && rev > currentRev) return ErrFutureRev;
    if (rev === 0) rev = currentRev;
    const keep = this.kvindex.keep(rev);
    let h = crc32cUpdate(0, 'key');
    for (const r of this.backend) {
      const main = revMain(r.rev);
      if (main > rev) break;
      if (main <= compactRev && keep.size > 0 && !keep.has(r.rev)) continue;
      const kv = r.kv;
      h = crc32cUpdate(
        h,
        `${main}_${revSub(r.rev)}${r.tombstone ? 't' : ''}\0${kv.key}\0${kv.createRevision}\0${kv.modRevision}\0${kv.version}\0${kv.lease}\0${kv.value}`,
      );
    }
    return { hash: h, currentRev, compactRev };
  }

  /**
   * Restore from records (a snapshot's key bucket), as kvstore.go restore():
   * rebuild the index in revision order, then attach leased keys.
   */
  restore(records: KvRecord[], currentRev: number, compactMainRev: number): void {
    this.backend = records;
    this.kvindex = new TreeIndex();
    this.compactMainRev = compactMainRev;
    const keyToLease = new Map<string, number>();
    let lastMain = 1;
    for (const rec of records) {
      const key = rec.kv.key;
      if (rec.tombstone) keyToLease.delete(key);
      else if (rec.kv.lease !== 0) keyToLease.set(key, rec.kv.lease);
      else keyToLease.delete(key);
      lastMain = revMain(rec.rev);
      const ki = this.kvindex.keyIndex(key);
      if (ki) {
        if (rec.tombstone) kiTombstone(ki, rec.rev);
        else kiPut(ki, rec.rev);
        ki.rec = rec.tombstone ? null : rec;
      } else if (!rec.tombstone) {
        const fresh = newKeyIndex(key);
        kiRestore(fresh, packRev(rec.kv.createRevision, 0), rec.rev, rec.kv.version);
        fresh.rec = rec;
        this.kvindex.insert(fresh);
      }
    }
    // Upstream derives the revision from the records; a snapshot also carries it.
    this.currentRev = Math.max(currentRev, lastMain, compactMainRev);
    if (this.le) for (const [key, lid] of keyToLease) this.le.attach(lid, [key]);
  }
}

/** A read view fixed at creation (storeTxnRead). */
export class StoreTxnRead implements TxnRead {
  constructor(
    private readonly store: MvccStore,
    private readonly firstRevision: number,
    private readonly revision: number,
  ) {}

  rev(): number {
    return this.revision;
  }

  firstRev(): number {
    return this.firstRevision;
  }

  range(key: string, end: string | null, ro: RangeOptions): RangeResult | EtcdError {
    return this.store.rangeKeys(key, end, this.revision, ro);
  }

  get(key: string): KeyValue | null | EtcdError {
    return this.store.getKey(key, this.revision);
  }
}

/** A write txn (storeTxnWrite): every change lands at beginRev + 1. */
export class StoreTxnWrite implements TxnRead {
  readonly changes: KeyValue[] = [];

  constructor(
    private readonly store: MvccStore,
    /** The revision the txn started from; it writes beginRev + 1. */
    readonly beginRev: number,
  ) {}

  rev(): number {
    return this.beginRev;
  }

  /** Upstream's write txns report 0 here. */
  firstRev(): number {
    return 0;
  }

  /** Reads see this txn's own earlier changes. */
  range(key: string, end: string | null, ro: RangeOptions): RangeResult | EtcdError {
    const rev = this.changes.length > 0 ? this.beginRev + 1 : this.beginRev;
    return this.store.rangeKeys(key, end, rev, ro);
  }

  get(key: string): KeyValue | null | EtcdError {
    return this.store.getKey(key, this.changes.length > 0 ? this.beginRev + 1 : this.beginRev);
  }

  /** Puts key; returns the revision of the change. */
  put(key: string, value: string, leaseId: number): number {
    const rev = this.beginRev + 1;
    const idx = this.store.index();
    const le = this.store.le;
    // One index lookup serves both the read of the previous version and the
    // update; as rev is above every revision in the index, the previous
    // version is the live generation's (kiGet(ki, rev) without the search).
    const ki = idx.keyIndex(key);
    const prev = ki ? kiLive(ki) : null;
    let created = rev;
    let oldLease = 0;
    if (prev) {
      created = revMain(prev.created);
      oldLease = le ? le.getLease(key) : 0;
    }
    const rec = putRecord(rev, this.changes.length, key, created, (prev ? prev.ver : 0) + 1, value, leaseId);
    const idxRev = rec.rev;
    const kv = rec.kv;
    this.store.appendRecord(rec);
    if (ki) kiPut(ki, idxRev);
    (ki ?? idx.put(key, idxRev)).rec = rec;
    this.changes.push(kv);
    if (oldLease === leaseId) return rev;
    if (oldLease !== 0 && le) le.detach(oldLease, [key]);
    if (leaseId !== 0) {
      if (!le) throw new Error('mvcc: no lessor to attach lease');
      if (!le.attach(leaseId, [key])) throw new Error(`mvcc: unexpected error from lease Attach ${leaseId}`);
    }
    return rev;
  }

  /** Deletes the keys live in range; returns [deleted, revision]. */
  deleteRange(key: string, end: string | null): [number, number] {
    const rrev = this.changes.length > 0 ? this.beginRev + 1 : this.beginRev;
    const { keys } = this.store.index().range(key, end, rrev);
    for (const k of keys) this.delete(k);
    if (keys.length !== 0 || this.changes.length > 0) return [keys.length, this.beginRev + 1];
    return [0, this.beginRev];
  }

  private delete(key: string): void {
    const rec = tombstoneRecord(this.beginRev + 1, this.changes.length, key);
    const idxRev = rec.rev;
    const kv = rec.kv;
    this.store.appendRecord(rec);
    const idx = this.store.index();
    if (!idx.tombstone(key, idxRev)) throw new Error(`mvcc: failed to tombstone an existing key ${key}`);
    idx.keyIndex(key)!.rec = null;
    this.changes.push(kv);
    const le = this.store.le;
    if (!le) return;
    const leaseId = le.getLease(key);
    if (leaseId !== 0) le.detach(leaseId, [key]);
  }

  end(): void {
    this.store.endWrite(this);
  }
}

registerClass('etcd.MvccStore', MvccStore);
registerClass('etcd.StoreTxnRead', StoreTxnRead);
registerClass('etcd.StoreTxnWrite', StoreTxnWrite);
