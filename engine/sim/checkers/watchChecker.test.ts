import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KeyValue, RevisionEvents, WatchEvent } from './etcdTypes';
import { keyInRange } from './etcdTypes';
import { generateEtcdHistory } from './testHistories';
import type { WatchRecord, WatchResponse } from './watchChecker';
import { checkWatches } from './watchChecker';

const kv = (key: string, value: string, createRevision: number, modRevision: number, version: number): KeyValue => ({
  key,
  value,
  createRevision,
  modRevision,
  version,
});
const PUT = (k: KeyValue): WatchEvent => ({ type: 'PUT', kv: k });
const DEL = (key: string, rev: number): WatchEvent => ({ type: 'DELETE', kv: kv(key, '', 0, rev, 0) });

// rev 2 a=1, rev 3 b=1, rev 4 a=2, rev 5 lease revoke deletes a and b, rev 6 c=1, rev 7 a=3, rev 8 z=1
const history: RevisionEvents[] = [
  { revision: 2, events: [PUT(kv('a', '1', 2, 2, 1))] },
  { revision: 3, events: [PUT(kv('b', '1', 3, 3, 1))] },
  { revision: 4, events: [PUT(kv('a', '2', 2, 4, 2))] },
  { revision: 5, events: [DEL('a', 5), DEL('b', 5)] },
  { revision: 6, events: [PUT(kv('c', '1', 6, 6, 1))] },
  { revision: 7, events: [PUT(kv('a', '3', 7, 7, 1))] },
  { revision: 8, events: [PUT(kv('z', '1', 8, 8, 1))] },
];

/** The events a correct prev_kv watch on [a, d) delivers, one response per revision. */
function correctResponses(prevKv: boolean, from = 2): WatchResponse[] {
  const prev: Record<string, KeyValue | undefined> = {};
  const responses: WatchResponse[] = [];
  for (const rec of history) {
    const events: WatchEvent[] = [];
    for (const ev of rec.events) {
      const before = prev[ev.kv.key];
      prev[ev.kv.key] = ev.type === 'PUT' ? ev.kv : undefined;
      if (rec.revision < from || !keyInRange(ev.kv.key, 'a', 'd')) continue;
      events.push(prevKv && before ? { ...ev, prevKv: before } : { ...ev });
    }
    if (events.length > 0) responses.push({ events });
  }
  return responses;
}

const watch = (responses: WatchResponse[], over: Partial<WatchRecord> = {}): WatchRecord => ({
  key: 'a',
  rangeEnd: 'd',
  startRevision: 2,
  prevKv: true,
  responses,
  ...over,
});

const types = (w: WatchRecord) => checkWatches(history, [w]).violations.map((v) => `${v.type}@${v.revision}`);

describe('checkWatches', () => {
  it('accepts correct streams, however revisions are batched', () => {
    const per = correctResponses(true);
    expect(checkWatches(history, [watch(per)])).toEqual({ ok: true, violations: [] });
    const all = [{ events: per.flatMap((r) => r.events) }];
    expect(checkWatches(history, [watch(all)]).ok).toBe(true);
    expect(checkWatches(history, [watch(correctResponses(false), { prevKv: false })]).ok).toBe(true);
    // A single-key watch sees only its key; starting at 0 means "from now".
    const onlyB = correctResponses(true).flatMap((r) => r.events.filter((e) => e.kv.key === 'b')).map((e) => ({ events: [e] }));
    expect(checkWatches(history, [watch(onlyB, { key: 'b', rangeEnd: undefined, startRevision: 0 })]).ok).toBe(true);
    // '\0' as range end: every key from the start key on.
    expect(checkWatches(history, [watch(correctResponses(true, 8).concat([{ events: [PUT(kv('z', '1', 8, 8, 1))] }]), { key: 'a', rangeEnd: '\0', startRevision: 8 })]).ok).toBe(true);
  });

  it('reports out-of-order revisions across and within responses', () => {
    const r = correctResponses(true);
    expect(types(watch([r[0], r[2], r[1], ...r.slice(3)] as WatchResponse[]))).toContain('ordered@3');
    const jumbled = { events: [...(r[2] as WatchResponse).events, ...(r[1] as WatchResponse).events] };
    const v = checkWatches(history, [watch([r[0] as WatchResponse, jumbled, ...r.slice(3)])]).violations;
    expect(v.map((x) => `${x.type}@${x.revision}`)).toEqual(['ordered@3']);
    expect(v[0]?.response).toBe(1);
    expect(v[0]?.message).toContain('revision 3 follows revision 4');
  });

  it('reports an event delivered twice', () => {
    const r = correctResponses(true);
    const dup = [...r.slice(0, 3), { events: [...(r[1] as WatchResponse).events] }, ...r.slice(3)];
    expect(types(watch(dup))).toEqual(['unique@3']);
  });

  it('reports a revision split between responses or delivered incompletely', () => {
    const r = correctResponses(true);
    const rev5 = (r[3] as WatchResponse).events;
    const split = [...r.slice(0, 3), { events: [rev5[0] as WatchEvent] }, { events: [rev5[1] as WatchEvent] }, ...r.slice(4)];
    expect(types(watch(split))).toEqual(['atomic@5']);
    const partial = [...r.slice(0, 3), { events: [rev5[0] as WatchEvent] }, ...r.slice(4)];
    const v = checkWatches(history, [watch(partial)]).violations;
    expect(v.map((x) => `${x.type}@${x.revision}`)).toEqual(['atomic@5']);
    expect(v[0]?.message).toContain('without DELETE b@5');
  });

  it('reports a gap between delivered revisions', () => {
    const r = correctResponses(true);
    const v = checkWatches(history, [watch([...r.slice(0, 2), ...r.slice(3)])]).violations;
    expect(v.map((x) => `${x.type}@${x.revision}`)).toEqual(['reliable@4']);
    expect(v[0]).toMatchObject({ watch: 0, revision: 4 });
    expect(v[0]?.message).toContain('a="2"');
  });

  it('reports a watch that does not resume exactly at its start revision', () => {
    const r = correctResponses(true);
    // Asked for 3, started at 4.
    expect(types(watch(r.slice(2), { startRevision: 3 }))).toEqual(['resumable@3']);
    // Asked for 4, also got 3.
    expect(types(watch(r.slice(1), { startRevision: 4 }))).toEqual(['resumable@3']);
    // Asked for 3 and started there: fine.
    expect(types(watch(r.slice(1), { startRevision: 3 }))).toEqual([]);
  });

  it('reports wrong, missing or unrequested prev_kv', () => {
    const r = correctResponses(true);
    const withPrev = (i: number, j: number, prevKv: KeyValue | undefined): WatchResponse[] =>
      r.map((resp, x) =>
        x !== i ? resp : { events: resp.events.map((e, y) => (y !== j ? e : prevKv ? { ...e, prevKv } : { type: e.type, kv: e.kv })) },
      );
    expect(types(watch(withPrev(2, 0, kv('a', '0', 2, 2, 1))))).toEqual(['prevKv@4']); // wrong
    expect(types(watch(withPrev(2, 0, undefined)))).toEqual(['prevKv@4']); // missing
    expect(types(watch(withPrev(0, 0, kv('a', '0', 1, 1, 1))))).toEqual(['prevKv@2']); // key did not exist
    expect(types(watch(withPrev(3, 1, undefined)))).toEqual(['prevKv@5']); // delete's prev_kv missing
    expect(types(watch(correctResponses(true), { prevKv: false }))).toContain('prevKv@4'); // not requested
  });

  it('reports events that differ from the history', () => {
    const r = correctResponses(false);
    const wrongValue = r.map((resp, i) => (i !== 2 ? resp : { events: [PUT(kv('a', 'X', 2, 4, 2))] }));
    expect(types(watch(wrongValue, { prevKv: false }))).toEqual(['mismatch@4']);
    const wrongType = r.map((resp, i) => (i !== 2 ? resp : { events: [DEL('a', 4)] }));
    expect(types(watch(wrongType, { prevKv: false }))).toEqual(['mismatch@4']);
    const phantom = [...r, { events: [PUT(kv('b', '9', 9, 9, 1))] }];
    expect(types(watch(phantom, { prevKv: false }))).toEqual(['mismatch@9']);
    const outOfRange = [...r.slice(0, 6), { events: [PUT(kv('z', '1', 8, 8, 1))] }];
    expect(types(watch(outOfRange, { prevKv: false }))).toEqual(['mismatch@8']);
  });

  it('exempts revisions below a compaction cancel, but not events after a cancel', () => {
    const r = correctResponses(true);
    expect(types(watch([{ events: [], canceled: true, compactRevision: 4 }]))).toEqual([]);
    expect(types(watch([...r.slice(2), { events: [], canceled: true, compactRevision: 4 }]))).toEqual([]);
    const late = [{ events: [], canceled: true }, ...r];
    expect(types(watch(late))).toContain('canceled@2');
  });

  it('names the watch by index among several', () => {
    const r = correctResponses(true);
    const res = checkWatches(history, [watch(r), watch([...r.slice(0, 2), ...r.slice(3)])]);
    expect(res.violations.map((v) => v.watch)).toEqual([1]);
  });

  it('accepts the watch streams of a generated history batched at random, and catches a dropped event', () => {
    const h = generateEtcdHistory(11, { ops: 200, timeoutRate: 0 });
    const events = h.revisions.filter((rec) => rec.events.some((e) => keyInRange(e.kv.key, 'k1', 'k4')));
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: events.length, maxLength: events.length }), fc.nat(), (cuts, drop) => {
        const responses: WatchResponse[] = [];
        let cur: WatchEvent[] = [];
        events.forEach((rec, i) => {
          cur.push(...rec.events.filter((e) => keyInRange(e.kv.key, 'k1', 'k4')));
          if (cuts[i] || i === events.length - 1) {
            responses.push({ events: cur });
            cur = [];
          }
        });
        const w: WatchRecord = { key: 'k1', rangeEnd: 'k4', startRevision: 1, prevKv: false, responses };
        expect(checkWatches(h.revisions, [w]).ok).toBe(true);
        // Drop one event (not the last revision's, which nothing after would reveal).
        const flat = responses.flatMap((resp, ri) => resp.events.map((_, ei) => [ri, ei] as const));
        const lastRev = events[events.length - 1]?.revision;
        const candidates = flat.filter(([ri, ei]) => responses[ri]?.events[ei]?.kv.modRevision !== lastRev);
        const [ri, ei] = candidates[drop % candidates.length] as readonly [number, number];
        const dropped = responses.map((resp, x) => (x !== ri ? resp : { events: resp.events.filter((_, y) => y !== ei) }));
        expect(checkWatches(h.revisions, [{ ...w, responses: dropped }]).ok).toBe(false);
      }),
      { numRuns: 50, seed: 3 },
    );
  });
});
