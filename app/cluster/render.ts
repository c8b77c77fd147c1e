// Paints the cluster map for one camera: only the tiles on screen, at a level
// of detail chosen by how wide a tile is on screen. Far out, the map is written
// pixel by pixel into one buffer (no per-pod canvas calls, so 150,000 pods
// cost a few milliseconds): each tile a downsampled picture of its pods. Close
// in, tiles are drawn with names, status markers, capacity bars and pods whose
// shape as well as colour tells their state (pending hollow, not ready
// half-filled, failed crossed, terminating striped).
import { MapAtlas, CELL_X, cellPitchY, type AtlasCanvas } from './atlas';
import { toScreen, viewRect, type Camera } from './camera';
import { bandPodRect, podRect, TILE, tileRect, visibleCells, type Rect, type WorldLayout } from './layout';
import { NODE_STATES, POD_STATES, type MapData, type PodState } from './mapData';
import { NODE_STATE_ICON, NODE_STATE_LABEL, percent } from './model';
import { nodeColour, packPalette, podColour, type PackedPalette, type Palette } from './palette';

export type Detail = 'dots' | 'pods' | 'medium' | 'full';

/** The level of detail for a zoom: by a tile's width on screen, CSS px. */
export function detailFor(k: number): Detail {
  const tw = TILE.w * k;
  return tw < 45 ? 'dots' : tw < 100 ? 'pods' : tw < 165 ? 'medium' : 'full';
}

export const FONT = '11px ui-sans-serif, system-ui, sans-serif';
export const FONT_SMALL = '10px ui-sans-serif, system-ui, sans-serif';
const FONT_TINY = '9px ui-sans-serif, system-ui, sans-serif';

export interface MapMarks {
  /** Grid index of the tile under the pointer. */
  hoverNode: number | null;
  selectedNode: string | null;
  /** "namespace/name" */
  selectedPod: string | null;
  /** Nodes a fault in effect targets. */
  faulted: ReadonlySet<string>;
}

export interface DrawInput {
  data: MapData;
  layout: WorldLayout;
  camera: Camera;
  /** CSS px. */
  viewW: number;
  viewH: number;
  dpr: number;
  marks: MapMarks;
}

export interface DrawStats {
  detail: Detail;
  tiles: number;
}

function defaultCanvas(w: number, h: number): AtlasCanvas {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(w, h);
  const c = document.createElement('canvas');
  c.width = w;
  c.height = h;
  return c;
}

export class MapRenderer {
  private image: ImageData | null = null;
  private words = new Uint32Array(0);
  private packed: PackedPalette | null = null;
  private packedFor: Palette | null = null;
  private paletteId = 0;
  private readonly atlas: MapAtlas;

  constructor(makeCanvas: (w: number, h: number) => AtlasCanvas = defaultCanvas) {
    this.atlas = new MapAtlas(makeCanvas);
  }

  draw(ctx: CanvasRenderingContext2D, p: Palette, d: DrawInput): DrawStats {
    const detail = detailFor(d.camera.k);
    const W = Math.max(1, Math.round(d.viewW * d.dpr));
    const H = Math.max(1, Math.round(d.viewH * d.dpr));
    if (this.packedFor !== p) {
      this.packed = packPalette(p, POD_STATES, NODE_STATES);
      this.packedFor = p;
      this.paletteId++;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    let tiles = 0;
    if (detail === 'pods') {
      if (!this.image || this.image.width !== W || this.image.height !== H) {
        this.image = ctx.createImageData(W, H);
        this.words = new Uint32Array(this.image.data.buffer);
      }
      this.words.fill(this.packed!.back);
      tiles = this.raster(d, W, H);
      ctx.putImageData(this.image, 0, 0);
    } else {
      ctx.fillStyle = p.panel;
      ctx.fillRect(0, 0, W, H);
    }
    if (detail === 'dots') tiles = this.overview(ctx, d);
    ctx.setTransform(d.dpr, 0, 0, d.dpr, 0, 0);
    ctx.textBaseline = 'middle';
    if (detail === 'medium' || detail === 'full') tiles = this.vector(ctx, p, d, detail);
    else if (detail === 'pods' && TILE.w * d.camera.k >= 64) this.names(ctx, p, d);
    drawBand(ctx, p, d);
    drawMarks(ctx, p, d, detail);
    return { detail, tiles };
  }

  /** Far out: the atlas, scaled so each cell lands on its tile. */
  private overview(ctx: CanvasRenderingContext2D, d: DrawInput): number {
    const { data, layout: l, camera: c } = d;
    if (!this.atlas.update(data, l, this.packed!, this.paletteId) || !this.atlas.canvas) return 0;
    const sx = ((TILE.w + TILE.gap) / CELL_X) * c.k * d.dpr;
    const sy = ((l.tileH + TILE.gap) / cellPitchY(l.podRows)) * c.k * d.dpr;
    ctx.imageSmoothingEnabled = false;
    ctx.setTransform(sx, 0, 0, sy, (l.grid.x - c.x) * c.k * d.dpr, (l.grid.y - c.y) * c.k * d.dpr);
    ctx.drawImage(this.atlas.canvas as CanvasImageSource, 0, 0);
    ctx.imageSmoothingEnabled = true;
    const v = visibleCells(l, viewRect(c, d.viewW, d.viewH));
    return Math.max(0, Math.min(l.count, (v.r1 - v.r0 + 1) * (v.c1 - v.c0 + 1)));
  }

  // ---- far: the pixel buffer ------------------------------------------------------------

  /** Pods one by one, into the pixel buffer: a status stripe, the capacity bars, each pod in its place and shape. */
  private raster(d: DrawInput, W: number, H: number): number {
    const { data, layout: l, camera: c } = d;
    const pk = this.packed!;
    const buf = this.words;
    const K = c.k * d.dpr;
    const fill = (x0: number, y0: number, w: number, h: number, col: number) => {
      const xa = x0 < 0 ? 0 : x0;
      const xb = x0 + w > W ? W : x0 + w;
      if (xb <= xa) return;
      const ya = y0 < 0 ? 0 : y0;
      const yb = y0 + h > H ? H : y0 + h;
      for (let y = ya; y < yb; y++) buf.fill(col, y * W + xa, y * W + xb);
    };
    const cells = visibleCells(l, viewRect(c, d.viewW, d.viewH));
    const perRow = TILE.podsPerRow;
    const tileW = TILE.w;
    const pad = TILE.pad;
    const pitchX = TILE.w + TILE.gap;
    const pitchY = l.tileH + TILE.gap;
    const size = Math.max(1, Math.round(TILE.pod * K));
    const stride = (TILE.pod + TILE.podGap) * K;
    const stamps = POD_STATES.map((st) => podStamp(st, size));
    const maxShown = perRow * l.podRows;
    const barH = Math.max(1, Math.round(TILE.barH * K));
    const bw = Math.round((tileW - 2 * pad) * K);
    const stripe = Math.max(2, Math.round(pad * K));
    const states = data.podState;
    let tiles = 0;
    for (let row = cells.r0; row <= cells.r1; row++) {
      const ty = l.grid.y + row * pitchY;
      for (let col = cells.c0; col <= cells.c1; col++) {
        const i = row * l.cols + col;
        if (i >= l.count) break;
        const slot = data.order[i]!;
        tiles++;
        const tx = l.grid.x + col * pitchX;
        const x0 = Math.round((tx - c.x) * K);
        const y0 = Math.round((ty - c.y) * K);
        const w = Math.round((tx + tileW - c.x) * K) - x0;
        const h = Math.round((ty + l.tileH - c.y) * K) - y0;
        const state = data.nodeStateIndex(slot);
        const sc = pk.node[state]!;
        const bc = state === 0 ? pk.border : sc;
        // The tile row by row: border, status stripe, background (one fill per row, borders written directly).
        const xa = x0 < 0 ? 0 : x0;
        const xb = x0 + w > W ? W : x0 + w;
        const ya = y0 < 0 ? 0 : y0;
        const yb = y0 + h > H ? H : y0 + h;
        if (xb <= xa) continue;
        const leftIn = x0 >= 0;
        const rightIn = x0 + w <= W;
        for (let y = ya; y < yb; y++) {
          const r = y * W;
          const dy = y - y0;
          if (dy === 0 || dy === h - 1) {
            buf.fill(bc, r + xa, r + xb);
            continue;
          }
          buf.fill(dy <= stripe ? sc : pk.tile, r + xa, r + xb);
          if (leftIn) buf[r + x0] = bc;
          if (rightIn) buf[r + x0 + w - 1] = bc;
        }
        const bx = Math.round((tx + pad - c.x) * K);
        for (let k = 0; k < 2; k++) {
          const used = k === 0 ? data.reqCpu[slot]! : data.reqMemory[slot]!;
          const alloc = k === 0 ? data.allocCpu[slot]! : data.allocMemory[slot]!;
          const by = Math.round((ty + TILE.barsY + k * TILE.barStep - c.y) * K);
          const frac = alloc > 0 ? Math.min(1, used / alloc) : 0;
          fill(bx, by, bw, barH, pk.track);
          fill(bx, by, Math.max(frac > 0 ? 1 : 0, Math.round(frac * bw)), barH, frac > 0.9 ? pk.danger : frac > 0.7 ? pk.warn : pk.accent);
        }
        const pods = data.podsOn(slot);
        const n = pods.length < maxShown ? pods.length : maxShown;
        const px0 = (tx + pad - c.x) * K;
        const py0 = (ty + TILE.podsY - c.y) * K;
        for (let j = 0; j < n; j++) {
          const x = Math.round(px0 + (j % perRow) * stride);
          const y = Math.round(py0 + Math.floor(j / perRow) * stride);
          const st = states[pods[j]!]!;
          stampPod(buf, W, H, x, y, size, stamps[st]!, pk.pod[st]!);
        }
      }
    }
    return tiles;
  }

  private names(ctx: CanvasRenderingContext2D, p: Palette, d: DrawInput): void {
    const { data, layout: l, camera: c } = d;
    const cells = visibleCells(l, viewRect(c, d.viewW, d.viewH));
    if ((cells.r1 - cells.r0 + 1) * (cells.c1 - cells.c0 + 1) > 900) return;
    ctx.font = FONT_TINY;
    for (let row = cells.r0; row <= cells.r1; row++) {
      for (let col = cells.c0; col <= cells.c1; col++) {
        const i = row * l.cols + col;
        if (i >= l.count) break;
        const r = toScreen(c, tileRect(l, i));
        const slot = data.order[i]!;
        const y = r.y + (TILE.pad + TILE.headerH / 2 + 4) * c.k;
        ctx.fillStyle = p.text;
        const marks = `${data.unschedulableNode(slot) ? '⊘' : ''}${data.tainted(slot) ? '⚑' : ''}`;
        ctx.fillText(fit(ctx, `${NODE_STATE_ICON[NODE_STATES[data.nodeStateIndex(slot)]!]} ${data.nodeNameOf(slot)}${marks ? ` ${marks}` : ''}`, r.w - 6), r.x + 3, y);
      }
    }
  }

  // ---- close: vector tiles ----------------------------------------------------------------

  private vector(ctx: CanvasRenderingContext2D, p: Palette, d: DrawInput, detail: Detail): number {
    const { data, layout: l, camera: c } = d;
    const k = c.k;
    const full = detail === 'full';
    const cells = visibleCells(l, viewRect(c, d.viewW, d.viewH));
    let tiles = 0;
    for (let row = cells.r0; row <= cells.r1; row++) {
      for (let col = cells.c0; col <= cells.c1; col++) {
        const i = row * l.cols + col;
        if (i >= l.count) break;
        tiles++;
        const slot = data.order[i]!;
        const n = data.node(slot);
        const r = toScreen(c, tileRect(l, i));
        const sc = nodeColour(p, n.state);
        ctx.fillStyle = p.panel2;
        ctx.fillRect(r.x, r.y, r.w, r.h);
        ctx.lineWidth = n.state === 'ready' ? 1 : 1.5;
        ctx.strokeStyle = n.state === 'ready' ? p.border : sc;
        if (n.state === 'unknown') ctx.setLineDash([4, 2]);
        ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
        ctx.setLineDash([]);
        // Header: name, markers and status (a word as well as a colour).
        const marks = `${n.unschedulable ? '⊘' : ''}${n.taints.length ? '⚑' : ''}`;
        const pad = TILE.pad * k;
        ctx.font = full ? FONT : FONT_SMALL;
        const hy = r.y + pad + (TILE.headerH * k) / 2;
        const status = full ? `${NODE_STATE_ICON[n.state]} ${NODE_STATE_LABEL[n.state]}` : NODE_STATE_ICON[n.state];
        const sw = ctx.measureText(status).width;
        ctx.fillStyle = sc;
        if (full) ctx.fillText(status, r.x + r.w - pad - sw, hy);
        else ctx.fillText(status, r.x + pad, hy);
        const mw = marks ? ctx.measureText(marks).width + 4 : 0;
        const nameX = full ? r.x + pad : r.x + pad + sw + 3;
        const nameMax = (full ? r.x + r.w - pad - sw - 6 : r.x + r.w - pad) - nameX - mw;
        ctx.fillStyle = p.text;
        const name = fit(ctx, n.name, nameMax);
        ctx.fillText(name, nameX, hy);
        if (marks) {
          ctx.fillStyle = p.warn;
          ctx.fillText(marks, nameX + ctx.measureText(name).width + 4, hy);
        }
        // cpu and memory requested against allocatable.
        const labelW = full ? TILE.barLabelW * k : 0;
        const pctW = full ? 32 : 0;
        const bx = r.x + pad + labelW;
        const bw = r.w - 2 * pad - labelW - pctW;
        const rows: [string, number, number][] = [
          ['cpu', n.requested.cpu, n.allocatable.cpu],
          ['mem', n.requested.memory, n.allocatable.memory],
        ];
        rows.forEach(([label, used, alloc], j) => {
          const by = r.y + (TILE.barsY + j * TILE.barStep) * k;
          const bh = TILE.barH * k;
          ctx.font = FONT_SMALL;
          if (full) {
            ctx.fillStyle = p.muted;
            ctx.fillText(label, r.x + pad, by + bh / 2);
          }
          bar(ctx, p, bx, by, bw, bh, alloc > 0 ? used / alloc : 0);
          if (pctW) {
            ctx.fillStyle = p.muted;
            const txt = `${percent(used, alloc)}%`;
            ctx.fillText(txt, r.x + r.w - pad - ctx.measureText(txt).width, by + bh / 2);
          }
        });
        const pods = data.podsOn(slot);
        for (let j = 0; j < pods.length; j++) {
          const pr = podRect(l, j);
          if (!pr) break;
          drawPod(ctx, p, POD_STATES[data.podState[pods[j]!]!]!, { x: r.x + pr.x * k, y: r.y + pr.y * k, w: pr.w * k, h: pr.h * k });
        }
        if (pods.length === 0 && full) {
          ctx.font = FONT_SMALL;
          ctx.fillStyle = p.muted;
          ctx.fillText('no pods', r.x + pad, r.y + (TILE.podsY + TILE.pod / 2) * k);
        }
      }
    }
    return tiles;
  }
}

/** The pixels of a pod of `s` px in state `st`: its shape carries the state too, where there is room for one. */
/** Stamps by state and size, made once: `FULL_STAMPS[s]` is the solid one (a ready pod), drawn with fills. */
const STAMPS = new Map<string, Uint8Array>();
const FULL_STAMPS: Uint8Array[] = [];

export function podStamp(st: PodState, s: number): Uint8Array {
  const key = `${st}:${s}`;
  const hit = STAMPS.get(key);
  if (hit) return hit;
  const m = makeStamp(st, s);
  STAMPS.set(key, m);
  if (m.every((x) => x === 1)) FULL_STAMPS[s] ??= m;
  return FULL_STAMPS[s] && m.every((x) => x === 1) ? FULL_STAMPS[s]! : m;
}

function makeStamp(st: PodState, s: number): Uint8Array {
  const m = new Uint8Array(s * s);
  for (let dy = 0; dy < s; dy++) {
    for (let dx = 0; dx < s; dx++) {
      const edge = dx === 0 || dy === 0 || dx === s - 1 || dy === s - 1;
      let on = true;
      if (s >= 3) {
        if (st === 'pending') on = edge;
        else if (st === 'notReady') on = dy >= s / 2 || (s >= 4 && edge);
        else if (st === 'terminating') on = (dx + dy) % 2 === 0 || edge;
        else if (st === 'succeeded') on = dx >= s / 4 && dx < (3 * s) / 4 && dy >= s / 4 && dy < (3 * s) / 4;
        else if (st === 'failed' && s >= 5) on = !(dx === dy || dx === s - 1 - dy) || edge;
      }
      m[dy * s + dx] = on ? 1 : 0;
    }
  }
  return m;
}

function stampPod(buf: Uint32Array, W: number, H: number, x0: number, y0: number, s: number, stamp: Uint8Array, col: number): void {
  if (x0 >= W || y0 >= H || x0 + s <= 0 || y0 + s <= 0) return;
  if (stamp === FULL_STAMPS[s] && x0 >= 0 && x0 + s <= W) {
    for (let dy = 0; dy < s; dy++) if (y0 + dy >= 0 && y0 + dy < H) buf.fill(col, (y0 + dy) * W + x0, (y0 + dy) * W + x0 + s);
    return;
  }
  for (let dy = 0; dy < s; dy++) {
    const y = y0 + dy;
    if (y < 0 || y >= H) continue;
    const row = y * W;
    const m = dy * s;
    for (let dx = 0; dx < s; dx++) {
      const x = x0 + dx;
      if (x >= 0 && x < W && stamp[m + dx] === 1) buf[row + x] = col;
    }
  }
}

export function fit(ctx: CanvasRenderingContext2D, text: string, max: number): string {
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

export function drawPod(ctx: CanvasRenderingContext2D, p: Palette, s: PodState, r: Rect): void {
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
  ctx.fillStyle = p.bg;
  ctx.fillRect(x, y, w, h);
  ctx.fillStyle = frac > 0.9 ? p.danger : frac > 0.7 ? p.warn : p.accent;
  ctx.fillRect(x, y, Math.max(frac > 0 ? 1 : 0, Math.min(1, frac) * w), h);
  if (h >= 5) {
    ctx.strokeStyle = p.border;
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  }
}

/** The unscheduled pods' band: a label and the first pods (vector at every zoom: there are few). */
function drawBand(ctx: CanvasRenderingContext2D, p: Palette, d: DrawInput): void {
  const { data, layout: l, camera: c } = d;
  const b = l.band;
  const r = toScreen(c, { x: b.x, y: b.y, w: b.w, h: b.h });
  if (r.y + r.h < 0 || r.y > d.viewH) return;
  if (b.labelW * c.k >= 60) {
    ctx.font = c.k >= 0.7 ? FONT : FONT_TINY;
    ctx.fillStyle = b.total ? p.text : p.muted;
    const label = b.total ? `Unscheduled: ${b.total}${b.total > b.shown ? ` (${b.shown} shown)` : ''}` : 'Unscheduled: none';
    ctx.fillText(fit(ctx, label, b.labelW * c.k - 6), r.x, r.y + (TILE.pod / 2) * c.k + 0.5);
  }
  for (let j = 0; j < b.shown; j++) {
    const pr = bandPodRect(l, j);
    const slot = data.unscheduled[j];
    if (!pr || slot === undefined) break;
    drawPod(ctx, p, POD_STATES[data.podState[slot]!]!, toScreen(c, pr));
  }
}

/** Hover, selection and fault outlines, over whatever level drew the tiles. */
function drawMarks(ctx: CanvasRenderingContext2D, p: Palette, d: DrawInput, detail: Detail): void {
  const { data, layout: l, camera: c, marks } = d;
  const ring = (r: Rect, colour: string, width: number, dash: number[] = []) => {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.setLineDash(dash);
    ctx.strokeRect(r.x - width / 2, r.y - width / 2, r.w + width, r.h + width);
    ctx.setLineDash([]);
  };
  const tileOf = (name: string | null): number => {
    if (!name) return -1;
    const slot = data.nodeByName.get(name);
    return slot === undefined ? -1 : (data.gridIndex[slot] ?? -1);
  };
  const vr = viewRect(c, d.viewW, d.viewH);
  const onScreen = (r: Rect) => r.x + r.w >= vr.x && r.x <= vr.x + vr.w && r.y + r.h >= vr.y && r.y <= vr.y + vr.h;
  if (marks.faulted.size > 0 && marks.faulted.size < 2000) {
    for (const name of marks.faulted) {
      const i = tileOf(name);
      if (i < 0) continue;
      const t = tileRect(l, i);
      if (!onScreen(t)) continue;
      const r = toScreen(c, t);
      ring(r, p.danger, detail === 'dots' ? 1.5 : 2, [5, 3]);
      if (detail === 'medium' || detail === 'full') {
        ctx.font = FONT;
        ctx.fillStyle = p.danger;
        ctx.fillText('⚡ fault', r.x + r.w - 52, r.y + r.h - 9);
      }
    }
  }
  if (marks.hoverNode !== null && marks.hoverNode < l.count) ring(toScreen(c, tileRect(l, marks.hoverNode)), p.text, 1.5);
  const sel = tileOf(marks.selectedNode);
  if (sel >= 0) ring(toScreen(c, tileRect(l, sel)), p.accent, 2.5);
  if (marks.selectedPod) {
    const slot = data.podByKey.get(marks.selectedPod);
    if (slot === undefined) return;
    const bandIdx = data.unscheduled.indexOf(slot);
    if (bandIdx >= 0) {
      const pr = bandPodRect(l, bandIdx);
      if (pr) ring(toScreen(c, pr), p.accent, 2);
      return;
    }
    const i = tileOf(data.pod(slot).node);
    if (i < 0) return;
    const t = tileRect(l, i);
    const j = data.podsOn(data.order[i]!).indexOf(slot);
    const pr = j >= 0 && detail !== 'dots' ? podRect(l, j) : null;
    ring(toScreen(c, pr ? { x: t.x + pr.x, y: t.y + pr.y, w: pr.w, h: pr.h } : t), p.accent, 2);
  }
}
