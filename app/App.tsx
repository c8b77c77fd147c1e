// The workspace: top bar; client on the left; views in the centre; inspector on
// the right; timeline along the bottom.
import { useEffect } from 'react';
import { ClientPanel } from './panels/ClientPanel';
import { Inspector } from './panels/Inspector';
import { Timeline } from './panels/Timeline';
import { TopBar } from './panels/TopBar';
import { RaftPanel } from './raft/RaftPanel';
import { engine } from './engineClient';
import { setActionError, useUi } from './store/uiStore';
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
  return (
    <div className="workspace">
      <TopBar />
      <Banner />
      <ClientPanel />
      <main className="panel centre" aria-label="Views">
        <div className="tabs" role="tablist" aria-label="Views">
          <button type="button" role="tab" id="tab-raft" aria-selected="true" aria-controls="tabpanel-raft" className="tab active">
            etcd / Raft
          </button>
        </div>
        <div role="tabpanel" id="tabpanel-raft" aria-labelledby="tab-raft" className="tabpanel">
          <RaftPanel />
        </div>
      </main>
      <Inspector />
      <Timeline />
    </div>
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
