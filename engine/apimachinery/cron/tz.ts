// Time zones as Go's time package uses them for CronJobs (time.LoadLocation,
// Time.In, time.Date), computed from today's IANA rules (tzdata 2024) without
// reading any clock or system database: fixed zones and the daylight-saving
// rules of the common ones. Past rule changes are not modelled; the
// simulation starts in 2025. Times are Unix seconds (UTC).

export interface Period {
  /** Seconds east of UTC. */
  offset: number;
  /** [start, end) in Unix seconds; ±Infinity when unbounded. */
  start: number;
  end: number;
}

export interface Location {
  name: string;
  lookup(unix: number): Period;
}

/** A transition rule: the month, the day (nth or last weekday, or a weekday on/after a date), the time and its clock. */
interface Rule {
  month: number;
  /** 1..4: the nth weekday; 'last': the last one; { onOrAfter: d }: the first weekday on or after day d. */
  week: number | 'last' | { onOrAfter: number };
  /** 0 = Sunday. */
  weekday: number;
  /** Seconds after midnight (24:00 allowed). */
  at: number;
  /** Which clock `at` is read on: local wall time before the change, standard time, or UTC. */
  clock: 'wall' | 'std' | 'utc';
}

interface DstZone {
  std: number;
  dst: number;
  start: Rule;
  end: Rule;
}

const H = 3600;
const hm = (h: number, m = 0) => (h < 0 ? -1 : 1) * (Math.abs(h) * H + m * 60);

// Rule sets (tzdata northamerica, europe, australasia, africa, asia).
const US = { start: { month: 3, week: 2, weekday: 0, at: 2 * H, clock: 'wall' }, end: { month: 11, week: 1, weekday: 0, at: 2 * H, clock: 'wall' } } as const;
const EU = { start: { month: 3, week: 'last', weekday: 0, at: 1 * H, clock: 'utc' }, end: { month: 10, week: 'last', weekday: 0, at: 1 * H, clock: 'utc' } } as const;
const AU = { start: { month: 10, week: 1, weekday: 0, at: 2 * H, clock: 'std' }, end: { month: 4, week: 1, weekday: 0, at: 2 * H, clock: 'std' } } as const;
const NZ = { start: { month: 9, week: 'last', weekday: 0, at: 2 * H, clock: 'std' }, end: { month: 4, week: 1, weekday: 0, at: 2 * H, clock: 'std' } } as const;
const EGYPT = { start: { month: 4, week: 'last', weekday: 5, at: 0, clock: 'wall' }, end: { month: 10, week: 'last', weekday: 4, at: 24 * H, clock: 'wall' } } as const;
const ZION = { start: { month: 3, week: { onOrAfter: 23 }, weekday: 5, at: 2 * H, clock: 'wall' }, end: { month: 10, week: 'last', weekday: 0, at: 2 * H, clock: 'wall' } } as const;

const dst = (std: number, rules: { start: Rule; end: Rule }): DstZone => ({ std, dst: std + H, start: rules.start, end: rules.end });

const FIXED: Record<string, number> = {
  UTC: 0, 'Etc/UTC': 0, 'Etc/UCT': 0, 'Etc/Universal': 0, 'Etc/Zulu': 0, GMT: 0, 'Etc/GMT': 0, 'Etc/Greenwich': 0, UCT: 0, Universal: 0, Zulu: 0,
  'Europe/Istanbul': hm(3), 'Europe/Moscow': hm(3), 'Europe/Minsk': hm(3), 'Asia/Istanbul': hm(3),
  'America/Phoenix': hm(-7), 'America/Mexico_City': hm(-6), 'America/Regina': hm(-6), 'America/Bogota': hm(-5), 'America/Lima': hm(-5), 'America/Panama': hm(-5),
  'America/Caracas': hm(-4), 'America/Puerto_Rico': hm(-4), 'America/Sao_Paulo': hm(-3), 'America/Argentina/Buenos_Aires': hm(-3), 'America/Buenos_Aires': hm(-3), 'America/Montevideo': hm(-3),
  'Pacific/Honolulu': hm(-10), 'US/Hawaii': hm(-10),
  'Asia/Tokyo': hm(9), 'Asia/Seoul': hm(9), 'Asia/Shanghai': hm(8), 'Asia/Hong_Kong': hm(8), 'Asia/Taipei': hm(8), 'Asia/Singapore': hm(8), 'Asia/Manila': hm(8), 'Asia/Kuala_Lumpur': hm(8),
  'Asia/Kolkata': hm(5, 30), 'Asia/Calcutta': hm(5, 30), 'Asia/Colombo': hm(5, 30), 'Asia/Kathmandu': hm(5, 45), 'Asia/Dubai': hm(4), 'Asia/Karachi': hm(5), 'Asia/Tashkent': hm(5), 'Asia/Dhaka': hm(6),
  'Asia/Bangkok': hm(7), 'Asia/Jakarta': hm(7), 'Asia/Ho_Chi_Minh': hm(7), 'Asia/Riyadh': hm(3), 'Asia/Baghdad': hm(3), 'Asia/Qatar': hm(3), 'Asia/Tehran': hm(3, 30), 'Asia/Kabul': hm(4, 30),
  'Australia/Brisbane': hm(10), 'Australia/Darwin': hm(9, 30), 'Australia/Perth': hm(8),
  'Africa/Johannesburg': hm(2), 'Africa/Lagos': hm(1), 'Africa/Nairobi': hm(3), 'Africa/Accra': 0, 'Africa/Algiers': hm(1), 'Africa/Kinshasa': hm(1),
};

const DST: Record<string, DstZone> = {
  'America/New_York': dst(hm(-5), US), 'America/Toronto': dst(hm(-5), US), 'America/Detroit': dst(hm(-5), US), 'US/Eastern': dst(hm(-5), US),
  'America/Chicago': dst(hm(-6), US), 'America/Winnipeg': dst(hm(-6), US), 'US/Central': dst(hm(-6), US),
  'America/Denver': dst(hm(-7), US), 'America/Edmonton': dst(hm(-7), US), 'America/Boise': dst(hm(-7), US), 'US/Mountain': dst(hm(-7), US),
  'America/Los_Angeles': dst(hm(-8), US), 'America/Vancouver': dst(hm(-8), US), 'US/Pacific': dst(hm(-8), US),
  'America/Anchorage': dst(hm(-9), US), 'America/Halifax': dst(hm(-4), US), 'America/St_Johns': dst(hm(-3, 30), US),
  'Europe/London': dst(0, EU), 'Europe/Dublin': dst(0, EU), 'Europe/Lisbon': dst(0, EU), 'Atlantic/Canary': dst(0, EU),
  'Europe/Paris': dst(hm(1), EU), 'Europe/Berlin': dst(hm(1), EU), 'Europe/Madrid': dst(hm(1), EU), 'Europe/Rome': dst(hm(1), EU), 'Europe/Amsterdam': dst(hm(1), EU),
  'Europe/Brussels': dst(hm(1), EU), 'Europe/Vienna': dst(hm(1), EU), 'Europe/Zurich': dst(hm(1), EU), 'Europe/Stockholm': dst(hm(1), EU), 'Europe/Oslo': dst(hm(1), EU),
  'Europe/Copenhagen': dst(hm(1), EU), 'Europe/Prague': dst(hm(1), EU), 'Europe/Warsaw': dst(hm(1), EU), 'Europe/Budapest': dst(hm(1), EU), 'Europe/Belgrade': dst(hm(1), EU),
  'Europe/Luxembourg': dst(hm(1), EU), 'CET': dst(hm(1), EU),
  'Europe/Athens': dst(hm(2), EU), 'Europe/Helsinki': dst(hm(2), EU), 'Europe/Kyiv': dst(hm(2), EU), 'Europe/Kiev': dst(hm(2), EU), 'Europe/Bucharest': dst(hm(2), EU),
  'Europe/Sofia': dst(hm(2), EU), 'Europe/Riga': dst(hm(2), EU), 'Europe/Tallinn': dst(hm(2), EU), 'Europe/Vilnius': dst(hm(2), EU), 'EET': dst(hm(2), EU),
  'Australia/Sydney': dst(hm(10), AU), 'Australia/Melbourne': dst(hm(10), AU), 'Australia/Hobart': dst(hm(10), AU), 'Australia/Canberra': dst(hm(10), AU), 'Australia/Adelaide': dst(hm(9, 30), AU),
  'Pacific/Auckland': dst(hm(12), NZ), 'Africa/Cairo': dst(hm(2), EGYPT), 'Asia/Jerusalem': dst(hm(2), ZION), 'Asia/Tel_Aviv': dst(hm(2), ZION),
};

/** Etc/GMT+5 is five hours *behind* UTC (POSIX sign). */
function etcGmt(name: string): number | null {
  const m = /^Etc\/GMT([+-])(\d{1,2})$/.exec(name);
  if (!m) return null;
  const n = Number(m[2]);
  if ((m[1] === '+' && n > 12) || (m[1] === '-' && n > 14)) return null;
  return (m[1] === '+' ? -n : n) * H;
}

const fixedLocation = (name: string, offset: number): Location => ({ name, lookup: () => ({ offset, start: -Infinity, end: Infinity }) });

export const UTC: Location = fixedLocation('UTC', 0);

/**
 * time.LoadLocation: "" and "UTC" are UTC, "Local" is the controller's zone
 * (UTC here); names we have no rules for fail as Go fails for names missing
 * from its database.
 */
export function loadLocation(name: string): Location | { error: string } {
  if (name === '' || name === 'UTC') return UTC;
  if (name === 'Local') return { ...UTC, name: 'Local' };
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return { error: 'time: invalid location name' };
  const fixed = FIXED[name] ?? etcGmt(name);
  if (fixed !== undefined && fixed !== null) return fixedLocation(name, fixed);
  const rules = DST[name];
  if (rules) return dstLocation(name, rules);
  return { error: `unknown time zone ${name}` };
}

function dstLocation(name: string, z: DstZone): Location {
  return {
    name,
    lookup(unix: number): Period {
      const year = new Date(unix * 1000).getUTCFullYear();
      // Transitions of three years around the instant, in order.
      const ts: { at: number; offset: number }[] = [];
      for (let y = year - 1; y <= year + 1; y++) {
        ts.push({ at: transitionAt(y, z.start, z.std, z.std), offset: z.dst });
        ts.push({ at: transitionAt(y, z.end, z.std, z.dst), offset: z.std });
      }
      ts.sort((a, b) => a.at - b.at);
      for (let i = ts.length - 1; i >= 0; i--) {
        if (unix >= ts[i]!.at) return { offset: ts[i]!.offset, start: ts[i]!.at, end: ts[i + 1]?.at ?? Infinity };
      }
      return { offset: ts[0]!.offset === z.dst ? z.std : z.dst, start: -Infinity, end: ts[0]!.at };
    },
  };
}

/** The Unix second a rule fires in a year; `wallOffset` is the offset in effect just before it. */
function transitionAt(year: number, r: Rule, std: number, wallOffset: number): number {
  const day = ruleDay(year, r);
  const local = Date.UTC(year, r.month - 1, day) / 1000 + r.at;
  if (r.clock === 'utc') return local;
  return local - (r.clock === 'std' ? std : wallOffset);
}

function ruleDay(year: number, r: Rule): number {
  const dow = (d: number) => new Date(Date.UTC(year, r.month - 1, d)).getUTCDay();
  if (r.week === 'last') {
    const last = new Date(Date.UTC(year, r.month, 0)).getUTCDate();
    for (let d = last; ; d--) if (dow(d) === r.weekday) return d;
  }
  const from = typeof r.week === 'number' ? 1 + (r.week - 1) * 7 : r.week.onOrAfter;
  for (let d = from; ; d++) if (dow(d) === r.weekday) return d;
}

export interface Wall {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday. */
  weekday: number;
  offset: number;
}

/** Time.In(loc): the wall clock of a Unix second in the location. */
export function wallClock(unix: number, loc: Location): Wall {
  const offset = loc.lookup(unix).offset;
  const d = new Date((unix + offset) * 1000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay(), offset };
}

/**
 * time.Date(y, m, d, h, mi, s, 0, loc): out-of-range fields normalise; a wall
 * time a transition skips or repeats resolves as Go resolves it (the offset
 * found at the wall time read as UTC, corrected once).
 */
export function date(year: number, month: number, day: number, hour: number, minute: number, second: number, loc: Location): number {
  let unix = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  const p = loc.lookup(unix);
  let offset = p.offset;
  if (offset !== 0) {
    const utc = unix - offset;
    if (utc < p.start || utc >= p.end) offset = loc.lookup(utc).offset;
    unix -= offset;
  }
  return unix;
}

/** Time.Format(time.RFC3339) in the location: "Z" for UTC, else ±hh:mm. */
export function formatRFC3339(unix: number, loc: Location): string {
  const w = wallClock(unix, loc);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const body = `${String(w.year).padStart(4, '0')}-${p2(w.month)}-${p2(w.day)}T${p2(w.hour)}:${p2(w.minute)}:${p2(w.second)}`;
  if (w.offset === 0) return `${body}Z`;
  const a = Math.abs(w.offset);
  return `${body}${w.offset < 0 ? '-' : '+'}${p2(Math.floor(a / H))}:${p2(Math.floor((a % H) / 60))}`;
}

/** time.RFC1123Z ("Mon, 02 Jan 2006 15:04:05 -0700") of a UTC instant, as the MissSchedule event prints it. */
export function formatRFC1123Z(unix: number): string {
  const d = new Date(unix * 1000);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p2(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} +0000`;
}
