// The standard cron parser and schedules CronJobs use (github.com/robfig/cron/v3:
// ParseStandard in parser.go, SpecSchedule.Next in spec.go, ConstantDelaySchedule
// for @every): five fields or a descriptor, an optional TZ=/CRON_TZ= prefix,
// robfig's error texts, and Next computed on a location's wall clock.
import { date, loadLocation, UTC, wallClock, type Location } from './tz';

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTH: Bounds = { min: 1, max: 12, names: MONTHS };
const DOW: Bounds = { min: 0, max: 6, names: DAYS };
const FIELDS: Bounds[] = [MINUTES, HOURS, DOM, MONTH, DOW];

/** A field's allowed values, and whether it was `*` or `?` (robfig's starBit). */
export interface Field {
  values: boolean[];
  star: boolean;
}

export type Schedule =
  | { type: 'spec'; minute: Field; hour: Field; dom: Field; month: Field; dow: Field; location: Location }
  | { type: 'every'; delaySeconds: number };

/** Go's strconv.Atoi, with its error text. */
function atoi(expr: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(expr)) return `strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`;
  const v = Number(expr);
  if (!Number.isSafeInteger(v) || Math.abs(v) > 2 ** 63) return `strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`;
  return v;
}

function mustParseInt(expr: string): number | Error {
  const r = atoi(expr);
  if (typeof r === 'string') return new Error(`failed to parse int from ${expr}: ${r}`);
  if (r < 0) return new Error(`negative number (${r}) not allowed: ${expr}`);
  return r;
}

function parseIntOrName(expr: string, names?: Record<string, number>): number | Error {
  if (names) {
    const v = names[expr.toLowerCase()];
    if (v !== undefined) return v;
  }
  return mustParseInt(expr);
}

const emptyField = (): Field => ({ values: [], star: false });

/** getRange: one `a`, `a-b`, `*`, with an optional `/step`, added to the field. */
function getRange(expr: string, r: Bounds, into: Field): Error | null {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const single = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
    star = true;
  } else {
    const s = parseIntOrName(lowAndHigh[0]!, r.names);
    if (s instanceof Error) return s;
    start = s;
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) {
      const e = parseIntOrName(lowAndHigh[1]!, r.names);
      if (e instanceof Error) return e;
      end = e;
    } else return new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const st = mustParseInt(rangeAndStep[1]!);
    if (st instanceof Error) return st;
    step = st;
    // "N/step" means "N-max/step".
    if (single) end = r.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) return new Error(`too many slashes: ${expr}`);
  if (start < r.min) return new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) return new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) return new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) return new Error(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) into.values[v] = true;
  if (star) into.star = true;
  return null;
}

function getField(field: string, r: Bounds): Field | Error {
  const f = emptyField();
  for (const part of field.split(',')) {
    const err = getRange(part, r, f);
    if (err) return err;
  }
  return f;
}

const only = (v: number): Field => {
  const f = emptyField();
  f.values[v] = true;
  return f;
};
const all = (r: Bounds): Field => {
  const f = emptyField();
  for (let v = r.min; v <= r.max; v++) f.values[v] = true;
  f.star = true;
  return f;
};

/** Go's time.ParseDuration, as seconds (null when it does not parse). */
function parseGoDuration(s: string): number | null {
  if (s === '0') return 0;
  const m = /^([-+]?)((?:[0-9]*\.?[0-9]+(?:ns|us|µs|ms|s|m|h))+)$/.exec(s);
  if (!m) return null;
  const unit: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  let total = 0;
  for (const part of m[2]!.matchAll(/([0-9]*\.?[0-9]+)(ns|us|µs|ms|s|m|h)/g)) total += Number(part[1]) * unit[part[2]!]!;
  return m[1] === '-' ? -total : total;
}

function parseDescriptor(d: string, location: Location): Schedule | Error {
  const spec = (minute: Field, hour: Field, dom: Field, month: Field, dow: Field): Schedule => ({ type: 'spec', minute, hour, dom, month, dow, location });
  switch (d) {
    case '@yearly':
    case '@annually':
      return spec(only(0), only(0), only(1), only(1), all(DOW));
    case '@monthly':
      return spec(only(0), only(0), only(1), all(MONTH), all(DOW));
    case '@weekly':
      return spec(only(0), only(0), all(DOM), all(MONTH), only(0));
    case '@daily':
    case '@midnight':
      return spec(only(0), only(0), all(DOM), all(MONTH), all(DOW));
    case '@hourly':
      return spec(only(0), all(HOURS), all(DOM), all(MONTH), all(DOW));
  }
  if (d.startsWith('@every ')) {
    const arg = d.slice('@every '.length);
    const secs = parseGoDuration(arg);
    if (secs === null) return new Error(`failed to parse duration ${d}: time: invalid duration ${JSON.stringify(arg)}`);
    // Every: at least a second, truncated to whole seconds.
    return { type: 'every', delaySeconds: Math.max(1, Math.floor(secs)) };
  }
  return new Error(`unrecognized descriptor: ${d}`);
}

/** cron.ParseStandard: the schedule, or robfig's error. */
export function parseStandard(specIn: string): Schedule | Error {
  if (specIn.length === 0) return new Error('empty spec string');
  let spec = specIn;
  let location: Location = UTC;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const i = spec.indexOf(' ');
    if (i < 0) return new Error('missing spec');
    const name = spec.slice(spec.indexOf('=') + 1, i);
    const loc = loadLocation(name);
    if ('error' in loc) return new Error(`provided bad location ${name}: ${loc.error}`);
    location = loc;
    spec = spec.slice(i).trim();
  }
  if (spec.startsWith('@')) return parseDescriptor(spec, location);
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const parsed: Field[] = [];
  for (let i = 0; i < 5; i++) {
    const f = getField(fields[i]!, FIELDS[i]!);
    if (f instanceof Error) return f;
    parsed.push(f);
  }
  return { type: 'spec', minute: parsed[0]!, hour: parsed[1]!, dom: parsed[2]!, month: parsed[3]!, dow: parsed[4]!, location };
}

/** Returns null when the schedule parses, else robfig/cron's error text (the CronJob validation's message). */
export function parseCronStandard(spec: string): string | null {
  const s = parseStandard(spec);
  return s instanceof Error ? s.message : null;
}

/** dayMatches: with a `*` in day-of-month or day-of-week both must match, else either. */
function dayMatches(s: Extract<Schedule, { type: 'spec' }>, day: number, weekday: number): boolean {
  const domMatch = !!s.dom.values[day];
  const dowMatch = !!s.dow.values[weekday];
  if (s.dom.star || s.dow.star) return domMatch && dowMatch;
  return domMatch || dowMatch;
}

/**
 * Schedule.Next: the first activation strictly after `unixMs` (whole
 * seconds), found field by field on the schedule location's wall clock as
 * robfig does (including its handling of days whose midnight DST skips);
 * null when none within five years.
 */
export function next(s: Schedule, unixMs: number): number | null {
  const startSec = Math.floor(unixMs / 1000) + 1;
  if (s.type === 'every') return (Math.floor(unixMs / 1000) + s.delaySeconds) * 1000;
  const loc = s.location;
  let t = startSec;
  let w = wallClock(t, loc);
  let added = false;
  const yearLimit = w.year + 5;
  const set = (unix: number) => {
    t = unix;
    w = wallClock(t, loc);
  };
  for (let guard = 0; guard < 100_000; guard++) {
    if (w.year > yearLimit) return null;
    let wrapped = false;
    // Month.
    while (!s.month.values[w.month]) {
      if (!added) {
        added = true;
        set(date(w.year, w.month, 1, 0, 0, 0, loc));
      }
      set(date(w.year, w.month + 1, w.day, w.hour, w.minute, w.second, loc));
      if (w.month === 1) {
        wrapped = true;
        break;
      }
    }
    if (wrapped) continue;
    // Day.
    while (!dayMatches(s, w.day, w.weekday)) {
      if (!added) {
        added = true;
        set(date(w.year, w.month, w.day, 0, 0, 0, loc));
      }
      set(date(w.year, w.month, w.day + 1, w.hour, w.minute, w.second, loc));
      // A midnight DST skipped: back to (or on to) the day's first hour.
      if (w.hour !== 0) set(w.hour > 12 ? t + (24 - w.hour) * 3600 : t - w.hour * 3600);
      if (w.day === 1) {
        wrapped = true;
        break;
      }
    }
    if (wrapped) continue;
    // Hour.
    while (!s.hour.values[w.hour]) {
      if (!added) {
        added = true;
        set(date(w.year, w.month, w.day, w.hour, 0, 0, loc));
      }
      set(t + 3600);
      if (w.hour === 0) {
        wrapped = true;
        break;
      }
    }
    if (wrapped) continue;
    // Minute.
    while (!s.minute.values[w.minute]) {
      if (!added) {
        added = true;
        set(t - (t % 60));
      }
      set(t + 60);
      if (w.minute === 0) {
        wrapped = true;
        break;
      }
    }
    if (wrapped) continue;
    // Second (always 0 for the standard parser).
    while (w.second !== 0) {
      if (!added) added = true;
      set(t + 1);
      if (w.second === 0) {
        wrapped = true;
        break;
      }
    }
    if (wrapped) continue;
    return t * 1000;
  }
  return null;
}
