// A container's log file as containerd writes it (CRI logging format: each
// line stamped with its time and stream, partial lines marked) and as the
// kubelet reads it back for `kubectl logs` (pkg/kubelet/kuberuntime/logs:
// sinceTime, tailLines, limitBytes, timestamps). Bounded like the kubelet's
// log rotation keeps files bounded: the oldest lines go first.
import { epochMs } from '../../apiserver/http/time';
import { utf8Length } from '../../sim/utf8';

export interface LogLine {
  at: number;
  stream: 'stdout' | 'stderr';
  /** Without its newline. */
  text: string;
  /** The write did not end with a newline (CRI "P"). */
  partial: boolean;
  /** Nanoseconds within the millisecond, so timestamps look like a real clock's. */
  ns: number;
}

export interface LogOptions {
  /** Only lines at or after this virtual time. */
  since?: number;
  tailLines?: number;
  limitBytes?: number;
  timestamps?: boolean;
}

/** Lines kept per container (rotation keeps a bounded file). */
export const MAX_LOG_LINES = 10_000;

export class ContainerLog {
  readonly lines: LogLine[] = [];
  private seq = 0;

  write(at: number, stream: 'stdout' | 'stderr', text: string): void {
    const parts = text.split('\n');
    const last = parts.pop()!;
    const push = (t: string, partial: boolean) => {
      const line: LogLine = { at, stream, text: t, partial, ns: (this.seq++ * 7919 + 104_729) % 1_000_000 };
      // Programs may log ahead of the runtime's clock (a start-up line due in 20 ms): keep the file in time order.
      let i = this.lines.length;
      while (i > 0 && this.lines[i - 1]!.at > at) i--;
      this.lines.splice(i, 0, line);
    };
    for (const p of parts) push(p, false);
    if (last) push(last, true);
    if (this.lines.length > MAX_LOG_LINES) this.lines.splice(0, this.lines.length - MAX_LOG_LINES);
  }

  /** Lines written by `now` that the options select. */
  select(now: number, opts: LogOptions, after = -1): LogLine[] {
    let out = this.lines.filter((l) => l.at <= now && (opts.since === undefined || l.at >= opts.since));
    if (after >= 0) out = out.filter((l) => l.at > after);
    if (opts.tailLines !== undefined && opts.tailLines >= 0) out = out.slice(Math.max(0, out.length - opts.tailLines));
    return out;
  }

  /** The text `kubectl logs` prints for these lines. */
  static render(lines: readonly LogLine[], opts: LogOptions): string {
    let out = '';
    for (const l of lines) out += `${opts.timestamps ? `${rfc3339Nano(l.at, l.ns)} ` : ''}${l.text}${l.partial ? '' : '\n'}`;
    if (opts.limitBytes !== undefined && opts.limitBytes > 0) out = truncateBytes(out, opts.limitBytes);
    return out;
  }
}

/** time.RFC3339Nano: fractional seconds with trailing zeros dropped. */
export function rfc3339Nano(virtualMs: number, ns = 0): string {
  const whole = Math.floor(virtualMs);
  const d = new Date(epochMs() + whole);
  const base = d.toISOString().slice(0, 19);
  const nanos = String((whole % 1000) * 1_000_000 + ns)
    .padStart(9, '0')
    .replace(/0+$/, '');
  return `${base}${nanos ? `.${nanos}` : ''}Z`;
}

/** The longest prefix of `s` that fits in `n` UTF-8 bytes. */
function truncateBytes(s: string, n: number): string {
  if (utf8Length(s) <= n) return s;
  let used = 0;
  let out = '';
  for (const ch of s) {
    used += utf8Length(ch);
    if (used > n) break;
    out += ch;
  }
  return out;
}
