// The cluster map: a canvas the size of the visible area, drawn from the
// layout for whatever band is scrolled into view (so thousands of nodes cost
// only the tiles on screen); a tooltip on hover; and, for screen readers and
// tests, a visually hidden table of nodes and list of pods.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useUi } from '../store/uiStore';
import { componentLabel, drawMap, FONT, nodeFacts, readPalette } from './draw';
import { hitTest, layoutMap, podRect, tileRect, type Hit, type MapLayout } from './layout';
import { describePod, formatCpu, formatMemory, nodeState, NODE_STATE_ICON, NODE_STATE_LABEL, percent, podKey, podState, summary, type ClusterModel } from './model';

/** Rows the hidden list carries at most (the summary always has the full counts). */
const A11Y_NODE_LIMIT = 2000;
const A11Y_POD_LIMIT = 1000;

let measureCtx: CanvasRenderingContext2D | null = null;
function textWidth(text: string): number {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  if (!measureCtx) return text.length * 6.5;
  measureCtx.font = FONT;
  return measureCtx.measureText(text).width;
}

/** `window.__kubeglassClusterMap`: where a node or pod is drawn (page coordinates), for tests and the console. */
export interface ClusterMapHook {
  locate(kind: 'node' | 'pod', name: string): { x: number; y: number } | null;
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

export function ClusterMap({ model }: { model: ClusterModel }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  const [scrollTop, setScrollTop] = useState(0);
  const [hover, setHover] = useState<HoverAt | null>(null);
  const theme = useUi((s) => s.theme);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => setSize({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const chipWidths = useMemo(() => model.components.map((c) => textWidth(componentLabel(c))), [model.components]);
  const layout: MapLayout = useMemo(
    () => layoutMap({ width: size.w, nodes: model.nodes.length, maxPodsPerNode: model.maxPodsPerNode, unscheduled: model.unscheduled.length, chipTextWidths: chipWidths }),
    [size.w, model, chipWidths],
  );
  const viewH = Math.max(0, Math.min(size.h, layout.height));
  const hoverNode = hover && (hover.hit.type === 'node' || hover.hit.type === 'pod') ? (hover.hit.type === 'node' ? hover.hit.index : hover.hit.node) : null;

  useEffect(() => {
    const c = canvasRef.current;
    if (!c || size.w === 0) return;
    const raf = requestAnimationFrame(() => {
      const dpr = window.devicePixelRatio || 1;
      const w = Math.round(layout.width * dpr);
      const h = Math.round(viewH * dpr);
      if (c.width !== w) c.width = w;
      if (c.height !== h) c.height = h;
      const ctx = c.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      drawMap(ctx, readPalette(c), { layout, model, top: scrollTop, height: viewH, hoverNode });
    });
    return () => cancelAnimationFrame(raf);
  }, [layout, model, scrollTop, viewH, hoverNode, theme, size.w]);

  const live = useRef({ layout, model, scrollTop });
  live.current = { layout, model, scrollTop };
  useEffect(() => {
    window.__kubeglassClusterMap = {
      locate: (kind, name) => {
        const c = canvasRef.current;
        if (!c) return null;
        const { layout: l, model: m, scrollTop: top } = live.current;
        const box = c.getBoundingClientRect();
        const at = (r: { x: number; y: number; w: number; h: number }) => ({ x: box.left + r.x + r.w / 2, y: box.top + r.y + r.h / 2 - top });
        for (let i = 0; i < m.nodes.length; i++) {
          const n = m.nodes[i]!;
          const tile = tileRect(l, i);
          if (kind === 'node' && n.name === name) return at({ ...tile, y: tile.y + 4, h: 8 });
          if (kind !== 'pod') continue;
          const j = (m.podsByNode.get(n.name) ?? []).findIndex((p) => podKey(p) === name);
          const pr = j >= 0 ? podRect(l.grid.tile, j) : null;
          if (pr) return at({ ...pr, x: tile.x + pr.x, y: tile.y + pr.y });
        }
        return null;
      },
    };
    return () => {
      delete window.__kubeglassClusterMap;
    };
  }, []);

  const podsOn = useCallback((i: number) => model.podsByNode.get(model.nodes[i]?.name ?? '')?.length ?? 0, [model]);
  const onMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const hit = hitTest(layout, e.clientX - r.left, e.clientY - r.top + scrollTop, podsOn);
    setHover(hit ? { hit, x: e.clientX, y: e.clientY } : null);
  };

  const label = summary(model);
  return (
    <div className="cl-map">
      <div className="cl-map-scroll" ref={scrollRef} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
        <canvas
          ref={canvasRef}
          className="cl-canvas"
          role="img"
          aria-label={label}
          style={{ width: layout.width, height: viewH }}
          onPointerMove={onMove}
          onPointerLeave={() => setHover(null)}
          data-testid="cluster-canvas"
        />
        <div style={{ height: Math.max(0, layout.height - viewH) }} aria-hidden="true" />
      </div>
      {hover && <MapTip hover={hover} model={model} />}
      <AccessibleCluster model={model} />
    </div>
  );
}

function MapTip({ hover, model }: { hover: HoverAt; model: ClusterModel }) {
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
  const content = tipContent(hover.hit, model);
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
    </div>
  );
}

function tipContent(hit: Hit, m: ClusterModel): { title: string; facts: [string, string][] } | null {
  switch (hit.type) {
    case 'component': {
      const c = m.components[hit.index];
      if (!c) return null;
      return { title: c.name, facts: [['Kind', c.kind], ['State', !c.up ? '○ down' : c.leader ? '★ up, leader' : '● up']] };
    }
    case 'node': {
      const n = m.nodes[hit.index];
      if (!n) return null;
      return { title: `Node ${n.name}`, facts: nodeFacts(n, m.podsByNode.get(n.name)?.length ?? 0) };
    }
    case 'pod':
    case 'unscheduledPod': {
      const pod = hit.type === 'pod' ? m.podsByNode.get(m.nodes[hit.node]?.name ?? '')?.[hit.index] : m.unscheduled[hit.index];
      if (!pod) return null;
      return {
        title: `Pod ${podKey(pod)}`,
        facts: [
          ['Node', pod.node || 'none (unscheduled)'],
          ['Phase', pod.phase + (pod.phase === 'Running' ? (pod.ready ? ', Ready' : ', not Ready') : '')],
          ['Reason', pod.reason || '—'],
          ...(pod.terminating ? ([['Deleting', 'Terminating']] as [string, string][]) : []),
          ['Owner', pod.owner || '—'],
        ],
      };
    }
  }
}

/** The map as text, visually hidden: screen readers read it, tests query it. */
const AccessibleCluster = memo(function AccessibleCluster({ model }: { model: ClusterModel }) {
  const nodes = model.nodes.slice(0, A11Y_NODE_LIMIT);
  const pods: { key: string; node: string; state: string; text: string }[] = [];
  for (const n of model.nodes) {
    for (const p of model.podsByNode.get(n.name) ?? []) {
      if (pods.length >= A11Y_POD_LIMIT) break;
      pods.push({ key: podKey(p), node: n.name, state: podState(p), text: `${podKey(p)} on ${n.name}: ${describePod(p)}` });
    }
  }
  for (const p of model.unscheduled) {
    if (pods.length >= A11Y_POD_LIMIT) break;
    pods.push({ key: podKey(p), node: '', state: podState(p), text: `${podKey(p)}, unscheduled: ${describePod(p)}` });
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
          {nodes.map((n) => {
            const s = nodeState(n);
            return (
              <tr key={n.name} data-node={n.name} data-status={NODE_STATE_LABEL[s]}>
                <td>{n.name}</td>
                <td>
                  {NODE_STATE_ICON[s]} {NODE_STATE_LABEL[s]}
                  {n.unschedulable ? ', unschedulable' : ''}
                </td>
                <td>
                  {formatCpu(n.requested.cpu)} of {formatCpu(n.allocatable.cpu)} ({percent(n.requested.cpu, n.allocatable.cpu)}%)
                </td>
                <td>
                  {formatMemory(n.requested.memory)} of {formatMemory(n.allocatable.memory)}
                </td>
                <td>{model.podsByNode.get(n.name)?.length ?? 0}</td>
                <td>{n.taints.join(', ') || 'none'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {model.nodes.length > nodes.length && <p>and {model.nodes.length - nodes.length} more nodes</p>}
      <ul aria-label="Pods">
        {pods.map((p) => (
          <li key={p.key} data-pod={p.key} data-node={p.node} data-state={p.state}>
            {p.text}
          </li>
        ))}
      </ul>
      {model.counts.podsTotal > pods.length && <p>and {model.counts.podsTotal - pods.length} more pods</p>}
    </div>
  );
});
