// The cluster map's geometry, apart from drawing so it can be tested: the
// control-plane strip, the unscheduled row and a grid of equal node tiles whose
// level of detail falls as the node count grows. Equal tiles make "which tile
// is under the pointer" and "which rows are on screen" O(1), so thousands of
// nodes cost only what is visible.

export type Detail = 'full' | 'medium' | 'tiny';

export const PAD = 8;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TileGeometry {
  detail: Detail;
  w: number;
  h: number;
  gap: number;
  pad: number;
  /** Height of the name/status line (tiny: a status stripe). */
  headerH: number;
  /** Top of the cpu and memory bars inside a tile, and each bar's height. */
  barsY: number;
  barH: number;
  /** Vertical step between the two bars (bar plus spacing). */
  barStep: number;
  /** Width of the bar labels ("cpu"), 0 when not drawn. */
  barLabelW: number;
  podsY: number;
  pod: number;
  podGap: number;
  podsPerRow: number;
  podRows: number;
}

export interface MapLayout {
  width: number;
  /** Total content height (the scroll height). */
  height: number;
  strip: { y: number; h: number; chips: Rect[] };
  unscheduled: { y: number; h: number; labelW: number; x0: number; pod: number; podGap: number; perRow: number; rows: number; shown: number; total: number };
  grid: { y: number; cols: number; rows: number; count: number; tile: TileGeometry };
}

/** Largest node count drawn at each level of detail. */
export const FULL_MAX = 64;
export const MEDIUM_MAX = 1000;
const BASE_W: Record<Detail, number> = { full: 176, medium: 90, tiny: 40 };
/** How far tiles may stretch to fill a row. */
const STRETCH: Record<Detail, number> = { full: 1.5, medium: 1.2, tiny: 1.25 };
const UNSCHEDULED_MAX_ROWS = 3;

export function detailFor(nodes: number): Detail {
  return nodes <= FULL_MAX ? 'full' : nodes <= MEDIUM_MAX ? 'medium' : 'tiny';
}

function tileGeometry(detail: Detail, w: number, maxPods: number): TileGeometry {
  const g =
    detail === 'full'
      ? { pad: 7, headerH: 16, barH: 7, barStep: 13, barLabelW: 30, pod: 9, podGap: 2, gap: 8 }
      : detail === 'medium'
        ? { pad: 4, headerH: 13, barH: 3, barStep: 5, barLabelW: 0, pod: 5, podGap: 1, gap: 6 }
        : { pad: 2, headerH: 4, barH: 2, barStep: 3, barLabelW: 0, pod: 3, podGap: 1, gap: 3 };
  const barsY = g.pad + g.headerH + (detail === 'tiny' ? 2 : 4);
  const podsY = barsY + 2 * g.barStep + (detail === 'full' ? 3 : 2);
  const podsPerRow = Math.max(1, Math.floor((w - 2 * g.pad + g.podGap) / (g.pod + g.podGap)));
  const podRows = Math.max(1, Math.ceil(maxPods / podsPerRow));
  const h = podsY + podRows * (g.pod + g.podGap) - g.podGap + g.pad;
  return { detail, w, h, gap: g.gap, pad: g.pad, headerH: g.headerH, barsY, barH: g.barH, barStep: g.barStep, barLabelW: g.barLabelW, podsY, pod: g.pod, podGap: g.podGap, podsPerRow, podRows };
}

export interface LayoutInput {
  width: number;
  nodes: number;
  maxPodsPerNode: number;
  unscheduled: number;
  /** Width of each component chip's text, px. */
  chipTextWidths: number[];
}

export function layoutMap(inp: LayoutInput): MapLayout {
  const width = Math.max(120, inp.width);
  const inner = width - 2 * PAD;
  // Control-plane strip: chips wrap onto as many lines as needed.
  const chipH = 22;
  const chips: Rect[] = [];
  let x = PAD;
  let y = PAD;
  for (const tw of inp.chipTextWidths) {
    const w = Math.ceil(tw) + 26;
    if (x > PAD && x + w > width - PAD) {
      x = PAD;
      y += chipH + 6;
    }
    chips.push({ x, y, w, h: chipH });
    x += w + 6;
  }
  const stripH = chips.length ? y + chipH - PAD : 0;
  // Unscheduled pods: a label, then squares, at most a few rows (the rest counted).
  const uy = PAD + stripH + (chips.length ? 10 : 0);
  const labelW = 118;
  const upod = 9;
  const ugap = 2;
  const perRow = Math.max(1, Math.floor((inner - labelW + ugap) / (upod + ugap)));
  const rows = Math.min(UNSCHEDULED_MAX_ROWS, Math.max(1, Math.ceil(inp.unscheduled / perRow)));
  const shown = Math.min(inp.unscheduled, rows * perRow);
  const uh = Math.max(16, rows * (upod + ugap) - ugap);
  // The node grid.
  const detail = detailFor(inp.nodes);
  const gap = detail === 'full' ? 8 : detail === 'medium' ? 6 : 3;
  const cols = Math.max(1, Math.floor((inner + gap) / (BASE_W[detail] + gap)));
  // Stretch tiles to fill the row, within limits (few nodes should not become huge tiles).
  const stretched = Math.floor((inner - (cols - 1) * gap) / cols);
  const tileW = Math.max(24, Math.min(stretched, Math.round(BASE_W[detail] * STRETCH[detail])));
  const tile = tileGeometry(detail, tileW, inp.maxPodsPerNode);
  const gy = uy + uh + 12;
  const gridRows = Math.ceil(inp.nodes / cols);
  const height = gy + (gridRows > 0 ? gridRows * (tile.h + tile.gap) - tile.gap : 0) + PAD;
  return {
    width,
    height,
    strip: { y: PAD, h: stripH, chips },
    unscheduled: { y: uy, h: uh, labelW, x0: PAD + labelW, pod: upod, podGap: ugap, perRow, rows, shown, total: inp.unscheduled },
    grid: { y: gy, cols, rows: gridRows, count: inp.nodes, tile },
  };
}

/** Where node `i`'s tile is. */
export function tileRect(l: MapLayout, i: number): Rect {
  const t = l.grid.tile;
  const col = i % l.grid.cols;
  const row = Math.floor(i / l.grid.cols);
  return { x: PAD + col * (t.w + t.gap), y: l.grid.y + row * (t.h + t.gap), w: t.w, h: t.h };
}

/** Pod `j` of a tile, relative to the tile's corner; null beyond what the tile can show. */
export function podRect(t: TileGeometry, j: number): Rect | null {
  if (j >= t.podsPerRow * t.podRows) return null;
  const col = j % t.podsPerRow;
  const row = Math.floor(j / t.podsPerRow);
  return { x: t.pad + col * (t.pod + t.podGap), y: t.podsY + row * (t.pod + t.podGap), w: t.pod, h: t.pod };
}

export function unscheduledPodRect(l: MapLayout, j: number): Rect | null {
  const u = l.unscheduled;
  if (j >= u.shown) return null;
  return { x: u.x0 + (j % u.perRow) * (u.pod + u.podGap), y: u.y + Math.floor(j / u.perRow) * (u.pod + u.podGap), w: u.pod, h: u.pod };
}

/** The node indexes whose tiles meet the band [top, top + height). */
export function visibleNodes(l: MapLayout, top: number, height: number): { from: number; to: number } {
  const step = l.grid.tile.h + l.grid.tile.gap;
  const r0 = Math.max(0, Math.floor((top - l.grid.y) / step));
  const r1 = Math.max(0, Math.floor((top + height - l.grid.y) / step) + 1);
  return { from: Math.min(l.grid.count, r0 * l.grid.cols), to: Math.min(l.grid.count, r1 * l.grid.cols) };
}

export type Hit =
  | { type: 'component'; index: number }
  | { type: 'unscheduledPod'; index: number }
  | { type: 'node'; index: number }
  | { type: 'pod'; node: number; index: number };

const inside = (r: Rect, x: number, y: number) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;

/** What is under content point (x, y); `podsOn(i)` says how many pods node i has. */
export function hitTest(l: MapLayout, x: number, y: number, podsOn: (node: number) => number): Hit | null {
  for (let i = 0; i < l.strip.chips.length; i++) if (inside(l.strip.chips[i]!, x, y)) return { type: 'component', index: i };
  const u = l.unscheduled;
  if (y >= u.y && y < u.y + u.h && x >= u.x0) {
    const col = Math.floor((x - u.x0) / (u.pod + u.podGap));
    const row = Math.floor((y - u.y) / (u.pod + u.podGap));
    const j = row * u.perRow + col;
    const r = col < u.perRow ? unscheduledPodRect(l, j) : null;
    if (r && inside(r, x, y)) return { type: 'unscheduledPod', index: j };
    return null;
  }
  const t = l.grid.tile;
  if (y < l.grid.y || x < PAD) return null;
  const col = Math.floor((x - PAD) / (t.w + t.gap));
  const row = Math.floor((y - l.grid.y) / (t.h + t.gap));
  if (col >= l.grid.cols) return null;
  const i = row * l.grid.cols + col;
  if (i >= l.grid.count) return null;
  const tr = tileRect(l, i);
  if (!inside(tr, x, y)) return null;
  const lx = x - tr.x;
  const ly = y - tr.y;
  if (ly >= t.podsY) {
    const pc = Math.floor((lx - t.pad) / (t.pod + t.podGap));
    const pr = Math.floor((ly - t.podsY) / (t.pod + t.podGap));
    if (pc >= 0 && pc < t.podsPerRow) {
      const j = pr * t.podsPerRow + pc;
      const pr2 = podRect(t, j);
      if (pr2 && j < podsOn(i) && inside(pr2, lx, ly)) return { type: 'pod', node: i, index: j };
    }
  }
  return { type: 'node', index: i };
}
