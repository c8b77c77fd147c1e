import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { next, parseCronStandard, parseStandard, type Schedule } from './cron';
import { date, formatRFC3339, loadLocation, wallClock, type Location } from './tz';

const utc = (s: string) => Date.parse(s);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().replace('.000Z', 'Z'));
const parse = (spec: string): Schedule => {
  const s = parseStandard(spec);
  if (s instanceof Error) throw s;
  return s;
};
const loc = (name: string): Location => {
  const l = loadLocation(name);
  if ('error' in l) throw new Error(l.error);
  return l;
};

describe('robfig/cron ParseStandard', () => {
  it('accepts five fields, names, ranges, steps and descriptors', () => {
    for (const s of ['*/15 * * * *', '0 9-17 * * MON-FRI', '30 6-16/4 * * 1-5', '0 0 1,15 * *', '@hourly', '@daily', '@midnight', '@weekly', '@monthly', '@yearly', '@annually', '@every 1h30m', 'TZ=Europe/Paris 0 8 * * *', '0 0 * jan,jul sun']) {
      expect(parseCronStandard(s)).toBeNull();
    }
  });

  it("rejects with robfig's messages", () => {
    expect(parseCronStandard('')).toBe('empty spec string');
    expect(parseCronStandard('* * * *')).toBe('expected exactly 5 fields, found 4: [* * * *]');
    expect(parseCronStandard('61 * * * *')).toBe('end of range (61) above maximum (59): 61');
    expect(parseCronStandard('* * * * 7')).toBe('end of range (7) above maximum (6): 7');
    expect(parseCronStandard('5-2 * * * *')).toBe('beginning of range (5) beyond end of range (2): 5-2');
    expect(parseCronStandard('*/0 * * * *')).toBe('step of range should be a positive number: */0');
    expect(parseCronStandard('@often')).toBe('unrecognized descriptor: @often');
    expect(parseCronStandard('x * * * *')).toBe('failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
    expect(parseCronStandard('TZ=Mars/Olympus 0 * * * *')).toBe('provided bad location Mars/Olympus: unknown time zone Mars/Olympus');
  });
});

describe('Schedule.Next (UTC)', () => {
  it('steps, hours and the first second after now', () => {
    expect(iso(next(parse('*/15 * * * *'), utc('2025-01-01T00:00:00Z')))).toBe('2025-01-01T00:15:00Z');
    expect(iso(next(parse('*/15 * * * *'), utc('2025-01-01T00:14:59.500Z')))).toBe('2025-01-01T00:15:00Z');
    expect(iso(next(parse('0 9 * * *'), utc('2025-01-01T09:00:00Z')))).toBe('2025-01-02T09:00:00Z');
    expect(iso(next(parse('@hourly'), utc('2025-12-31T23:30:00Z')))).toBe('2026-01-01T00:00:00Z');
    expect(iso(next(parse('@every 90m'), utc('2025-01-01T00:00:30Z')))).toBe('2025-01-01T01:30:30Z');
  });

  it('day of month OR day of week unless one of them is *', () => {
    // 2025-01-01 is a Wednesday: the 13th or a Friday, whichever is first.
    expect(iso(next(parse('0 0 13 * 5'), utc('2025-01-01T00:00:00Z')))).toBe('2025-01-03T00:00:00Z');
    expect(iso(next(parse('0 0 13 * *'), utc('2025-01-01T00:00:00Z')))).toBe('2025-01-13T00:00:00Z');
    expect(iso(next(parse('0 0 * * 5'), utc('2025-01-01T00:00:00Z')))).toBe('2025-01-03T00:00:00Z');
    // */2 in day-of-week is no star: OR again.
    expect(iso(next(parse('0 0 13 * */2'), utc('2025-01-02T12:00:00Z')))).toBe('2025-01-04T00:00:00Z');
    expect(iso(next(parse('@weekly'), utc('2025-01-01T00:00:00Z')))).toBe('2025-01-05T00:00:00Z');
    expect(iso(next(parse('@yearly'), utc('2025-01-01T00:00:00Z')))).toBe('2026-01-01T00:00:00Z');
    expect(next(parse('0 0 30 2 *'), utc('2025-01-01T00:00:00Z'))).toBeNull();
  });

  it('agrees with a minute-by-minute search on random schedules', () => {
    const field = (min: number, max: number) =>
      fc.oneof(
        fc.constant('*'),
        fc.integer({ min, max }).map(String),
        fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
        fc.integer({ min: 2, max: 7 }).map((s) => `*/${s}`),
      );
    const spec = fc.tuple(field(0, 59), field(0, 23), field(1, 28), field(1, 12), field(0, 6)).map((f) => f.join(' '));
    fc.assert(
      fc.property(spec, fc.integer({ min: 0, max: 365 * 24 * 60 }), (s, startMin) => {
        const sched = parse(s) as Extract<Schedule, { type: 'spec' }>;
        const from = utc('2025-01-01T00:00:00Z') + startMin * 60_000;
        const got = next(sched, from);
        let want: number | null = null;
        for (let t = from + 60_000, i = 0; i < 2 * 366 * 24 * 60; t += 60_000, i++) {
          const d = new Date(t);
          const dom = !!sched.dom.values[d.getUTCDate()];
          const dow = !!sched.dow.values[d.getUTCDay()];
          const day = sched.dom.star || sched.dow.star ? dom && dow : dom || dow;
          if (sched.minute.values[d.getUTCMinutes()] && sched.hour.values[d.getUTCHours()] && sched.month.values[d.getUTCMonth() + 1] && day) {
            want = t;
            break;
          }
        }
        if (want !== null) expect(iso(got)).toBe(iso(want));
      }),
      { numRuns: 25, seed: 5 },
    );
  });
});

describe('time zones', () => {
  it('US and EU daylight saving transitions of 2025', () => {
    const ny = loc('America/New_York');
    expect(wallClock(utc('2025-03-09T06:59:59Z') / 1000, ny).offset).toBe(-5 * 3600);
    expect(wallClock(utc('2025-03-09T07:00:00Z') / 1000, ny).offset).toBe(-4 * 3600);
    expect(wallClock(utc('2025-11-02T05:59:59Z') / 1000, ny).offset).toBe(-4 * 3600);
    expect(wallClock(utc('2025-11-02T06:00:00Z') / 1000, ny).offset).toBe(-5 * 3600);
    const paris = loc('Europe/Paris');
    expect(formatRFC3339(utc('2025-03-30T00:59:59Z') / 1000, paris)).toBe('2025-03-30T01:59:59+01:00');
    expect(formatRFC3339(utc('2025-03-30T01:00:00Z') / 1000, paris)).toBe('2025-03-30T03:00:00+02:00');
    expect(formatRFC3339(utc('2025-10-26T01:00:00Z') / 1000, paris)).toBe('2025-10-26T02:00:00+01:00');
  });

  it('southern hemisphere, half-hour and fixed zones', () => {
    const syd = loc('Australia/Sydney');
    expect(formatRFC3339(utc('2025-04-05T15:59:59Z') / 1000, syd)).toBe('2025-04-06T02:59:59+11:00');
    expect(formatRFC3339(utc('2025-04-05T16:00:00Z') / 1000, syd)).toBe('2025-04-06T02:00:00+10:00');
    expect(formatRFC3339(utc('2025-10-04T16:00:00Z') / 1000, syd)).toBe('2025-10-05T03:00:00+11:00');
    expect(formatRFC3339(utc('2025-06-01T00:00:00Z') / 1000, loc('Asia/Kolkata'))).toBe('2025-06-01T05:30:00+05:30');
    expect(formatRFC3339(utc('2025-06-01T00:00:00Z') / 1000, loc('Etc/GMT+5'))).toBe('2025-05-31T19:00:00-05:00');
    expect(formatRFC3339(utc('2025-06-01T00:00:00Z') / 1000, loc('UTC'))).toBe('2025-06-01T00:00:00Z');
    expect(loadLocation('Mars/Olympus')).toEqual({ error: 'unknown time zone Mars/Olympus' });
  });

  it('time.Date resolves skipped and repeated wall times as Go does', () => {
    const ny = loc('America/New_York');
    // 02:30 does not exist on 2025-03-09: read as UTC it falls in EST, corrected once to EDT → 06:30Z, 01:30 EST.
    expect(formatRFC3339(date(2025, 3, 9, 2, 30, 0, ny), ny)).toBe('2025-03-09T01:30:00-05:00');
    // 01:30 happens twice on 2025-11-02: Go picks the first (EDT).
    expect(formatRFC3339(date(2025, 11, 2, 1, 30, 0, ny), ny)).toBe('2025-11-02T01:30:00-04:00');
    expect(formatRFC3339(date(2025, 1, 32, 0, 0, 0, ny), ny)).toBe('2025-02-01T00:00:00-05:00');
  });

  it('schedules run on the zone wall clock: skipped on spring-forward, twice on fall-back', () => {
    const s = parse('TZ=America/New_York 30 2 * * *');
    expect(iso(next(s, utc('2025-03-08T08:00:00Z')))).toBe('2025-03-10T06:30:00Z');
    const f = parse('TZ=America/New_York 30 1 * * *');
    const first = next(f, utc('2025-11-02T04:00:00Z'));
    expect(iso(first)).toBe('2025-11-02T05:30:00Z');
    expect(iso(next(f, first!))).toBe('2025-11-02T06:30:00Z');
    expect(iso(next(parse('TZ=Asia/Tokyo 0 9 * * *'), utc('2025-01-01T00:00:00Z')))).toBe('2025-01-02T00:00:00Z');
  });
});
