// The cluster map: one canvas the size of the view, drawn for the camera
// (drag to pan, wheel or +/- to zoom, 0 to fit) at the level of detail the
// zoom allows; hover for a node's or pod's facts, click to inspect it,
// right-click (or the context-menu key) a node for its faults. Drawing runs
// outside React, once per animation frame and only when something changed.
// For screen readers and tests, a visually hidden table of nodes and list of pods.
import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { FaultMenu } from '../faults/FaultMenu';
import { selectObject, useSelectedObject, useUi } from '../store/uiStore';
import { useFaults } from '../store/viewStore';
import { clampCamera, fitCamera, focusOn, panBy, toScreen, toWorld, zoomAt, type Camera } from './camera';
import { bandPodRect, hitTest, layoutWorld, podRect, tileRect, type Hit, type Rect, type WorldLayout } from './layout';
import type { MapData } from './mapData';
import { describePod, formatCpu, formatMemory, NODE_STATE_ICON, NODE_STATE_LABEL, nodeFacts, percent, podFacts, summary } from './model';
import { readPalette, type Palette } from './palette';
import { detailFor, MapRenderer, type Detail, type MapMarks } from './render';

/** Rows the hidden list carries at most (the summary always has the full counts). */
const A11Y_NODE_LIMIT = 300;
const A11Y_POD_LIMIT = 500;

/** `window.__kubeglassClusterMap`: where things are drawn, and the camera, for tests, the benchmark and the console. */
export interface ClusterMapHook {
  /** Page coordinates of a node's tile or a pod's square (its tile when pods are not drawn one by one); null when off the canvas. */
  locate(kind: 'node' | 'pod', name: string): { x: number; y: number } | null;
  /** Moves the camera to a node or pod, close enough to read it. */
  focus(kind: 'node' | 'pod', name: string): boolean;
  camera(): Camera;
  setCamera(c: Camera): void;
  fit(): void;
  /** The last frame: its level of detail, tiles drawn, how long drawing took (wall ms), frames drawn so far. */
  stats(): { detail: Detail; tiles: number; drawMs: number; frames: number };
}

declare global {
  interface Window {
    __kubeglassClusterMap?: ClusterMapHook;
  }
}

interface HoverAt {
  hit: Hit;
  x: number;
  y: number;
}

interface MenuAt {
  node: string;
  x: number;
  y: number;
}

export function ClusterMap({ data, version }: { data: MapData; version: number }) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  const [hover, setHover] = useState<HoverAt | null>(null);
  const [menu, setMenu] = useState<MenuAt | null>(null);
  const [zoom, setZoom] = useState<{ k: number; detail: Detail }>({ k: 1, detail: 'full' });
  const theme = useUi((s) => s.theme);
  const selected = useSelectedObject();
  const faults = useFaults();

  useLayoutEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    const measure = () => setSize({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const podRows = Math.max(1, Math.ceil(data.maxPodsPerNode / 16));
  const layout: WorldLayout = useMemo(
    () => layoutWorld({ nodes: data.nodeTotal, maxPodsPerNode: data.maxPodsPerNode, unscheduled: data.unscheduled.length, viewW: size.w, viewH: size.h }),
    // The layout changes with the node count, the pods per tile and the band's rows, not with every delta.
    [data.nodeTotal, podRows, data.unscheduled.length, size.w, size.h],
  );

  const marks: MapMarks = useMemo(() => {
    const faulted = new Set<string>();
    for (const f of faults) for (const t of f.targets) if (data.nodeByName.has(t)) faulted.add(t);
    return {
      hoverNode: hover && (hover.hit.type === 'node' || hover.hit.type === 'pod') ? (hover.hit.type === 'node' ? hover.hit.index : hover.hit.node) : null,
      selectedNode: selected?.resource === 'nodes' && selected.group === '' ? selected.name : null,
      selectedPod: selected?.resource === 'pods' && selected.group === '' ? `${selected.namespace ?? ''}/${selected.name}` : null,
      faulted,
    };
    // version: fault targets that are nodes depend on the data.
  }, [faults, hover, selected, data, version]);

  // ---- the drawing loop -------------------------------------------------------------------
  const live = useRef({ layout, marks, size, palette: null as Palette | null, camera: { x: 0, y: 0, k: 1 } as Camera, autoFit: true, frame: 0, stats: { detail: 'full' as Detail, tiles: 0, drawMs: 0, frames: 0 } });
  const renderer = useRef(new MapRenderer());
  live.current.layout = layout;
  live.current.marks = marks;
  live.current.size = size;

  const draw = useCallback(() => {
    const L = live.current;
    L.frame = 0;
    const c = canvasRef.current;
    if (!c || L.size.w === 0 || L.size.h === 0) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(L.size.w * dpr);
    const h = Math.round(L.size.h * dpr);
    if (c.width !== w) c.width = w;
    if (c.height !== h) c.height = h;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    L.palette ??= readPalette(c);
    const t0 = performance.now();
    const st = renderer.current.draw(ctx, L.palette, { data, layout: L.layout, camera: L.camera, viewW: L.size.w, viewH: L.size.h, dpr, marks: L.marks });
    L.stats = { detail: st.detail, tiles: st.tiles, drawMs: performance.now() - t0, frames: L.stats.frames + 1 };
    setZoom((z) => (z.k === L.camera.k && z.detail === st.detail ? z : { k: L.camera.k, detail: st.detail }));
  }, [data]);

  const requestDraw = useCallback(() => {
    if (live.current.frame === 0) live.current.frame = requestAnimationFrame(draw);
  }, [draw]);

  const setCamera = useCallback(
    (cam: Camera, user = true) => {
      const L = live.current;
      L.camera = clampCamera(cam, L.layout, L.size.w, L.size.h);
      if (user) L.autoFit = false;
      requestDraw();
    },
    [requestDraw],
  );

  const fit = useCallback(() => {
    const L = live.current;
    L.autoFit = true;
    L.camera = fitCamera(L.layout, L.size.w, L.size.h);
    requestDraw();
  }, [requestDraw]);

  // A focus asked for while the map is hidden (size 0) waits until it has a size.
  const focusRect = useRef<Rect | null>(null);
  const applyFocus = useCallback(() => {
    const L = live.current;
    const r = focusRect.current;
    if (!r || L.size.w === 0 || L.size.h === 0) return;
    focusRect.current = null;
    setCamera(focusOn(r, L.size.w, L.size.h, Math.max(L.camera.k, 1), L.layout));
  }, [setCamera]);

  // A new layout: refit while the user has not moved the camera, else keep the view in bounds.
  useEffect(() => {
    const L = live.current;
    if (size.w === 0) return;
    if (L.autoFit) L.camera = fitCamera(layout, size.w, size.h);
    else L.camera = clampCamera(L.camera, layout, size.w, size.h);
    applyFocus();
    requestDraw();
  }, [layout, size, requestDraw, applyFocus]);

  useEffect(() => {
    live.current.palette = null;
    requestDraw();
  }, [theme, requestDraw]);
  useEffect(requestDraw, [version, marks, requestDraw]);
  useEffect(() => () => cancelAnimationFrame(live.current.frame), []);

  // ---- pointer, wheel, keys -----------------------------------------------------------------
  const press = useRef<{ x: number; y: number; cam: Camera; moved: boolean; id: number } | null>(null);
  const hitAt = (clientX: number, clientY: number): Hit | null => {
    const c = canvasRef.current;
    if (!c) return null;
    const box = c.getBoundingClientRect();
    const L = live.current;
    const w = toWorld(L.camera, clientX - box.left, clientY - box.top);
    return hitTest(L.layout, w.x, w.y, (i) => data.podsOn(data.order[i]!).length, detailFor(L.camera.k) !== 'dots');
  };
  const nodeOf = (hit: Hit | null): string | null => (hit && hit.type !== 'unscheduledPod' ? data.nodeNameOf(data.order[hit.type === 'node' ? hit.index : hit.node]!) : null);
  const podOf = (hit: Hit | null): string | null => {
    if (!hit) return null;
    if (hit.type === 'pod') return data.podKey[data.podsOn(data.order[hit.node]!)[hit.index]!] ?? null;
    if (hit.type === 'unscheduledPod') return data.podKey[data.unscheduled[hit.index]!] ?? null;
    return null;
  };
  const inspectHit = (hit: Hit | null) => {
    const pod = podOf(hit);
    if (pod) {
      const i = pod.indexOf('/');
      selectObject({ group: '', resource: 'pods', namespace: pod.slice(0, i), name: pod.slice(i + 1) });
      return;
    }
    const node = nodeOf(hit);
    if (node) selectObject({ group: '', resource: 'nodes', name: node });
  };

  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (e.button !== 0) return;
    press.current = { x: e.clientX, y: e.clientY, cam: live.current.camera, moved: false, id: e.pointerId };
  };
  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const p = press.current;
    if (p && p.id === e.pointerId && (e.buttons & 1) !== 0) {
      const dx = e.clientX - p.x;
      const dy = e.clientY - p.y;
      if (!p.moved && Math.hypot(dx, dy) > 3) {
        p.moved = true;
        e.currentTarget.setPointerCapture(e.pointerId);
        setHover(null);
      }
      if (p.moved) {
        setCamera(panBy(p.cam, dx, dy, live.current.layout, live.current.size.w, live.current.size.h));
        return;
      }
    }
    const hit = hitAt(e.clientX, e.clientY);
    setHover(hit ? { hit, x: e.clientX, y: e.clientY } : null);
  };
  const onPointerUp = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const p = press.current;
    press.current = null;
    if (!p || p.id !== e.pointerId) return;
    if (p.moved) e.currentTarget.releasePointerCapture(e.pointerId);
    else {
      setHover(null);
      inspectHit(hitAt(e.clientX, e.clientY));
    }
  };
  const onContextMenu = (e: React.MouseEvent<HTMLCanvasElement>) => {
    e.preventDefault();
    const node = nodeOf(hitAt(e.clientX, e.clientY));
    if (node) setMenu({ node, x: e.clientX, y: e.clientY });
  };
  useEffect(() => {
    const c = canvasRef.current;
    if (!c) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const box = c.getBoundingClientRect();
      const L = live.current;
      const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
      setCamera(zoomAt(L.camera, e.clientX - box.left, e.clientY - box.top, Math.exp(-delta * 0.0015), L.layout, L.size.w, L.size.h));
    };
    c.addEventListener('wheel', onWheel, { passive: false });
    return () => c.removeEventListener('wheel', onWheel);
  }, [setCamera]);
  const zoomBy = (f: number) => {
    const L = live.current;
    setCamera(zoomAt(L.camera, L.size.w / 2, L.size.h / 2, f, L.layout, L.size.w, L.size.h));
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLCanvasElement>) => {
    const L = live.current;
    const pan = (dx: number, dy: number) => setCamera(panBy(L.camera, dx, dy, L.layout, L.size.w, L.size.h));
    const keys: Record<string, () => void> = {
      '+': () => zoomBy(1.5),
      '=': () => zoomBy(1.5),
      '-': () => zoomBy(1 / 1.5),
      '0': fit,
      ArrowLeft: () => pan(80, 0),
      ArrowRight: () => pan(-80, 0),
      ArrowUp: () => pan(0, 80),
      ArrowDown: () => pan(0, -80),
    };
    const k = keys[e.key];
    if (k) {
      e.preventDefault();
      k();
    }
  };

  // ---- the hook ------------------------------------------------------------------------------
  useEffect(() => {
    const rectOf = (kind: 'node' | 'pod', name: string) => {
      const L = live.current;
      if (kind === 'node') {
        const slot = data.nodeByName.get(name);
        const i = slot === undefined ? -1 : data.gridIndex[slot]!;
        return i >= 0 ? tileRect(L.layout, i) : null;
      }
      const slot = data.podByKey.get(name);
      if (slot === undefined) return null;
      const band = data.unscheduled.indexOf(slot);
      if (band >= 0) return bandPodRect(L.layout, band);
      const nodeSlot = data.nodeByName.get(data.pod(slot).node);
      if (nodeSlot === undefined) return null;
      const t = tileRect(L.layout, data.gridIndex[nodeSlot]!);
      const j = data.podsOn(nodeSlot).indexOf(slot);
      const pr = j >= 0 && detailFor(L.camera.k) !== 'dots' ? podRect(L.layout, j) : null;
      return pr ? { x: t.x + pr.x, y: t.y + pr.y, w: pr.w, h: pr.h } : t;
    };
    window.__kubeglassClusterMap = {
      locate: (kind, name) => {
        const c = canvasRef.current;
        const r = rectOf(kind, name);
        if (!c || !r) return null;
        const box = c.getBoundingClientRect();
        const s = toScreen(live.current.camera, kind === 'node' ? { ...r, y: r.y + 4, h: 10 } : r);
        const x = s.x + s.w / 2;
        const y = s.y + s.h / 2;
        // Off the canvas: not where a click would reach it (focus() first).
        if (x < 0 || y < 0 || x > box.width || y > box.height) return null;
        return { x: box.left + x, y: box.top + y };
      },
      focus: (kind, name) => {
        const r = rectOf('node', kind === 'node' ? name : data.pod(data.podByKey.get(name) ?? -1).node) ?? rectOf(kind, name);
        if (!r) return false;
        focusRect.current = r;
        applyFocus();
        return true;
      },
      camera: () => ({ ...live.current.camera }),
      setCamera: (c) => setCamera(c),
      fit,
      stats: () => ({ ...live.current.stats }),
    };
    return () => {
      delete window.__kubeglassClusterMap;
    };
  }, [data, setCamera, fit, applyFocus]);

  // The text views follow at low priority: React renders them between frames, never in one long task.
  const textVersion = useDeferredValue(version);
  const label = useMemo(() => summary(data), [data, textVersion]);
  return (
    <div className="cl-map" ref={wrapRef}>
      <canvas
        ref={canvasRef}
        className="cl-canvas"
        role="img"
        tabIndex={0}
        aria-label={label}
        aria-roledescription="map: drag to pan, wheel or + and - to zoom, 0 to fit, click to inspect, right-click a node for its faults"
        style={{ width: size.w, height: size.h }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => setHover(null)}
        onDoubleClick={(e) => {
          const box = e.currentTarget.getBoundingClientRect();
          const L = live.current;
          setCamera(zoomAt(L.camera, e.clientX - box.left, e.clientY - box.top, 2, L.layout, L.size.w, L.size.h));
        }}
        onContextMenu={onContextMenu}
        onKeyDown={onKeyDown}
        data-testid="cluster-canvas"
      />
      <FindBox data={data} />
      <div className="cl-zoom" role="group" aria-label="Map zoom">
        <span className="muted" data-testid="cl-zoom-level">
          {Math.round(zoom.k * 100)}% · {zoom.detail}
        </span>
        <button type="button" className="small" onClick={() => zoomBy(1 / 1.5)} aria-label="Zoom out">
          −
        </button>
        <button type="button" className="small" onClick={() => zoomBy(1.5)} aria-label="Zoom in">
          +
        </button>
        <button type="button" className="small" onClick={fit} aria-label="Fit the whole cluster">
          Fit
        </button>
      </div>
      {hover && !menu && <MapTip hover={hover} data={data} />}
      {menu && (
        <FaultMenu
          target={{ type: 'node', name: menu.node }}
          x={menu.x}
          y={menu.y}
          onInspect={() => selectObject({ group: '', resource: 'nodes', name: menu.node })}
          onClose={() => setMenu(null)}
        />
      )}
      <AccessibleCluster data={data} version={textVersion} />
    </div>
  );
}

function FindBox({ data }: { data: MapData }) {
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const go = () => {
    const hit = data.find(text);
    setMissing(!hit);
    if (!hit) return;
    if (hit.kind === 'node') selectObject({ group: '', resource: 'nodes', name: hit.name });
    else {
      const i = hit.name.indexOf('/');
      selectObject({ group: '', resource: 'pods', namespace: hit.name.slice(0, i), name: hit.name.slice(i + 1) });
    }
    window.__kubeglassClusterMap?.focus(hit.kind, hit.name);
  };
  return (
    <form
      className="cl-find"
      role="search"
      aria-label="Find on the map"
      onSubmit={(e) => {
        e.preventDefault();
        go();
      }}
    >
      <input type="search" value={text} placeholder="Find a node or pod…" aria-label="Node or pod name" aria-invalid={missing} onChange={(e) => (setText(e.target.value), setMissing(false))} />
      {missing && <span className="cl-warn">not found</span>}
    </form>
  );
}

function MapTip({ hover, data }: { hover: HoverAt; data: MapData }) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const left = Math.max(8, Math.min(hover.x + 14, window.innerWidth - w - 8));
    const top = hover.y + 16 + h > window.innerHeight - 8 ? Math.max(8, hover.y - h - 10) : hover.y + 16;
    setPos({ left, top });
  }, [hover]);
  const content = tipContent(hover.hit, data);
  if (!content) return null;
  return (
    <div ref={ref} className="score-tip cl-tip" role="tooltip" style={pos ? { left: pos.left, top: pos.top } : { left: -10000, top: 0 }}>
      <div className="tip-title">{content.title}</div>
      <dl className="tip-facts">
        {content.facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <div className="muted tip-hint">{content.hint}</div>
    </div>
  );
}

function tipContent(hit: Hit, d: MapData): { title: string; facts: [string, string][]; hint: string } | null {
  if (hit.type === 'node') {
    const slot = d.order[hit.index];
    if (slot === undefined) return null;
    const n = d.node(slot);
    return { title: `Node ${n.name}`, facts: nodeFacts(n), hint: 'Click to inspect · right-click for faults' };
  }
  const slot = hit.type === 'pod' ? d.podsOn(d.order[hit.node]!)[hit.index] : d.unscheduled[hit.index];
  if (slot === undefined) return null;
  const p = d.pod(slot);
  return { title: `Pod ${p.key}`, facts: podFacts(p), hint: 'Click to inspect' };
}

/** The map as text, visually hidden: screen readers read it, tests query it. */
const AccessibleCluster = memo(function AccessibleCluster({ data }: { data: MapData; version: number }) {
  const nodes = data.order.slice(0, A11Y_NODE_LIMIT).map((s) => data.node(s));
  const pods: { key: string; node: string; state: string; text: string }[] = [];
  for (const s of data.order) {
    for (const ps of data.podsOn(s)) {
      if (pods.length >= A11Y_POD_LIMIT) break;
      const p = data.pod(ps);
      pods.push({ key: p.key, node: p.node, state: p.state, text: `${p.key} on ${p.node}: ${describePod(p)}` });
    }
  }
  for (const ps of data.unscheduled) {
    if (pods.length >= A11Y_POD_LIMIT) break;
    const p = data.pod(ps);
    pods.push({ key: p.key, node: '', state: p.state, text: `${p.key}, unscheduled: ${describePod(p)}` });
  }
  return (
    <div className="cl-sr-only">
      <table aria-label="Nodes">
        <thead>
          <tr>
            <th>Node</th>
            <th>Status</th>
            <th>CPU requested</th>
            <th>Memory requested</th>
            <th>Pods</th>
            <th>Taints</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => (
            <tr key={n.name} data-node={n.name} data-status={NODE_STATE_LABEL[n.state]}>
              <td>{n.name}</td>
              <td>
                {NODE_STATE_ICON[n.state]} {NODE_STATE_LABEL[n.state]}
                {n.unschedulable ? ', unschedulable' : ''}
              </td>
              <td>
                {formatCpu(n.requested.cpu)} of {formatCpu(n.allocatable.cpu)} ({percent(n.requested.cpu, n.allocatable.cpu)}%)
              </td>
              <td>
                {formatMemory(n.requested.memory)} of {formatMemory(n.allocatable.memory)}
              </td>
              <td>{n.pods}</td>
              <td>{n.taints.join(', ') || 'none'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.nodeTotal > nodes.length && <p>and {data.nodeTotal - nodes.length} more nodes</p>}
      <ul aria-label="Pods">
        {pods.map((p) => (
          <li key={p.key} data-pod={p.key} data-node={p.node} data-state={p.state}>
            {p.text}
          </li>
        ))}
      </ul>
      {data.podTotal > pods.length && <p>and {data.podTotal - pods.length} more pods</p>}
    </div>
  );
});
