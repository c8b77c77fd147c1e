// client-go's util/flowcontrol Backoff on virtual time: per-id delays that
// start at `initial`, double on each Next up to `max`, and are forgotten
// once unused for twice `max`.
import { registerClass } from '../sim/serial';

interface Entry {
  backoffMs: number;
  lastUpdate: number;
}

export class Backoff {
  readonly entries = new Map<string, Entry>();

  constructor(
    readonly initialMs: number,
    readonly maxMs: number,
  ) {}

  /** Get: the current delay of the id (0 when none). */
  get(id: string): number {
    return this.entries.get(id)?.backoffMs ?? 0;
  }

  /** Next: start or double the id's delay, as of now. */
  next(id: string, now: number): void {
    const e = this.entries.get(id);
    if (!e || this.hasExpired(now, e.lastUpdate)) this.entries.set(id, { backoffMs: this.initialMs, lastUpdate: now });
    else this.entries.set(id, { backoffMs: Math.min(e.backoffMs * 2, this.maxMs), lastUpdate: now });
  }

  /** IsInBackOffSinceUpdate: less than the id's delay has passed since its last Next. */
  isInBackOffSinceUpdate(id: string, now: number): boolean {
    const e = this.entries.get(id);
    if (!e || this.hasExpired(now, e.lastUpdate)) return false;
    return now - e.lastUpdate < e.backoffMs;
  }

  /** GC: forget ids unused for twice the maximum. */
  gc(now: number): void {
    for (const [id, e] of this.entries) if (now - e.lastUpdate > this.maxMs * 2) this.entries.delete(id);
  }

  private hasExpired(now: number, lastUpdate: number): boolean {
    return now - lastUpdate > this.maxMs * 2;
  }
}

registerClass('FlowcontrolBackoff', Backoff);
