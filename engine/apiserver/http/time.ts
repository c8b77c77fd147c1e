// Wall-clock timestamps in API objects come from the virtual clock: virtual
// time 0 is the simulation's epoch (engine/sim/epoch.ts). metav1.Time
// marshals as RFC 3339 with second precision; MicroTime (events.k8s.io,
// leases) with microseconds.
import { DEFAULT_EPOCH_MS, epochMs } from '../../sim/epoch';

/** The default epoch (2025-01-01T00:00:00Z); the running simulation's is `epochMs()`. */
export const SIM_EPOCH_MS = DEFAULT_EPOCH_MS;
export { epochMs };

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

// The last second written: every write of a busy second stamps the same one.
let lastSecond = Number.NaN;
let lastText = '';

/** metav1.Time: `2025-01-01T00:00:05Z`. */
export function rfc3339(virtualMs: number): string {
  const second = epochMs() + Math.floor(virtualMs / 1000) * 1000;
  if (second === lastSecond) return lastText;
  const d = new Date(second);
  lastText = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}Z`;
  lastSecond = second;
  return lastText;
}

/** metav1.MicroTime: `2025-01-01T00:00:05.123000Z`. */
export function rfc3339Micro(virtualMs: number): string {
  const whole = Math.floor(virtualMs / 1000) * 1000;
  const micros = Math.round((virtualMs - whole) * 1000);
  return `${rfc3339(whole).slice(0, -1)}.${pad(micros, 6)}Z`;
}

/** Parses an RFC 3339 timestamp back to virtual ms (NaN when malformed). */
export function parseRfc3339(s: string): number {
  return Date.parse(s) - epochMs();
}
