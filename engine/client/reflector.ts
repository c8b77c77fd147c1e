// A reflector and its store, as client-go's (tools/cache/reflector.go): list
// a resource, then watch from the list's resourceVersion; a watch that ends
// resumes from the last seen version, one answered with 410 Gone lists again.
// It is plain data embedded in a component actor, which routes the HTTP
// answers of its requests here.
//
// Lists are paged like client-go's pager (tools/pager/pager.go): the first
// request asks `limit`, each answer carrying `metadata.continue` is followed by
// a request for the next page, and the store is replaced once, with the whole
// list at the first page's resourceVersion. A continue answered 410 Expired
// (the revision was compacted meanwhile) falls back to one full, unpaged list.
//
// Owner protocol, per list:
//   send(r.listRequest())
//   on each answer: out = r.onList(status, body)
//     'retry'                 -> the list failed; list again later
//     next = r.nextRequest()  -> non-null: send it (next page or full-list fallback)
//                                null: the list is complete (out = the store's changes); watch
import { registerClass } from '../sim/serial';
import type { KObject } from '../apimachinery/types';
import { assertNever } from '../sim/assert';
import { hashString } from '../sim/rng';
import { deepFreeze, readonlyChecks } from '../apimachinery/readonly';
import { decodeWatchChunk, type WatchLine } from '../apimachinery/watchChunks';

export type ReflectorEvent = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KObject; old?: KObject };

export interface ReflectorRequest {
  path: string;
  query: Record<string, string>;
}

/** What the next list request must be, decided by the last list answer. */
type PendingList = { type: 'continue'; token: string } | { type: 'fullList' };

/** The reflector's minWatchTimeout (reflector.go). */
export const MIN_WATCH_TIMEOUT_S = 300;

/** client-go's pager default (pager.go defaultPageSize). */
export const DEFAULT_PAGE_SIZE = 500;

export class Reflector {
  readonly store = new Map<string, KObject>();
  rv = '';
  /** HTTP request in flight (list or watch), 0 = none. */
  reqId = 0;
  phase: 'idle' | 'listing' | 'watching' = 'idle';
  synced = false;
  /** Partial watch line carried between chunks. */
  private partial = '';
  /** `limit` of list requests; 0 asks for everything at once. */
  pageSize = DEFAULT_PAGE_SIZE;
  /** labelSelector / fieldSelector of every list and watch (an informer factory's tweakListOptions). */
  selectors: Record<string, string> = {};
  /** The request the list still needs (next page or fallback), null when none. */
  private pending: PendingList | null = null;
  /** Items of the pages received so far, while a paged list is in progress. */
  private pageItems: KObject[] = [];
  /** resourceVersion of the first page: the whole list's version. */
  private pageRv = '';
  /** Pages answered in the current list, and the server's estimate of what is left (for the UI). */
  listPages = 0;
  remainingItemCount: number | undefined = undefined;
  /** The last completed list came in more than one page (client-go's paginatedResult). */
  paginatedResult = false;
  /** Watches started (seeds each one's timeout). */
  private watches = 0;
  /** isLastSyncResourceVersionUnavailable: a list at the last synced version was refused as expired. */
  private lastSyncUnavailable = false;
  /** resourceVersion of the list in progress's first page. */
  private listRv = '';
  /** With keepText: the stored objects' JSON as their watch events carried it, by store key (see textOf). */
  private readonly texts: Map<string, { obj: KObject; text: string }> | null;

  constructor(
    /** Collection path: `/api/v1/namespaces`, `/api/v1/serviceaccounts`. */
    readonly path: string,
    keepText = false,
  ) {
    this.texts = keepText ? new Map() : null;
  }

  /**
   * JSON.stringify(o) for a stored object that came in a watch event, when
   * the reflector keeps texts: its owner sends it back changed a little (kwok
   * renews a Lease) without encoding it whole again.
   */
  textOf(o: KObject): string | undefined {
    const t = this.texts?.get(Reflector.keyOf(o));
    return t !== undefined && t.obj === o ? t.text : undefined;
  }

  static keyOf(o: KObject): string {
    return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!;
  }

  /** Starts a list (dropping any list in progress): the first page. */
  listRequest(): ReflectorRequest {
    this.phase = 'listing';
    this.pending = null;
    this.pageItems = [];
    this.pageRv = '';
    this.listPages = 0;
    this.remainingItemCount = undefined;
    const rv = this.relistResourceVersion();
    this.listRv = rv;
    const query: Record<string, string> = { ...this.selectors, resourceVersion: rv };
    // The pager's size: kept for "0" (the watch cache ignores it) and "" (etcd pages); dropped for a
    // version, so the watch cache may serve it, unless lists came back paged before (watch cache off).
    if (this.pageSize > 0 && (rv === '' || rv === '0' || this.paginatedResult)) query.limit = String(this.pageSize);
    return { path: this.path, query };
  }

  /**
   * relistResourceVersion (reflector.go): "0" for the first list, so the
   * watch cache answers it; the last synced version afterwards; "" (a read
   * from etcd) once a list at that version came back expired.
   */
  private relistResourceVersion(): string {
    if (this.lastSyncUnavailable) return '';
    return this.rv === '' ? '0' : this.rv;
  }

  /**
   * After an onList answer that was not 'retry': the request the list still
   * needs, or null when the list is complete. Pure: asking twice gives the same.
   */
  nextRequest(): ReflectorRequest | null {
    if (this.phase !== 'listing' || !this.pending) return null;
    switch (this.pending.type) {
      case 'continue':
        // Later pages carry no resourceVersion: the token pins it (pager.go clears it too).
        return { path: this.path, query: { ...this.selectors, limit: String(this.pageSize), continue: this.pending.token } };
      case 'fullList':
        return { path: this.path, query: { ...this.selectors, resourceVersion: '' } };
      default:
        return assertNever(this.pending);
    }
  }

  /** True while a paged list has pages (or its fallback) still to fetch. */
  get listInProgress(): boolean {
    return this.phase === 'listing' && this.pending !== null;
  }

  watchRequest(): { path: string; query: Record<string, string> } {
    this.phase = 'watching';
    this.partial = '';
    return { path: this.path, query: { ...this.selectors, watch: 'true', resourceVersion: this.rv, allowWatchBookmarks: 'true', timeoutSeconds: String(this.watchTimeoutSeconds()) } };
  }

  /**
   * ListAndWatch: each watch asks the server to end it after
   * minWatchTimeout × (1 + rand) (5 to 10 minutes), so watches are spread and
   * renewed. The draw is a hash of the path and the watch's number: seeded
   * and stable, without taking from the owner's random stream.
   */
  private watchTimeoutSeconds(): number {
    const u = hashString(`${this.path}#${this.watches++}`) / 0x1_0000_0000;
    return Math.floor(MIN_WATCH_TIMEOUT_S * (1 + u));
  }

  /**
   * A list answer. Once the list is complete, replaces the store and returns
   * the changes it implies; a page that is not the last returns [] (ask
   * nextRequest). 'retry' when the list failed and must start over.
   */
  onList(status: number, body: string): ReflectorEvent[] | 'retry' {
    const asked = this.pending;
    this.pending = null;
    if (status !== 200) {
      if (asked?.type === 'continue' && status === 410 && isExpired(body)) {
        // pager.go: an Expired continue (not a first page) restarts as one full list.
        this.pending = { type: 'fullList' };
        this.pageItems = [];
        return [];
      }
      this.pageItems = [];
      // A first page at a version the server no longer has (410 Expired, or 504 "Too large resource version"): the next list reads etcd.
      if (!asked && this.listRv !== '' && this.listRv !== '0' && (status === 410 || status === 504)) this.lastSyncUnavailable = true;
      return 'retry';
    }
    this.lastSyncUnavailable = false;
    const list = JSON.parse(body) as { apiVersion?: string; kind?: string; metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number }; items: KObject[] };
    withItemKinds(list);
    // The store's objects are frozen however they came (see decodeWatchChunk).
    for (const o of list.items) deepFreeze(o);
    this.listPages++;
    this.remainingItemCount = list.metadata.remainingItemCount;
    const cont = list.metadata.continue ?? '';
    if (asked?.type === 'fullList' || (!asked && !cont)) {
      this.paginatedResult = false;
      return this.replace(list.items, list.metadata.resourceVersion);
    }
    if (!asked) this.pageRv = list.metadata.resourceVersion;
    for (const o of list.items) this.pageItems.push(o);
    if (cont) {
      this.pending = { type: 'continue', token: cont };
      return [];
    }
    const items = this.pageItems;
    this.pageItems = [];
    // client-go keeps the pager's size for relists only if a list at "0" came back paged (no watch cache).
    if (this.listRv === '0') this.paginatedResult = true;
    return this.replace(items, this.pageRv);
  }

  /** Replaces the store with a complete list (the informer's Replace). */
  private replace(items: KObject[], rv: string): ReflectorEvent[] {
    const events: ReflectorEvent[] = [];
    const seen = new Set<string>();
    this.texts?.clear();
    for (const o of items) {
      const k = Reflector.keyOf(o);
      seen.add(k);
      const old = this.store.get(k);
      this.store.set(k, o);
      events.push(old ? { type: 'MODIFIED', object: o, old } : { type: 'ADDED', object: o });
    }
    for (const [k, o] of [...this.store]) {
      if (!seen.has(k)) {
        this.store.delete(k);
        events.push({ type: 'DELETED', object: o });
      }
    }
    this.rv = rv;
    this.synced = true;
    return events;
  }

  /** Watch lines: apply them; 'relist' when the server says the version is gone. */
  onChunk(chunk: string): ReflectorEvent[] | 'relist' {
    const events: ReflectorEvent[] = [];
    // Nearly every chunk is one whole event: decoded by the chunk itself, shared with the other watchers.
    if (this.partial === '' && chunk.length > 1 && chunk.indexOf('\n') === chunk.length - 1) return this.apply(decodeWatchChunk(chunk), events, chunk) ?? events;
    const text = this.partial + chunk;
    // Line by line without split (a chunk is nearly always one whole event); what follows the last newline waits.
    const last = text.lastIndexOf('\n');
    this.partial = text.slice(last + 1);
    for (let start = 0, end = text.indexOf('\n'); end >= 0 && end <= last; start = end + 1, end = text.indexOf('\n', start)) {
      const line = text.slice(start, end);
      if (!line.trim()) continue;
      if (this.apply(deepFreeze(JSON.parse(line) as WatchLine), events) === 'relist') return 'relist';
    }
    return events;
  }

  /** One watch event into the store and `events` (`line`: its whole line, when it came alone); 'relist' for 410 Gone. */
  private apply(ev: WatchLine, events: ReflectorEvent[], line?: string): 'relist' | undefined {
    if (ev.type === 'ERROR') return ev.object.code === 410 ? 'relist' : undefined;
    this.rv = ev.object.metadata.resourceVersion ?? this.rv;
    if (ev.type === 'BOOKMARK') return undefined;
    const k = Reflector.keyOf(ev.object);
    const old = this.store.get(k);
    if (ev.type === 'DELETED') {
      this.store.delete(k);
      this.texts?.delete(k);
      events.push({ type: 'DELETED', object: ev.object });
    } else {
      this.store.set(k, ev.object);
      if (this.texts) this.keepText(k, ev, line);
      events.push(old ? { type: 'MODIFIED', object: ev.object, old } : { type: 'ADDED', object: ev.object });
    }
    return undefined;
  }

  /**
   * The server writes a watch line as JSON.stringify({ type, object }) and a
   * newline (watchHub.ts), so the object's own JSON is the text between
   * `{"type":"T","object":` and the closing `}\n` (verified under the read-only checks).
   */
  private keepText(k: string, ev: WatchLine, line: string | undefined): void {
    const head = `{"type":${JSON.stringify(ev.type)},"object":`;
    if (line === undefined || Object.keys(ev).length !== 2 || !line.startsWith(head) || !line.endsWith('}\n')) {
      this.texts!.delete(k);
      return;
    }
    const text = line.slice(head.length, -2);
    if (readonlyChecks() && JSON.stringify(ev.object) !== text) throw new Error(`watch line is not its event's encoding: ${line.slice(0, 200)}`);
    this.texts!.set(k, { obj: ev.object, text });
  }

  list(): KObject[] {
    return [...this.store.values()];
  }
}

/**
 * A list's items come without apiVersion and kind (the server writes them on
 * the list only); watch events carry them. The store holds both alike, with
 * the list's group/version and kind, so an object reads the same whichever way
 * it arrived (the owners' code takes an owner reference's kind from it).
 */
function withItemKinds(list: { apiVersion?: string; kind?: string; items: KObject[] }): void {
  const kind = list.kind?.endsWith('List') ? list.kind.slice(0, -4) : undefined;
  if (!kind || !list.apiVersion) return;
  for (const o of list.items) {
    if (o.kind && o.apiVersion) continue;
    o.apiVersion ??= list.apiVersion;
    o.kind ??= kind;
  }
}

/** apierrors.IsResourceExpired: a Status whose reason is Expired. */
function isExpired(body: string): boolean {
  try {
    return (JSON.parse(body) as { reason?: string }).reason === 'Expired';
  } catch {
    return false;
  }
}

registerClass('Reflector', Reflector);
