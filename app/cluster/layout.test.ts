import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detailFor, hitTest, layoutMap, podRect, tileRect, unscheduledPodRect, visibleNodes } from './layout';

const base = { width: 700, nodes: 3, maxPodsPerNode: 5, unscheduled: 0, chipTextWidths: [120, 120, 160, 120, 120] };

describe('layoutMap', () => {
  it('lowers the detail as nodes grow', () => {
    expect(detailFor(3)).toBe('full');
    expect(detailFor(200)).toBe('medium');
    expect(detailFor(5000)).toBe('tiny');
  });
  it('puts the strip, then the unscheduled row, then the grid, without overlap', () => {
    const l = layoutMap(base);
    const stripBottom = Math.max(...l.strip.chips.map((c) => c.y + c.h));
    expect(l.unscheduled.y).toBeGreaterThan(stripBottom);
    expect(l.grid.y).toBeGreaterThan(l.unscheduled.y + l.unscheduled.h);
    expect(l.grid.cols).toBe(3);
    const last = tileRect(l, 2);
    expect(last.x + last.w).toBeLessThanOrEqual(l.width);
    expect(l.height).toBeGreaterThanOrEqual(last.y + last.h);
  });
  it('wraps component chips that do not fit on one line', () => {
    const l = layoutMap({ ...base, width: 300 });
    for (const c of l.strip.chips) expect(c.x + c.w).toBeLessThanOrEqual(300 - 8 + 1e-9 + (c.x === 8 ? c.w : 0));
    expect(new Set(l.strip.chips.map((c) => c.y)).size).toBeGreaterThan(1);
  });
  it('shows at most a few rows of unscheduled pods and counts them', () => {
    const l = layoutMap({ ...base, unscheduled: 10_000 });
    expect(l.unscheduled.shown).toBeLessThan(10_000);
    expect(l.unscheduled.total).toBe(10_000);
    expect(unscheduledPodRect(l, l.unscheduled.shown)).toBeNull();
  });
  it('only the rows in the band are visible', () => {
    const l = layoutMap({ ...base, nodes: 5000, maxPodsPerNode: 30 });
    const { from, to } = visibleNodes(l, l.grid.y + 10_000, 600);
    expect(from).toBeGreaterThan(0);
    expect(to - from).toBeLessThan(1000);
    expect(tileRect(l, from).y).toBeLessThanOrEqual(l.grid.y + 10_000);
    expect(tileRect(l, to - 1).y).toBeLessThan(l.grid.y + 10_600);
  });
});

describe('hitTest', () => {
  it('finds chips, tiles and pods', () => {
    const l = layoutMap({ ...base, unscheduled: 2 });
    const c = l.strip.chips[1]!;
    expect(hitTest(l, c.x + 2, c.y + 2, () => 0)).toEqual({ type: 'component', index: 1 });
    const u = unscheduledPodRect(l, 1)!;
    expect(hitTest(l, u.x + 1, u.y + 1, () => 0)).toEqual({ type: 'unscheduledPod', index: 1 });
    const t = tileRect(l, 1);
    expect(hitTest(l, t.x + 3, t.y + 3, () => 2)).toEqual({ type: 'node', index: 1 });
    const p = podRect(l.grid.tile, 1)!;
    expect(hitTest(l, t.x + p.x + 1, t.y + p.y + 1, () => 2)).toEqual({ type: 'pod', node: 1, index: 1 });
    // No pod there on a node with one pod: the tile itself.
    expect(hitTest(l, t.x + p.x + 1, t.y + p.y + 1, () => 1)).toEqual({ type: 'node', index: 1 });
  });
  it('every tile centre hits its own node (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 2000 }), fc.integer({ min: 1, max: 6000 }), fc.integer({ min: 0, max: 120 }), (width, nodes, pods) => {
        const l = layoutMap({ width, nodes, maxPodsPerNode: pods, unscheduled: 3, chipTextWidths: [100, 140] });
        for (const i of [0, nodes - 1, Math.floor(nodes / 2)]) {
          const r = tileRect(l, i);
          expect(r.x + r.w).toBeLessThanOrEqual(l.width);
          const h = hitTest(l, r.x + 1, r.y + 1, () => 0);
          expect(h).toEqual({ type: 'node', index: i });
        }
      }),
      { numRuns: 60 },
    );
  });
});
