// The far-out picture of the whole grid, one pixel per pod: each node a cell
// (a border, a status stripe, its pods sixteen to a row), laid out as the
// world's grid is. It is redrawn only where the data changed (MapData's
// dirty nodes) and drawn scaled onto the map in one drawImage per frame, so
// panning and zooming over 5,000 nodes and 150,000 pods costs one blit.
import { TILE, type WorldLayout } from './layout';
import type { MapData } from './mapData';
import type { PackedPalette } from './palette';

/** Cell pitch in atlas pixels: 16 pods + 2 border columns + 1 gap. */
export const CELL_X = TILE.podsPerRow + 3;

export function cellPitchY(podRows: number): number {
  return podRows + 4;
}

export interface AtlasCanvas {
  width: number;
  height: number;
  getContext(id: '2d'): CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
}

export class MapAtlas {
  private image: ImageData | null = null;
  private words = new Uint32Array(0);
  private key = '';
  /** The canvas drawn from (created by `makeCanvas`). */
  canvas: AtlasCanvas | null = null;

  constructor(private readonly makeCanvas: (w: number, h: number) => AtlasCanvas) {}

  /** Brings the atlas up to date for this layout and palette; returns false if there is nothing to draw. */
  update(data: MapData, l: WorldLayout, pk: PackedPalette, paletteId: number): boolean {
    if (l.count === 0) return false;
    const W = l.cols * CELL_X;
    const py = cellPitchY(l.podRows);
    const H = l.rows * py;
    const key = `${l.cols}x${l.rows}x${l.podRows}:${paletteId}`;
    let dirty = data.takeDirty();
    if (key !== this.key || !this.canvas || !this.image) {
      this.key = key;
      this.canvas = this.makeCanvas(W, H);
      const ctx = this.canvas.getContext('2d');
      if (!ctx) return false;
      this.image = ctx.createImageData(W, H);
      this.words = new Uint32Array(this.image.data.buffer);
      this.words.fill(pk.back);
      dirty = 'all';
    }
    const slots = dirty === 'all' ? data.order : dirty;
    if (slots.length === 0) return true;
    for (const slot of slots) {
      const i = data.gridIndex[slot] ?? -1;
      if (i >= 0) this.cell(data, l, pk, slot, (i % l.cols) * CELL_X, Math.floor(i / l.cols) * py, W);
    }
    this.canvas.getContext('2d')!.putImageData(this.image, 0, 0);
    return true;
  }

  private cell(data: MapData, l: WorldLayout, pk: PackedPalette, slot: number, x0: number, y0: number, W: number): void {
    const buf = this.words;
    const w = CELL_X - 1;
    const h = l.podRows + 3;
    const state = data.nodeStateIndex(slot);
    const border = state === 0 ? pk.border : pk.node[state]!;
    for (let y = 0; y < h; y++) {
      const row = (y0 + y) * W + x0;
      if (y === 0 || y === h - 1) buf.fill(border, row, row + w);
      else if (y === 1) {
        buf[row] = border;
        buf.fill(pk.node[state]!, row + 1, row + w - 1);
        buf[row + w - 1] = border;
      } else {
        buf[row] = border;
        buf.fill(pk.tile, row + 1, row + w - 1);
        buf[row + w - 1] = border;
      }
    }
    const pods = data.podsOn(slot);
    const n = Math.min(pods.length, TILE.podsPerRow * l.podRows);
    const states = data.podState;
    for (let j = 0; j < n; j++) buf[(y0 + 2 + Math.floor(j / TILE.podsPerRow)) * W + x0 + 1 + (j % TILE.podsPerRow)] = pk.pod[states[pods[j]!]!]!;
  }
}
