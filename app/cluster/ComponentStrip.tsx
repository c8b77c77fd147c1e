// The control plane above the map: each component a chip (★ leader, ● up,
// ○ down, ⚡ a fault in effect) that opens it in the inspector, with a menu of
// its faults.
import { useState } from 'react';
import type { MapComponent } from '../../engine/host/protocol';
import { FaultMenu } from '../faults/FaultMenu';
import { select, useUi } from '../store/uiStore';
import { useFaults } from '../store/viewStore';

const KIND_LABEL: Record<string, string> = {
  etcd: 'etcd',
  'kube-apiserver': 'API servers',
  'kube-controller-manager': 'controller managers',
  'kube-scheduler': 'schedulers',
  'kwok-controller': 'kwok',
};

export function componentState(c: MapComponent): string {
  return !c.up ? 'down' : c.leader ? 'up, leader' : 'up';
}

export function ComponentStrip({ components }: { components: MapComponent[] }) {
  const [menu, setMenu] = useState<{ c: MapComponent; x: number; y: number } | null>(null);
  const faults = useFaults();
  const selected = useUi((s) => (s.selection?.type === 'component' ? s.selection.name : null));
  const groups = new Map<string, MapComponent[]>();
  for (const c of components) groups.set(c.kind, [...(groups.get(c.kind) ?? []), c]);
  const faulted = new Set(faults.flatMap((f) => f.targets));
  return (
    <div className="cl-strip" role="list" aria-label="Control plane">
      {[...groups].map(([kind, cs]) => (
        <div key={kind} className="cl-strip-group" role="listitem">
          <span className="muted cl-strip-kind">{KIND_LABEL[kind] ?? kind}</span>
          {cs.map((c) => (
            <span key={c.name} className={`cl-chip${c.up ? '' : ' down'}${c.leader ? ' leader' : ''}${selected === c.name ? ' selected' : ''}`} data-component={c.name} data-state={componentState(c)}>
              <button type="button" className="cl-chip-main" onClick={() => select({ type: 'component', name: c.name })} aria-label={`${c.name}: ${componentState(c)}${faulted.has(c.name) ? ', fault in effect' : ''}`}>
                <span aria-hidden="true" className={c.leader ? 'cl-leader' : c.up ? 'ok-text' : 'muted'}>
                  {!c.up ? '○' : c.leader ? '★' : '●'}
                </span>{' '}
                {c.name}
                {faulted.has(c.name) && (
                  <span className="danger" aria-hidden="true">
                    {' '}
                    ⚡
                  </span>
                )}
              </button>
              <button
                type="button"
                className="cl-chip-menu"
                aria-label={`Faults for ${c.name}`}
                aria-haspopup="menu"
                onClick={(e) => {
                  const r = e.currentTarget.getBoundingClientRect();
                  setMenu({ c, x: r.left, y: r.bottom + 2 });
                }}
              >
                ⋯
              </button>
            </span>
          ))}
        </div>
      ))}
      {menu && (
        <FaultMenu target={{ type: 'component', name: menu.c.name, kind: menu.c.kind }} x={menu.x} y={menu.y} onInspect={() => select({ type: 'component', name: menu.c.name })} onClose={() => setMenu(null)} />
      )}
    </div>
  );
}
