// The HPA's replica calculator for resource metrics
// (pkg/controller/podautoscaler/replica_calculator.go, metrics/utilization.go,
// metrics/client.go getPodMetrics, v1.32): the pods' usage from the Metrics
// API against their requests; pods that are deleted or Failed are ignored,
// Pending and not-yet-ready ones are "unready" (for CPU: within the 5 min
// initialisation period unless ready for a whole metric window, or never
// ready within 30 s of start), pods without metrics are "missing". Within the
// 10 % tolerance nothing changes; otherwise the usage ratio times the ready
// pods, rounded up — with missing pods counted at 100 % (scale down) or 0 %
// (scale up), unready ones at 0 % on a scale up, and no change when that
// would flip the direction.
import type { Loose } from '../endpoint/podutil';
import { parseQuantityValue } from '../../apiserver/validation/quantity';
import { parseRfc3339 } from '../../apiserver/http/time';

export const DEFAULT_TOLERANCE = 0.1;
/** --horizontal-pod-autoscaler-cpu-initialization-period and --horizontal-pod-autoscaler-initial-readiness-delay. */
export const CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
export const DELAY_OF_INITIAL_READINESS_STATUS_MS = 30_000;

/** metricsclient.PodMetric: a pod's usage (milli-units), sample time and window (ms). */
export interface PodMetric {
  timestamp: number;
  windowMs: number;
  value: number;
}

export type PodMetricsInfo = Map<string, PodMetric>;

export interface CalculatorOptions {
  tolerance: number;
  cpuInitializationPeriodMs: number;
  delayOfInitialReadinessStatusMs: number;
}

export const DEFAULT_CALCULATOR: CalculatorOptions = { tolerance: DEFAULT_TOLERANCE, cpuInitializationPeriodMs: CPU_INITIALIZATION_PERIOD_MS, delayOfInitialReadinessStatusMs: DELAY_OF_INITIAL_READINESS_STATUS_MS };

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/** Quantity.MilliValue: rounded up. */
export function milliValue(q: unknown): number {
  if (typeof q !== 'string' && typeof q !== 'number') return 0;
  const p = parseQuantityValue(String(q));
  if (!p.ok) return 0;
  const n = p.quantity.nanos;
  return Number(n >= 0n ? (n + 999_999n) / 1_000_000n : n / 1_000_000n);
}

/** An object's timestamp in virtual ms. */
const parseTime = (s: unknown): number | undefined => {
  if (typeof s !== 'string') return undefined;
  const t = parseRfc3339(s);
  return Number.isNaN(t) ? undefined : t;
};

/**
 * getPodMetrics / getContainerMetrics: each pod's usage summed over its
 * containers (or the named container); a pod with a container lacking the
 * resource, or with none, has no metric.
 */
export function podMetricsInfo(items: Loose[], resource: string, container: string, parseWindow: (w: string) => number): Result<PodMetricsInfo> {
  const out: PodMetricsInfo = new Map();
  for (const m of items) {
    const timestamp = parseTime(m.timestamp) ?? 0;
    const windowMs = parseWindow(String(m.window ?? '0s'));
    const containers: Loose[] = m.containers ?? [];
    if (container) {
      const c = containers.find((x) => x.name === container);
      if (!c) return { ok: false, error: `failed to get container metrics: container ${container} not present in metrics for pod ${m.metadata?.namespace}/${m.metadata?.name}` };
      if (c.usage?.[resource] !== undefined) out.set(m.metadata.name, { timestamp, windowMs, value: milliValue(c.usage[resource]) });
      continue;
    }
    if (containers.length === 0 || containers.some((c) => c.usage?.[resource] === undefined)) continue;
    out.set(m.metadata.name, { timestamp, windowMs, value: containers.reduce((s, c) => s + milliValue(c.usage[resource]), 0) });
  }
  return { ok: true, value: out };
}

/** groupPods. */
export function groupPods(pods: Loose[], metrics: PodMetricsInfo, resource: string, now: number, opts: CalculatorOptions): { readyPodCount: number; unready: Set<string>; missing: Set<string>; ignored: Set<string> } {
  const unready = new Set<string>();
  const missing = new Set<string>();
  const ignored = new Set<string>();
  let readyPodCount = 0;
  for (const pod of pods) {
    const name = pod.metadata.name as string;
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed') {
      ignored.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      unready.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const cond = (pod.status?.conditions ?? []).find((c: Loose) => c.type === 'Ready');
      const start = parseTime(pod.status?.startTime);
      let isUnready: boolean;
      if (!cond || start === undefined) isUnready = true;
      else {
        const transition = parseTime(cond.lastTransitionTime) ?? 0;
        if (start + opts.cpuInitializationPeriodMs > now) {
          // Still initialising: unready, or not a whole metric window since it became ready.
          isUnready = cond.status === 'False' || metric.timestamp < transition + metric.windowMs;
        } else {
          // Unready and never ready.
          isUnready = cond.status === 'False' && start + opts.delayOfInitialReadinessStatusMs > transition;
        }
      }
      if (isUnready) {
        unready.add(name);
        continue;
      }
    }
    readyPodCount++;
  }
  return { readyPodCount, unready, missing, ignored };
}

/** calculatePodRequests: the sum of the containers' (and sidecars') requests, in milli-units. */
export function calculatePodRequests(pods: Loose[], container: string, resource: string): Result<Map<string, number>> {
  const out = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c: Loose) => c.restartPolicy === 'Always')];
    for (const c of containers) {
      if (container && container !== c.name) continue;
      const req = c.resources?.requests?.[resource];
      if (req === undefined) return { ok: false, error: `missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name}` };
      sum += milliValue(req);
    }
    out.set(pod.metadata.name, sum);
  }
  return { ok: true, value: out };
}

/** GetResourceUtilizationRatio: utilization as an int32 percentage (truncated) and the raw average. */
export function resourceUtilizationRatio(metrics: PodMetricsInfo, requests: Map<string, number>, targetUtilization: number): Result<{ ratio: number; utilization: number; rawAverage: number }> {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [pod, m] of metrics) {
    const req = requests.get(pod);
    if (req === undefined) continue;
    metricsTotal += m.value;
    requestsTotal += req;
    entries++;
  }
  if (requestsTotal === 0) return { ok: false, error: 'no metrics returned matched known pods' };
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ok: true, value: { ratio: utilization / targetUtilization, utilization, rawAverage: Math.trunc(metricsTotal / entries) } };
}

/** GetMetricUsageRatio: the average usage against a target average value. */
export function metricUsageRatio(metrics: PodMetricsInfo, targetUsage: number): { ratio: number; usage: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return { ratio: usage / targetUsage, usage };
}

export interface Proposal {
  replicas: number;
  /** Utilization (percent) for utilization targets. */
  utilization?: number;
  /** Average usage, milli-units. */
  raw: number;
  timestamp: number;
}

/**
 * GetResourceReplicas (target: a utilization percentage) and
 * GetRawResourceReplicas / calcPlainMetricReplicas (target: an average value, milli-units).
 */
export function resourceReplicas(
  currentReplicas: number,
  target: { utilization: number } | { averageValue: number },
  resource: string,
  container: string,
  items: Loose[],
  pods: Loose[],
  now: number,
  opts: CalculatorOptions,
  parseWindow: (w: string) => number,
): Result<Proposal> {
  const fail = (error: string): Result<Proposal> => ({ ok: false, error });
  if (items.length === 0) return fail(`unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`);
  const info = podMetricsInfo(items, resource, container, parseWindow);
  if (!info.ok) return fail(`unable to get metrics for resource ${resource}: ${info.error}`);
  const metrics = info.value;
  const timestamp = parseTime(items[0].timestamp) ?? 0;
  if (pods.length === 0) return fail('no pods returned by selector while calculating replica count');
  const g = groupPods(pods, metrics, resource, now, opts);
  for (const p of g.ignored) metrics.delete(p);
  for (const p of g.unready) metrics.delete(p);
  if (metrics.size === 0) return fail('did not receive metrics for targeted pods (pods might be unready)');

  const utilizationTarget = 'utilization' in target;
  let requests = new Map<string, number>();
  if (utilizationTarget) {
    const r = calculatePodRequests(pods, container, resource);
    if (!r.ok) return fail(r.error);
    requests = r.value;
  }
  const ratioOf = (m: PodMetricsInfo): Result<{ ratio: number; utilization?: number; raw: number }> => {
    if (!utilizationTarget) {
      const u = metricUsageRatio(m, target.averageValue);
      return { ok: true, value: { ratio: u.ratio, raw: u.usage } };
    }
    const u = resourceUtilizationRatio(m, requests, target.utilization);
    return u.ok ? { ok: true, value: { ratio: u.value.ratio, utilization: u.value.utilization, raw: u.value.rawAverage } } : u;
  };
  const first = ratioOf(metrics);
  if (!first.ok) return fail(first.error);
  const { ratio: usageRatio, utilization, raw } = first.value;
  const done = (replicas: number): Result<Proposal> => ({ ok: true, value: { replicas, ...(utilization !== undefined ? { utilization } : {}), raw, timestamp } });

  const scaleUpWithUnready = g.unready.size > 0 && usageRatio > 1.0;
  if (!scaleUpWithUnready && g.missing.size === 0) {
    if (Math.abs(1.0 - usageRatio) <= opts.tolerance) return done(currentReplicas);
    return done(Math.ceil(usageRatio * g.readyPodCount));
  }
  if (g.missing.size > 0) {
    if (usageRatio < 1.0) {
      // Scaling down: missing pods count as using their whole request (or the target, above 100 %), or the target value.
      for (const p of g.missing) metrics.set(p, { timestamp: 0, windowMs: 0, value: utilizationTarget ? Math.trunc(((requests.get(p) ?? 0) * Math.max(100, target.utilization)) / 100) : target.averageValue });
    } else if (usageRatio > 1.0) {
      for (const p of g.missing) metrics.set(p, { timestamp: 0, windowMs: 0, value: 0 });
    }
  }
  if (scaleUpWithUnready) for (const p of g.unready) metrics.set(p, { timestamp: 0, windowMs: 0, value: 0 });
  const second = ratioOf(metrics);
  if (!second.ok) return fail(second.error);
  const newRatio = second.value.ratio;
  if (Math.abs(1.0 - newRatio) <= opts.tolerance || (usageRatio < 1.0 && newRatio > 1.0) || (usageRatio > 1.0 && newRatio < 1.0)) return done(currentReplicas);
  const newReplicas = Math.ceil(newRatio * metrics.size);
  if ((newRatio < 1.0 && newReplicas > currentReplicas) || (newRatio > 1.0 && newReplicas < currentReplicas)) return done(currentReplicas);
  return done(newReplicas);
}
