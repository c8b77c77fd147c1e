// Checks watch streams against the committed history, for the guarantees of
// https://etcd.io/docs/v3.5/learning/api_guarantees/#watch-apis as etcd's
// tests/robustness/validate/watch.go checks them (ordered, unique, atomic,
// reliable, resumable), plus prev_kv and exact event contents. Unlike the
// robustness suite, which rebuilds the history from the watches themselves,
// the ground truth here is a replica's applied log, so a watch cannot agree
// with itself on a wrong event.
import type { KeyValue, RevisionEvents, WatchEvent } from './etcdTypes';
import { describeKv, keyInRange, KeyTimeline, kvEquals } from './etcdTypes';

export interface WatchResponse {
  events: WatchEvent[];
  /** Set when the watch was canceled because its start revision was compacted. */
  compactRevision?: number;
  canceled?: boolean;
}

export interface WatchRecord {
  key: string;
  /** etcd range end: absent = the single key, '\0' = every key >= key. */
  rangeEnd?: string;
  /** Revision the watch asked to start at; 0 = "from now" (start unknown). */
  startRevision: number;
  prevKv: boolean;
  responses: WatchResponse[];
}

export type WatchViolationType =
  | 'ordered'
  | 'unique'
  | 'atomic'
  | 'reliable'
  | 'resumable'
  | 'prevKv'
  | 'mismatch'
  | 'canceled';

export interface WatchViolation {
  type: WatchViolationType;
  /** Index into the `watches` argument. */
  watch: number;
  /** Index of the response the violation was seen in, when there is one. */
  response?: number;
  revision: number;
  key?: string;
  message: string;
}

export interface WatchCheckResult {
  ok: boolean;
  violations: WatchViolation[];
}

export interface WatchCheckOptions {
  /** Keys present before the first revision of `history`. */
  initial?: KeyValue[];
  /** Stop collecting after this many violations (default 200). */
  maxViolations?: number;
}

function eventsEqual(a: WatchEvent, b: WatchEvent): boolean {
  return a.type === b.type && kvEquals(a.kv, b.kv);
}

function describeEvent(ev: WatchEvent): string {
  return ev.type === 'PUT' ? `PUT ${describeKv(ev.kv)}` : `DELETE ${ev.kv.key}@${ev.kv.modRevision}`;
}

export function checkWatches(
  history: readonly RevisionEvents[],
  watches: readonly WatchRecord[],
  opts: WatchCheckOptions = {},
): WatchCheckResult {
  const maxViolations = opts.maxViolations ?? 200;
  const violations: WatchViolation[] = [];
  const report = (v: WatchViolation): void => {
    if (violations.length < maxViolations) violations.push(v);
  };

  const byRevision = new Map<number, WatchEvent[]>();
  for (const rec of history) byRevision.set(rec.revision, rec.events);
  const revisions = [...byRevision.keys()].sort((a, b) => a - b);
  let timeline: KeyTimeline | null = null;
  const prevKvAt = (key: string, rev: number): KeyValue | null => {
    timeline ??= new KeyTimeline(history, opts.initial);
    return timeline.at(key, rev - 1);
  };

  watches.forEach((w, wi) => {
    const inRange = (key: string): boolean => keyInRange(key, w.key, w.rangeEnd);
    const seen = new Set<string>();
    const delivered = new Map<number, { response: number; events: WatchEvent[] }>();
    let lastRev = 0; // highest revision delivered by earlier responses
    let firstRev = Infinity;
    let canceledAt = -1;
    let compactRevision = 0;

    w.responses.forEach((resp, ri) => {
      if (canceledAt >= 0 && resp.events.length > 0) {
        const first = resp.events[0] as WatchEvent;
        report({
          type: 'canceled',
          watch: wi,
          response: ri,
          revision: first.kv.modRevision,
          message: `watch ${wi} delivered ${resp.events.length} event(s) in response ${ri} after it was canceled in response ${canceledAt}`,
        });
      }
      let prevInResponse = 0;
      let responseMax = lastRev;
      for (const ev of resp.events) {
        const rev = ev.kv.modRevision;
        const key = ev.kv.key;
        const id = `${rev}\u0000${key}`;
        if (seen.has(id)) {
          report({
            type: 'unique',
            watch: wi,
            response: ri,
            revision: rev,
            key,
            message: `watch ${wi} delivered the event for ${key} at revision ${rev} twice (again in response ${ri})`,
          });
          continue;
        }
        seen.add(id);
        if (!inRange(key)) {
          report({
            type: 'mismatch',
            watch: wi,
            response: ri,
            revision: rev,
            key,
            message: `watch ${wi} on [${w.key}, ${w.rangeEnd ?? '(single key)'}) delivered an event for ${key}, outside its range`,
          });
        }
        if (w.startRevision > 0 && rev < w.startRevision) {
          report({
            type: 'resumable',
            watch: wi,
            response: ri,
            revision: rev,
            key,
            message: `watch ${wi} started at revision ${w.startRevision} but delivered an event at revision ${rev}`,
          });
        }
        if (rev < prevInResponse) {
          report({
            type: 'ordered',
            watch: wi,
            response: ri,
            revision: rev,
            key,
            message: `watch ${wi} response ${ri}: revision ${rev} follows revision ${prevInResponse} in the same response`,
          });
        } else if (rev < lastRev) {
          report({
            type: 'ordered',
            watch: wi,
            response: ri,
            revision: rev,
            key,
            message: `watch ${wi} response ${ri}: revision ${rev} arrives after revision ${lastRev} was already delivered`,
          });
        } else if (rev === lastRev && delivered.has(rev)) {
          report({
            type: 'atomic',
            watch: wi,
            response: ri,
            revision: rev,
            key,
            message: `watch ${wi}: revision ${rev} is split between response ${delivered.get(rev)?.response} and response ${ri}`,
          });
        }
        prevInResponse = Math.max(prevInResponse, rev);
        responseMax = Math.max(responseMax, rev);
        firstRev = Math.min(firstRev, rev);
        const group = delivered.get(rev);
        if (group) group.events.push(ev);
        else delivered.set(rev, { response: ri, events: [ev] });
      }
      lastRev = responseMax;
      if (resp.canceled && canceledAt < 0) {
        canceledAt = ri;
        compactRevision = resp.compactRevision ?? 0;
      }
    });

    // Contents of every delivered revision against the history.
    const deliveredRevs = [...delivered.keys()].sort((a, b) => a - b);
    for (const rev of deliveredRevs) {
      const got = (delivered.get(rev) as { events: WatchEvent[] }).events;
      const want = (byRevision.get(rev) ?? []).filter((ev) => inRange(ev.kv.key));
      let lastIndex = -1;
      let outOfOrder = false;
      for (const ev of got) {
        const idx = want.findIndex((e) => e.kv.key === ev.kv.key);
        const truth = want[idx];
        if (!truth) {
          if (inRange(ev.kv.key)) {
            report({
              type: 'mismatch',
              watch: wi,
              revision: rev,
              key: ev.kv.key,
              message: `watch ${wi} delivered ${describeEvent(ev)}, but revision ${rev} has no event for ${ev.kv.key} in the history`,
            });
          }
          continue;
        }
        if (!eventsEqual(ev, truth)) {
          report({
            type: 'mismatch',
            watch: wi,
            revision: rev,
            key: ev.kv.key,
            message: `watch ${wi} at revision ${rev}: delivered ${describeEvent(ev)}, history has ${describeEvent(truth)}`,
          });
        }
        if (idx < lastIndex) outOfOrder = true;
        lastIndex = Math.max(lastIndex, idx);
        if (w.prevKv) {
          const before = prevKvAt(ev.kv.key, rev);
          const ok = before === null ? ev.prevKv === undefined : ev.prevKv !== undefined && kvEquals(ev.prevKv, before);
          if (!ok) {
            report({
              type: 'prevKv',
              watch: wi,
              revision: rev,
              key: ev.kv.key,
              message: `watch ${wi} at revision ${rev}: prev_kv of ${ev.kv.key} is ${describeKv(ev.prevKv)}, expected ${describeKv(before)}`,
            });
          }
        } else if (ev.prevKv !== undefined) {
          report({
            type: 'prevKv',
            watch: wi,
            revision: rev,
            key: ev.kv.key,
            message: `watch ${wi} at revision ${rev}: prev_kv of ${ev.kv.key} sent but not requested`,
          });
        }
      }
      if (outOfOrder) {
        report({
          type: 'mismatch',
          watch: wi,
          revision: rev,
          message: `watch ${wi} at revision ${rev}: events are not in the history's order`,
        });
      }
      const missing = want.filter((e) => !got.some((g) => g.kv.key === e.kv.key));
      if (missing.length > 0) {
        report({
          type: 'atomic',
          watch: wi,
          revision: rev,
          message: `watch ${wi}: revision ${rev} delivered without ${missing.map(describeEvent).join(', ')}`,
        });
      }
    }

    // No gaps from the start (resumable) and between delivered revisions (reliable).
    if (deliveredRevs.length === 0) return;
    let lower = w.startRevision > 0 ? w.startRevision : firstRev;
    if (canceledAt >= 0 && compactRevision > 0) lower = Math.max(lower, compactRevision);
    const upper = deliveredRevs[deliveredRevs.length - 1] as number;
    for (const rev of revisionsBetween(revisions, lower, upper)) {
      if (delivered.has(rev)) continue;
      const want = (byRevision.get(rev) ?? []).filter((ev) => inRange(ev.kv.key));
      if (want.length === 0) continue;
      const what = want.map(describeEvent).join(', ');
      if (rev < firstRev) {
        report({
          type: 'resumable',
          watch: wi,
          revision: rev,
          message: `watch ${wi} started at revision ${w.startRevision} but its first event is at revision ${firstRev}; missed revision ${rev}: ${what}`,
        });
      } else {
        report({
          type: 'reliable',
          watch: wi,
          revision: rev,
          message: `watch ${wi} skipped revision ${rev} (${what}) while delivering revisions ${firstRev}..${upper}`,
        });
      }
    }
  });

  return { ok: violations.length === 0, violations };
}

function* revisionsBetween(sorted: readonly number[], lo: number, hi: number): Generator<number> {
  let a = 0;
  let b = sorted.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if ((sorted[mid] as number) < lo) a = mid + 1;
    else b = mid;
  }
  for (let i = a; i < sorted.length && (sorted[i] as number) <= hi; i++) yield sorted[i] as number;
}
