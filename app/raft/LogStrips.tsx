// Each member's log tail as a strip of entries coloured (and labelled) by
// term, aligned by index so lag is visible, with commit and applied markers.
import { memo, useCallback } from 'react';
import type { EtcdMemberView, RaftLogEntryView } from '../../engine/facade/types';
import { select, useSelectedMember } from '../store/uiStore';
import { useThrottledView } from '../store/throttle';
import { useMemberOrder, type ViewState } from '../store/viewStore';
import { ROLE_LOOK, termColor } from './look';

const COLUMNS = 32;
/** Strips follow the engine ten times a second. */
const STRIP_MS = 100;

/** The highest last index across members: the right edge of every strip. */
const selMaxIndex = (s: ViewState) => {
  let max = 0;
  for (const n of s.memberOrder) max = Math.max(max, s.members[n]?.lastLogIndex ?? 0);
  return max;
};
const useMaxIndex = () => useThrottledView(selMaxIndex, STRIP_MS);

export function LogStrips() {
  const order = useMemberOrder();
  const hi = useMaxIndex();
  const lo = Math.max(1, hi - COLUMNS + 1);
  return (
    <section className="log-strips" aria-label="Raft logs">
      <h3>
        Logs <span className="muted">indexes {lo}–{Math.max(lo, hi)} · colour and number = term</span>
      </h3>
      <div className="strip-index" aria-hidden="true">
        <span className="strip-name" />
        <div className="cells">
          {Array.from({ length: COLUMNS }, (_, i) => (
            <span key={i} className="cell idx">
              {(lo + i) % 5 === 0 ? lo + i : ''}
            </span>
          ))}
        </div>
      </div>
      {order.map((n) => (
        <Strip key={n} name={n} lo={lo} />
      ))}
    </section>
  );
}

const Strip = memo(function Strip({ name, lo }: { name: string; lo: number }) {
  const m = useThrottledView(
    useCallback((s: ViewState) => s.members[name], [name]),
    STRIP_MS,
  );
  const selected = useSelectedMember() === name;
  if (!m) return null;
  const byIndex = new Map<number, RaftLogEntryView>(m.log.map((e) => [e.index, e]));
  return (
    <div className={`strip${selected ? ' selected' : ''}`} data-member={name}>
      <button type="button" className="strip-name" onClick={() => select({ type: 'member', name })} aria-label={`Select ${name} (log)`}>
        <span style={{ color: `var(${ROLE_LOOK[m.role].cssVar})` }} aria-hidden="true">
          {ROLE_LOOK[m.role].icon}
        </span>{' '}
        {name}
      </button>
      <div className="cells" role="img" aria-label={stripLabel(m)}>
        {Array.from({ length: COLUMNS }, (_, i) => {
          const idx = lo + i;
          return <Cell key={idx} idx={idx} m={m} e={byIndex.get(idx)} />;
        })}
      </div>
      <span className="strip-stats">
        last {m.lastLogIndex} · commit {m.commitIndex} · applied {m.appliedIndex}
      </span>
    </div>
  );
});

function stripLabel(m: EtcdMemberView): string {
  return `${m.name} log: last index ${m.lastLogIndex}, commit ${m.commitIndex}, applied ${m.appliedIndex}, snapshot ${m.snapshotIndex}`;
}

function Cell({ idx, m, e }: { idx: number; m: EtcdMemberView; e: RaftLogEntryView | undefined }) {
  const marks = (
    <>
      {idx === m.commitIndex && <span className="mark commit" title="commit index">C</span>}
      {idx === m.appliedIndex && <span className="mark applied" title="applied index">A</span>}
    </>
  );
  if (idx > m.lastLogIndex) return <span className="cell empty">{marks}</span>;
  if (idx < m.firstLogIndex || !e) {
    return (
      <span className="cell compacted" title={idx <= m.snapshotIndex ? `#${idx}: in snapshot` : `#${idx}`}>
        {marks}
      </span>
    );
  }
  const { fill, text } = termColor(e.term);
  const committed = idx <= m.commitIndex;
  return (
    <span
      className={`cell entry${committed ? ' committed' : ' uncommitted'}${e.kind !== 'normal' ? ` kind-${e.kind}` : ''}`}
      style={{ background: fill, color: text }}
      title={`#${e.index} term ${e.term} ${e.kind}${e.summary ? `: ${e.summary}` : ''}${committed ? ' (committed)' : ' (not committed)'}`}
    >
      {e.term}
      {marks}
    </span>
  );
}
