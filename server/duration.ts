// Go-style durations (time.ParseDuration): "500ms", "30s", "1m30s", "2h",
// "1.5s", "250us"; a bare "0" is zero. The control API also takes plain
// numbers as milliseconds. Negative durations are refused (time only moves on).

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

export type DurationResult = { ok: true; ms: number } | { ok: false; error: string };

export function parseGoDuration(text: string): DurationResult {
  const bad = (): DurationResult => ({ ok: false, error: `time: invalid duration ${JSON.stringify(text)}` });
  let s = text;
  if (s.startsWith('+')) s = s.slice(1);
  if (s.startsWith('-')) return { ok: false, error: `negative duration ${JSON.stringify(text)}: the clock only moves forward` };
  if (s === '0') return { ok: true, ms: 0 };
  if (s === '') return bad();
  let total = 0;
  const re = /^(\d*)(?:\.(\d*))?([a-zµμ]+)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (!m) return bad();
    const [whole, int = '', frac, unit = ''] = m;
    if (int === '' && (frac === undefined || frac === '')) return bad();
    const factor = UNIT_MS[unit];
    if (factor === undefined) return { ok: false, error: `time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}` };
    total += Number(`${int || '0'}.${frac ?? '0'}`) * factor;
    s = s.slice(whole.length);
  }
  if (!Number.isFinite(total)) return bad();
  return { ok: true, ms: total };
}

/** A duration from the control API: a Go duration string or a number of milliseconds. */
export function parseDurationValue(v: unknown): DurationResult {
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) return { ok: false, error: `duration must be a non-negative number of milliseconds (got ${v})` };
    return { ok: true, ms: v };
  }
  if (typeof v === 'string') return parseGoDuration(v.trim());
  return { ok: false, error: 'duration must be a string like "30s" or a number of milliseconds' };
}

/** Formats milliseconds the way Go prints a time.Duration (1m30s, 500ms, 1.5s). */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1) {
    const us = ms * 1000;
    return us >= 1 ? `${trimNum(us)}µs` : `${trimNum(ms * 1e6)}ns`;
  }
  if (ms < 1000) return `${trimNum(ms)}ms`;
  let rest = ms / 1000;
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  rest -= m * 60;
  let out = '';
  if (h > 0) out += `${h}h`;
  if (h > 0 || m > 0) out += `${m}m`;
  return `${out}${trimNum(rest)}s`;
}

function trimNum(n: number): string {
  return String(Number(n.toFixed(9)));
}
