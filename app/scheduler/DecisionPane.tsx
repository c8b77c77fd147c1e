// One pod's scheduling decision: which cycle, what came of it (the
// FailedScheduling message, preemption's candidates and victims), how many
// nodes were looked at, and the scoring table.
import { useMemo } from 'react';
import type { DecisionJson } from '../../engine/host/protocol';
import { defaultScoring, scoringByProfile } from './configInfo';
import { clockOf, outcomeLook } from './format';
import { ScoreTable } from './ScoreTable';
import { chooseCycle, shownDecision, useScheduler } from './schedulerStore';
import { coverageText } from './table';

/** Preemption candidates listed (the rest are counted). */
const CANDIDATES_SHOWN = 8;

export function DecisionPane() {
  const pod = useScheduler((s) => s.pod);
  const decisions = useScheduler((s) => s.decisions);
  const d = useScheduler(shownDecision);
  const config = useScheduler((s) => s.runningConfig);
  const scoring = useMemo(() => scoringByProfile(config), [config]);
  if (!pod) {
    return (
      <section className="sched-decision" aria-label="Scheduling decision">
        <p className="muted empty-note">Pick a pod in the queue or a recent cycle, or type its name above, to see how the scheduler placed it: every node’s Filter verdicts and Score plugins.</p>
      </section>
    );
  }
  return (
    <section className="sched-decision" aria-label="Scheduling decision">
      <div className="decision-head">
        <h3 className="decision-pod mono" title={pod}>
          {pod}
        </h3>
        {decisions.length > 0 && (
          <label className="inline cycle-pick">
            <span className="muted">Cycle</span>
            <select aria-label="Cycle" value={d?.cycle ?? ''} onChange={(e) => chooseCycle(e.target.value === String(decisions[decisions.length - 1]?.cycle) ? null : Number(e.target.value))}>
              {[...decisions].reverse().map((x) => (
                <option key={x.cycle} value={x.cycle}>
                  #{x.cycle} · {clockOf(x.time)} · {outcomeLook(x.outcome).label}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {!d && <p className="muted empty-note">No scheduling decision is held for {pod} (yet). Decisions are kept for the recent cycles and for the pod shown here.</p>}
      {d && <DecisionBody d={d} />}
      {d && <ScoreTable decision={d} scoring={scoring.get(d.profile) ?? defaultScoring()} />}
    </section>
  );
}

function DecisionBody({ d }: { d: DecisionJson }) {
  const look = outcomeLook(d.outcome);
  const failed = d.outcome === 'Unschedulable' || d.outcome === 'Error' || d.outcome === 'BindingFailed';
  const pf = d.postFilter;
  return (
    <div className="decision-body">
      <div className={`decision-outcome o-${look.cls}`} role="status" aria-label="Outcome">
        <span className="oc-icon" aria-hidden="true">
          {look.icon}
        </span>
        <span className="oc-label"> {look.label}</span>
        {d.selected && !failed && (
          <span>
            {' '}
            on <b className="mono">{d.selected}</b>
          </span>
        )}
        <span className="muted oc-meta">
          {' '}
          · profile {d.profile}
          {d.nominatedNode ? ` · nominated node ${d.nominatedNode} tried first` : ''}
        </span>
      </div>
      {failed && (d.message || d.outcomeMessage) && (
        <p className="fit-error" aria-label="FailedScheduling message">
          <span className="fe-reason">FailedScheduling</span> <span className="mono">{d.outcomeMessage || d.message}</span>
        </p>
      )}
      {d.preFilter && (
        <p className="prefilter-note">
          <span aria-hidden="true">✕ </span>PreFilter <b>{d.preFilter.plugin}</b> rejected the pod ({d.preFilter.code}): {d.preFilter.reason}
        </p>
      )}
      {pf && (
        <div className={`preemption p-${pf.status === 'Success' ? 'ok' : 'fail'}`} role="group" aria-label="Preemption">
          <div className="pre-head">
            <span className="pre-title">Preemption</span>{' '}
            {pf.status === 'Success' ? (
              <span>
                <span aria-hidden="true">⚑ </span>nominated <b className="mono">{pf.nominatedNodeName ?? '—'}</b>
                {pf.victims && pf.victims.length > 0 && (
                  <>
                    {' '}
                    · victims{' '}
                    <span className="mono victims" aria-label="Victims">
                      {pf.victims.join(', ')}
                    </span>
                  </>
                )}
              </span>
            ) : (
              <span className="muted">
                {pf.status}: {pf.candidates && pf.candidates.length > 0 ? 'no candidate chosen' : 'no node where evicting lower-priority pods would make room'}
              </span>
            )}
          </div>
          {pf.message && !(d.outcomeMessage || d.message).includes(pf.message) && <div className="pre-message mono">{pf.message}</div>}
          {pf.candidates && pf.candidates.length > 0 && (
            <table className="data candidates" aria-label="Preemption candidates">
              <thead>
                <tr>
                  <th scope="col">candidate node</th>
                  <th scope="col">victims</th>
                  <th scope="col" className="num">
                    PDB violations
                  </th>
                </tr>
              </thead>
              <tbody>
                {pf.candidates.slice(0, CANDIDATES_SHOWN).map((c) => (
                  <tr key={c.node} className={c.node === pf.nominatedNodeName ? 'chosen' : ''}>
                    <td className="mono">
                      {c.node === pf.nominatedNodeName && <span title="chosen">★ </span>}
                      {c.node}
                    </td>
                    <td className="mono">{c.victims.join(', ') || '—'}</td>
                    <td className="num">{c.numPDBViolations}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {pf.candidates && pf.candidates.length > CANDIDATES_SHOWN && <p className="muted small-note">… {pf.candidates.length - CANDIDATES_SHOWN} more candidates</p>}
        </div>
      )}
      <p className="coverage muted">
        {coverageText(d)}
        {d.scoringSkipped ? ` · scoring skipped: ${d.scoringSkipped}` : ''}
      </p>
    </div>
  );
}
