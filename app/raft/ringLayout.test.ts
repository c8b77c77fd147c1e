import { describe, expect, it } from 'vitest';
import { clientClearance, minRingRadius, ringBoxHeight, ringLayout, stackedLabelClearance } from './ringView';

const NODE_R = 50;

describe('ringLayout', () => {
  it('puts labels beside the nodes when the panel is wide', () => {
    const l = ringLayout(3, 820, 330);
    expect(l.places).toEqual(['right', 'right', 'left']);
  });

  it('stacks labels above and below in a narrow panel, and members never touch', () => {
    for (const [n, h] of [[3, 330], [5, 440]] as const) {
      for (const w of [420, 520, 560, 640]) {
        const l = ringLayout(n, w, h);
        const pts = l.angles.map((a) => ({ x: l.cx + l.radius * Math.cos(a), y: l.cy + l.radius * Math.sin(a) }));
        for (let i = 0; i < n; i++)
          for (let j = i + 1; j < n; j++) expect(Math.hypot(pts[i]!.x - pts[j]!.x, pts[i]!.y - pts[j]!.y)).toBeGreaterThanOrEqual(2 * (NODE_R + 10));
        // Stacked labels are 150 px wide, centred on their node: they stay inside a panel of 540 px or more.
        if (w < 540) continue;
        l.places.forEach((place, i) => {
          if (place !== 'above' && place !== 'below') return;
          expect(pts[i]!.x - 75).toBeGreaterThanOrEqual(0);
          expect(pts[i]!.x + 75).toBeLessThanOrEqual(w);
        });
      }
    }
    expect(ringLayout(3, 520, 330).places).toEqual(['above', 'below', 'below']);
    expect(ringLayout(5, 560, 440).radius).toBeGreaterThanOrEqual(stackedLabelClearance(5));
  });

  it('keeps members clear of the clients in the middle, and asks for the height it needs', () => {
    for (const n of [2, 3, 4, 5]) {
      const r = clientClearance(n);
      expect(r).toBeGreaterThanOrEqual(minRingRadius(n));
      for (const w of [480, 560, 900]) expect(ringLayout(n, w, ringBoxHeight(n, w)).radius).toBeGreaterThanOrEqual(r);
    }
    expect(ringBoxHeight(3, 900)).toBe(330);
    expect(ringBoxHeight(3, 520)).toBeGreaterThan(330);
    const h = ringBoxHeight(3, 520);
    expect(ringLayout(3, 520, h).neededHeight).toBeLessThanOrEqual(h);
  });
});
