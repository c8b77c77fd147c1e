// A fault menu for one node or component, at a point on screen (the map's
// context menu, a chip's menu button): its items are the fault commands that
// apply now, plus "Inspect". Keyboard: arrows move, Enter runs, Escape closes.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { engine } from '../engineClient';
import { useFaults, useView } from '../store/viewStore';
import { actionName, faultActions, type FaultTarget } from './actions';

export interface FaultMenuProps {
  target: FaultTarget;
  /** Page coordinates of the corner to open from. */
  x: number;
  y: number;
  onInspect: () => void;
  onClose: () => void;
}

/** Whether a target's process runs, from the engine's component list. */
export function useTargetUp(name: string): boolean {
  return useView((s) => s.components.find((c) => c.name === name)?.up ?? false);
}

export function FaultMenu({ target, x, y, onInspect, onClose }: FaultMenuProps) {
  const faults = useFaults();
  const up = useTargetUp(target.name);
  const actions = faultActions(target, { up, faults });
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: x, top: y });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setPos({ left: Math.max(4, Math.min(x, window.innerWidth - el.offsetWidth - 4)), top: Math.max(4, Math.min(y, window.innerHeight - el.offsetHeight - 4)) });
    el.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
  }, [x, y]);
  useEffect(() => {
    const away = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose();
    };
    window.addEventListener('pointerdown', away, true);
    return () => window.removeEventListener('pointerdown', away, true);
  }, [onClose]);
  const onKey = (e: KeyboardEvent) => {
    const items = [...(ref.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    }
  };
  const run = (f: Parameters<typeof engine.exec>[0]) => {
    onClose();
    void engine.exec(f);
  };
  return (
    <div ref={ref} className="fault-menu" role="menu" aria-label={`Faults for ${target.name}`} style={{ left: pos.left, top: pos.top }} onKeyDown={onKey}>
      <div className="fault-menu-title">{target.name}</div>
      {actions.map((a) => (
        <button key={a.label} type="button" role="menuitem" className={a.breaks ? 'danger-item' : 'mend-item'} title={a.detail} aria-label={actionName(a, target)} onClick={() => run({ type: 'fault', fault: a.fault })}>
          <span aria-hidden="true">{a.breaks ? '⚡' : '✚'}</span> {a.label}
        </button>
      ))}
      <button
        type="button"
        role="menuitem"
        onClick={() => {
          onClose();
          onInspect();
        }}
      >
        <span aria-hidden="true">🔍</span> Inspect
      </button>
    </div>
  );
}

/** The same actions as a row of buttons (the inspector). */
export function FaultButtons({ target }: { target: FaultTarget }) {
  const faults = useFaults();
  const up = useTargetUp(target.name);
  return (
    <div className="actions" role="group" aria-label={`Faults for ${target.name}`}>
      {faultActions(target, { up, faults }).map((a) => (
        <button key={a.label} type="button" className={`small ${a.breaks ? 'danger' : 'primary'}`} title={a.detail} aria-label={actionName(a, target)} onClick={() => void engine.exec({ type: 'fault', fault: a.fault })}>
          {a.label}
        </button>
      ))}
    </div>
  );
}
