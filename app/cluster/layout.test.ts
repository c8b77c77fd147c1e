import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clampCamera, fitCamera, focusOn, panBy, toScreen, toWorld, viewRect, zoomAt, MAX_ZOOM } from './camera';
import { bandPodRect, bestColumns, hitTest, layoutWorld, podRect, TILE, tileRect, visibleCells } from './layout';
import { detailFor } from './render';

const base = { nodes: 3, maxPodsPerNode: 5, unscheduled: 0, viewW: 1000, viewH: 600 };

describe('layoutWorld', () => {
  it('puts the unscheduled band above the grid; a few nodes sit in one row at full size', () => {
    const l = layoutWorld(base);
    expect(l.grid.y).toBeGreaterThan(l.band.y + l.band.h);
    expect(l.cols).toBe(3);
    expect(l.podRows).toBe(1);
    const last = tileRect(l, 2);
    expect(last.x + last.w).toBeLessThanOrEqual(l.width);
    expect(l.height).toBeGreaterThanOrEqual(last.y + last.h);
    expect(fitCamera(l, base.viewW, base.viewH)).toEqual({ x: 0, y: 0, k: 1 });
  });
  it('tiles grow a row of pods per 16; the band shows at most three rows and counts the rest', () => {
    expect(layoutWorld({ ...base, maxPodsPerNode: 17 }).podRows).toBe(2);
    expect(layoutWorld({ ...base, maxPodsPerNode: 110 }).podRows).toBe(7);
    const l = layoutWorld({ ...base, unscheduled: 10_000 });
    expect(l.band.rows).toBe(3);
    expect(l.band.shown).toBe(3 * l.band.perRow);
    expect(l.band.total).toBe(10_000);
    expect(bandPodRect(l, l.band.shown)).toBeNull();
  });
  it('shapes big grids like the view, so the whole cluster fits as large as it can', () => {
    const l = layoutWorld({ ...base, nodes: 5000, maxPodsPerNode: 30 });
    const k = fitCamera(l, base.viewW, base.viewH).k;
    expect(l.cols * l.rows).toBeGreaterThanOrEqual(5000);
    expect((l.cols - 1) * l.rows).toBeLessThan(5000 + l.rows);
    // The grid's aspect is near the view's (within a column or row's worth).
    expect(l.width * k).toBeLessThanOrEqual(base.viewW + 1);
    expect(l.height * k).toBeLessThanOrEqual(base.viewH + 1);
    expect(Math.max(l.width * k / base.viewW, l.height * k / base.viewH)).toBeGreaterThan(0.9);
    expect(detailFor(k)).toBe('dots');
    expect(bestColumns(1, 80, 1000, 600)).toBe(1);
  });
  it('only the cells in view are visited', () => {
    const l = layoutWorld({ ...base, nodes: 5000, maxPodsPerNode: 30 });
    const cam = { x: 2000, y: 3000, k: 0.5 };
    const v = visibleCells(l, viewRect(cam, 1000, 600));
    const n = (v.r1 - v.r0 + 1) * (v.c1 - v.c0 + 1);
    expect(n).toBeGreaterThan(0);
    // At most the cells a 2000 × 1200 world window can touch.
    expect(n).toBeLessThanOrEqual((Math.ceil(2000 / (TILE.w + TILE.gap)) + 1) * (Math.ceil(1200 / (l.tileH + TILE.gap)) + 1));
    const first = tileRect(l, v.r0 * l.cols + v.c0);
    expect(first.x + first.w).toBeGreaterThanOrEqual(cam.x);
    expect(first.y + first.h).toBeGreaterThanOrEqual(cam.y);
  });
});

describe('hitTest', () => {
  it('finds tiles, pods and unscheduled pods; pods only when drawn one by one', () => {
    const l = layoutWorld({ ...base, unscheduled: 2 });
    const u = bandPodRect(l, 1)!;
    expect(hitTest(l, u.x + 1, u.y + 1, () => 0)).toEqual({ type: 'unscheduledPod', index: 1 });
    const t = tileRect(l, 1);
    expect(hitTest(l, t.x + 3, t.y + 3, () => 2)).toEqual({ type: 'node', index: 1 });
    const p = podRect(l, 1)!;
    expect(hitTest(l, t.x + p.x + 1, t.y + p.y + 1, () => 2)).toEqual({ type: 'pod', node: 1, index: 1 });
    expect(hitTest(l, t.x + p.x + 1, t.y + p.y + 1, () => 2, false)).toEqual({ type: 'node', index: 1 });
    // No pod there on a node with one pod: the tile itself.
    expect(hitTest(l, t.x + p.x + 1, t.y + p.y + 1, () => 1)).toEqual({ type: 'node', index: 1 });
    expect(hitTest(l, t.x + t.w + TILE.gap / 2, t.y + 3, () => 0)).toBeNull();
  });
  it('every tile hits its own node at any shape (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 2400 }), fc.integer({ min: 200, max: 1400 }), fc.integer({ min: 1, max: 6000 }), fc.integer({ min: 0, max: 120 }), (viewW, viewH, nodes, pods) => {
        const l = layoutWorld({ nodes, maxPodsPerNode: pods, unscheduled: 3, viewW, viewH });
        for (const i of [0, nodes - 1, Math.floor(nodes / 2)]) {
          const r = tileRect(l, i);
          expect(r.x + r.w).toBeLessThanOrEqual(l.width);
          expect(hitTest(l, r.x + 1, r.y + 1, () => 0)).toEqual({ type: 'node', index: i });
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('camera', () => {
  const l = layoutWorld({ ...base, nodes: 500, maxPodsPerNode: 30 });
  it('zooms about the pointer: the world point under it stays put', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 999, noNaN: true }), fc.double({ min: 0, max: 599, noNaN: true }), fc.double({ min: 0.5, max: 2, noNaN: true }), (sx, sy, f) => {
        const c0 = { x: 100, y: 50, k: 0.5 };
        const c1 = zoomAt(c0, sx, sy, f, l, 1000, 600);
        if (c1.k === MAX_ZOOM || c1.k !== c0.k * f) return; // clamped
        const before = toWorld(c0, sx, sy);
        const after = toWorld(c1, sx, sy);
        expect(after.x).toBeCloseTo(before.x, 6);
        expect(after.y).toBeCloseTo(before.y, 6);
      }),
    );
  });
  it('pans by screen pixels, stays in bounds and focuses on a tile', () => {
    const c = panBy({ x: 0, y: 0, k: 0.5 }, -100, -40, l, 1000, 600);
    expect(c).toEqual({ x: 200, y: 80, k: 0.5 });
    const far = clampCamera({ x: 1e9, y: -1e9, k: 100 }, l, 1000, 600);
    expect(far.k).toBe(MAX_ZOOM);
    expect(far.x).toBeLessThan(l.width);
    const t = tileRect(l, 250);
    const f = focusOn(t, 1000, 600, 1, l);
    const s = toScreen(f, t);
    expect(s.x + s.w / 2).toBeCloseTo(500, 6);
    expect(s.y + s.h / 2).toBeCloseTo(300, 6);
    expect(detailFor(f.k)).toBe('full');
  });
  it('picks the level of detail from a tile\'s width on screen', () => {
    expect(detailFor(1)).toBe('full');
    expect(detailFor(0.7)).toBe('medium');
    expect(detailFor(0.3)).toBe('pods');
    expect(detailFor(0.1)).toBe('dots');
  });
});
