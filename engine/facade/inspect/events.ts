// The cluster's events as the UI lists them: every stored event (core/v1 and
// events.k8s.io share one store), read from an API server's watch cache and
// indexed by the object each is about. Rows are printed as `kubectl get events
// -o wide` prints them (the server-side Table printer) and as `kubectl
// describe` lists an object's events. Queries return at most `limit` rows, so
// the UI holds a bounded number whatever the store holds.
import type { KObject } from '../../apimachinery/types';
import { toCoreEvent } from '../../apiserver/registry/eventConversion';
import { eventPrinter } from '../../apiserver/printers/cluster';
import { epochMs } from '../../apiserver/http/time';
import { eventRow, eventSortTime } from '../../kubectl/describe/writer';
import { refForKind, type ObjectRef } from './objects';

/** The object an event is about (involvedObject / regarding). */
export interface EventObject {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

/** One event in the stream, newest first: the columns of `kubectl get events -o wide`. */
export interface EventStreamRow {
  /** The event's etcd key: stable while the event exists (a repeated event is updated in place). */
  key: string;
  lastSeen: string;
  type: string;
  reason: string;
  /** "pod/web-1", as kubectl prints it. */
  object: string;
  involved: EventObject;
  /** The involved object as the inspector opens it (absent for kinds the API does not serve). */
  ref?: ObjectRef;
  subobject: string;
  source: string;
  message: string;
  firstSeen: string;
  count: number;
  name: string;
  /** Virtual ms of the last occurrence (the sort key). */
  at: number;
}

/** One row of an object's Events, as `kubectl describe` prints them (oldest first). */
export interface DescribeEventRow {
  key: string;
  type: string;
  reason: string;
  age: string;
  from: string;
  message: string;
}

export interface EventsQuery {
  /** Involved object: kind (case-insensitive, "Pod" or "pod"), namespace, and a name or the start of one. */
  kind?: string;
  namespace?: string;
  name?: string;
  /** Normal or Warning. */
  type?: string;
  reason?: string;
  /** Rows returned at most (default 200, at most 1000). */
  limit?: number;
}

export interface EventsView {
  rows: EventStreamRow[];
  /** Events matching the query (rows holds the newest `limit` of them). */
  matched: number;
  /** Events stored. */
  total: number;
  /** Every reason and kind in the store with its count, for the filters. */
  reasons: [string, number][];
  kinds: [string, number][];
}

interface Entry {
  obj: KObject;
  /** The event in core/v1 shape. */
  core: KObject;
  involved: EventObject;
  type: string;
  reason: string;
  /** ms since the Unix epoch, as kubectl sorts. */
  sortTime: number;
  seen: number;
}

export const MAX_EVENT_ROWS = 1000;

export class EventsIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly byUid = new Map<string, Set<string>>();
  private readonly reasons = new Map<string, number>();
  private readonly kinds = new Map<string, number>();
  private gen = 0;

  /** Brings the index up to date with the store (unchanged events cost an identity check). */
  refresh(store: ReadonlyMap<string, KObject> | null): void {
    this.gen++;
    let visited = 0;
    let added = 0;
    for (const [key, obj] of store ?? []) {
      const e = this.entries.get(key);
      if (e) {
        visited++;
        e.seen = this.gen;
        if (e.obj === obj) continue;
        this.unindex(key, e);
      } else added++;
      this.index(key, this.entry(obj));
    }
    if (visited < this.entries.size - added) {
      for (const [key, e] of this.entries) if (e.seen !== this.gen) this.unindex(key, e, true);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private entry(obj: KObject): Entry {
    const core = toCoreEvent(obj);
    const io = (core['involvedObject'] ?? {}) as Record<string, unknown>;
    const s = (v: unknown) => (typeof v === 'string' ? v : '');
    return {
      obj,
      core,
      involved: { apiVersion: s(io.apiVersion), kind: s(io.kind), namespace: s(io.namespace), name: s(io.name), uid: s(io.uid) },
      type: s(core['type']),
      reason: s(core['reason']),
      sortTime: eventSortTime(core),
      seen: this.gen,
    };
  }

  private index(key: string, e: Entry): void {
    this.entries.set(key, e);
    if (e.involved.uid) {
      let set = this.byUid.get(e.involved.uid);
      if (!set) this.byUid.set(e.involved.uid, (set = new Set()));
      set.add(key);
    }
    bump(this.reasons, e.reason, 1);
    bump(this.kinds, e.involved.kind, 1);
  }

  private unindex(key: string, e: Entry, remove = false): void {
    const set = this.byUid.get(e.involved.uid);
    set?.delete(key);
    if (set && set.size === 0) this.byUid.delete(e.involved.uid);
    bump(this.reasons, e.reason, -1);
    bump(this.kinds, e.involved.kind, -1);
    if (remove) this.entries.delete(key);
  }

  /** The newest events matching the query, newest first. `nowMs` is virtual time. */
  query(q: EventsQuery, nowMs: number): EventsView {
    const limit = Math.max(1, Math.min(MAX_EVENT_ROWS, Math.trunc(q.limit ?? 200)));
    const kind = q.kind?.trim().toLowerCase() || '';
    const ns = q.namespace?.trim() || '';
    const name = q.name?.trim() || '';
    let matched = 0;
    let best: [string, Entry][] = [];
    for (const kv of this.entries) {
      const e = kv[1];
      if (kind && e.involved.kind.toLowerCase() !== kind) continue;
      if (ns && e.involved.namespace !== ns) continue;
      if (name && !e.involved.name.startsWith(name)) continue;
      if (q.type && e.type !== q.type) continue;
      if (q.reason && e.reason !== q.reason) continue;
      matched++;
      best.push(kv);
      // Keep the candidates bounded: trim to the newest `limit` now and then.
      if (best.length >= 4 * limit) best = newest(best, limit);
    }
    const now = epochMs() + nowMs;
    return {
      rows: newest(best, limit).map(([key, e]) => streamRow(key, e, now)),
      matched,
      total: this.entries.size,
      reasons: sortedCounts(this.reasons),
      kinds: sortedCounts(this.kinds),
    };
  }

  /** An object's events, as `kubectl describe` lists them: by uid (else kind, namespace and name), oldest first. */
  forObject(o: { uid?: string; kind: string; namespace?: string; name: string }, nowMs: number, limit = 100): DescribeEventRow[] {
    let found: [string, Entry][];
    if (o.uid) found = [...(this.byUid.get(o.uid) ?? [])].map((k) => [k, this.entries.get(k)!]);
    else {
      found = [];
      for (const kv of this.entries) {
        const i = kv[1].involved;
        if (i.kind === o.kind && i.name === o.name && i.namespace === (o.namespace ?? '')) found.push(kv);
      }
    }
    const now = epochMs() + nowMs;
    found.sort((a, b) => a[1].sortTime - b[1].sortTime || (a[0] < b[0] ? -1 : 1));
    return found.slice(-limit).map(([key, e]) => ({ key, ...eventRow(e.core, now) }));
  }
}

function newest(list: [string, Entry][], limit: number): [string, Entry][] {
  list.sort((a, b) => b[1].sortTime - a[1].sortTime || (a[0] < b[0] ? 1 : -1));
  return list.length > limit ? list.slice(0, limit) : list;
}

function streamRow(key: string, e: Entry, now: number): EventStreamRow {
  const cells = eventPrinter.print(e.obj, now).cells as unknown[];
  const str = (i: number) => String(cells[i] ?? '');
  const ref = refForKind(e.involved.apiVersion, e.involved.kind, e.involved.namespace, e.involved.name);
  return {
    key,
    lastSeen: str(0),
    type: str(1),
    reason: str(2),
    object: str(3),
    involved: { ...e.involved },
    ...(ref ? { ref } : {}),
    subobject: str(4),
    source: str(5),
    message: str(6),
    firstSeen: str(7),
    count: Number(cells[8] ?? 1),
    name: str(9),
    at: e.sortTime - epochMs(),
  };
}

function bump(m: Map<string, number>, k: string, by: number): void {
  const n = (m.get(k) ?? 0) + by;
  if (n <= 0) m.delete(k);
  else m.set(k, n);
}

function sortedCounts(m: Map<string, number>): [string, number][] {
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}
