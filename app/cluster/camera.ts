// Pan and zoom over the map's world: screen = (world - (x, y)) × k. Pure
// functions, so pointer, wheel, keyboard and the benchmark's scripted flights
// all move the camera the same way.
import type { Rect, WorldLayout } from './layout';

export interface Camera {
  /** The world point at the screen's top-left corner. */
  x: number;
  y: number;
  /** Screen px per world unit. */
  k: number;
}

export const MAX_ZOOM = 4;

/** The camera that shows the whole world: at most zoom 1, centred when smaller than the view, else from the top-left. */
export function fitCamera(l: Pick<WorldLayout, 'width' | 'height'>, viewW: number, viewH: number): Camera {
  const k = Math.min(1, viewW / l.width, viewH / l.height);
  const x = k < 1 ? -(viewW / k - l.width) / 2 : 0;
  return { x: Math.min(0, x), y: 0, k };
}

export function minZoom(l: Pick<WorldLayout, 'width' | 'height'>, viewW: number, viewH: number): number {
  return Math.min(0.5, fitCamera(l, viewW, viewH).k * 0.5);
}

/** Keeps some of the world on screen and the zoom within bounds. */
export function clampCamera(c: Camera, l: Pick<WorldLayout, 'width' | 'height'>, viewW: number, viewH: number): Camera {
  const k = Math.min(MAX_ZOOM, Math.max(minZoom(l, viewW, viewH), c.k));
  const vw = viewW / k;
  const vh = viewH / k;
  // At least a quarter of the view keeps showing world.
  const x = Math.min(l.width - vw / 4, Math.max(-vw * 0.75, c.x));
  const y = Math.min(l.height - vh / 4, Math.max(-vh * 0.75, c.y));
  return { x, y, k };
}

/** Zooms by `factor` keeping the world point under screen point (sx, sy) where it is. */
export function zoomAt(c: Camera, sx: number, sy: number, factor: number, l: Pick<WorldLayout, 'width' | 'height'>, viewW: number, viewH: number): Camera {
  const wx = c.x + sx / c.k;
  const wy = c.y + sy / c.k;
  const k = Math.min(MAX_ZOOM, Math.max(minZoom(l, viewW, viewH), c.k * factor));
  return clampCamera({ x: wx - sx / k, y: wy - sy / k, k }, l, viewW, viewH);
}

/** Moves the view by (dx, dy) screen px. */
export function panBy(c: Camera, dx: number, dy: number, l: Pick<WorldLayout, 'width' | 'height'>, viewW: number, viewH: number): Camera {
  return clampCamera({ ...c, x: c.x - dx / c.k, y: c.y - dy / c.k }, l, viewW, viewH);
}

/** A camera that shows world rectangle `r` (a node) comfortably, not closer than zoom `k`. */
export function focusOn(r: Rect, viewW: number, viewH: number, k: number, l: Pick<WorldLayout, 'width' | 'height'>): Camera {
  return clampCamera({ x: r.x + r.w / 2 - viewW / (2 * k), y: r.y + r.h / 2 - viewH / (2 * k), k }, l, viewW, viewH);
}

export function toWorld(c: Camera, sx: number, sy: number): { x: number; y: number } {
  return { x: c.x + sx / c.k, y: c.y + sy / c.k };
}

export function toScreen(c: Camera, r: Rect): Rect {
  return { x: (r.x - c.x) * c.k, y: (r.y - c.y) * c.k, w: r.w * c.k, h: r.h * c.k };
}

/** The world rectangle the screen shows. */
export function viewRect(c: Camera, viewW: number, viewH: number): Rect {
  return { x: c.x, y: c.y, w: viewW / c.k, h: viewH / c.k };
}
