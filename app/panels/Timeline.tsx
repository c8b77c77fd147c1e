// The bottom timeline: markers for faults, commands and role changes across
// the recent window, and the trace list of recent kernel events with filters.
import { memo, useMemo } from 'react';
import type { TraceRecordView } from '../../engine/facade/types';
import { formatT } from '../lib/format';
import { msgLook } from '../raft/look';
import { select, toggleTraceFilter, useUi, type TraceFilter } from '../store/uiStore';
import { useThrottledView } from '../store/throttle';
import type { ViewState } from '../store/viewStore';
import { MsgBadge } from './Inspector';

const ROWS = 60;
/** The list follows the engine a few times a second: readable, and cheap at x1000. */
const LIST_MS = 250;
const selTrace = (s: ViewState) => s.trace;
const selNotable = (s: ViewState) => s.notable;
const selSkipped = (s: ViewState) => s.traceSkipped;
const selMarkers = (s: ViewState) => s.markers;
const selNow = (s: ViewState) => Math.floor(s.clock.virtualTime / 100) * 100;

const FILTERS: { f: TraceFilter; label: string }[] = [
  { f: 'deliver', label: 'deliveries' },
  { f: 'send', label: 'sends' },
  { f: 'drop', label: 'drops' },
  { f: 'heartbeat', label: 'heartbeats' },
  { f: 'timer', label: 'timers' },
  { f: 'persist', label: 'disk' },
  { f: 'fault', label: 'faults & commands' },
];

function filterOf(r: TraceRecordView): TraceFilter {
  switch (r.kind) {
    case 'send':
      return 'send';
    case 'deliver':
    case 'duplicate':
      return 'deliver';
    case 'drop':
    case 'held':
      return 'drop';
    case 'timer':
      return 'timer';
    case 'persist':
      return 'persist';
    default:
      return 'fault';
  }
}

const KIND_ICON: Record<string, string> = {
  send: '→',
  deliver: '⇥',
  drop: '✕',
  held: '↺',
  duplicate: '⧉',
  timer: '⏱',
  persist: '💾',
  crash: '☠',
  restart: '↻',
  fault: '⚡',
  command: '⌘',
  leader: '★',
};

export function Timeline() {
  const filters = useUi((s) => s.traceFilters);
  const selMsg = useUi((s) => (s.selection?.type === 'message' ? s.selection.msgId : null));
  const selMember = useUi((s) => (s.selection?.type === 'member' ? s.selection.name : null));
  // With routine kinds hidden, the longer list of notable records reaches further back.
  const wantsRoutine = filters.heartbeat || filters.timer || filters.persist;
  const all = useThrottledView(selTrace, LIST_MS);
  const notable = useThrottledView(selNotable, LIST_MS);
  const trace = wantsRoutine ? all : notable;
  const skipped = useThrottledView(selSkipped, LIST_MS);
  const rows = useMemo(() => {
    const out: TraceRecordView[] = [];
    for (let i = trace.length - 1; i >= 0 && out.length < ROWS; i--) {
      const r = trace[i]!;
      const f = filterOf(r);
      if (!filters[f]) continue;
      const isHb = r.type !== undefined && msgLook(r.type).family === 'heartbeat';
      if (isHb && !filters.heartbeat && (f === 'send' || f === 'deliver' || f === 'drop')) continue;
      out.push(r);
    }
    return out;
  }, [trace, filters]);
  return (
    <section className="panel timeline" aria-label="Timeline">
      <div className="timeline-head">
        <h2>Timeline</h2>
        <Markers />
        <div className="filters" role="group" aria-label="Trace filters">
          {FILTERS.map(({ f, label }) => (
            <label key={f} className="check">
              <input type="checkbox" checked={filters[f]} onChange={() => toggleTraceFilter(f)} aria-label={`Show ${label}`} />
              {label}
            </label>
          ))}
        </div>
      </div>
      <div className="trace-scroll" tabIndex={0} role="region" aria-label="Recent events">
        <table className="data trace">
          <colgroup>
            <col style={{ width: 64 }} />
            <col style={{ width: 84 }} />
            <col style={{ width: 110 }} />
            <col style={{ width: 230 }} />
            <col style={{ width: 190 }} />
            <col />
          </colgroup>
          <thead>
            <tr>
              <th scope="col" className="num">
                #
              </th>
              <th scope="col" className="num">
                time
              </th>
              <th scope="col">event</th>
              <th scope="col">from → to</th>
              <th scope="col">type</th>
              <th scope="col">detail</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <Row key={r.n} r={r} selected={(r.msgId !== undefined && r.msgId === selMsg) || (r.to !== undefined && r.to === selMember && r.msgId === undefined)} />
            ))}
          </tbody>
        </table>
        {rows.length === 0 && <p className="muted empty-note">No events match the filters yet.</p>}
        {skipped > 0 && <p className="muted small-note">{skipped.toLocaleString('en-US')} events went by too fast to list (high speed).</p>}
      </div>
    </section>
  );
}

const Row = memo(function Row({ r, selected }: { r: TraceRecordView; selected: boolean }) {
  const msg = r.msgId !== undefined;
  return (
    <tr className={`k-${r.kind}${selected ? ' selected' : ''}`}>
      <td className="num muted">{r.n}</td>
      <td className="num mono">{formatT(r.t)}</td>
      <td>
        <span aria-hidden="true" className="kind-icon">
          {KIND_ICON[r.kind] ?? '•'}
        </span>{' '}
        {r.kind}
      </td>
      <td className="mono">{r.from ? `${r.from} → ${r.to ?? ''}` : (r.to ?? '')}</td>
      <td>
        {msg && r.type ? (
          <button type="button" className="link" onClick={() => select({ type: 'message', msgId: r.msgId! })} aria-label={`Inspect message ${r.msgId} ${r.type}`}>
            <MsgBadge type={r.type} />
          </button>
        ) : (
          <span className="mono">{r.type ?? ''}</span>
        )}
      </td>
      <td className="mono">{[r.reason, r.detail].filter(Boolean).join(' · ')}</td>
    </tr>
  );
});

/** Faults, crashes, commands and new leaders on a strip spanning the whole session. */
function Markers() {
  const markers = useThrottledView(selMarkers, LIST_MS);
  const now = useThrottledView(selNow, LIST_MS);
  const span = Math.max(1, now);
  const shown = markers.slice(-60);
  return (
    <div className="markers" role="img" aria-label={`Timeline markers: ${shown.map((m) => `${formatT(m.t)} ${m.label}`).join('; ') || 'none yet'}`}>
      <span className="markers-range muted">0s</span>
      <div className="markers-track">
        {shown.map((m, i) => (
          <span key={`${m.t}-${i}`} className={`marker k-${m.kind}`} style={{ left: `${(m.t / span) * 100}%` }} title={`${formatT(m.t)} ${m.label}`}>
            {KIND_ICON[m.kind]}
          </span>
        ))}
      </div>
      <span className="markers-range muted">{formatT(now)}</span>
    </div>
  );
}
