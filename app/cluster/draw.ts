// Paints the cluster map on a 2D canvas: only the tiles in the visible band.
// Every state has a shape as well as a colour (pending pods hollow, not-ready
// half-filled, failed crossed, terminating striped; nodes carry ✓ ✗ ? markers).
import { PAD, podRect, tileRect, unscheduledPodRect, visibleNodes, type MapLayout, type Rect } from './layout';
import { formatCpu, formatMemory, nodeState, NODE_STATE_ICON, NODE_STATE_LABEL, percent, podState, type ClusterComponent, type ClusterModel, type NodeState, type PodState } from './model';

export interface Palette {
  bg: string;
  panel: string;
  panel2: string;
  border: string;
  text: string;
  muted: string;
  ok: string;
  warn: string;
  danger: string;
  accent: string;
  leader: string;
  down: string;
}

export function readPalette(el: Element): Palette {
  const cs = getComputedStyle(el);
  const v = (n: string, d: string) => cs.getPropertyValue(n).trim() || d;
  return {
    bg: v('--bg', '#0d1117'),
    panel: v('--panel', '#151b23'),
    panel2: v('--panel-2', '#1b232d'),
    border: v('--border', '#2d3743'),
    text: v('--text', '#e6edf3'),
    muted: v('--muted', '#9198a1'),
    ok: v('--ok', '#3fb950'),
    warn: v('--warn', '#d29922'),
    danger: v('--danger', '#f85149'),
    accent: v('--accent', '#4493f8'),
    leader: v('--role-leader', '#e3b341'),
    down: v('--role-down', '#7d8590'),
  };
}

export const FONT = '11px ui-sans-serif, system-ui, sans-serif';
export const FONT_SMALL = '10px ui-sans-serif, system-ui, sans-serif';

export function componentLabel(c: ClusterComponent): string {
  return `${!c.up ? '○' : c.leader ? '★' : '●'} ${c.name}${!c.up ? ' (down)' : ''}`;
}

function nodeColour(p: Palette, s: NodeState): string {
  return s === 'ready' ? p.ok : s === 'notReady' ? p.danger : p.warn;
}

export function podColour(p: Palette, s: PodState): string {
  switch (s) {
    case 'ready':
      return p.ok;
    case 'notReady':
      return p.warn;
    case 'pending':
      return p.accent;
    case 'failed':
      return p.danger;
    case 'terminating':
      return p.down;
    case 'succeeded':
      return p.muted;
  }
}

function fit(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  if (max <= 0) return '';
  if (ctx.measureText(text).width <= max) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(text.slice(0, mid) + '…').width <= max) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? text.slice(0, lo) + '…' : '';
}

function drawPod(ctx: CanvasRenderingContext2D, p: Palette, s: PodState, r: Rect): void {
  const c = podColour(p, s);
  const big = r.w >= 7;
  switch (s) {
    case 'ready':
      ctx.fillStyle = c;
      ctx.fillRect(r.x, r.y, r.w, r.h);
      return;
    case 'notReady':
      ctx.fillStyle = c;
      ctx.fillRect(r.x, r.y + r.h / 2, r.w, r.h / 2);
      if (big) {
        ctx.strokeStyle = c;
        ctx.lineWidth = 1;
        ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
      }
      return;
    case 'pending':
      ctx.strokeStyle = c;
      ctx.lineWidth = big ? 1.5 : 1;
      ctx.strokeRect(r.x + 0.75, r.y + 0.75, r.w - 1.5, r.h - 1.5);
      return;
    case 'failed':
      ctx.fillStyle = c;
      ctx.fillRect(r.x, r.y, r.w, r.h);
      if (big) {
        ctx.strokeStyle = p.panel;
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(r.x + 2, r.y + 2);
        ctx.lineTo(r.x + r.w - 2, r.y + r.h - 2);
        ctx.moveTo(r.x + r.w - 2, r.y + 2);
        ctx.lineTo(r.x + 2, r.y + r.h - 2);
        ctx.stroke();
      }
      return;
    case 'terminating':
      ctx.fillStyle = c;
      ctx.globalAlpha = 0.45;
      ctx.fillRect(r.x, r.y, r.w, r.h);
      ctx.globalAlpha = 1;
      if (big) {
        ctx.strokeStyle = c;
        ctx.lineWidth = 1.2;
        ctx.beginPath();
        for (let d = -r.h; d < r.w; d += 3) {
          ctx.moveTo(r.x + Math.max(0, d), r.y + Math.max(0, -d));
          ctx.lineTo(r.x + Math.min(r.w, d + r.h), r.y + Math.min(r.h, r.w - d));
        }
        ctx.stroke();
      }
      return;
    case 'succeeded':
      ctx.fillStyle = c;
      ctx.fillRect(r.x + r.w / 4, r.y + r.h / 4, r.w / 2, r.h / 2);
      return;
  }
}

function bar(ctx: CanvasRenderingContext2D, p: Palette, x: number, y: number, w: number, h: number, frac: number): void {
  ctx.fillStyle = p.panel2;
  ctx.fillRect(x, y, w, h);
  ctx.fillStyle = frac > 0.9 ? p.danger : frac > 0.7 ? p.warn : p.accent;
  ctx.fillRect(x, y, Math.max(frac > 0 ? 1 : 0, Math.min(1, frac) * w), h);
  if (h >= 5) {
    ctx.strokeStyle = p.border;
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  }
}

export interface DrawState {
  layout: MapLayout;
  model: ClusterModel;
  /** The visible band of content, px. */
  top: number;
  height: number;
  hoverNode: number | null;
}

export function drawMap(ctx: CanvasRenderingContext2D, p: Palette, d: DrawState): void {
  const { layout: l, model: m, top, height } = d;
  ctx.save();
  ctx.clearRect(0, 0, l.width, height);
  ctx.translate(0, -top);
  ctx.textBaseline = 'middle';
  // Control-plane strip.
  ctx.font = FONT;
  m.components.forEach((c, i) => {
    const r = l.strip.chips[i];
    if (!r || r.y + r.h < top || r.y > top + height) return;
    ctx.fillStyle = c.up ? p.panel2 : p.panel;
    ctx.strokeStyle = !c.up ? p.down : c.leader ? p.leader : p.border;
    ctx.lineWidth = c.leader ? 1.5 : 1;
    ctx.beginPath();
    ctx.roundRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1, 4);
    ctx.fill();
    if (!c.up) ctx.setLineDash([3, 2]);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = !c.up ? p.down : c.leader ? p.leader : p.text;
    ctx.fillText(componentLabel(c), r.x + 9, r.y + r.h / 2 + 0.5);
  });
  // Unscheduled pods.
  const u = l.unscheduled;
  if (u.y + u.h >= top && u.y <= top + height) {
    ctx.font = FONT;
    ctx.fillStyle = u.total ? p.text : p.muted;
    const label = u.total ? `Unscheduled: ${u.total}${u.total > u.shown ? ` (${u.shown} shown)` : ''}` : 'Unscheduled: none';
    ctx.fillText(fit(ctx, label, u.labelW - 6), PAD, u.y + u.pod / 2 + 0.5);
    for (let j = 0; j < u.shown; j++) {
      const pod = m.unscheduled[j];
      const r = unscheduledPodRect(l, j);
      if (pod && r) drawPod(ctx, p, podState(pod), r);
    }
  }
  // Node tiles in view.
  const t = l.grid.tile;
  const { from, to } = visibleNodes(l, top, height);
  for (let i = from; i < to; i++) {
    const n = m.nodes[i];
    if (!n) continue;
    const r = tileRect(l, i);
    const s = nodeState(n);
    const sc = nodeColour(p, s);
    ctx.fillStyle = p.panel;
    ctx.fillRect(r.x, r.y, r.w, r.h);
    ctx.lineWidth = d.hoverNode === i ? 2 : s === 'ready' ? 1 : 1.5;
    ctx.strokeStyle = d.hoverNode === i ? p.text : s === 'ready' ? p.border : sc;
    if (s === 'unknown') ctx.setLineDash([4, 2]);
    ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
    ctx.setLineDash([]);
    const marks = `${n.unschedulable ? '⊘' : ''}${n.taints.length ? '⚑' : ''}`;
    if (t.detail === 'tiny') {
      ctx.fillStyle = sc;
      ctx.fillRect(r.x + 1, r.y + 1, r.w - 2, t.headerH);
      if (s !== 'ready') {
        // Not ready: a diagonal across the tile, so the state does not rest on colour.
        ctx.strokeStyle = sc;
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.moveTo(r.x, r.y + r.h);
        ctx.lineTo(r.x + r.w, r.y);
        ctx.stroke();
      }
      if (marks) {
        ctx.fillStyle = p.warn;
        ctx.fillRect(r.x + r.w - 5, r.y + 1, 4, t.headerH);
      }
    } else {
      const full = t.detail === 'full';
      ctx.font = full ? FONT : FONT_SMALL;
      const hy = r.y + t.pad + t.headerH / 2;
      const status = full ? `${NODE_STATE_ICON[s]} ${NODE_STATE_LABEL[s]}` : NODE_STATE_ICON[s];
      const sw = ctx.measureText(status).width;
      ctx.fillStyle = sc;
      if (full) ctx.fillText(status, r.x + r.w - t.pad - sw, hy);
      else ctx.fillText(status, r.x + t.pad, hy);
      const mw = marks ? ctx.measureText(marks).width + 4 : 0;
      const nameX = full ? r.x + t.pad : r.x + t.pad + sw + 3;
      const nameMax = (full ? r.x + r.w - t.pad - sw - 6 : r.x + r.w - t.pad) - nameX - mw;
      ctx.fillStyle = p.text;
      const name = fit(ctx, n.name, nameMax);
      ctx.fillText(name, nameX, hy);
      if (marks) {
        ctx.fillStyle = p.warn;
        ctx.fillText(marks, nameX + ctx.measureText(name).width + 4, hy);
      }
    }
    // cpu and memory requested against allocatable.
    const bx = r.x + t.pad + t.barLabelW;
    const pctW = t.detail === 'full' ? 32 : 0;
    const bw = r.w - 2 * t.pad - t.barLabelW - pctW;
    const rows: [string, number, number][] = [
      ['cpu', n.requested.cpu, n.allocatable.cpu],
      ['mem', n.requested.memory, n.allocatable.memory],
    ];
    rows.forEach(([label, used, alloc], k) => {
      const by = r.y + t.barsY + k * t.barStep;
      if (t.barLabelW) {
        ctx.font = FONT_SMALL;
        ctx.fillStyle = p.muted;
        ctx.fillText(label, r.x + t.pad, by + t.barH / 2);
      }
      bar(ctx, p, bx, by, bw, t.barH, alloc > 0 ? used / alloc : 0);
      if (pctW) {
        ctx.font = FONT_SMALL;
        ctx.fillStyle = p.muted;
        const txt = `${percent(used, alloc)}%`;
        ctx.fillText(txt, r.x + r.w - t.pad - ctx.measureText(txt).width, by + t.barH / 2);
      }
    });
    // Pods.
    const pods = m.podsByNode.get(n.name) ?? [];
    for (let j = 0; j < pods.length; j++) {
      const pr = podRect(t, j);
      if (!pr) break;
      drawPod(ctx, p, podState(pods[j]!), { x: r.x + pr.x, y: r.y + pr.y, w: pr.w, h: pr.h });
    }
    if (pods.length === 0 && t.detail === 'full') {
      ctx.font = FONT_SMALL;
      ctx.fillStyle = p.muted;
      ctx.fillText('no pods', r.x + t.pad, r.y + t.podsY + t.pod / 2);
    }
  }
  ctx.restore();
}

/** Tooltip text for a node (also used by tests of the model). */
export function nodeFacts(n: ClusterModel['nodes'][number], pods: number): [string, string][] {
  const s = nodeState(n);
  const facts: [string, string][] = [
    ['Status', `${NODE_STATE_ICON[s]} ${NODE_STATE_LABEL[s]}${n.ready === '' ? ' (no Ready condition yet)' : ''}`],
    ['CPU requested', `${formatCpu(n.requested.cpu)} of ${formatCpu(n.allocatable.cpu)} (${percent(n.requested.cpu, n.allocatable.cpu)}%)`],
    ['Memory requested', `${formatMemory(n.requested.memory)} of ${formatMemory(n.allocatable.memory)} (${percent(n.requested.memory, n.allocatable.memory)}%)`],
    ['Pods', `${pods} of ${n.allocatable.pods}`],
  ];
  if (n.unschedulable) facts.push(['Scheduling', '⊘ unschedulable (cordoned)']);
  facts.push(['Taints', n.taints.length ? `⚑ ${n.taints.join(', ')}` : 'none']);
  const labels = Object.entries(n.labels);
  facts.push(['Labels', labels.length ? labels.map(([k, v]) => `${k}=${v}`).join('\n') : 'none']);
  return facts;
}
