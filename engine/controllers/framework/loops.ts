// A controller's periodic passes: what upstream runs with wait.Until on a
// ticker of its own (the node lifecycle controller's monitorNodeHealth and
// NoExecute tainting pass, the resource quota and persistent volume resyncs),
// beside its workqueue, not through it. Kept apart from the queue so its
// metrics (workqueue_adds_total, workqueue_retries_total) count what upstream's
// do: a pass is neither an add nor a retry.
import { registerClass } from '../../sim/serial';

export class PeriodicLoops {
  /** Each pass's next time (virtual ms). */
  private readonly dueAt = new Map<string, number>();

  /** Runs `pass` at `at`; an earlier time already asked for wins. */
  schedule(pass: string, at: number): void {
    const was = this.dueAt.get(pass);
    if (was === undefined || at < was) this.dueAt.set(pass, at);
  }

  has(pass: string): boolean {
    return this.dueAt.has(pass);
  }

  /** The passes due at `now`, soonest first, each taken off the schedule. */
  takeDue(now: number): string[] {
    const due = [...this.dueAt].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]);
    for (const [pass] of due) this.dueAt.delete(pass);
    return due.map(([pass]) => pass);
  }

  /** Runs every pass due at `now` and schedules its next run (`run` returns ms until then, or null to stop). */
  runDue(now: number, run: (pass: string) => number | null): void {
    for (const pass of this.takeDue(now)) {
      const after = run(pass);
      if (after !== null) this.schedule(pass, now + Math.max(0, after));
    }
  }

  /** When the next pass is due (null: none scheduled). */
  nextAt(): number | null {
    let next: number | null = null;
    for (const at of this.dueAt.values()) if (next === null || at < next) next = at;
    return next;
  }
}

registerClass('PeriodicLoops', PeriodicLoops);
