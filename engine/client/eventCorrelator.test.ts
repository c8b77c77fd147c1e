// The correlator as client-go's tools/record/events_cache.go behaves: exact
// repeats bump one Event, ten messages of one reason become a combined Event,
// and the spam filter drops but still counts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AGGREGATE_INTERVAL_MS, LRU_ENTRIES, SPAM_BURST, SPAM_REFILL_MS, correlate, newEventCorrelator, type CorrelatedEvent, type Correlation } from './eventCorrelator';

const ev = (message: string, over: Partial<CorrelatedEvent> = {}): CorrelatedEvent => ({
  source: { component: 'kubelet', host: 'node-1' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1' },
  type: 'Warning',
  reason: 'Unhealthy',
  message,
  ...over,
});

function run() {
  const c = newEventCorrelator();
  let n = 0;
  return (e: CorrelatedEvent, now: number): Correlation => correlate(c, e, 'default', now, `t${now}`, () => `web.${++n}`);
}
const written = (r: Correlation) => {
  if (r.skip) throw new Error('skipped');
  return r;
};

describe('the event correlator', () => {
  it('a repeat bumps the first Event: same name and first timestamp, a patch of count, lastTimestamp and message', () => {
    const rec = run();
    const a = written(rec(ev('boom'), 0));
    expect(a).toMatchObject({ name: 'web.1', count: 1, first: 't0', message: 'boom', aggregate: false });
    expect(a.patch).toBeUndefined();
    const b = written(rec(ev('boom'), 5000));
    expect(b).toMatchObject({ name: 'web.1', count: 2, first: 't0' });
    expect(b.patch).toBe('{"count":2,"lastTimestamp":"t5000","message":"boom"}');
    // Another field path is another Event (getEventKey has it)...
    expect(written(rec(ev('boom', { involvedObject: { ...ev('').involvedObject, fieldPath: 'spec.containers{app}' } }), 6000))).toMatchObject({ name: 'web.2', count: 1 });
    // ...and so is another reason or type.
    expect(written(rec(ev('boom', { reason: 'BackOff' }), 7000))).toMatchObject({ name: 'web.3', count: 1 });
  });

  it('the 10th distinct message of one reason within 10 minutes is combined, and later ones bump the combined Event', () => {
    const rec = run();
    for (let i = 1; i <= 9; i++) expect(written(rec(ev(`m${i}`), i * 1000))).toMatchObject({ name: `web.${i}`, count: 1, aggregate: false });
    const tenth = written(rec(ev('m10'), 10_000));
    expect(tenth).toMatchObject({ name: 'web.10', count: 1, message: '(combined from similar events): m10', aggregate: true });
    expect(tenth.patch).toBeUndefined();
    const eleventh = written(rec(ev('m11'), 11_000));
    expect(eleventh).toMatchObject({ name: 'web.10', count: 2, first: 't10000', message: '(combined from similar events): m11', aggregate: true });
    expect(eleventh.patch).toBe('{"count":2,"lastTimestamp":"t11000","message":"(combined from similar events): m11"}');
    // The set stays at nine once full: m1 went when m10 came, m2 when m11 came;
    // m9 is still in it, so it is written plainly, as a repeat of its own Event.
    expect(written(rec(ev('m9'), 12_000))).toMatchObject({ name: 'web.9', count: 2, aggregate: false });
  });

  it('ten minutes without a similar event start the count again', () => {
    const rec = run();
    for (let i = 1; i <= 9; i++) rec(ev(`m${i}`), i);
    const later = written(rec(ev('m10'), 9 + AGGREGATE_INTERVAL_MS + 1));
    expect(later.aggregate).toBe(false);
    expect(later.message).toBe('m10');
  });

  it('the field path does not split an aggregate: containers of one pod are similar', () => {
    const rec = run();
    for (let i = 1; i <= 9; i++) rec(ev(`m${i}`, { involvedObject: { ...ev('').involvedObject, fieldPath: `spec.containers{c${i}}` } }), i);
    expect(written(rec(ev('m10'), 10)).aggregate).toBe(true);
  });

  it('a source may say 25 things about an object, then one every 5 minutes; what it drops is still counted', () => {
    const rec = run();
    for (let i = 0; i < SPAM_BURST; i++) expect(rec(ev('boom', { reason: 'BackOff' }), i * 1000).skip).toBe(false);
    expect(rec(ev('boom', { reason: 'BackOff' }), 25_000).skip).toBe(true);
    // Another object has its own bucket.
    expect(rec(ev('boom', { reason: 'BackOff', involvedObject: { ...ev('').involvedObject, name: 'db', uid: 'u2' } }), 25_000).skip).toBe(false);
    let skipped = 1;
    let t = 26_000;
    while (rec(ev('boom', { reason: 'BackOff' }), t).skip) {
      skipped++;
      t += 10_000;
    }
    // The bucket refills all along: a whole token is back 5 minutes after the first event...
    expect(t).toBeGreaterThanOrEqual(SPAM_REFILL_MS);
    expect(t).toBeLessThan(SPAM_REFILL_MS + 10_000);
    // ...and the bump that got through carries every occurrence, the dropped ones too.
    const through = written(rec(ev('boom', { reason: 'BackOff' }), t + SPAM_REFILL_MS));
    expect(through.count).toBe(SPAM_BURST + skipped + 2);
    expect(through.name).toBe('web.1');
  });

  it('keeps at most 4,096 keys in each of its caches (an LRU)', () => {
    const c = newEventCorrelator();
    for (let i = 0; i < LRU_ENTRIES + 10; i++) correlate(c, ev('x', { involvedObject: { kind: 'Pod', name: `p${i}`, uid: `u${i}` } }), 'default', i, 't', () => `p${i}.1`);
    expect(c.observed.size).toBe(LRU_ENTRIES);
    expect(c.spam.size).toBe(LRU_ENTRIES);
    expect(c.aggregates.size).toBe(LRU_ENTRIES);
  });

  it('property: a written bump always names an Event written before, and counts never go down', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ msg: fc.integer({ min: 0, max: 14 }), reason: fc.constantFrom('A', 'B'), dt: fc.integer({ min: 0, max: 200_000 }) }), { maxLength: 200 }), (xs) => {
        const rec = run();
        const created = new Set<string>();
        const counts = new Map<string, number>();
        let now = 0;
        for (const x of xs) {
          now += x.dt;
          const r = rec(ev(`m${x.msg}`, { reason: x.reason }), now);
          if (r.skip) continue;
          if (r.patch === undefined) {
            expect(created.has(r.name)).toBe(false);
            expect(r.count).toBe(1);
            created.add(r.name);
          } else expect(created.has(r.name)).toBe(true);
          expect(r.count).toBeGreaterThan(counts.get(r.name) ?? 0);
          counts.set(r.name, r.count);
        }
      }),
    );
  });
});
