// The left dock: the terminal, the YAML editor and the etcd client as tabs
// that keep their state (each mounts on first show and then stays). Its right
// edge drags to resize.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { EditorPanel } from '../editor/EditorPanel';
import { useEditor } from '../editor/editorStore';
import { TerminalPanel } from '../terminal/TerminalPanel';
import { DOCK_MIN, setDockTab, setDockWidth, useUi, type DockTab } from '../store/uiStore';
import { ClientPanel } from './ClientPanel';

const TABS: { id: DockTab; label: string }[] = [
  { id: 'terminal', label: 'Terminal' },
  { id: 'editor', label: 'Editor' },
  { id: 'client', label: 'etcd client' },
];

export function Dock() {
  const tab = useUi((s) => s.dockTab);
  const editing = useEditor((s) => s.edit !== null);
  // Tabs mount on first show and stay mounted (terminal scrollback, editor undo).
  const [seen, setSeen] = useState<Set<DockTab>>(() => new Set([tab]));
  useEffect(() => {
    setSeen((s) => (s.has(tab) ? s : new Set(s).add(tab)));
  }, [tab]);
  const onTabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
    setDockTab(next.id);
    document.getElementById(`dock-tab-${next.id}`)?.focus();
  };
  return (
    <aside className="panel dock" aria-label="Dock">
      <div className="tabs" role="tablist" aria-label="Dock" onKeyDown={onTabKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`dock-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`dock-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={`tab${tab === t.id ? ' active' : ''}`}
            onClick={() => setDockTab(t.id)}
          >
            {t.label}
            {t.id === 'editor' && editing && <span className="tab-dot" title="kubectl edit is waiting for you" aria-label="(editing)" />}
          </button>
        ))}
      </div>
      {TABS.map((t) => (
        <div key={t.id} role="tabpanel" id={`dock-panel-${t.id}`} aria-labelledby={`dock-tab-${t.id}`} className={`dock-body dock-${t.id}`} hidden={tab !== t.id}>
          {seen.has(t.id) && (t.id === 'terminal' ? <TerminalPanel visible={tab === 'terminal'} /> : t.id === 'editor' ? <EditorPanel /> : <ClientPanel />)}
        </div>
      ))}
      <Resizer />
    </aside>
  );
}

function Resizer() {
  const width = useUi((s) => s.dockWidth);
  const drag = useRef<{ startX: number; startW: number } | null>(null);
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startX: e.clientX, startW: width };
    document.body.classList.add('resizing');
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setDockWidth(drag.current.startW + e.clientX - drag.current.startX);
  };
  const onUp = () => {
    drag.current = null;
    document.body.classList.remove('resizing');
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft') setDockWidth(width - 24);
    else if (e.key === 'ArrowRight') setDockWidth(width + 24);
    else return;
    e.preventDefault();
  };
  return (
    <div
      className="dock-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the dock"
      aria-valuenow={width}
      aria-valuemin={DOCK_MIN}
      tabIndex={0}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onUp}
      onKeyDown={onKey}
    />
  );
}
