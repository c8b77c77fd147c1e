// The cluster map's world: a band of unscheduled pods, then a grid of equal
// node tiles, in world units (1 unit = 1 CSS px at zoom 1, where a tile shows
// every detail). Equal tiles make "which tile is under the pointer" and "which
// tiles are on screen" O(1), so 5,000 nodes cost only what is visible; the
// camera (camera.ts) maps the world to the screen.

export const PAD = 12;

/** A tile at zoom 1: header, cpu and memory bars, then the pods in rows. */
export const TILE = {
  w: 188,
  pad: 7,
  headerH: 16,
  barsY: 27,
  barH: 7,
  barStep: 13,
  barLabelW: 30,
  podsY: 56,
  pod: 9,
  podGap: 2,
  podsPerRow: 16,
  gap: 10,
} as const;

const BAND_LABEL_W = 130;
const BAND_MAX_ROWS = 3;
const BAND_MIN_W = 640;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface WorldLayout {
  cols: number;
  rows: number;
  count: number;
  tileH: number;
  podRows: number;
  grid: { x: number; y: number };
  /** Unscheduled pods: a label and up to BAND_MAX_ROWS rows of squares (the rest counted). */
  band: { x: number; y: number; w: number; h: number; labelW: number; perRow: number; rows: number; shown: number; total: number };
  width: number;
  height: number;
}

export interface LayoutInput {
  nodes: number;
  maxPodsPerNode: number;
  unscheduled: number;
  /** The viewport, CSS px: the grid's shape follows its aspect. */
  viewW: number;
  viewH: number;
}

const step = (n: number, size: number, gap: number) => (n > 0 ? n * (size + gap) - gap : 0);

/** Columns that let the whole grid show at the largest zoom (at most 1). */
export function bestColumns(nodes: number, tileH: number, viewW: number, viewH: number): number {
  if (nodes <= 1) return 1;
  const availW = Math.max(100, viewW - 2 * PAD);
  const availH = Math.max(100, viewH - 2 * PAD - 40);
  let best = 1;
  let bestK = -1;
  // The scale a grid of c columns fits at; ties go to more columns (wider, as screens are).
  for (let c = 1; c <= nodes; c++) {
    const r = Math.ceil(nodes / c);
    const k = Math.min(1, availW / step(c, TILE.w, TILE.gap), availH / step(r, tileH, TILE.gap));
    if (k >= bestK - 1e-9) {
      bestK = k;
      best = c;
    }
  }
  return best;
}

export function layoutWorld(inp: LayoutInput): WorldLayout {
  const podRows = Math.max(1, Math.ceil(inp.maxPodsPerNode / TILE.podsPerRow));
  const tileH = TILE.podsY + step(podRows, TILE.pod, TILE.podGap) + TILE.pad;
  const cols = bestColumns(inp.nodes, tileH, inp.viewW, inp.viewH);
  const rows = Math.ceil(inp.nodes / cols);
  const gridW = step(cols, TILE.w, TILE.gap);
  const bandW = Math.max(gridW, BAND_MIN_W);
  const perRow = Math.max(1, Math.floor((bandW - BAND_LABEL_W + TILE.podGap) / (TILE.pod + TILE.podGap)));
  const bandRows = Math.min(BAND_MAX_ROWS, Math.max(1, Math.ceil(inp.unscheduled / perRow)));
  const bandH = Math.max(16, step(bandRows, TILE.pod, TILE.podGap));
  const gy = PAD + bandH + 14;
  return {
    cols,
    rows,
    count: inp.nodes,
    tileH,
    podRows,
    grid: { x: PAD, y: gy },
    band: { x: PAD, y: PAD, w: bandW, h: bandH, labelW: BAND_LABEL_W, perRow, rows: bandRows, shown: Math.min(inp.unscheduled, bandRows * perRow), total: inp.unscheduled },
    width: PAD * 2 + Math.max(gridW, bandW),
    height: gy + step(rows, tileH, TILE.gap) + PAD,
  };
}

/** Where the i-th node (in grid order) is. */
export function tileRect(l: WorldLayout, i: number): Rect {
  return { x: l.grid.x + (i % l.cols) * (TILE.w + TILE.gap), y: l.grid.y + Math.floor(i / l.cols) * (l.tileH + TILE.gap), w: TILE.w, h: l.tileH };
}

/** Pod `j` of a tile, relative to the tile's corner; null beyond what a tile shows. */
export function podRect(l: WorldLayout, j: number): Rect | null {
  if (j >= TILE.podsPerRow * l.podRows) return null;
  return { x: TILE.pad + (j % TILE.podsPerRow) * (TILE.pod + TILE.podGap), y: TILE.podsY + Math.floor(j / TILE.podsPerRow) * (TILE.pod + TILE.podGap), w: TILE.pod, h: TILE.pod };
}

export function bandPodRect(l: WorldLayout, j: number): Rect | null {
  const b = l.band;
  if (j >= b.shown) return null;
  return { x: b.x + b.labelW + (j % b.perRow) * (TILE.pod + TILE.podGap), y: b.y + Math.floor(j / b.perRow) * (TILE.pod + TILE.podGap), w: TILE.pod, h: TILE.pod };
}

/** Grid rows and columns that meet the world rectangle `r`. */
export function visibleCells(l: WorldLayout, r: Rect): { r0: number; r1: number; c0: number; c1: number } {
  const sx = TILE.w + TILE.gap;
  const sy = l.tileH + TILE.gap;
  const c0 = Math.max(0, Math.floor((r.x - l.grid.x) / sx));
  const c1 = Math.min(l.cols - 1, Math.floor((r.x + r.w - l.grid.x) / sx));
  const r0 = Math.max(0, Math.floor((r.y - l.grid.y) / sy));
  const r1 = Math.min(l.rows - 1, Math.floor((r.y + r.h - l.grid.y) / sy));
  return { r0, r1, c0, c1 };
}

export type Hit = { type: 'node'; index: number } | { type: 'pod'; node: number; index: number } | { type: 'unscheduledPod'; index: number };

const inside = (r: Rect, x: number, y: number) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;

/**
 * What is at world point (x, y): a node tile (by grid index), one of its pods
 * (when `pods` is set: pods are told apart only when drawn one by one), or an
 * unscheduled pod. `podsOn(i)` says how many pods node i has.
 */
export function hitTest(l: WorldLayout, x: number, y: number, podsOn: (node: number) => number, pods = true): Hit | null {
  const b = l.band;
  if (y >= b.y && y < b.y + b.h) {
    if (x < b.x + b.labelW) return null;
    const col = Math.floor((x - b.x - b.labelW) / (TILE.pod + TILE.podGap));
    const row = Math.floor((y - b.y) / (TILE.pod + TILE.podGap));
    const j = row * b.perRow + col;
    const r = col < b.perRow ? bandPodRect(l, j) : null;
    return r && inside(r, x, y) ? { type: 'unscheduledPod', index: j } : null;
  }
  if (y < l.grid.y || x < l.grid.x) return null;
  const col = Math.floor((x - l.grid.x) / (TILE.w + TILE.gap));
  const row = Math.floor((y - l.grid.y) / (l.tileH + TILE.gap));
  if (col >= l.cols) return null;
  const i = row * l.cols + col;
  if (i >= l.count) return null;
  const t = tileRect(l, i);
  if (!inside(t, x, y)) return null;
  const lx = x - t.x;
  const ly = y - t.y;
  if (pods && ly >= TILE.podsY) {
    const pc = Math.floor((lx - TILE.pad) / (TILE.pod + TILE.podGap));
    const pr = Math.floor((ly - TILE.podsY) / (TILE.pod + TILE.podGap));
    if (pc >= 0 && pc < TILE.podsPerRow) {
      const j = pr * TILE.podsPerRow + pc;
      const r = podRect(l, j);
      if (r && j < podsOn(i) && inside(r, lx, ly)) return { type: 'pod', node: i, index: j };
    }
  }
  return { type: 'node', index: i };
}
