// The YAML editor tab: examples, Apply and its results; or, while `kubectl
// edit` waits, the object being edited with Save and Cancel. Monaco loads on
// first show (its own chunk).
import { useEffect, useRef, useState } from 'react';
import { useUi } from '../store/uiStore';
import { applyBuffer, cancelEdit, clearResults, replaceText, saveEdit, useEditor } from './editorStore';
import { EXAMPLES } from './examples';

export function EditorPanel() {
  const edit = useEditor((s) => s.edit);
  return (
    <div className="editor-panel">
      {edit ? <EditBar path={edit.path} /> : <ApplyBar />}
      <MonacoHost />
    </div>
  );
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const APPLY_KEYS = isMac ? '⌘↵' : 'Ctrl+↵';

function ApplyBar() {
  const applying = useEditor((s) => s.applying);
  const results = useEditor((s) => s.results);
  const ok = results?.filter((r) => r.ok).length ?? 0;
  const failed = (results?.length ?? 0) - ok;
  return (
    <div className="editor-bar" role="toolbar" aria-label="Editor actions">
      <select
        className="examples"
        aria-label="Load an example"
        value=""
        onChange={(e) => {
          const ex = EXAMPLES.find((x) => x.id === e.target.value);
          if (ex) replaceText(ex.text);
        }}
      >
        <option value="" disabled>
          Examples…
        </option>
        {EXAMPLES.map((x) => (
          <option key={x.id} value={x.id}>
            {x.label}
          </option>
        ))}
      </select>
      <span className="spacer" />
      {results && (
        <span className="apply-summary" role="status" aria-live="polite" data-testid="apply-summary">
          {ok > 0 && <span className="ok-text">✓ {ok} applied</span>}
          {ok > 0 && failed > 0 && <span className="muted"> · </span>}
          {failed > 0 && <span className="danger">✕ {failed} failed</span>}
          {results.length === 0 && <span className="muted">nothing to apply</span>}
          <button type="button" className="small ghost" onClick={clearResults} aria-label="Clear apply results" title="Clear results">
            ×
          </button>
        </span>
      )}
      <button type="button" className="primary" onClick={() => void applyBuffer()} disabled={applying} title={`kubectl apply every document (${APPLY_KEYS})`}>
        {applying ? 'Applying…' : 'Apply'} <kbd>{APPLY_KEYS}</kbd>
      </button>
    </div>
  );
}

function EditBar({ path }: { path: string }) {
  return (
    <div className="editor-bar editing" role="toolbar" aria-label="kubectl edit">
      <span className="edit-label" title={path}>
        <span className="edit-dot" aria-hidden="true" /> editing <span className="mono">{path}</span>
      </span>
      <button type="button" onClick={cancelEdit}>
        Cancel
      </button>
      <button type="button" className="primary" onClick={saveEdit} title={`Save and let kubectl apply it (${APPLY_KEYS})`}>
        Save <kbd>{APPLY_KEYS}</kbd>
      </button>
    </div>
  );
}

type LoadState = 'loading' | 'ready' | 'failed';

function MonacoHost() {
  const el = useRef<HTMLDivElement>(null);
  const theme = useUi((s) => s.theme);
  const [state, setState] = useState<LoadState>('loading');
  const [error, setError] = useState('');
  const mod = useRef<typeof import('./monaco') | null>(null);
  useEffect(() => {
    let disposed = false;
    let mounted: { dispose(): void } | null = null;
    import('./monaco')
      .then((m) => {
        if (disposed || !el.current) return;
        mod.current = m;
        mounted = m.mountEditor(el.current, useUi.getState().theme);
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
      <div ref={el} className="monaco-el" data-state={state} />
      {state === 'loading' && <p className="editor-loading muted">Loading the editor…</p>}
      {state === 'failed' && <p className="editor-loading danger">The editor failed to load: {error}</p>}
    </div>
  );
}
