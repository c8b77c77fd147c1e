// The left rail: the scheduling queue (active, backoff, unschedulable, gated:
// each pod with its priority, attempts, the plugins and reason that parked it,
// and its back-off) and the recent scheduling cycles. Clicking a pod or a cycle
// opens its decision.
import { memo } from 'react';
import type { QueueEntry, SchedulerView } from '../../engine/host/protocol';
import { useThrottledView } from '../store/throttle';
import type { ViewState } from '../store/viewStore';
import { backoffLeft, outcomeLook, parkedBy } from './format';
import { poller } from './schedulerClient';
import { shownDecision, useScheduler } from './schedulerStore';

/** Entries drawn per sub-queue (the count says how many there are). */
export const QUEUE_ROWS_SHOWN = 100;

const virtualTime = (s: ViewState) => s.clock.virtualTime;

type QueueName = 'active' | 'backoff' | 'unschedulable' | 'gated';

const GROUPS: { id: QueueName; label: string; hint: string }[] = [
  { id: 'active', label: 'Active', hint: 'activeQ: waiting for a scheduling cycle, in pop order (PrioritySort: priority, then time)' },
  { id: 'backoff', label: 'Backoff', hint: 'backoffQ: failed recently; back to activeQ when the back-off (1 s doubling to 10 s) ends' },
  { id: 'unschedulable', label: 'Unschedulable', hint: 'unschedulablePods: wait for a cluster event their rejecting plugins registered for (or the 5 min flush)' },
  { id: 'gated', label: 'Gated', hint: 'PreEnqueue rejected them (schedulingGates): never popped until the gates are removed' },
];

export function QueuePane() {
  const queue = useScheduler((s) => s.queue);
  const selected = useScheduler((s) => s.pod);
  return (
    <section className="sched-queue" aria-label="Scheduling queue">
      <h2>Queue</h2>
      {!queue && <p className="muted empty-note">No scheduler queue to show.</p>}
      {queue &&
        GROUPS.map((g) => (
          <QueueGroup key={g.id} name={g.id} label={g.label} hint={g.hint} entries={queue[g.id]} selected={selected} />
        ))}
    </section>
  );
}

function QueueGroup({ name, label, hint, entries, selected }: { name: QueueName; label: string; hint: string; entries: QueueEntry[]; selected: string | null }) {
  // Back-off countdowns follow the clock a few times a second, not every frame.
  const now = useThrottledView(virtualTime, 250);
  const shown = entries.slice(0, QUEUE_ROWS_SHOWN);
  return (
    <div className={`queue-group q-${name}`}>
      <h3 title={hint}>
        {label} <span className="count">{entries.length}</span>
      </h3>
      {entries.length > 0 && (
        <ul className="queue-list" aria-label={`${label} pods`}>
          {shown.map((e) => (
            <QueueItem key={e.pod} e={e} now={name === 'backoff' || name === 'unschedulable' ? now : null} onlyRunning={name === 'unschedulable'} selected={e.pod === selected} />
          ))}
          {entries.length > shown.length && <li className="muted more">… {entries.length - shown.length} more</li>}
        </ul>
      )}
    </div>
  );
}

const QueueItem = memo(function QueueItem({ e, now, onlyRunning, selected }: { e: QueueEntry; now: number | null; onlyRunning: boolean; selected: boolean }) {
  const parked = parkedBy(e);
  // An unschedulable pod waits for an event; its back-off matters only while it runs.
  const running = now !== null && e.backoffExpiresAt !== undefined && e.backoffExpiresAt > now;
  const left = now === null || (onlyRunning && !running) ? '' : backoffLeft(e, now);
  return (
    <li className={`queue-item${selected ? ' selected' : ''}`}>
      <div className="qi-head">
        <button type="button" className="link pod-link" onClick={() => void poller.selectPod(e.pod)} aria-label={`Show decisions for ${e.pod}`} title={e.pod}>
          {e.pod}
        </button>
      </div>
      <div className="qi-meta muted">
        <span title="priority">prio {e.priority}</span> · <span title="scheduling attempts">{e.attempts} attempt{e.attempts === 1 ? '' : 's'}</span>
        {left && <span className="qi-backoff"> · {left}</span>}
      </div>
      {parked && (
        <div className="qi-why" title="the plugins that rejected it: an event they registered for moves it back">
          {parked}
        </div>
      )}
      {e.message && (
        <div className="qi-message" title={e.message}>
          {e.message}
        </div>
      )}
    </li>
  );
});

export function RecentCycles() {
  const view = useScheduler((s) => s.view);
  const shown = useScheduler((s) => shownDecision(s)?.cycle ?? s.cycle);
  const recent = view?.recent ?? [];
  return (
    <section className="sched-recent" aria-label="Recent scheduling cycles">
      <h2>
        Recent cycles <span className="count muted">{view?.stats ? `${view.stats.cycles} in all` : ''}</span>
      </h2>
      {recent.length === 0 && <p className="muted empty-note">No scheduling cycle yet. Create a pod to see one.</p>}
      <ol className="cycle-list" reversed>
        {[...recent].reverse().map((r) => (
          <CycleItem key={r.cycle} r={r} selected={r.cycle === shown} />
        ))}
      </ol>
    </section>
  );
}

const CycleItem = memo(function CycleItem({ r, selected }: { r: SchedulerView['recent'][number]; selected: boolean }) {
  const look = outcomeLook(r.outcome);
  const what = r.outcome === 'Scheduled' || r.outcome === 'Binding' ? `→ ${r.selected}` : r.message;
  return (
    <li className={`cycle-item o-${look.cls}${selected ? ' selected' : ''}`}>
      <button
        type="button"
        className="cycle-button"
        onClick={() => void poller.selectPod(r.pod, r.cycle)}
        aria-label={`Cycle ${r.cycle}: ${r.pod} ${look.label}${r.selected ? ` on ${r.selected}` : ''}`}
        title={r.message || `${r.pod} → ${r.selected}`}
      >
        <span className="cy-num muted">#{r.cycle}</span>
        <span className={`cy-outcome ${look.cls}`} aria-hidden="true">
          {look.icon}
        </span>
        <span className="cy-pod">{r.pod}</span>
        <span className="cy-what">{what}</span>
      </button>
    </li>
  );
});
