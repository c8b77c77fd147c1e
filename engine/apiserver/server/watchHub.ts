// Watches served from the watch cache (k8s.io/apiserver/pkg/storage/cacher):
// each watcher gets the events of its resource that pass its namespace, label
// and field selectors — an object moving out of a selector arrives as DELETED,
// into it as ADDED — as one JSON event per chunk on a streaming response.
import { servedShape } from '../registry/conversion';
import type { ActorId } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import type { KObject } from '../../apimachinery/types';
import { apiVersionOf } from '../../apimachinery/types';
import { status } from '../../apimachinery/status';
import type { ResourceInfo } from '../registry/resources';
import type { ApiRequest } from '../types';
import { encodedAnswer, httpMsg, queryValue } from '../http/messages';
import { fieldRequiresExactMatch, fieldsOf } from '../../apimachinery/selectors/fields';
import type { CacheEvent } from '../cache/watchCache';
import type { ApiServer } from './apiserver';
import { cacheKey, stage, statusResponse } from './apiserver';
import type { RestOp } from './rest';
import * as chain from './chain';
import { primeWatchChunk } from '../../apimachinery/watchChunks';

/** How often a watcher that asked for bookmarks gets one (cacher's bookmarkFrequency). */
export const BOOKMARK_EVERY_MS = 60_000;
/** --min-request-timeout: watches end after a random time in [1, 2) × this. */
export const MIN_REQUEST_TIMEOUT_MS = 1800_000;

/**
 * The cacher's indexed triggers (pkg/registry/core/{pod,node}/storage: TriggerFunc):
 * a watch whose field selector pins one of these fields is only shown the events
 * of objects with that value, without being matched against every other event.
 */
const TRIGGER_FIELD: Record<string, string> = { '/pods': 'spec.nodeName', '/nodes': 'metadata.name' };

function triggerValue(key: string, o: KObject | undefined): string | undefined {
  if (!o) return undefined;
  if (key === '/pods') return ((o.spec as { nodeName?: string } | undefined)?.nodeName ?? '');
  if (key === '/nodes') return o.metadata.name ?? '';
  return undefined;
}

export class Watcher {
  lastBookmark = 0;
  /** Table watches print column definitions on the first event only. */
  sentHeaders = false;
  timer = 0;
  constructor(
    readonly id: number,
    readonly client: ActorId,
    readonly reqId: number,
    readonly key: string,
    readonly r: ResourceInfo,
    readonly namespace: string,
    readonly req: ApiRequest,
    readonly bookmarks: boolean,
    readonly recordId: number,
    /** The watch's selectors, parsed once when it starts (plain data). */
    readonly sel: chain.Selectors,
  ) {}

  /** The value of its resource's trigger field that the field selector pins, if any. */
  get trigger(): string | undefined {
    const field = TRIGGER_FIELD[this.key];
    return field && this.sel.field ? fieldRequiresExactMatch(this.sel.field, field) : undefined;
  }
}

/** One watch event's encodings, shared by the watchers that see it alike (the cacher encodes once per event). */
type Encodings = Map<string, string>;

export class WatchHub {
  readonly watchers = new Map<number, Watcher>();
  /** Watchers by cache key, then by pinned trigger value ('' for none): who can see an event of a key. */
  private readonly byKey = new Map<string, Map<string, Map<number, Watcher>>>();
  private nextId = 1;

  private add(w: Watcher): void {
    this.watchers.set(w.id, w);
    let byTrigger = this.byKey.get(w.key);
    if (!byTrigger) this.byKey.set(w.key, (byTrigger = new Map()));
    const t = w.trigger;
    const slot = t === undefined ? '' : `=${t}`;
    let set = byTrigger.get(slot);
    if (!set) byTrigger.set(slot, (set = new Map()));
    set.set(w.id, w);
  }

  private remove(w: Watcher): void {
    this.watchers.delete(w.id);
    const byTrigger = this.byKey.get(w.key);
    const t = w.trigger;
    const slot = t === undefined ? '' : `=${t}`;
    const set = byTrigger?.get(slot);
    set?.delete(w.id);
    if (set && set.size === 0) byTrigger!.delete(slot);
  }

  start(s: ApiServer, ctx: ActorContext, op: RestOp): void {
    s.ops.delete(op.id);
    const rec = s.record(op.recordId);
    const answer = (st: ReturnType<typeof status.badRequest>) => s.finish(ctx, op.client, op.reqId, rec, statusResponse(st));
    const sel = chain.parseSelectors(op.req, op.r);
    if (!sel.ok) return answer(sel.status);
    const cache = s.cacheOf(op.r);
    if (!cache) return answer(status.methodNotSupported({ group: op.r.group, resource: op.r.resource }, 'watch'));
    const rvText = queryValue(op.req.query, 'resourceVersion') ?? '';
    if (rvText !== '' && !/^\d+$/.test(rvText)) return answer(status.badRequest(`Invalid value for resourceVersion: ${JSON.stringify(rvText)}`));
    const timeoutS = queryValue(op.req.query, 'timeoutSeconds');
    const w = new Watcher(this.nextId++, op.client, op.reqId, cacheKey(op.r.sharesStorageWith ? { ...op.r, ...op.r.sharesStorageWith } : op.r), op.r, op.info.namespace, op.req, queryValue(op.req.query, 'allowWatchBookmarks') === 'true', op.recordId, sel);
    w.lastBookmark = ctx.now;
    if (rec) {
      rec.code = 200;
      stage(rec, 'storage', 'watch cache', 'ok', ctx.now, ctx.now, `watch ${op.r.resource} from ${rvText || 'now'}`);
    }
    ctx.send(op.client, httpMsg.response(op.reqId, { status: 200, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: '' }, true));
    let initial: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KObject }[];
    if (rvText === '' || rvText === '0') {
      // "Start at most recent": the current state as ADDED events, then changes.
      initial = s.cluster
        .list(op.r.group, op.r.sharesStorageWith?.resource ?? op.r.resource, op.info.namespace || undefined)
        .filter((o) => chain.matches(op.r, o, sel))
        .map((o) => ({ type: 'ADDED' as const, object: o }));
    } else {
      const rv = Number(rvText);
      const evs = cache.eventsSince(rv);
      if (evs === 'expired') {
        // Upstream answers 200 and an ERROR event carrying 410 Expired.
        this.send(ctx, w, 'ERROR', status.resourceExpired(`too old resource version: ${rv} (${cache.oldestRv()})`) as unknown as KObject);
        ctx.send(op.client, httpMsg.end(op.reqId));
        return;
      }
      initial = [];
      // A watcher pinned to a trigger value sees only events whose object (now or before) has it, as dispatch does.
      const pinned = w.trigger;
      for (const ev of evs) {
        if (pinned !== undefined && triggerValue(w.key, ev.object) !== pinned && triggerValue(w.key, ev.prevObject) !== pinned) continue;
        const t = this.transition(op.r, w, ev, sel);
        if (t) initial.push(t);
      }
    }
    for (const e of initial) this.send(ctx, w, e.type, e.object);
    if (queryValue(op.req.query, 'sendInitialEvents') === 'true' && w.bookmarks) {
      this.send(ctx, w, 'BOOKMARK', this.bookmarkObject(op.r, cache.rv, true));
    }
    const ms = timeoutS !== undefined && /^\d+$/.test(timeoutS) ? Number(timeoutS) * 1000 : MIN_REQUEST_TIMEOUT_MS * (1 + ctx.rng.float());
    w.timer = ctx.setTimer(ms, 'watchTimeout', w.id);
    this.add(w);
  }

  /** A change in the cache: every interested watcher hears of it, in the order they started. */
  dispatch(ctx: ActorContext, key: string, ev: CacheEvent): void {
    const byTrigger = this.byKey.get(key);
    if (!byTrigger) return;
    const groups: Map<number, Watcher>[] = [];
    const all = byTrigger.get('');
    if (all) groups.push(all);
    const now = triggerValue(key, ev.object);
    const before = triggerValue(key, ev.prevObject);
    const a = now === undefined ? undefined : byTrigger.get(`=${now}`);
    if (a) groups.push(a);
    const b = before === undefined || before === now ? undefined : byTrigger.get(`=${before}`);
    if (b) groups.push(b);
    const watchers = groups.length === 1 ? groups[0]!.values() : groups.flatMap((g) => [...g.values()]).sort((x, y) => x.id - y.id);
    const fields = new FieldsMemo(ev);
    const encodings: Encodings = new Map();
    for (const w of watchers) {
      const t = this.transition(w.r, w, ev, w.sel, fields);
      if (t) this.send(ctx, w, t.type, t.object, encodings);
    }
  }

  private transition(r: ResourceInfo, w: Watcher, ev: CacheEvent, sel: chain.Selectors, fields?: FieldsMemo): { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KObject } | null {
    const cur = inNamespace(w, ev.object) && (fields ? fields.matches(r, sel, false) : chain.matches(r, ev.object, sel));
    const prev = inNamespace(w, ev.prevObject) && (fields ? fields.matches(r, sel, true) : chain.matches(r, ev.prevObject!, sel));
    if (ev.type === 'DELETED') return prev || cur ? { type: 'DELETED', object: ev.object } : null;
    if (cur && prev) return { type: 'MODIFIED', object: ev.object };
    if (cur) return { type: 'ADDED', object: ev.object };
    if (prev) return { type: 'DELETED', object: ev.object };
    return null;
  }

  private send(ctx: ActorContext, w: Watcher, type: string, object: KObject, encodings?: Encodings): void {
    if (type === 'ERROR' || type === 'BOOKMARK') {
      ctx.send(w.client, httpMsg.chunk(w.reqId, `${JSON.stringify({ type, object })}\n`));
      return;
    }
    // Watchers of one version that want the object itself get the same bytes (Tables are per watcher).
    const shared = encodings && !chain.wantsTable(w.req) ? `${w.r.group}/${w.r.version}/${w.r.resource}/${type}` : undefined;
    let line = shared === undefined ? undefined : encodings!.get(shared);
    if (line === undefined) {
      const shaped = servedShape(w.r, object);
      const apiVersion = apiVersionOf(w.r.group, w.r.version);
      // Stored objects carry their type meta: then an object (not a Table) is encoded as it is, the same JSON a copy would give.
      const typed = shared !== undefined && shaped.apiVersion === apiVersion && shaped.kind === w.r.kind ? shaped : { ...shaped, apiVersion, kind: w.r.kind };
      const out = chain.renderWatchObject(w.r, w.req, typed, ctx.now, !w.sentHeaders);
      const event = { type, object: out as KObject };
      // A write's event: its object as the write's answer encoded it (JSON.stringify(event) member by member).
      const answer = out === typed ? encodedAnswer(typed) : undefined;
      line = answer === undefined ? `${JSON.stringify(event)}\n` : `{"type":${JSON.stringify(type)},"object":${answer}}\n`;
      if (shared !== undefined) {
        encodings!.set(shared, line);
        // The cache's object as decoded from etcd (plain JSON data), unconverted: what the readers' decoding would rebuild.
        if (shaped === object && out === typed) primeWatchChunk(line, event);
      }
    }
    w.sentHeaders = true;
    ctx.send(w.client, httpMsg.chunk(w.reqId, line));
  }

  private bookmarkObject(r: ResourceInfo, rv: number, initialEnd: boolean): KObject {
    const meta: KObject['metadata'] = { resourceVersion: String(rv) };
    if (initialEnd) meta.annotations = { 'k8s.io/initial-events-end': 'true' };
    return { kind: r.kind, apiVersion: apiVersionOf(r.group, r.version), metadata: meta };
  }

  /** Periodic bookmarks for watchers that asked for them. */
  tick(ctx: ActorContext, s: ApiServer): void {
    for (const w of this.watchers.values()) {
      if (!w.bookmarks || ctx.now - w.lastBookmark < BOOKMARK_EVERY_MS) continue;
      const cache = s.cacheOf(w.r);
      if (!cache) continue;
      w.lastBookmark = ctx.now;
      this.send(ctx, w, 'BOOKMARK', this.bookmarkObject(w.r, cache.rv, false));
    }
  }

  timeout(ctx: ActorContext, id: number): void {
    const w = this.watchers.get(id);
    if (!w) return;
    this.remove(w);
    ctx.send(w.client, httpMsg.end(w.reqId));
  }

  cancel(ctx: ActorContext, client: ActorId, reqId: number): void {
    for (const w of this.watchers.values()) {
      if (w.client === client && w.reqId === reqId) {
        this.remove(w);
        ctx.cancelTimer(w.timer);
      }
    }
  }

  dropClient(client: ActorId): void {
    for (const w of [...this.watchers.values()]) if (w.client === client) this.remove(w);
  }

  /** The cache was rebuilt from a fresh list: its watchers end and must watch again (cacher.terminateAllWatchers). */
  resync(ctx: ActorContext, key: string): void {
    for (const w of [...this.watchers.values()]) {
      if (w.key !== key) continue;
      this.remove(w);
      ctx.cancelTimer(w.timer);
      ctx.send(w.client, httpMsg.end(w.reqId));
    }
  }

  count(): number {
    return this.watchers.size;
  }
}

function inNamespace(w: Watcher, o: KObject | undefined): boolean {
  return !!o && (!w.namespace || o.metadata.namespace === w.namespace);
}

/** The field sets of one event's objects, computed once for all the watchers that ask. */
class FieldsMemo {
  private cur: Record<string, string> | undefined;
  private prev: Record<string, string> | undefined;
  constructor(private readonly ev: CacheEvent) {}

  matches(r: ResourceInfo, sel: chain.Selectors, prev: boolean): boolean {
    const o = prev ? this.ev.prevObject! : this.ev.object;
    if (!sel.field) return chain.matches(r, o, sel);
    let f = prev ? this.prev : this.cur;
    if (!f) {
      f = fieldsOf(r.group, r.resource, o);
      if (prev) this.prev = f;
      else this.cur = f;
    }
    return chain.matches(r, o, sel, f);
  }
}

registerClass('Watcher', Watcher);
registerClass('WatchHub', WatchHub);
