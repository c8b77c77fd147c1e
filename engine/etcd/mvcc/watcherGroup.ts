// Watchers and the groups the watchable store keeps them in
// (server/mvcc/watcher_group.go, watchable_store.go `watcher`). Iteration
// orders are insertion orders, so delivery order is deterministic (upstream
// iterates Go maps).
import type { Event, WatchFilterType } from '../api/rpc';
import { registerClass } from '../../sim/serial';
import { WatchBatchMaxRevs } from '../api/limits';

export class Watcher {
  /** Moved out of the groups because its start revision was compacted. */
  compacted = false;
  /** Moved back to unsynced by a snapshot restore; may be ahead of the store. */
  restore = false;
  /** v3rpc progress[id]: the next progress tick notifies unless events were sent since. */
  progressDue = true;

  constructor(
    readonly streamId: string,
    readonly id: number,
    readonly key: string,
    /** null: the single key; '': every key >= key; else [key, end). */
    readonly end: string | null,
    /** The lowest revision this watcher still accepts. */
    public minRev: number,
    readonly filters: readonly WatchFilterType[],
    readonly prevKv: boolean,
    readonly progressNotify: boolean,
    readonly fragment: boolean,
  ) {}

  matches(key: string): boolean {
    if (this.end === null) return key === this.key;
    return key >= this.key && (this.end === '' || key < this.end);
  }

  /** True if a filter drops the event (FilterFunc). */
  filtered(ev: Event): boolean {
    for (const f of this.filters) {
      if (f === 'NOPUT' && ev.type === 'PUT') return true;
      if (f === 'NODELETE' && ev.type === 'DELETE') return true;
    }
    return false;
  }
}

/** Events for one watcher, capped at WatchBatchMaxRevs distinct revisions (eventBatch). */
export class EventBatch {
  evs: Event[] = [];
  revs = 0;
  /** First revision left out because the batch was full, 0 if none. */
  moreRev = 0;

  add(ev: Event, maxRevs = WatchBatchMaxRevs): void {
    if (this.revs > maxRevs) return;
    if (this.evs.length === 0) {
      this.revs = 1;
      this.evs.push(ev);
      return;
    }
    const ebRev = this.evs[this.evs.length - 1]!.kv.modRevision;
    const evRev = ev.kv.modRevision;
    if (evRev > ebRev) {
      this.revs++;
      if (this.revs > maxRevs) {
        this.moreRev = evRev;
        return;
      }
    }
    this.evs.push(ev);
  }
}

interface RangeEntry {
  key: string;
  end: string;
  watchers: Set<Watcher>;
}

// Binary strings never contain U+0100, so it separates key and end safely.
const rangeId = (key: string, end: string): string => key + '\u0100' + end;

/**
 * The range entries each key falls in, per group, in the group's order: a
 * kube-apiserver watches one prefix per resource (some forty ranges), and every
 * write compared its key with each of them. A pure memo, not group state (a
 * snapshot leaves it out): dropped whenever the group's ranges change, and
 * cleared when it grows past MEMO_KEYS; used only when there are enough ranges
 * for the scan to cost more than the lookup.
 */
const rangeMemos = new WeakMap<WatcherGroup, Map<string, RangeEntry[]>>();
const MEMO_KEYS = 4096;
const MEMO_MIN_RANGES = 8;

export class WatcherGroup {
  /** Watchers of a single key. */
  private keyWatchers = new Map<string, Set<Watcher>>();
  /** Watchers of ranges, grouped by identical interval. */
  private ranges = new Map<string, RangeEntry>();
  readonly watchers = new Set<Watcher>();

  get size(): number {
    return this.watchers.size;
  }

  has(w: Watcher): boolean {
    return this.watchers.has(w);
  }

  add(w: Watcher): void {
    if (this.watchers.has(w)) throw new Error('add watcher twice!');
    this.watchers.add(w);
    if (w.end === null) {
      let set = this.keyWatchers.get(w.key);
      if (!set) this.keyWatchers.set(w.key, (set = new Set()));
      set.add(w);
      return;
    }
    const id = rangeId(w.key, w.end);
    let entry = this.ranges.get(id);
    if (!entry) {
      this.ranges.set(id, (entry = { key: w.key, end: w.end, watchers: new Set() }));
      rangeMemos.delete(this);
    }
    entry.watchers.add(w);
  }

  delete(w: Watcher): boolean {
    if (!this.watchers.delete(w)) return false;
    if (w.end === null) {
      const set = this.keyWatchers.get(w.key);
      if (set) {
        set.delete(w);
        if (set.size === 0) this.keyWatchers.delete(w.key);
      }
      return true;
    }
    const id = rangeId(w.key, w.end);
    const entry = this.ranges.get(id);
    if (entry) {
      entry.watchers.delete(w);
      if (entry.watchers.size === 0) {
        this.ranges.delete(id);
        rangeMemos.delete(this);
      }
    }
    return true;
  }

  /** Whether some watcher in the group watches key. */
  contains(key: string): boolean {
    if (this.keyWatchers.has(key)) return true;
    for (const r of this.ranges.values()) if (key >= r.key && (r.end === '' || key < r.end)) return true;
    return false;
  }

  /** The watchers that receive events on key (watcherSetByKey). */
  watchersOf(key: string, out: Watcher[] = []): Watcher[] {
    if (this.keyWatchers.size !== 0) {
      const set = this.keyWatchers.get(key);
      if (set) for (const w of set) out.push(w);
    }
    if (this.ranges.size < MEMO_MIN_RANGES) {
      for (const r of this.ranges.values()) {
        if (key >= r.key && (r.end === '' || key < r.end)) for (const w of r.watchers) out.push(w);
      }
      return out;
    }
    let memo = rangeMemos.get(this);
    if (memo === undefined) rangeMemos.set(this, (memo = new Map()));
    let entries = memo.get(key);
    if (entries === undefined) {
      entries = [];
      for (const r of this.ranges.values()) if (key >= r.key && (r.end === '' || key < r.end)) entries.push(r);
      if (memo.size >= MEMO_KEYS) memo.clear();
      memo.set(key, entries);
    }
    for (let i = 0; i < entries.length; i++) for (const w of entries[i]!.watchers) out.push(w);
    return out;
  }
}

/** Maps watchers to the events they should get (newWatcherBatch); skips events below minRev. */
export function newWatcherBatch(wg: WatcherGroup, evs: readonly Event[], maxRevs = WatchBatchMaxRevs): Map<Watcher, EventBatch> {
  const wb = new Map<Watcher, EventBatch>();
  if (wg.size === 0) return wb;
  const scratch: Watcher[] = [];
  for (const ev of evs) {
    scratch.length = 0;
    for (const w of wg.watchersOf(ev.kv.key, scratch)) {
      if (ev.kv.modRevision < w.minRev) continue; // don't double notify
      let eb = wb.get(w);
      if (!eb) wb.set(w, (eb = new EventBatch()));
      eb.add(ev, maxRevs);
    }
  }
  return wb;
}

registerClass('etcd.Watcher', Watcher);
registerClass('etcd.EventBatch', EventBatch);
registerClass('etcd.WatcherGroup', WatcherGroup);
