import { describe, it, expect } from 'vitest';
import { decodeBatch } from './decode';
import { MetricsStorage, resourceUsage } from './storage';
import { goDurationString } from '../apimachinery/duration';

const T0 = 1_735_689_600_000;

/** A /metrics/resource body with one node and one container. */
function body(cpuSec: number, ts: number, startSec: number, memory = 1_048_576): string {
  return [
    '# HELP node_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the node in core-seconds',
    '# TYPE node_cpu_usage_seconds_total counter',
    `node_cpu_usage_seconds_total ${cpuSec * 2} ${ts}`,
    `node_memory_working_set_bytes 2.147483648e+09 ${ts}`,
    `container_start_time_seconds{container="app",namespace="default",pod="web"} ${startSec}`,
    `container_cpu_usage_seconds_total{container="app",namespace="default",pod="web"} ${cpuSec} ${ts}`,
    `container_memory_working_set_bytes{container="app",namespace="default",pod="web"} ${memory} ${ts}`,
    '',
  ].join('\n');
}

describe('metrics-server decode (decode.go)', () => {
  it('reads node and container points with their timestamps and start time', () => {
    const b = decodeBatch(body(1.5, T0 + 10_000, (T0 - 60_000) / 1000), T0, 'node-1');
    expect(b.nodes.get('node-1')).toEqual({ startTime: 0, timestamp: T0 + 10_000, cumulativeCpuNanos: 3_000_000_000, memoryBytes: 2_147_483_648 });
    expect(b.pods.get('default/web')!.get('app')).toEqual({ startTime: T0 - 60_000, timestamp: T0 + 10_000, cumulativeCpuNanos: 1_500_000_000, memoryBytes: 1_048_576 });
  });

  it('drops a pod whose container lacks memory, and a node without CPU', () => {
    const b = decodeBatch('node_memory_working_set_bytes 100 1\ncontainer_cpu_usage_seconds_total{container="a",namespace="n",pod="p"} 1 5\n', T0, 'n1');
    expect(b.nodes.size).toBe(0);
    expect(b.pods.size).toBe(0);
  });
});

describe('metrics-server storage (node.go, pod.go)', () => {
  it('needs two points; usage is the CPU rate over their window', () => {
    const s = new MetricsStorage(15_000);
    const start = (T0 - 600_000) / 1000;
    s.store(decodeBatch(body(10, T0, start), T0, 'node-1'));
    expect(s.ready).toBe(false);
    expect(s.nodeMetrics('node-1')).toBeNull();
    s.store(decodeBatch(body(13, T0 + 15_000, start), T0, 'node-1'));
    expect(s.ready).toBe(true);
    expect(s.podMetrics('default/web')).toEqual({ containers: [{ name: 'app', usage: { cpuNanos: 200_000_000, memoryBytes: 1_048_576 } }], time: { timestamp: T0 + 15_000, windowMs: 15_000 } });
    expect(s.nodeMetrics('node-1')!.usage.cpuNanos).toBe(400_000_000);
    // The same sample scraped again keeps the previous point (no zero window).
    s.store(decodeBatch(body(13, T0 + 15_000, start), T0, 'node-1'));
    expect(s.podMetrics('default/web')!.time.windowMs).toBe(15_000);
  });

  it('a fresh container gets a point at its start; a restarted one starts over', () => {
    const s = new MetricsStorage(15_000);
    // Started 12 s before its first sample: usage right away, from its start.
    s.store(decodeBatch(body(1.2, T0 + 12_000, T0 / 1000), T0, 'node-1'));
    expect(s.podMetrics('default/web')).toEqual({ containers: [{ name: 'app', usage: { cpuNanos: 100_000_000, memoryBytes: 1_048_576 } }], time: { timestamp: T0 + 12_000, windowMs: 12_000 } });
    // A restart after the stored point: no previous point until the next scrape.
    s.store(decodeBatch(body(0.1, T0 + 60_000, (T0 + 40_000) / 1000), T0, 'node-1'));
    expect(s.podMetrics('default/web')).toBeNull();
  });

  it('refuses counters that go backwards', () => {
    const p = { startTime: 0, timestamp: 2, cumulativeCpuNanos: 5, memoryBytes: 1 };
    expect(resourceUsage(p, { ...p, timestamp: 1, cumulativeCpuNanos: 9 })).toBeNull();
  });

  it('windows print as Go durations', () => {
    expect([goDurationString(15_000), goDurationString(14_989), goDurationString(60_000), goDurationString(500), goDurationString(3_725_500)]).toEqual(['15s', '14.989s', '1m0s', '500ms', '1h2m5.5s']);
  });
});
