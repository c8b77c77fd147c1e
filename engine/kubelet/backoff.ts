// flowcontrol.Backoff (client-go util/flowcontrol/backoff.go) as the kubelet
// uses it for crash loops and image pulls (pkg/kubelet/kubelet.go: 10 s
// initial, doubling to 300 s; kubelet.go sets no jitter). An entry whose last
// update is more than twice the maximum before the event is forgotten: a
// container that ran 10 minutes starts its back-off afresh.
import { registerClass } from '../sim/serial';
import { BACKOFF_INITIAL_MS, BACKOFF_MAX_MS } from './config';

interface Entry {
  backoffMs: number;
  lastUpdate: number;
}

export class Backoff {
  readonly entries = new Map<string, Entry>();

  constructor(
    readonly initialMs = BACKOFF_INITIAL_MS,
    readonly maxMs = BACKOFF_MAX_MS,
  ) {}

  private expired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > this.maxMs * 2;
  }

  /** The current back-off of `id` (0 when none). */
  get(id: string): number {
    return this.entries.get(id)?.backoffMs ?? 0;
  }

  /** Next: the first back-off, or the previous one doubled up to the maximum; updated at `now`. */
  next(id: string, eventTime: number, now: number): number {
    const e = this.entries.get(id);
    const ms = !e || this.expired(eventTime, e.lastUpdate) ? this.initialMs : Math.min(e.backoffMs * 2, this.maxMs);
    this.entries.set(id, { backoffMs: ms, lastUpdate: now });
    return ms;
  }

  /** IsInBackOffSince: `now` is within the back-off counted from `eventTime`. */
  inBackoffSince(id: string, eventTime: number, now: number): boolean {
    const e = this.entries.get(id);
    if (!e || this.expired(eventTime, e.lastUpdate)) return false;
    return now - eventTime < e.backoffMs;
  }

  /** IsInBackOffSinceUpdate: within the back-off counted from the entry's last update. */
  inBackoffSinceUpdate(id: string, now: number): boolean {
    const e = this.entries.get(id);
    if (!e || this.expired(now, e.lastUpdate)) return false;
    return now - e.lastUpdate < e.backoffMs;
  }

  /** When the back-off of `id` counted from `since` ends. */
  endsAt(id: string, since: number): number {
    return since + this.get(id);
  }

  /** GC: entries idle for more than twice the maximum go. */
  gc(now: number): void {
    for (const [id, e] of this.entries) if (now - e.lastUpdate > this.maxMs * 2) this.entries.delete(id);
  }

  reset(id: string): void {
    this.entries.delete(id);
  }
}

registerClass('Backoff', Backoff);
