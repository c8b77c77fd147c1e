// How the HPA turns a metric's proposal into a new size
// (pkg/controller/podautoscaler/horizontal.go, v1.32): without spec.behavior,
// the highest recommendation of the last 5 minutes (downscale stabilisation)
// within [minReplicas, min(maxReplicas, max(2 × current, 4))]; with it, the
// recommendation stabilised between the lowest of the scale-up window and the
// highest of the scale-down window, then held to what the policies allow in
// their periods given the scale events already made. Each step names the
// condition reason and message it sets. Time is virtual ms.

export interface Recommendation {
  recommendation: number;
  timestamp: number;
}

export interface ScaleEvent {
  replicaChange: number;
  timestamp: number;
  outdated: boolean;
}

export interface ScalingPolicy {
  type: 'Pods' | 'Percent';
  value: number;
  periodSeconds: number;
}

export interface ScalingRules {
  stabilizationWindowSeconds?: number | null;
  selectPolicy?: 'Max' | 'Min' | 'Disabled';
  policies?: ScalingPolicy[];
}

/** The controller's memory of one HPA (recommendations and scale events, as upstream keeps them in maps). */
export interface HPAHistory {
  recommendations: Recommendation[];
  scaleUpEvents: ScaleEvent[];
  scaleDownEvents: ScaleEvent[];
}

export interface Limited {
  replicas: number;
  /** AbleToScale: ReadyForNewScale, ScaleDownStabilized or ScaleUpStabilized. */
  stabilized: { reason: string; message: string };
  /** ScalingLimited, True when the limit changed the stabilised recommendation. */
  limited: { status: 'True' | 'False'; reason: string; message: string };
}

const READY = { reason: 'ReadyForNewScale', message: 'recommended size matches current size' };
const WITHIN = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };

/** stabilizeRecommendation: the highest recommendation not older than the window; the oldest stale one is replaced. */
export function stabilizeRecommendation(h: HPAHistory, desired: number, windowMs: number, now: number): number {
  let max = desired;
  let oldIndex = -1;
  const cutoff = now - windowMs;
  h.recommendations.forEach((r, i) => {
    if (r.timestamp < cutoff) oldIndex = i;
    else if (r.recommendation > max) max = r.recommendation;
  });
  const entry = { recommendation: desired, timestamp: now };
  if (oldIndex >= 0) h.recommendations[oldIndex] = entry;
  else h.recommendations.push(entry);
  return max;
}

/** calculateScaleUpLimit: twice the current size, at least 4. */
export function scaleUpLimit(current: number): number {
  return Math.trunc(Math.max(2 * current, 4));
}

/** normalizeDesiredReplicas (no behavior). */
export function normalizeDesiredReplicas(h: HPAHistory, current: number, desired: number, minReplicas: number, maxReplicas: number, downscaleWindowMs: number, now: number): Limited {
  const stabilizedRec = stabilizeRecommendation(h, desired, downscaleWindowMs, now);
  const stabilized = stabilizedRec !== desired ? { reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' } : READY;
  // convertDesiredReplicasWithRules
  const limit = scaleUpLimit(current);
  let maxAllowed: number;
  let cond: { reason: string; message: string };
  if (maxReplicas > limit) {
    maxAllowed = limit;
    cond = { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' };
  } else {
    maxAllowed = maxReplicas;
    cond = { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
  }
  let replicas = stabilizedRec;
  if (stabilizedRec < minReplicas) {
    replicas = minReplicas;
    cond = { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
  } else if (stabilizedRec > maxAllowed) replicas = maxAllowed;
  else cond = WITHIN;
  return { replicas, stabilized, limited: { status: replicas === stabilizedRec ? 'False' : 'True', ...cond } };
}

/** getReplicasChangePerPeriod: the changes made in the last periodSeconds. */
function changesInPeriod(periodSeconds: number, events: readonly ScaleEvent[], now: number): number {
  const cutoff = now - periodSeconds * 1000;
  let n = 0;
  for (const e of events) if (e.timestamp > cutoff) n += e.replicaChange;
  return n;
}

/** calculateScaleUpLimitWithScalingRules. */
export function scaleUpLimitWithRules(current: number, h: HPAHistory, rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const min = rules.selectPolicy === 'Min';
  let result = min ? 2 ** 31 - 1 : -(2 ** 31);
  for (const p of rules.policies ?? []) {
    const start = current - changesInPeriod(p.periodSeconds, h.scaleUpEvents, now) + changesInPeriod(p.periodSeconds, h.scaleDownEvents, now);
    const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    result = min ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** calculateScaleDownLimitWithBehaviors. */
export function scaleDownLimitWithRules(current: number, h: HPAHistory, rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const min = rules.selectPolicy === 'Min';
  let result = min ? -(2 ** 31) : 2 ** 31 - 1;
  for (const p of rules.policies ?? []) {
    const start = current - changesInPeriod(p.periodSeconds, h.scaleUpEvents, now) + changesInPeriod(p.periodSeconds, h.scaleDownEvents, now);
    const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    result = min ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** normalizeDesiredReplicasWithBehaviors. `behavior.scaleDown.stabilizationWindowSeconds` defaults to the controller's window. */
export function normalizeWithBehaviors(
  h: HPAHistory,
  current: number,
  desired: number,
  minReplicas: number,
  maxReplicas: number,
  behavior: { scaleUp: ScalingRules; scaleDown: ScalingRules },
  downscaleWindowMs: number,
  now: number,
): Limited {
  const upWindow = (behavior.scaleUp.stabilizationWindowSeconds ?? 0) * 1000;
  const downWindow = behavior.scaleDown.stabilizationWindowSeconds == null ? downscaleWindowMs : behavior.scaleDown.stabilizationWindowSeconds * 1000;
  // stabilizeRecommendationWithBehaviors
  let up = desired;
  let down = desired;
  let oldIndex = -1;
  const upCutoff = now - upWindow;
  const downCutoff = now - downWindow;
  h.recommendations.forEach((r, i) => {
    if (r.timestamp > upCutoff) up = Math.min(r.recommendation, up);
    if (r.timestamp > downCutoff) down = Math.max(r.recommendation, down);
    if (r.timestamp < upCutoff && r.timestamp < downCutoff) oldIndex = i;
  });
  let rec = current;
  if (rec < up) rec = up;
  if (rec > down) rec = down;
  const entry = { recommendation: desired, timestamp: now };
  if (oldIndex >= 0) h.recommendations[oldIndex] = entry;
  else h.recommendations.push(entry);
  const stabilized =
    rec !== desired
      ? desired >= current
        ? { reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
        : { reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' }
      : READY;
  // convertDesiredReplicasWithBehaviorRate
  let replicas = rec;
  let cond = WITHIN;
  if (rec > current) {
    const limit = Math.max(scaleUpLimitWithRules(current, h, behavior.scaleUp, now), current);
    let maxAllowed = maxReplicas;
    let why = { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
    if (maxAllowed > limit) {
      maxAllowed = limit;
      why = { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' };
    }
    if (rec > maxAllowed) {
      replicas = maxAllowed;
      cond = why;
    }
  } else if (rec < current) {
    const limit = Math.min(scaleDownLimitWithRules(current, h, behavior.scaleDown, now), current);
    let minAllowed = minReplicas;
    let why = { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
    if (minAllowed < limit) {
      minAllowed = limit;
      why = { reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' };
    }
    if (rec < minAllowed) {
      replicas = minAllowed;
      cond = why;
    }
  }
  return { replicas, stabilized, limited: { status: replicas === rec ? 'False' : 'True', ...cond } };
}

/** storeScaleEvent: only with a behavior; an event older than the longest policy period is reused. */
export function storeScaleEvent(h: HPAHistory, behavior: { scaleUp: ScalingRules; scaleDown: ScalingRules } | null, prev: number, next: number, now: number): void {
  if (!behavior) return;
  const up = next > prev;
  const rules = up ? behavior.scaleUp : behavior.scaleDown;
  const events = up ? h.scaleUpEvents : h.scaleDownEvents;
  const longest = Math.max(0, ...(rules.policies ?? []).map((p) => p.periodSeconds));
  const cutoff = now - longest * 1000;
  let oldIndex = -1;
  events.forEach((e, i) => {
    if (e.timestamp < cutoff) e.outdated = true;
    if (e.outdated) oldIndex = i;
  });
  const entry = { replicaChange: Math.abs(next - prev), timestamp: now, outdated: false };
  if (oldIndex >= 0) events[oldIndex] = entry;
  else events.push(entry);
}
