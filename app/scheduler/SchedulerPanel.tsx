// The Scheduler view: kube-scheduler's replicas and counters, its queue and
// recent cycles on the left, the chosen pod's decision (the scoring table) on
// the right; and the profile editor. It reads the engine only while visible.
import { useClockPolling } from '../lib/useClockPolling';
import { useEffect, useMemo, useState, type FormEvent, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useUi } from '../store/uiStore';
import { DecisionPane } from './DecisionPane';
import { ProfileEditor } from './ProfileEditor';
import { QueuePane, RecentCycles } from './QueuePane';
import { installSchedulerDebugHook, poller } from './schedulerClient';
import { useScheduler } from './schedulerStore';

installSchedulerDebugHook();

/** Wall ms between reads while the simulation moves. */
const POLL_MS = 300;

type SubView = 'decisions' | 'profile';
const SUBVIEWS: { id: SubView; label: string }[] = [
  { id: 'decisions', label: 'Decisions' },
  { id: 'profile', label: 'Profile' },
];

/** Reads the scheduler while the panel is visible and the engine has moved. */

export function SchedulerPanel() {
  const visible = useUi((s) => s.centreTab === 'scheduler');
  useClockPolling(visible, (first) => (first ? poller.refresh(true) : poller.refresh()), POLL_MS);
  const [sub, setSub] = useState<SubView>('decisions');
  const [railHidden, setRailHidden] = useState(false);
  // The profile editor mounts on first show and then stays (its buffer and undo).
  const [profileSeen, setProfileSeen] = useState(false);
  useEffect(() => {
    if (sub === 'profile') setProfileSeen(true);
  }, [sub]);
  const onTabKey = (e: ReactKeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const next = sub === 'decisions' ? 'profile' : 'decisions';
    setSub(next);
    document.getElementById(`sched-tab-${next}`)?.focus();
  };
  return (
    <div className="scheduler-panel">
      <div className="sched-top">
        <Summary />
        <div className="sched-top-row">
          <div className="tabs sub-tabs" role="tablist" aria-label="Scheduler views" onKeyDown={onTabKey}>
            {SUBVIEWS.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                id={`sched-tab-${t.id}`}
                aria-selected={sub === t.id}
                aria-controls={`sched-panel-${t.id}`}
                tabIndex={sub === t.id ? 0 : -1}
                className={`tab${sub === t.id ? ' active' : ''}`}
                onClick={() => setSub(t.id)}
              >
                {t.label}
              </button>
            ))}
          </div>
          {sub === 'decisions' && (
            <button type="button" className="small ghost rail-toggle" aria-pressed={!railHidden} onClick={() => setRailHidden((h) => !h)} title="Show or hide the queue and recent cycles (more room for the table)">
              {railHidden ? '▸' : '◂'} Queue &amp; cycles
            </button>
          )}
          <PodFinder onFind={() => setSub('decisions')} />
        </div>
      </div>
      <div role="tabpanel" id="sched-panel-decisions" aria-labelledby="sched-tab-decisions" className={`sched-body${railHidden ? ' rail-hidden' : ''}`} hidden={sub !== 'decisions'}>
        <div className="sched-rail">
          <QueuePane />
          <RecentCycles />
        </div>
        <DecisionPane />
      </div>
      <div role="tabpanel" id="sched-panel-profile" aria-labelledby="sched-tab-profile" className="sched-profile" hidden={sub !== 'profile'}>
        {profileSeen && <ProfileEditor />}
      </div>
    </div>
  );
}

function Summary() {
  const view = useScheduler((s) => s.view);
  const readError = useScheduler((s) => s.readError);
  if (!view) {
    return (
      <div className="sched-summary" role="group" aria-label="kube-scheduler">
        <span className="muted">{readError ? `kube-scheduler: ${readError}` : 'kube-scheduler is not running (it runs with the Kubernetes control plane).'}</span>
      </div>
    );
  }
  const st = view.stats;
  const q = view.queue;
  return (
    <div className="sched-summary" role="group" aria-label="kube-scheduler">
      <span className="replicas">
        {view.replicas.map((r) => (
          <span key={r.name} className={`replica ${!r.up ? 'down' : r.leader ? 'leader' : 'standby'}`} title={r.synced ? 'informer caches synced' : 'waiting for informer caches'}>
            <span aria-hidden="true">{!r.up ? '○' : r.leader ? '★' : '◇'} </span>
            {r.name} <span className="muted">{!r.up ? 'down' : r.leader ? 'leader' : 'standby'}</span>
          </span>
        ))}
      </span>
      <span className="sum-item" data-testid="sched-nodes">
        <b>{view.nodes}</b> node{view.nodes === 1 ? '' : 's'}
      </span>
      {st && (
        <span className="sum-item">
          <b>{st.cycles}</b> cycles · <span className="ok-text">{st.scheduled} scheduled</span> · <span className={st.unschedulable ? 'danger' : ''}>{st.unschedulable} unschedulable</span>
          {st.errors > 0 && <span className="danger"> · {st.errors} errors</span>}
        </span>
      )}
      {q && (
        <span className="sum-item muted" title="active · backoff · unschedulable · gated">
          queue: {q.active} active, {q.backoff} backoff, {q.unschedulable} unschedulable{q.gated ? `, ${q.gated} gated` : ''}
        </span>
      )}
    </div>
  );
}

function PodFinder({ onFind }: { onFind: () => void }) {
  const pod = useScheduler((s) => s.pod);
  const view = useScheduler((s) => s.view);
  const queue = useScheduler((s) => s.queue);
  const [text, setText] = useState('');
  useEffect(() => {
    if (pod) setText(pod);
  }, [pod]);
  const known = useMemo(() => {
    const set = new Set<string>();
    for (const r of view?.recent ?? []) set.add(r.pod);
    for (const g of [queue?.active, queue?.backoff, queue?.unschedulable, queue?.gated]) for (const e of g ?? []) set.add(e.pod);
    return [...set].slice(0, 200);
  }, [view, queue]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    let key = text.trim();
    if (!key) return;
    if (!key.includes('/')) key = `default/${key}`;
    onFind();
    void poller.selectPod(key);
  };
  return (
    <form className="pod-finder" onSubmit={submit} role="search" aria-label="Find a pod's decisions">
      <input type="text" aria-label="Pod" placeholder="namespace/pod" list="sched-known-pods" value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
      <datalist id="sched-known-pods">
        {known.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      <button type="submit" className="small">
        Show
      </button>
    </form>
  );
}
