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
