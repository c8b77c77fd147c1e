// Work queue metrics, as client-go's util/workqueue/metrics.go, measured on
// virtual time: depth, adds, retries, queue latency (how long an item waited
// between Add and Get) and work duration (Get to Done), plus the unfinished
// work and longest-running processor gauges computed on demand.
import { registerClass } from '../../sim/serial';
import type { QueueKey } from './queue';

/** prometheus.ExponentialBuckets(10e-9, 10, 12): upper bounds in seconds, 1e-8 … 1e3. */
export const WORKQUEUE_BUCKETS_SECONDS: readonly number[] = Array.from({ length: 12 }, (_, i) => Number((1e-8 * 10 ** i).toPrecision(1)));

/** A Prometheus-style histogram (non-cumulative counts per bucket, +Inf last). */
export class Histogram {
  readonly bounds: number[];
  readonly counts: number[];
  count = 0;
  sum = 0;

  constructor(bounds: readonly number[] = WORKQUEUE_BUCKETS_SECONDS) {
    this.bounds = [...bounds];
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(v: number): void {
    let i = this.bounds.findIndex((b) => v <= b);
    if (i < 0) i = this.bounds.length;
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.count++;
    this.sum += v;
  }
}

/** One item's trip through the queue, for the UI (times in virtual ms). */
export interface QueueSample<T extends QueueKey> {
  item: T;
  addedAt: number;
  startedAt: number;
  doneAt: number | null;
}

/** How many recent samples are kept. */
export const QUEUE_SAMPLES = 64;

export class QueueMetrics<T extends QueueKey> {
  /** workqueue_depth */
  depth = 0;
  /** workqueue_adds_total */
  adds = 0;
  /** workqueue_retries_total (AddAfter calls, as upstream counts them) */
  retries = 0;
  /** workqueue_queue_duration_seconds */
  readonly latency = new Histogram();
  /** workqueue_work_duration_seconds */
  readonly workDuration = new Histogram();
  /** When each waiting item was first added (kept while it waits). */
  readonly addTimes = new Map<T, number>();
  /** When each item being processed was handed out. */
  readonly processingStartTimes = new Map<T, number>();
  /** The most recent items handed out, oldest first. */
  readonly samples: QueueSample<T>[] = [];

  constructor(readonly name: string) {}

  add(item: T, now: number): void {
    this.adds++;
    this.depth++;
    if (!this.addTimes.has(item)) this.addTimes.set(item, now);
  }

  get(item: T, now: number): void {
    this.depth--;
    this.processingStartTimes.set(item, now);
    const added = this.addTimes.get(item);
    if (added !== undefined) {
      this.latency.observe((now - added) / 1000);
      this.addTimes.delete(item);
    }
    this.samples.push({ item, addedAt: added ?? now, startedAt: now, doneAt: null });
    if (this.samples.length > QUEUE_SAMPLES) this.samples.shift();
  }

  done(item: T, now: number): void {
    const started = this.processingStartTimes.get(item);
    if (started === undefined) return;
    this.workDuration.observe((now - started) / 1000);
    this.processingStartTimes.delete(item);
    for (let i = this.samples.length - 1; i >= 0; i--) {
      const s = this.samples[i]!;
      if (s.item === item && s.doneAt === null) {
        s.doneAt = now;
        break;
      }
    }
  }

  retry(): void {
    this.retries++;
  }

  /** workqueue_unfinished_work_seconds: total age of the work in progress. */
  unfinishedWorkSeconds(now: number): number {
    let total = 0;
    for (const t of this.processingStartTimes.values()) total += (now - t) / 1000;
    return total;
  }

  /** workqueue_longest_running_processor_seconds */
  longestRunningProcessorSeconds(now: number): number {
    let oldest = 0;
    for (const t of this.processingStartTimes.values()) oldest = Math.max(oldest, (now - t) / 1000);
    return oldest;
  }
}

registerClass('WorkQueueHistogram', Histogram);
registerClass('WorkQueueMetrics', QueueMetrics);
