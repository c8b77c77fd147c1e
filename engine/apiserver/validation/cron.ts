// The standard cron parser the CronJob validation uses (github.com/robfig/cron/v3
// ParseStandard, parser.go): five fields or a descriptor, with its error texts.

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];
const DESCRIPTORS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

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

function getRange(expr: string, r: Bounds): Error | null {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const single = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
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
    if (single) end = r.max;
  } else if (rangeAndStep.length > 2) return new Error(`too many slashes: ${expr}`);
  if (start < r.min) return new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) return new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) return new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) return new Error(`step of range should be a positive number: ${expr}`);
  return null;
}

/** Go's time.ParseDuration, enough to accept or reject an @every argument. */
function isGoDuration(s: string): boolean {
  return /^[-+]?(([0-9]*\.?[0-9]+)(ns|us|µs|ms|s|m|h))+$/.test(s) || s === '0';
}

/** Returns null when the schedule parses, else robfig/cron's error text. */
export function parseCronStandard(spec: string): string | null {
  if (spec.length === 0) return 'empty spec string';
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const i = rest.indexOf(' ');
    if (i < 0) return 'missing spec';
    rest = rest.slice(i).trim();
  }
  if (rest.startsWith('@')) {
    if (DESCRIPTORS.includes(rest)) return null;
    if (rest.startsWith('@every ')) {
      const d = rest.slice('@every '.length);
      return isGoDuration(d) ? null : `failed to parse duration ${rest}: time: invalid duration ${JSON.stringify(d)}`;
    }
    return `unrecognized descriptor: ${rest}`;
  }
  const fields = rest.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (let i = 0; i < 5; i++) {
    for (const part of fields[i]!.split(',')) {
      const err = getRange(part, FIELDS[i]!);
      if (err) return err.message;
    }
  }
  return null;
}
