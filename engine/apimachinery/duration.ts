// Go's time.Duration.String, which metav1.Duration serialises with and
// extension servers print in tables: "15s", "14.989s", "1m0s", "500ms".
export function goDurationString(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  const sign = neg ? '-' : '';
  if (rest < 1000) {
    // Sub-second: the largest unit that keeps the value ≥ 1 (ms here; µs/ns for fractions).
    if (rest >= 1) return `${sign}${trim(rest)}ms`;
    if (rest * 1000 >= 1) return `${sign}${trim(rest * 1000)}µs`;
    return `${sign}${trim(rest * 1_000_000)}ns`;
  }
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = `${trim(rest / 1000)}s`;
  if (h > 0) return `${sign}${h}h${m}m${s}`;
  if (m > 0) return `${sign}${m}m${s}`;
  return `${sign}${s}`;
}

/** A number without trailing zeros (at most nanosecond precision). */
function trim(v: number): string {
  return String(Math.round(v * 1e9) / 1e9);
}

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** time.ParseDuration, in ms; NaN when malformed ("15s", "1m30.5s", "-2h", "0"). */
export function parseGoDuration(text: string): number {
  let rest = text.trim();
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest[0] === '-') sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return NaN;
  let total = 0;
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/.exec(rest);
    if (!m) return NaN;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}
