// The MVCC store with watches (server/mvcc/watchable_store.go, watcher.go)
// plus the per-stream parts of the gRPC watch server that shape what a client
// receives (server/etcdserver/api/v3rpc/watch.go: created/canceled control
// responses, prev_kv, fragmentation, progress notifications).
//
// Pull model, no goroutines: responses pile up in an outbox, in the order a
// client would receive them, and the caller drains it with
// takeWatchResponses() after each apply and after each syncWatchers() (which
// upstream runs every 100 ms).
//
// - A watcher that starts at a revision already in the store (startRevision
//   <= current) is unsynced: syncWatchers() replays its history from the
//   backend in batches of at most 1000 revisions, then moves it to synced.
// - A synced watcher gets one response per write txn, with all the txn's
//   matching events together, as soon as the txn is applied.
// - An unsynced watcher whose next revision was compacted gets one response
//   with compactRevision set and canceled (header revision 0, as upstream).
import { ErrCompacted, isEtcdError, MvccErrorText } from '../api/errors';
import { MaxRequestBytesWithOverhead, MaxWatchersPerSync, WatchBatchMaxRevs } from '../api/limits';
import { watchEventFieldSize, watchResponseBaseSize } from '../api/protoSize';
import {
  InvalidWatchId,
  isCreateEvent,
  type Event,
  type KeyValue,
  type ResponseHeader,
  type WatchCreateRequest,
  type WatchResponse,
} from '../api/rpc';
import { registerClass } from '../../sim/serial';
import { MvccStore, type KvRecord, type LeaseItems } from './kvstore';
import { packRev, revMain } from './revision';
import { newWatcherBatch, Watcher, WatcherGroup } from './watcherGroup';

/** One response for one client watch stream. */
export interface WatchDelivery {
  streamId: string;
  response: WatchResponse;
}

/** Shared, frozen empty drain (an accidental push throws instead of leaking into every caller). */
const noDeliveries: WatchDelivery[] = Object.freeze([]) as unknown as WatchDelivery[];

/** A client's gRPC watch stream: watch ids are allocated per stream. */
export class WatchStream {
  nextId = 0;
  readonly watchers = new Map<number, Watcher>();
  constructor(readonly id: string) {}
}

export interface HeaderInfo {
  clusterId: number;
  memberId: number;
  raftTerm: number;
}

export class WatchableStore extends MvccStore {
  private unsynced = new WatcherGroup();
  private synced = new WatcherGroup();
  private streams = new Map<string, WatchStream>();
  private outbox: WatchDelivery[] = [];
  /** Filled into response headers (the v3rpc header.fill). */
  readonly headerInfo: HeaderInfo = { clusterId: 0, memberId: 0, raftTerm: 0 };

  constructor(le: LeaseItems | null = null) {
    super(le);
  }

  /** Drains the responses produced since the last call, in delivery order (read only). */
  takeWatchResponses(): WatchDelivery[] {
    const out = this.outbox;
    if (out.length === 0) return noDeliveries; // members drain after every Ready: mostly nothing
    this.outbox = [];
    return out;
  }

  syncedCount(): number {
    return this.synced.size;
  }

  unsyncedCount(): number {
    return this.unsynced.size;
  }

  header(revision: number): ResponseHeader {
    const h = this.headerInfo;
    return { clusterId: h.clusterId, memberId: h.memberId, revision, raftTerm: h.raftTerm };
  }

  private response(revision: number, watchId: number, extra: Partial<WatchResponse> = {}): WatchResponse {
    return {
      header: this.header(revision),
      watchId,
      created: false,
      canceled: false,
      compactRevision: 0,
      cancelReason: '',
      fragment: false,
      events: [],
      ...extra,
    };
  }

  /**
   * A WatchCreateRequest on a stream (created on first use). Queues the
   * "created" response (or a created+canceled one on failure) and returns the
   * watch id, or -1 on failure.
   */
  watch(streamId: string, req: WatchCreateRequest): number {
    let stream = this.streams.get(streamId);
    if (!stream) this.streams.set(streamId, (stream = new WatchStream(streamId)));
    const key = req.key ? req.key : '\0'; // \x00 is the smallest key
    const end = !req.rangeEnd ? null : req.rangeEnd === '\0' ? '' : req.rangeEnd;
    const startRev = req.startRevision ?? 0;
    const fail = (reason: string): number => {
      this.outbox.push({
        streamId,
        response: this.response(this.currentRev, InvalidWatchId, { created: true, canceled: true, cancelReason: reason }),
      });
      return InvalidWatchId;
    };
    // A negative start revision is not refused here: upstream creates the
    // watcher unsynced and syncWatchers cancels it with compact_revision.
    if (end !== null && end !== '' && key >= end) return fail(MvccErrorText.emptyWatcherRange);
    let id = req.watchId ?? 0;
    if (id === 0) {
      while (stream.watchers.has(stream.nextId)) stream.nextId++;
      id = stream.nextId++;
    } else if (stream.watchers.has(id)) {
      return fail(MvccErrorText.watcherDuplicateId);
    }
    const synced = startRev > this.currentRev || startRev === 0;
    const minRev = synced ? Math.max(this.currentRev + 1, startRev) : startRev;
    const w = new Watcher(
      streamId,
      id,
      key,
      end,
      minRev,
      [...(req.filters ?? [])],
      !!req.prevKv,
      !!req.progressNotify,
      !!req.fragment,
    );
    (synced ? this.synced : this.unsynced).add(w);
    stream.watchers.set(id, w);
    this.outbox.push({ streamId, response: this.response(this.currentRev, id, { created: true }) });
    return id;
  }

  /** WatchCancelRequest: queues the canceled response; false if no such watcher (no response). */
  cancelWatch(streamId: string, watchId: number): boolean {
    const stream = this.streams.get(streamId);
    const w = stream?.watchers.get(watchId);
    if (!stream || !w) return false;
    this.unsynced.delete(w) || this.synced.delete(w);
    stream.watchers.delete(watchId);
    this.outbox.push({ streamId, response: this.response(this.currentRev, watchId, { canceled: true }) });
    return true;
  }

  /** The client's stream is gone: drop its watchers silently. */
  closeStream(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    for (const w of stream.watchers.values()) this.unsynced.delete(w) || this.synced.delete(w);
    this.streams.delete(streamId);
    this.outbox = this.outbox.filter((d) => d.streamId !== streamId);
  }

  /**
   * WatchProgressRequest (RequestProgressAll): if every watcher of the stream
   * is synced, one response with watch id -1 at the current revision;
   * otherwise nothing (clients ask again).
   */
  requestProgress(streamId: string): boolean {
    const stream = this.streams.get(streamId);
    if (!stream) return false;
    for (const w of stream.watchers.values()) if (!this.synced.has(w)) return false;
    if (stream.watchers.size > 0) {
      this.outbox.push({ streamId, response: this.response(this.currentRev, InvalidWatchId) });
    }
    return true;
  }

  /**
   * The stream's progress ticker fired (every ProgressReportIntervalMs plus
   * jitter; the caller schedules it): each synced progress_notify watcher
   * that got no events since the last tick receives an empty response.
   */
  progressNotifyTick(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    for (const w of stream.watchers.values()) {
      if (!w.progressNotify) continue;
      if (w.progressDue && this.synced.has(w)) {
        this.outbox.push({ streamId, response: this.response(this.currentRev, w.id) });
      }
      w.progressDue = true;
    }
  }

  /** After a write txn: notify synced watchers, one response per watcher for the whole txn. */
  protected override afterWrite(rev: number, changes: readonly KeyValue[]): void {
    if (this.synced.size === 0) return;
    const evs: Event[] = changes.map((kv) =>
      kv.createRevision === 0
        ? { type: 'DELETE', kv: { key: kv.key, createRevision: 0, modRevision: rev, version: 0, value: '', lease: 0 } }
        : { type: 'PUT', kv },
    );
    for (const [w, eb] of newWatcherBatch(this.synced, evs)) {
      if (eb.revs !== 1) throw new Error('mvcc: unexpected multiple revisions in watch notification');
      this.send(w, rev, eb.evs);
      // Remember how far this watcher has been served, so that a snapshot
      // restore (which moves watchers back to unsynced) does not resend
      // history (etcd #15271, fixed upstream in notify()).
      w.minRev = rev + 1;
    }
  }

  /**
   * Catches unsynced watchers up from history (syncWatchers): up to
   * maxWatchers at a time; returns how many are still unsynced. Upstream runs
   * it every 100 ms, sooner while it makes progress.
   */
  syncWatchers(maxWatchers = MaxWatchersPerSync, maxRevs = WatchBatchMaxRevs): number {
    if (this.unsynced.size === 0) return 0;
    const curRev = this.currentRev;
    const compactionRev = this.compactMainRev;
    const all = [...this.unsynced.watchers];
    const chosen = all.length < maxWatchers ? all : all.slice(0, maxWatchers);
    const group = new WatcherGroup();
    let minRev = Infinity;
    for (const w of chosen) {
      if (w.minRev > curRev) {
        if (!w.restore) throw new Error(`watcher minimum revision ${w.minRev} should not exceed current revision ${curRev}`);
        w.restore = false;
      }
      if (w.minRev < compactionRev) {
        // Its history is gone: tell the client and stop watching.
        this.outbox.push({
          streamId: w.streamId,
          response: { ...this.response(0, w.id), compactRevision: compactionRev, canceled: true },
        });
        w.compacted = true;
        this.unsynced.delete(w);
        continue;
      }
      group.add(w);
      if (w.minRev < minRev) minRev = w.minRev;
    }

    const evs: Event[] = [];
    if (group.size > 0) {
      const records = this.records();
      for (let i = this.lowerBoundRecord(packRev(Math.max(minRev, 0))); i < records.length; i++) {
        const rec = records[i]!;
        if (revMain(rec.rev) > curRev) break;
        if (!group.contains(rec.kv.key)) continue;
        evs.push(recordToEvent(rec));
      }
    }
    const wb = newWatcherBatch(group, evs, maxRevs);
    for (const w of group.watchers) {
      w.minRev = curRev + 1;
      const eb = wb.get(w);
      if (!eb) {
        this.unsynced.delete(w);
        this.synced.add(w);
        continue;
      }
      if (eb.moreRev !== 0) w.minRev = eb.moreRev;
      this.send(w, curRev, eb.evs);
      if (eb.moreRev !== 0) continue; // more to read: stays unsynced
      this.unsynced.delete(w);
      this.synced.add(w);
    }
    return this.unsynced.size;
  }

  /** Snapshot restore: watchers keep their streams but catch up again from the new state. */
  override restore(records: KvRecord[], currentRev: number, compactMainRev: number): void {
    super.restore(records, currentRev, compactMainRev);
    for (const w of this.synced.watchers) {
      w.restore = true;
      this.unsynced.add(w);
    }
    this.synced = new WatcherGroup();
  }

  /** watcher.send + the v3rpc sendLoop: filters, prev_kv, fragments, progress bookkeeping. */
  private send(w: Watcher, rev: number, events: readonly Event[]): void {
    const progressEvent = events.length === 0;
    const kept = w.filters.length > 0 ? events.filter((ev) => !w.filtered(ev)) : events;
    if (!progressEvent && kept.length === 0) return; // everything filtered: send nothing
    const out: Event[] = new Array<Event>(kept.length);
    for (let i = 0; i < kept.length; i++) {
      const ev = kept[i]!;
      const e: Event = { type: ev.type, kv: { ...ev.kv } };
      if (w.prevKv && !isCreateEvent(ev)) {
        // v3rpc reads the previous value at send time, at modRevision - 1
        // (a range of the one key there, which copies what it finds).
        const prev = this.getKey(ev.kv.key, ev.kv.modRevision - 1);
        if (prev !== null && !isEtcdError(prev)) e.prevKv = { ...prev };
      }
      out[i] = e;
    }
    const h = this.headerInfo;
    const resp: WatchResponse = {
      header: { clusterId: h.clusterId, memberId: h.memberId, revision: rev, raftTerm: h.raftTerm },
      watchId: w.id,
      created: false,
      canceled: false,
      compactRevision: 0,
      cancelReason: '',
      fragment: false,
      events: out,
    };
    if (w.fragment) this.pushFragments(w.streamId, resp);
    else this.outbox.push({ streamId: w.streamId, response: resp });
    if (out.length > 0 && w.progressNotify) w.progressDue = false; // elide the next progress update
  }

  /** sendFragments: split a response over the size limit into fragment-flagged parts. */
  private pushFragments(streamId: string, wr: WatchResponse, maxBytes = MaxRequestBytesWithOverhead): void {
    const base = watchResponseBaseSize(wr);
    let total = base;
    for (const ev of wr.events) total += watchEventFieldSize(ev);
    if (total < maxBytes || wr.events.length < 2) {
      this.outbox.push({ streamId, response: wr });
      return;
    }
    const fragBase = watchResponseBaseSize({ ...wr, fragment: true });
    let idx = 0;
    for (;;) {
      const evs: Event[] = [];
      let size = fragBase;
      for (; idx < wr.events.length; idx++) {
        const ev = wr.events[idx]!;
        const s = watchEventFieldSize(ev);
        if (evs.length >= 1 && size + s >= maxBytes) break;
        evs.push(ev);
        size += s;
      }
      const last = idx === wr.events.length;
      this.outbox.push({ streamId, response: { ...wr, header: { ...wr.header }, events: evs, fragment: !last } });
      if (last) return;
    }
  }
}

/** kvsToEvents: a backend record as a watch event (deletes carry the key and the delete's revision). */
function recordToEvent(rec: KvRecord): Event {
  if (rec.tombstone) {
    return {
      type: 'DELETE',
      kv: { key: rec.kv.key, createRevision: 0, modRevision: revMain(rec.rev), version: 0, value: '', lease: 0 },
    };
  }
  return { type: 'PUT', kv: rec.kv };
}

registerClass('etcd.WatchStream', WatchStream);
registerClass('etcd.WatchableStore', WatchableStore);
