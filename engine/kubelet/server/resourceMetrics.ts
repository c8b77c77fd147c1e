// GET /metrics/resource: the kubelet's resource metrics collector
// (pkg/kubelet/metrics/collectors/resource_metrics.go) over the latest
// cAdvisor samples: node, pod and container CPU (cumulative core-seconds) and
// working set, each with the timestamp of its sample, plus container start
// times. metrics-server scrapes this. v1.32 also registers `scrape_error`,
// deprecated in 1.29.0, which component-base hides from 1.30 on
// (shouldHide: deprecated before the current minor); `resource_scrape_error`
// replaces it. Swap metrics appear only where cAdvisor reports swap, which
// these nodes do not.
import { epochMs } from '../../apiserver/http/time';
import type { UsageMeter } from '../runtime/meter';
import { renderPrometheusText, type MetricFamily, type PromSample } from './prometheus';

const wall = (virtualMs: number) => epochMs() + virtualMs;

export function resourceMetricsText(meter: UsageMeter, now: number): string {
  meter.advance(now);
  const nodeCpu: PromSample[] = [];
  const nodeMem: PromSample[] = [];
  if (meter.nodeSample) {
    nodeCpu.push({ value: meter.nodeSample.cpuSeconds, timestampMs: wall(meter.nodeSample.at) });
    nodeMem.push({ value: meter.nodeSample.workingSetBytes, timestampMs: wall(meter.nodeSample.at) });
  }
  const cCpu: PromSample[] = [];
  const cMem: PromSample[] = [];
  const cStart: PromSample[] = [];
  const pCpu: PromSample[] = [];
  const pMem: PromSample[] = [];
  for (const p of meter.pods.values()) {
    const podLabels = { pod: p.name, namespace: p.namespace };
    for (const c of meter.containers.values()) {
      if (c.podUid !== p.uid || c.startedAt > now || c.stopAt <= now) continue;
      const labels = { container: c.name, ...podLabels };
      cStart.push({ labels, value: wall(c.startedAt) / 1000 });
      if (!c.sample) continue;
      cCpu.push({ labels, value: c.sample.cpuSeconds, timestampMs: wall(c.sample.at) });
      cMem.push({ labels, value: c.sample.workingSetBytes, timestampMs: wall(c.sample.at) });
    }
    if (!p.sample) continue;
    pCpu.push({ labels: podLabels, value: p.sample.cpuSeconds, timestampMs: wall(p.sample.at) });
    pMem.push({ labels: podLabels, value: p.sample.workingSetBytes, timestampMs: wall(p.sample.at) });
  }
  const families: MetricFamily[] = [
    { name: 'node_cpu_usage_seconds_total', help: '[STABLE] Cumulative cpu time consumed by the node in core-seconds', type: 'counter', samples: nodeCpu },
    { name: 'node_memory_working_set_bytes', help: '[STABLE] Current working set of the node in bytes', type: 'gauge', samples: nodeMem },
    { name: 'container_start_time_seconds', help: '[STABLE] Start time of the container since unix epoch in seconds', type: 'gauge', samples: cStart },
    { name: 'container_cpu_usage_seconds_total', help: '[STABLE] Cumulative cpu time consumed by the container in core-seconds', type: 'counter', samples: cCpu },
    { name: 'container_memory_working_set_bytes', help: '[STABLE] Current working set of the container in bytes', type: 'gauge', samples: cMem },
    { name: 'pod_cpu_usage_seconds_total', help: '[STABLE] Cumulative cpu time consumed by the pod in core-seconds', type: 'counter', samples: pCpu },
    { name: 'pod_memory_working_set_bytes', help: '[STABLE] Current working set of the pod in bytes', type: 'gauge', samples: pMem },
    { name: 'resource_scrape_error', help: '[STABLE] 1 if there was an error while getting container metrics, 0 otherwise', type: 'gauge', samples: [{ value: 0 }] },
  ];
  return renderPrometheusText(families);
}
