// Ages as kubectl and the server-side printers show them
// (k8s.io/apimachinery/pkg/util/duration/duration.go), and RFC 3339 parsing
// for metav1.Time / MicroTime without reading any clock: `now` is passed in.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Go's int(x): truncation toward zero. */
const trunc = (x: number) => Math.trunc(x);

/** duration.HumanDuration: ~2-3 significant figures ("3m10s", "2d1h", "2y1d"). `d` in ms. */
export function humanDuration(d: number): string {
  // Up to 2 s in the future still reads as "now" (clock skew between machines).
  const seconds = trunc(d / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = trunc(d / MINUTE);
  if (minutes < 10) {
    const s = trunc(d / SECOND) % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = trunc(d / HOUR);
  if (hours < 8) {
    const m = trunc(d / MINUTE) % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${trunc(hours / 24)}d` : `${trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = trunc(hours / 24) % 365;
    return dy === 0 ? `${trunc(hours / 24 / 365)}y` : `${trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${trunc(hours / 24 / 365)}y`;
}

/** duration.ShortHumanDuration: one unit only ("59s", "1m", "23h", "364d", "2y"). `d` in ms. */
export function shortHumanDuration(d: number): string {
  const seconds = trunc(d / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = trunc(d / MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = trunc(d / HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${trunc(hours / 24)}d`;
  return `${trunc(d / HOUR / 24 / 365)}y`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 timestamp (`2026-01-01T00:00:00Z`, fractions and offsets
 * allowed, as time.RFC3339 parses them) to ms since the Unix epoch. Anything
 * else, including null/absent, is undefined: a zero metav1.Time.
 */
export function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const m = RFC3339.exec(v);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let ms = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(s));
  // Date.UTC rolls 31 February over into March; Go rejects it.
  if (new Date(ms).getUTCDate() !== day) return undefined;
  if (frac) ms += Math.floor(Number(`0${frac}`) * 1000);
  if (zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    ms -= sign * (Number(zone.slice(1, 3)) * HOUR + Number(zone.slice(4, 6)) * MINUTE);
  }
  return ms;
}

/** translateTimestampSince: `<unknown>` for a zero time, else the HumanDuration since it. */
export function translateTimestampSince(ts: unknown, now: number): string {
  const t = parseTime(ts);
  return t === undefined ? '<unknown>' : humanDuration(now - t);
}
