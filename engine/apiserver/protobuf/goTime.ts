// Go's time texts as metav1 writes them: RFC 3339 in UTC for metav1.Time
// (seconds), RFC3339Micro for metav1.MicroTime, time.Duration.String() and
// time.ParseDuration for metav1.Duration. Pure arithmetic on Unix seconds
// (no Date: the engine never touches the wall clock).

/** Unix seconds of Go's zero time.Time (0001-01-01T00:00:00Z), which metav1 writes as JSON null. */
export const GO_ZERO_TIME_UNIX = -62135596800;

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** Days since 1970-01-01 → civil date (proleptic Gregorian; H. Hinnant's algorithm). */
function civilFromDays(z: number): { y: number; m: number; d: number } {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: m <= 2 ? y + 1 : y, m, d };
}

function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function formatYear(y: number): string {
  return y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
}

/** `2006-01-02T15:04:05Z` (time.RFC3339 in UTC). */
export function formatRFC3339(unixSeconds: number): string {
  const days = Math.floor(unixSeconds / 86400);
  const secs = unixSeconds - days * 86400;
  const { y, m, d } = civilFromDays(days);
  return `${formatYear(y)}-${pad(m, 2)}-${pad(d, 2)}T${pad(Math.floor(secs / 3600), 2)}:${pad(Math.floor(secs / 60) % 60, 2)}:${pad(secs % 60, 2)}Z`;
}

/** `2006-01-02T15:04:05.000000Z` (metav1.RFC3339Micro in UTC); nanos are truncated to micros. */
export function formatRFC3339Micro(unixSeconds: number, nanos: number): string {
  const base = formatRFC3339(unixSeconds);
  return `${base.slice(0, -1)}.${pad(Math.floor(nanos / 1000), 6)}Z`;
}

/** time.Time.String() in UTC: `2006-01-02 15:04:05.999999999 +0000 UTC` (the fraction only when non-zero, trailing zeros dropped). */
export function goTimeString(unixSeconds: number, nanos = 0): string {
  const text = formatRFC3339(unixSeconds);
  const frac = nanos ? `.${pad(nanos, 9).replace(/0+$/, '')}` : '';
  return `${text.slice(0, 10)} ${text.slice(11, 19)}${frac} +0000 UTC`;
}

/** RFC 3339 (with optional fraction and any offset) → Unix seconds and nanos; null when malformed. */
export function parseRFC3339(s: string): { seconds: number; nanos: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 59) return null;
  const frac = (m[7] ?? '').slice(0, 9).padEnd(9, '0');
  let seconds = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
  if (m[9]) seconds -= (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 3600 + Number(m[11]) * 60);
  return { seconds, nanos: Number(frac) };
}

const NS = { ns: 1, us: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 } as const;

/** time.Duration.String(): `1h2m3.5s`, `1.5ms`, `0s`. Exact for |d| < 2^53 ns. */
export function formatGoDuration(ns: number): string {
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let u = Math.abs(ns);
  let out: string;
  if (u < NS.s) {
    let prec: number;
    let unit: string;
    if (u < NS.us) {
      prec = 0;
      unit = 'ns';
    } else if (u < NS.ms) {
      prec = 3;
      unit = '\u00b5s';
    } else {
      prec = 6;
      unit = 'ms';
    }
    out = fmtFrac(u, prec) + unit;
  } else {
    const frac = fmtFrac(u % NS.s, 9, true);
    u = Math.floor(u / NS.s);
    out = `${u % 60}${frac}s`;
    u = Math.floor(u / 60);
    if (u > 0) {
      out = `${u % 60}m${out}`;
      u = Math.floor(u / 60);
      if (u > 0) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** v / 10^prec with the fraction's trailing zeros (and a bare point) dropped; fracOnly gives just `.xyz`. */
function fmtFrac(v: number, prec: number, fracOnly = false): string {
  const p = 10 ** prec;
  const whole = Math.floor(v / p);
  const frac = String(v % p).padStart(prec, '0').replace(/0+$/, '');
  const f = frac === '' ? '' : `.${frac}`;
  return fracOnly ? f : `${whole}${f}`;
}

/** time.ParseDuration; the error text is Go's. */
export function parseGoDuration(s: string): { ok: true; ns: number } | { ok: false; error: string } {
  const bad = { ok: false as const, error: `time: invalid duration ${JSON.stringify(s)}` };
  let rest = s;
  let neg = false;
  if (rest[0] === '-' || rest[0] === '+') {
    neg = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return { ok: true, ns: 0 };
  if (rest === '') return bad;
  let total = 0;
  while (rest !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    if (m[0] === '' || m[0] === '.') return bad;
    rest = rest.slice(m[0].length);
    const u = /^[^\d.]+/.exec(rest)?.[0] ?? '';
    if (u === '') return { ok: false, error: `time: missing unit in duration ${JSON.stringify(s)}` };
    rest = rest.slice(u.length);
    const unit = u === '\u00b5s' || u === '\u03bcs' ? NS.us : (NS as Record<string, number>)[u];
    if (unit === undefined) return { ok: false, error: `time: unknown unit ${JSON.stringify(u)} in duration ${JSON.stringify(s)}` };
    total += Number(m[1] || '0') * unit + (m[2] ? Math.floor(Number(`0.${m[2]}`) * unit) : 0);
  }
  return { ok: true, ns: neg ? -total : total };
}
