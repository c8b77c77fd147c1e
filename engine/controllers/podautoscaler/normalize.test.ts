// Stabilisation and rate limits of the HPA (horizontal_test.go's normalize cases).
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { normalizeDesiredReplicas, normalizeWithBehaviors, scaleUpLimit, storeScaleEvent, type HPAHistory, type ScalingRules } from './normalize';

const WINDOW = 300_000;
const NOW = 1_000_000;
const history = (recs: [number, number][] = [], up: [number, number][] = [], down: [number, number][] = []): HPAHistory => ({
  recommendations: recs.map(([recommendation, ago]) => ({ recommendation, timestamp: NOW - ago })),
  scaleUpEvents: up.map(([replicaChange, ago]) => ({ replicaChange, timestamp: NOW - ago, outdated: false })),
  scaleDownEvents: down.map(([replicaChange, ago]) => ({ replicaChange, timestamp: NOW - ago, outdated: false })),
});

/** The apiserver's defaults for a behavior (SetDefaults_HorizontalPodAutoscalerBehavior). */
const DEFAULT_UP: ScalingRules = { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
const DEFAULT_DOWN: ScalingRules = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

describe('normalizeDesiredReplicas (no behavior)', () => {
  it('applies the highest recommendation of the last five minutes to a scale-down', () => {
    const h = history([[5, 60_000], [3, 30_000]]);
    expect(normalizeDesiredReplicas(h, 5, 2, 1, 10, WINDOW, NOW)).toEqual({
      replicas: 5,
      stabilized: { reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' },
      limited: { status: 'False', reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' },
    });
    expect(h.recommendations.at(-1)).toEqual({ recommendation: 2, timestamp: NOW });
  });

  it('forgets recommendations older than the window, reusing their slot', () => {
    const h = history([[5, 300_001], [3, 30_000]]);
    expect(normalizeDesiredReplicas(h, 5, 2, 1, 10, WINDOW, NOW).replicas).toBe(3);
    expect(h.recommendations).toEqual([{ recommendation: 2, timestamp: NOW }, { recommendation: 3, timestamp: NOW - 30_000 }]);
    // Exactly at the edge it still counts.
    expect(normalizeDesiredReplicas(history([[5, 300_000]]), 5, 2, 1, 10, WINDOW, NOW).replicas).toBe(5);
  });

  it('scales up at most to twice the size, or 4', () => {
    expect(scaleUpLimit(1)).toBe(4);
    expect(scaleUpLimit(3)).toBe(6);
    expect(normalizeDesiredReplicas(history(), 1, 10, 1, 20, WINDOW, NOW)).toMatchObject({
      replicas: 4,
      stabilized: { reason: 'ReadyForNewScale', message: 'recommended size matches current size' },
      limited: { status: 'True', reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' },
    });
    expect(normalizeDesiredReplicas(history(), 3, 10, 1, 5, WINDOW, NOW)).toMatchObject({ replicas: 5, limited: { status: 'True', reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' } });
    expect(normalizeDesiredReplicas(history(), 3, 0, 2, 5, WINDOW, NOW)).toMatchObject({ replicas: 2, limited: { status: 'True', reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' } });
  });

  // The controller gets here only with minReplicas ≤ current ≤ maxReplicas (it rescales to the bounds first).
  it('keeps the result within [minReplicas, maxReplicas] and never below a recent recommendation', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 600_000 })), { maxLength: 8 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 5, max: 40 }), (recs, extra, desired, min, max) => {
        const current = Math.min(min + extra, max);
        const h = history(recs);
        const recent = Math.max(desired, ...recs.filter(([, ago]) => ago <= WINDOW).map(([r]) => r));
        const r = normalizeDesiredReplicas(h, current, desired, min, max, WINDOW, NOW).replicas;
        return r >= min && r <= max && (r >= Math.min(recent, max, scaleUpLimit(current)) || r === min);
      }),
    );
  });
});

describe('normalizeWithBehaviors', () => {
  const defaults = { scaleUp: DEFAULT_UP, scaleDown: DEFAULT_DOWN };

  it('by default scales up by 4 pods or 100 % per 15 s, whichever is more', () => {
    expect(normalizeWithBehaviors(history(), 3, 20, 1, 30, defaults, WINDOW, NOW)).toMatchObject({ replicas: 7, limited: { status: 'True', reason: 'ScaleUpLimit' } });
    expect(normalizeWithBehaviors(history(), 10, 30, 1, 30, defaults, WINDOW, NOW).replicas).toBe(20);
    // 4 pods were added 10 s ago: the period's start is 3, so 7 is still the limit.
    expect(normalizeWithBehaviors(history([], [[4, 10_000]]), 7, 20, 1, 30, defaults, WINDOW, NOW)).toMatchObject({ replicas: 7, limited: { status: 'True', reason: 'ScaleUpLimit' } });
    // Twenty seconds ago is outside the period.
    expect(normalizeWithBehaviors(history([], [[4, 20_000]]), 7, 20, 1, 30, defaults, WINDOW, NOW).replicas).toBe(14);
  });

  it('stabilises a scale-down over the controller window when the behavior names none', () => {
    const h = history([[6, 100_000]]);
    expect(normalizeWithBehaviors(h, 6, 2, 1, 10, defaults, WINDOW, NOW)).toMatchObject({ replicas: 6, stabilized: { reason: 'ScaleDownStabilized' } });
    expect(normalizeWithBehaviors(history([[6, 100_000]]), 6, 2, 1, 10, { scaleUp: DEFAULT_UP, scaleDown: { ...DEFAULT_DOWN, stabilizationWindowSeconds: 60 } }, WINDOW, NOW).replicas).toBe(2);
  });

  it('stabilises a scale-up over its own window', () => {
    const up = { ...DEFAULT_UP, stabilizationWindowSeconds: 60 };
    expect(normalizeWithBehaviors(history([[2, 30_000]]), 2, 5, 1, 10, { scaleUp: up, scaleDown: DEFAULT_DOWN }, WINDOW, NOW)).toMatchObject({
      replicas: 2,
      stabilized: { reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' },
    });
  });

  it('limits a scale-down by its policies, and Disabled stops it', () => {
    const onePerMinute: ScalingRules = { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] };
    expect(normalizeWithBehaviors(history(), 5, 1, 1, 10, { scaleUp: DEFAULT_UP, scaleDown: onePerMinute }, WINDOW, NOW)).toMatchObject({
      replicas: 4,
      limited: { status: 'True', reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' },
    });
    // One already removed 30 s ago: none more this minute.
    expect(normalizeWithBehaviors(history([], [], [[1, 30_000]]), 4, 1, 1, 10, { scaleUp: DEFAULT_UP, scaleDown: onePerMinute }, WINDOW, NOW).replicas).toBe(4);
    // Min of Percent 50 % (5 → 2) and Pods 1 (5 → 4): the smaller change wins.
    const minPolicy: ScalingRules = { stabilizationWindowSeconds: 0, selectPolicy: 'Min', policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }, { type: 'Pods', value: 1, periodSeconds: 60 }] };
    expect(normalizeWithBehaviors(history(), 5, 1, 1, 10, { scaleUp: DEFAULT_UP, scaleDown: minPolicy }, WINDOW, NOW).replicas).toBe(4);
    expect(normalizeWithBehaviors(history(), 5, 1, 1, 10, { scaleUp: DEFAULT_UP, scaleDown: { ...minPolicy, selectPolicy: 'Max' } }, WINDOW, NOW).replicas).toBe(2);
    expect(normalizeWithBehaviors(history(), 5, 1, 1, 10, { scaleUp: DEFAULT_UP, scaleDown: { selectPolicy: 'Disabled', stabilizationWindowSeconds: 0 } }, WINDOW, NOW).replicas).toBe(5);
    expect(normalizeWithBehaviors(history(), 5, 9, 1, 10, { scaleUp: { selectPolicy: 'Disabled' }, scaleDown: DEFAULT_DOWN }, WINDOW, NOW).replicas).toBe(5);
  });

  it('stores scale events, reusing one older than the longest period', () => {
    const h = history([], [[2, 20_000]]);
    storeScaleEvent(h, defaults, 4, 7, NOW);
    expect(h.scaleUpEvents).toEqual([{ replicaChange: 3, timestamp: NOW, outdated: false }]);
    storeScaleEvent(h, defaults, 7, 9, NOW + 1);
    expect(h.scaleUpEvents).toHaveLength(2);
    storeScaleEvent(h, defaults, 9, 3, NOW);
    expect(h.scaleDownEvents).toEqual([{ replicaChange: 6, timestamp: NOW, outdated: false }]);
    // Without a behavior nothing is kept.
    const none = history();
    storeScaleEvent(none, null, 1, 4, NOW);
    expect(none.scaleUpEvents).toEqual([]);
  });
});
