// The workspace: top bar; the dock (terminal, editor, etcd client) on the
// left; views in the centre (etcd/Raft, API server, Scheduler, Cluster, Events); inspector on the right;
// timeline along the bottom.
import { useEffect, type CSSProperties, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { ApiServerPanel } from './apiserver/ApiServerPanel';
import { ClusterPanel } from './cluster/ClusterPanel';
import { EventsPanel } from './events/EventsPanel';
import { Dock } from './panels/Dock';
import { Inspector } from './panels/Inspector';
import { Timeline } from './panels/Timeline';
import { TopBar } from './panels/TopBar';
import { RaftPanel } from './raft/RaftPanel';
import { SchedulerPanel } from './scheduler/SchedulerPanel';
import { engine } from './engineClient';
import { clampDockWidth, defaultDockWidth, setActionError, setCentreTab, useUi, type CentreTab } from './store/uiStore';
import { useView } from './store/viewStore';

export function App() {
  const theme = useUi((s) => s.theme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    // Space plays/pauses and "." steps, unless typing or on a control.
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.ctrlKey || e.metaKey || e.altKey || (t && t.closest('input, select, textarea, button, [role="button"]'))) return;
      if (e.key === ' ') {
        e.preventDefault();
        if (useView.getState().clock.playing) engine.pause();
        else engine.play();
      } else if (e.key === '.') {
        engine.step();
      } else if (e.key === 'm') {
        engine.stepMessage();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const dockWidth = useUi((s) => s.dockWidth);
  useEffect(() => {
    // The dock follows the window until the user sizes it; then it stays within bounds.
    const onResize = () => {
      const chosen = window.localStorage?.getItem('kubeglass.dockWidth') !== null;
      const w = chosen ? clampDockWidth(useUi.getState().dockWidth, window.innerWidth) : defaultDockWidth(window.innerWidth);
      if (w !== useUi.getState().dockWidth) useUi.setState({ dockWidth: w });
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return (
    <div className="workspace" style={{ '--dock-w': `${dockWidth}px` } as CSSProperties}>
      <TopBar />
      <Banner />
      <Dock />
      <Centre />
      <Inspector />
      <Timeline />
    </div>
  );
}

const CENTRE_TABS: { id: CentreTab; label: string }[] = [
  { id: 'raft', label: 'etcd / Raft' },
  { id: 'apiserver', label: 'API server' },
  { id: 'scheduler', label: 'Scheduler' },
  { id: 'cluster', label: 'Cluster' },
  { id: 'events', label: 'Events' },
];

/** The views, as tabs that keep their state (hidden, not unmounted). */
function Centre() {
  const tab = useUi((s) => s.centreTab);
  const onTabKey = (e: ReactKeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = CENTRE_TABS.findIndex((t) => t.id === tab);
    const next = CENTRE_TABS[(i + (e.key === 'ArrowRight' ? 1 : CENTRE_TABS.length - 1)) % CENTRE_TABS.length]!;
    setCentreTab(next.id);
    document.getElementById(`tab-${next.id}`)?.focus();
  };
  return (
    <main className="panel centre" aria-label="Views">
      <div className="tabs" role="tablist" aria-label="Views" onKeyDown={onTabKey}>
        {CENTRE_TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`tabpanel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={`tab${tab === t.id ? ' active' : ''}`}
            onClick={() => setCentreTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="tabpanel-raft" aria-labelledby="tab-raft" className="tabpanel" hidden={tab !== 'raft'}>
        <RaftPanel />
      </div>
      <div role="tabpanel" id="tabpanel-apiserver" aria-labelledby="tab-apiserver" className="tabpanel tabpanel-api" hidden={tab !== 'apiserver'}>
        <ApiServerPanel />
      </div>
      <div role="tabpanel" id="tabpanel-scheduler" aria-labelledby="tab-scheduler" className="tabpanel tabpanel-scheduler" hidden={tab !== 'scheduler'}>
        <SchedulerPanel />
      </div>
      <div role="tabpanel" id="tabpanel-cluster" aria-labelledby="tab-cluster" className="tabpanel tabpanel-cluster" hidden={tab !== 'cluster'}>
        <ClusterPanel />
      </div>
      <div role="tabpanel" id="tabpanel-events" aria-labelledby="tab-events" className="tabpanel tabpanel-events" hidden={tab !== 'events'}>
        <EventsPanel />
      </div>
    </main>
  );
}

function Banner() {
  const fatal = useView((s) => s.fatal);
  const error = useUi((s) => s.actionError);
  if (!fatal && !error) return null;
  return (
    <div className={`banner ${fatal ? 'fatal' : 'warn'}`} role="alert">
      <span>{fatal ?? error}</span>
      {!fatal && (
        <button type="button" className="small" onClick={() => setActionError(null)} aria-label="Dismiss message">
          Dismiss
        </button>
      )}
    </div>
  );
}
