// The map's colours, from the theme's CSS variables, as canvas styles and as
// packed RGBA words for the pixel buffer the far zoom levels write directly.
import type { NodeState, PodState } from './mapData';

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

export function nodeColour(p: Palette, s: NodeState): string {
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

/** A CSS colour as the little-endian RGBA word an ImageData's Uint32Array holds. */
export function packColour(css: string): number {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(css.trim());
  let r = 0;
  let g = 0;
  let b = 0;
  if (m) {
    const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
    r = parseInt(h.slice(0, 2), 16);
    g = parseInt(h.slice(2, 4), 16);
    b = parseInt(h.slice(4, 6), 16);
  } else {
    const n = /rgba?\(\s*(\d+)[ ,]+(\d+)[ ,]+(\d+)/i.exec(css);
    if (n) [r, g, b] = [Number(n[1]), Number(n[2]), Number(n[3])];
  }
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

/** Packed words for the pixel buffer, indexed as POD_STATES and NODE_STATES are. */
export interface PackedPalette {
  /** The map's background (the panel it sits on), a tile's fill, a bar's track. */
  back: number;
  tile: number;
  track: number;
  border: number;
  accent: number;
  danger: number;
  warn: number;
  text: number;
  pod: number[];
  node: number[];
}

export function packPalette(p: Palette, podStates: readonly PodState[], nodeStates: readonly NodeState[]): PackedPalette {
  return {
    back: packColour(p.panel),
    tile: packColour(p.panel2),
    track: packColour(p.bg),
    border: packColour(p.border),
    accent: packColour(p.accent),
    danger: packColour(p.danger),
    warn: packColour(p.warn),
    text: packColour(p.text),
    pod: podStates.map((s) => packColour(podColour(p, s))),
    node: nodeStates.map((s) => packColour(nodeColour(p, s))),
  };
}
