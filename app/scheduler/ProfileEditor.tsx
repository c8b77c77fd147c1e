// The scheduler's profile editor: the running KubeSchedulerConfiguration as
// YAML; Apply replaces it live on every replica. An invalid configuration is
// refused with the reason, and the buffer stays as the user left it.
import { useEffect, useRef, useState } from 'react';
import { formatT } from '../lib/format';
import { useUi } from '../store/uiStore';
import { useView } from '../store/viewStore';
import { poller } from './schedulerClient';
import { useScheduler } from './schedulerStore';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const APPLY_KEYS = isMac ? '⌘↵' : 'Ctrl+↵';

function apply(): void {
  void poller.applyConfig(useView.getState().clock.virtualTime);
}

export function ProfileEditor() {
  const status = useScheduler((s) => s.profileStatus);
  const dirty = useScheduler((s) => s.bufferDirty);
  const running = useScheduler((s) => s.runningConfig);
  useEffect(() => {
    void poller.loadConfig(false);
  }, []);
  return (
    <div className="sched-profile-editor">
      <div className="editor-bar" role="toolbar" aria-label="Scheduler profile actions">
        <span className="profile-title">KubeSchedulerConfiguration</span>
        <span className="muted profile-state" role="status" aria-live="polite">
          {status.type === 'applying' ? 'applying…' : status.type === 'applied' && !dirty ? `✓ applied at ${formatT(status.at)}` : dirty ? '● modified' : running === null ? 'no scheduler running' : 'running'}
        </span>
        <span className="spacer" />
        <button type="button" onClick={() => void poller.loadConfig(true)} title="Discard the buffer and show the running configuration">
          Reload running
        </button>
        <button type="button" className="primary" onClick={apply} disabled={status.type === 'applying' || running === null} title={`Replace the running configuration (${APPLY_KEYS})`}>
          Apply <kbd>{APPLY_KEYS}</kbd>
        </button>
      </div>
      {status.type === 'error' && (
        <div className="profile-error" role="alert" aria-label="Configuration error">
          <span aria-hidden="true">✕ </span>
          <span className="pe-title">Not applied — the configuration is invalid:</span>
          <pre className="mono">{status.error}</pre>
        </div>
      )}
      <ProfileMonaco />
    </div>
  );
}

type LoadState = 'loading' | 'ready' | 'failed';

function ProfileMonaco() {
  const el = useRef<HTMLDivElement>(null);
  const theme = useUi((s) => s.theme);
  const [state, setState] = useState<LoadState>('loading');
  const [error, setError] = useState('');
  const mod = useRef<typeof import('./profileMonaco') | null>(null);
  useEffect(() => {
    let disposed = false;
    let mounted: { dispose(): void } | null = null;
    import('./profileMonaco')
      .then((m) => {
        if (disposed || !el.current) return;
        mod.current = m;
        mounted = m.mountProfileEditor(el.current, useUi.getState().theme, apply);
        setState('ready');
      })
      .catch((err: unknown) => {
        setError(String(err));
        setState('failed');
      });
    return () => {
      disposed = true;
      mounted?.dispose();
    };
  }, []);
  useEffect(() => {
    mod.current?.setTheme(theme);
  }, [theme, state]);
  return (
    <div className="monaco-host">
      <div ref={el} className="profile-monaco-el" data-state={state} />
      {state === 'loading' && <p className="editor-loading muted">Loading the editor…</p>}
      {state === 'failed' && <p className="editor-loading danger">The editor failed to load: {error}</p>}
    </div>
  );
}
