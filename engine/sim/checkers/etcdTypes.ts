// Data shared by the etcd checkers: the KeyValue and watch Event shapes of
// etcd's mvccpb (api/mvccpb/kv.proto), and the committed history the harness
// reads from a replica's applied log.
import { registerClass } from '../serial';

/** mvccpb.KeyValue. `lease` 0 or absent means no lease. */
export interface KeyValue {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
  version: number;
  lease?: number;
}

/**
 * mvccpb.Event. The event's revision is `kv.modRevision`. For a DELETE, `kv`
 * is the tombstone: key and modRevision (the deleting revision), value '',
 * createRevision 0, version 0, as etcd sends it.
 */
export interface WatchEvent {
  type: 'PUT' | 'DELETE';
  kv: KeyValue;
  prevKv?: KeyValue;
}

/** One committed revision and its events in apply order. */
export interface RevisionEvents {
  revision: number;
  events: WatchEvent[];
  /** Virtual time at which the revision was committed, when the harness knows it. */
  committedAt?: number;
}

export function kvEquals(a: KeyValue, b: KeyValue): boolean {
  return (
    a.key === b.key &&
    a.value === b.value &&
    a.createRevision === b.createRevision &&
    a.modRevision === b.modRevision &&
    a.version === b.version &&
    (a.lease ?? 0) === (b.lease ?? 0)
  );
}

export function describeKv(kv: KeyValue | undefined | null): string {
  if (!kv) return '<absent>';
  const lease = kv.lease ? ` lease=${kv.lease}` : '';
  return `${kv.key}=${JSON.stringify(kv.value)} (create=${kv.createRevision} mod=${kv.modRevision} ver=${kv.version}${lease})`;
}

/**
 * Whether `key` falls in etcd's range [start, rangeEnd): no rangeEnd means the
 * single key, '\0' means every key >= start (etcd's mkGteRange convention).
 */
export function keyInRange(key: string, start: string, rangeEnd?: string): boolean {
  if (rangeEnd === undefined || rangeEnd === '') return key === start;
  if (rangeEnd === '\0') return key >= start;
  return key >= start && key < rangeEnd;
}

/**
 * Per-key state timeline built from the committed history: for each key the
 * list of (fromRevision, kv or null) segments in revision order. Used by the
 * watch prev_kv check and the serializable-read checker.
 */
export interface KeySegment {
  from: number;
  kv: KeyValue | null;
}

export class KeyTimeline {
  readonly byKey = new Map<string, KeySegment[]>();
  readonly lastRevision: number;
  readonly firstRevision: number;

  constructor(history: readonly RevisionEvents[], initial: readonly KeyValue[] = []) {
    for (const kv of initial) this.byKey.set(kv.key, [{ from: 0, kv }]);
    let first = Infinity;
    let last = 0;
    for (const rec of history) {
      first = Math.min(first, rec.revision);
      last = Math.max(last, rec.revision);
      for (const ev of rec.events) {
        const segs = this.byKey.get(ev.kv.key) ?? [];
        if (segs.length === 0) this.byKey.set(ev.kv.key, segs);
        const kv = ev.type === 'PUT' ? ev.kv : null;
        const top = segs[segs.length - 1];
        // Two events for one key in one revision cannot happen in etcd; keep the last.
        if (top && top.from === rec.revision) top.kv = kv;
        else segs.push({ from: rec.revision, kv });
      }
    }
    this.firstRevision = first === Infinity ? 0 : first;
    this.lastRevision = last;
  }

  /** The key's kv as of revision `rev` (after applying rev), or null if absent. */
  at(key: string, rev: number): KeyValue | null {
    const segs = this.byKey.get(key);
    if (!segs) return null;
    // Binary search for the last segment with from <= rev.
    let lo = 0;
    let hi = segs.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((segs[mid] as KeySegment).from <= rev) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? null : (segs[found] as KeySegment).kv;
  }

  segments(key: string): readonly KeySegment[] {
    return this.byKey.get(key) ?? [];
  }
}

registerClass('KeyTimeline', KeyTimeline);
