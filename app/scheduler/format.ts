// Words and numbers the scheduler panel shows.
import type { QueueEntry, SchedulerView } from '../../engine/host/protocol';

/** Virtual milliseconds as "0.4 s", "12 s", "2m 05s". */
export function formatDuration(ms: number): string {
  if (ms < 0) ms = 0;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms - m * 60_000) / 1000);
  return `${m}m ${String(s).padStart(2, '0')}s`;
}

/** What is left of a pod's back-off at `now`: "1.2 s left", "expired", or '' without one. */
export function backoffLeft(e: QueueEntry, now: number): string {
  if (e.backoffExpiresAt === undefined) return '';
  const left = e.backoffExpiresAt - now;
  return left > 0 ? `back-off ${formatDuration(left)} left` : 'back-off over';
}

/** The plugins that parked a pod: "NodeResourcesFit, TaintToleration" (pending ones marked). */
export function parkedBy(e: QueueEntry): string {
  const out = [...e.unschedulablePlugins];
  for (const p of e.pendingPlugins) if (!out.includes(p)) out.push(`${p} (pending)`);
  return out.join(', ');
}

export type Outcome = SchedulerView['recent'][number]['outcome'];

/** The outcome's icon and words (colour is never the only carrier). */
export function outcomeLook(outcome: string): { icon: string; cls: string; label: string } {
  switch (outcome) {
    case 'Scheduled':
      return { icon: '✓', cls: 'ok', label: 'Scheduled' };
    case 'Binding':
      return { icon: '…', cls: 'pending', label: 'Binding' };
    case 'Unschedulable':
      return { icon: '✕', cls: 'fail', label: 'Unschedulable' };
    case 'BindingFailed':
      return { icon: '✕', cls: 'fail', label: 'Binding failed' };
    case 'Error':
      return { icon: '⚠', cls: 'fail', label: 'Error' };
    default:
      return { icon: '•', cls: 'pending', label: outcome };
  }
}

/** "00:00:03.210" from the decision's RFC 3339 time ("1970-01-01T00:00:03.210000Z"), else the text as it is. */
export function clockOf(time: string): string {
  const m = /T(\d\d:\d\d:\d\d(?:\.\d{1,3})?)/.exec(time);
  return m ? m[1]! : time;
}
