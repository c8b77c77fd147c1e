// metrics-server's storage (pkg/storage/{node,pod,types}.go, v0.7): the last
// two points of every node and container; usage is the CPU rate between them
// (nanocores, DecimalSI) and the latest working set (BinarySI), over a window
// of their timestamps' difference. A container that started less than one
// resolution ago (but at least 10 s) gets a synthetic first point at its start
// with zero CPU, so it has usage after one scrape; a restarted container
// starts over. It is ready once some node and (when pods were scraped) some
// container have two points — upstream always waits for a container too, but a
// real cluster always runs pods, where ours may run none.
import { registerClass } from '../sim/serial';
import type { MetricsBatch, MetricsPoint } from './decode';

/** freshContainerMinMetricsResolution. */
const FRESH_CONTAINER_MIN_MS = 10_000;

export interface Usage {
  /** Nanocores. */
  cpuNanos: number;
  memoryBytes: number;
}

export interface TimeInfo {
  /** ms since the Unix epoch. */
  timestamp: number;
  windowMs: number;
}

/** resourceUsage: the rate between two points, or null when the counters went backwards. */
export function resourceUsage(last: MetricsPoint, prev: MetricsPoint): { usage: Usage; time: TimeInfo } | null {
  if (last.startTime < prev.startTime) return null; // "unexpected decrease in startTime of node/container"
  if (last.cumulativeCpuNanos < prev.cumulativeCpuNanos) return null; // "unexpected decrease in cumulative CPU usage value"
  const windowMs = last.timestamp - prev.timestamp;
  const cpuNanos = Math.floor((last.cumulativeCpuNanos - prev.cumulativeCpuNanos) / (windowMs / 1000));
  return { usage: { cpuNanos, memoryBytes: last.memoryBytes }, time: { timestamp: last.timestamp, windowMs } };
}

export class MetricsStorage {
  private lastNodes = new Map<string, MetricsPoint>();
  private prevNodes = new Map<string, MetricsPoint>();
  private lastPods = new Map<string, Map<string, MetricsPoint>>();
  private prevPods = new Map<string, Map<string, MetricsPoint>>();

  constructor(readonly resolutionMs: number) {}

  /** Ready: enough points to serve node and pod metrics. */
  get ready(): boolean {
    if (this.prevNodes.size === 0) return false;
    if (this.lastPods.size === 0) return true;
    for (const p of this.prevPods.values()) if (p.size > 0) return true;
    return false;
  }

  store(batch: MetricsBatch): void {
    this.storeNodes(batch);
    this.storePods(batch);
  }

  private storeNodes(batch: MetricsBatch): void {
    const last = new Map<string, MetricsPoint>();
    const prev = new Map<string, MetricsPoint>();
    for (const [name, point] of batch.nodes) {
      last.set(name, point);
      const stored = this.lastNodes.get(name);
      if (!stored) continue;
      if (point.timestamp > stored.timestamp) prev.set(name, stored);
      else {
        const p = this.prevNodes.get(name);
        if (p && p.timestamp < point.timestamp) prev.set(name, p);
      }
    }
    this.lastNodes = last;
    this.prevNodes = prev;
  }

  private storePods(batch: MetricsBatch): void {
    const lastPods = new Map<string, Map<string, MetricsPoint>>();
    const prevPods = new Map<string, Map<string, MetricsPoint>>();
    for (const [pod, containers] of batch.pods) {
      const last = new Map<string, MetricsPoint>();
      const prev = new Map<string, MetricsPoint>();
      for (const [name, c] of containers) {
        last.set(name, c);
        const sinceStart = c.timestamp - c.startTime;
        if (c.startTime < c.timestamp && sinceStart < this.resolutionMs && sinceStart >= FRESH_CONTAINER_MIN_MS) {
          prev.set(name, { ...c, timestamp: c.startTime, cumulativeCpuNanos: 0 });
          continue;
        }
        const stored = this.lastPods.get(pod)?.get(name);
        // Only a container that has not restarted since (start time before the stored point) keeps a previous point.
        if (!stored || !(c.startTime < stored.timestamp)) continue;
        if (c.timestamp > stored.timestamp) prev.set(name, stored);
        else {
          const p = this.prevPods.get(pod)?.get(name);
          if (p && p.timestamp < c.timestamp) prev.set(name, p);
        }
      }
      if (prev.size > 0) prevPods.set(pod, prev);
      lastPods.set(pod, last);
    }
    this.lastPods = lastPods;
    this.prevPods = prevPods;
  }

  nodeMetrics(name: string): { usage: Usage; time: TimeInfo } | null {
    const last = this.lastNodes.get(name);
    const prev = this.prevNodes.get(name);
    return last && prev ? resourceUsage(last, prev) : null;
  }

  /** A pod's containers' usage (in container-name order), with the earliest of their times; null unless every container has two points. */
  podMetrics(key: string): { containers: { name: string; usage: Usage }[]; time: TimeInfo } | null {
    const last = this.lastPods.get(key);
    const prev = this.prevPods.get(key);
    if (!last || !prev) return null;
    const containers: { name: string; usage: Usage }[] = [];
    let earliest: TimeInfo | null = null;
    for (const name of [...last.keys()].sort()) {
      const p = prev.get(name);
      if (!p) return null;
      const r = resourceUsage(last.get(name)!, p);
      if (!r) continue;
      containers.push({ name, usage: r.usage });
      if (!earliest || earliest.timestamp > r.time.timestamp) earliest = r.time;
    }
    return { containers, time: earliest ?? { timestamp: 0, windowMs: 0 } };
  }
}

registerClass('MetricsStorage', MetricsStorage);
