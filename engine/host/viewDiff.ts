// Turns engine views into compact per-frame updates: only what changed since
// the previous post. It compares against what it last sent, so the UI's store
// and this differ always agree on the current picture.
import type {
  ActiveFault,
  EngineState,
  EtcdClusterView,
  EtcdOpResult,
  KvEntryView,
  TraceRecordView,
  WatchView,
} from '../facade/types';
import { REQUEST_POST_LIMIT, TRACE_POST_LIMIT, type ClockView, type ViewUpdate, type WatchDelta } from './protocol';
import type { RequestRecord } from '../apiserver/records/types';

/** The part of the Engine facade the differ reads. */
export interface ViewSource {
  state(): EngineState;
  etcdView(): EtcdClusterView;
  trace(sinceN: number, limit?: number): TraceRecordView[];
  opResults(sinceId?: number): EtcdOpResult[];
  watches(): WatchView[];
  /** kube-apiserver request records with id > sinceId (absent without a control plane). */
  requests?(sinceId?: number, limit?: number): RequestRecord[];
  /** The faults in effect (absent in sources without a fault book). */
  activeFaults?(): ActiveFault[];
}

/** The number of trace records written so far, from the `count:hash` digest. */
export function traceCount(digest: string): number {
  const n = Number.parseInt(digest.split(':')[0] ?? '', 10);
  return Number.isFinite(n) ? n : 0;
}

export class ViewDiffer {
  private seq = 0;
  private sentFull = false;
  private memberJson = new Map<string, string>();
  private memberOrder = '';
  private inFlightKey = '';
  private kvMod = new Map<string, string>();
  private kvHead = '';
  private partitionJson = '';
  private lastTraceN = -1;
  private lastOpId = 0;
  private pendingOps = new Set<number>();
  private watchSent = new Map<number, { count: number; canceled?: string }>();
  private componentsJson = '';
  private clockJson = '';
  private lastRequestId = 0;
  private pendingRequests = new Set<number>();
  private faultsJson = '';

  /** Forget what was sent: the next update is full. */
  reset(): void {
    this.sentFull = false;
    this.memberJson.clear();
    this.memberOrder = '';
    this.inFlightKey = '';
    this.kvMod.clear();
    this.kvHead = '';
    this.partitionJson = '';
    this.lastTraceN = -1;
    this.lastOpId = 0;
    this.pendingOps.clear();
    this.watchSent.clear();
    this.componentsJson = '';
    this.clockJson = '';
    this.lastRequestId = 0;
    this.pendingRequests.clear();
    this.faultsJson = '';
  }

  /** Builds the next update, or null when nothing at all changed. */
  next(src: ViewSource, control: { speed: number; playing: boolean; lagging: boolean }): ViewUpdate | null {
    const full = !this.sentFull;
    const state = src.state();
    const clock: ClockView = {
      virtualTime: state.virtualTime,
      events: state.events,
      speed: control.speed,
      playing: control.playing,
      lagging: control.lagging,
      traceDigest: state.traceDigest,
    };
    const u: ViewUpdate = { seq: 0, full, clock };
    let changed = full;

    const clockJson = JSON.stringify(clock);
    if (clockJson !== this.clockJson) {
      this.clockJson = clockJson;
      changed = true;
    }

    const componentsJson = JSON.stringify(state.components);
    if (componentsJson !== this.componentsJson) {
      this.componentsJson = componentsJson;
      u.components = state.components;
      changed = true;
    }

    const view = src.etcdView();
    changed = this.diffMembers(view, u) || changed;

    const inFlightKey = view.inFlight.map((m) => `${m.msgId}@${m.arriveAt}`).join(',');
    if (full || inFlightKey !== this.inFlightKey) {
      this.inFlightKey = inFlightKey;
      u.inFlight = view.inFlight;
      changed = true;
    }

    changed = this.diffKv(view, u, full) || changed;

    const partitionJson = JSON.stringify([view.partition, view.blocked]);
    if (full || partitionJson !== this.partitionJson) {
      this.partitionJson = partitionJson;
      u.partition = { groups: view.partition, blocked: view.blocked };
      changed = true;
    }

    if (src.activeFaults) {
      const faults = src.activeFaults();
      const faultsJson = JSON.stringify(faults);
      if (full || faultsJson !== this.faultsJson) {
        this.faultsJson = faultsJson;
        u.faults = faults;
        changed = true;
      }
    }

    changed = this.diffTrace(src, state, u) || changed;
    changed = this.diffOps(src, u) || changed;
    changed = this.diffRequests(src, u) || changed;
    changed = this.diffWatches(src, u) || changed;

    if (!changed) return null;
    this.sentFull = true;
    u.seq = ++this.seq;
    return u;
  }

  private diffMembers(view: EtcdClusterView, u: ViewUpdate): boolean {
    const order = view.members.map((m) => m.name).join(',');
    let changed = false;
    if (u.full || order !== this.memberOrder) {
      this.memberOrder = order;
      u.memberOrder = view.members.map((m) => m.name);
      for (const name of [...this.memberJson.keys()]) if (!u.memberOrder.includes(name)) this.memberJson.delete(name);
      changed = true;
    }
    const members = [];
    for (const m of view.members) {
      const json = JSON.stringify(m);
      if (u.full || this.memberJson.get(m.name) !== json) {
        this.memberJson.set(m.name, json);
        members.push(m);
      }
    }
    if (members.length > 0) {
      u.members = members;
      changed = true;
    }
    return changed;
  }

  private diffKv(view: EtcdClusterView, u: ViewUpdate, full: boolean): boolean {
    const kv = view.kv;
    const changedKeys: KvEntryView[] = [];
    const seen = new Set<string>();
    for (const e of kv.keys) {
      seen.add(e.key);
      const sig = `${e.modRevision}:${e.version}:${e.createRevision}:${e.lease}:${e.value}`;
      if (full || this.kvMod.get(e.key) !== sig) {
        this.kvMod.set(e.key, sig);
        changedKeys.push(e);
      }
    }
    const removed: string[] = [];
    for (const key of [...this.kvMod.keys()]) {
      if (!seen.has(key)) {
        this.kvMod.delete(key);
        removed.push(key);
      }
    }
    const head = `${kv.from}:${kv.revision}:${kv.compactRevision}:${kv.total}`;
    if (!full && head === this.kvHead && changedKeys.length === 0 && removed.length === 0) return false;
    this.kvHead = head;
    u.kv = { from: kv.from, revision: kv.revision, compactRevision: kv.compactRevision, total: kv.total, changed: changedKeys, removed };
    return true;
  }

  private diffTrace(src: ViewSource, state: EngineState, u: ViewUpdate): boolean {
    const count = traceCount(state.traceDigest);
    const newest = count - 1;
    if (newest <= this.lastTraceN) return false;
    const since = Math.max(this.lastTraceN, newest - TRACE_POST_LIMIT);
    const records = src.trace(since, TRACE_POST_LIMIT);
    const skipped = since - this.lastTraceN;
    this.lastTraceN = records.length > 0 ? records[records.length - 1]!.n : newest;
    if (records.length === 0) return false;
    u.trace = records;
    if (skipped > 0 && !u.full) u.traceSkipped = skipped;
    return true;
  }

  private diffOps(src: ViewSource, u: ViewUpdate): boolean {
    // Ask from the oldest pending op so completions of earlier requests show up.
    let since = this.lastOpId;
    for (const id of this.pendingOps) since = Math.min(since, id - 1);
    const results = src.opResults(since);
    const out: EtcdOpResult[] = [];
    for (const r of results) {
      const isNew = r.id > this.lastOpId;
      const completed = this.pendingOps.has(r.id) && r.doneAt !== undefined;
      if (!isNew && !completed) continue;
      out.push(r);
      if (r.id > this.lastOpId) this.lastOpId = r.id;
      if (r.doneAt === undefined) this.pendingOps.add(r.id);
      else this.pendingOps.delete(r.id);
    }
    if (out.length === 0) return false;
    u.opResults = out;
    return true;
  }

  /** New request records, and in-flight ones that finished (a record is posted when it starts and when it ends). */
  private diffRequests(src: ViewSource, u: ViewUpdate): boolean {
    if (!src.requests) return false;
    let since = this.lastRequestId;
    for (const id of this.pendingRequests) since = Math.min(since, id - 1);
    const recs = src.requests(since, REQUEST_POST_LIMIT);
    const out: RequestRecord[] = [];
    for (const r of recs) {
      const isNew = r.id > this.lastRequestId;
      const finished = this.pendingRequests.has(r.id) && r.code !== 0;
      if (!isNew && !finished) continue;
      out.push(r);
      if (r.id > this.lastRequestId) this.lastRequestId = r.id;
      if (r.code === 0) this.pendingRequests.add(r.id);
      else this.pendingRequests.delete(r.id);
    }
    // Requests that fell out of the server's buffer will never finish here.
    if (this.pendingRequests.size > 1000) this.pendingRequests.clear();
    if (out.length === 0) return false;
    u.requests = out;
    return true;
  }

  private diffWatches(src: ViewSource, u: ViewUpdate): boolean {
    const out: WatchDelta[] = [];
    for (const w of src.watches()) {
      const sent = this.watchSent.get(w.watchId);
      const count = sent?.count ?? 0;
      if (sent && w.events.length === count && w.canceled === sent.canceled) continue;
      // A watch view may keep only its newest events; post those we have not posted.
      const fresh = w.events.length >= count ? w.events.slice(count) : w.events;
      const delta: WatchDelta = { watchId: w.watchId, key: w.key, newEvents: fresh };
      if (w.rangeEnd !== undefined) delta.rangeEnd = w.rangeEnd;
      if (w.canceled !== undefined) delta.canceled = w.canceled;
      out.push(delta);
      this.watchSent.set(w.watchId, { count: w.events.length, canceled: w.canceled });
    }
    if (out.length === 0) return false;
    u.watches = out;
    return true;
  }
}
