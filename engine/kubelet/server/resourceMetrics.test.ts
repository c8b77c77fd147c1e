import { describe, expect, it } from 'vitest';
import { UsageMeter } from '../runtime/meter';
import { resourceMetricsText } from './resourceMetrics';
import { renderPrometheusText } from './prometheus';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { API_CLIENT_KIND, type ApiClient, type ApiClientConfig } from '../../apiserver/client/apiClient';
import type { Engine } from '../../facade/engine';
import type { ApiResponse } from '../../apiserver/types';
import '../kubelet';

const MI = 1024 * 1024;
const still = (baseBytes: number, cpuMilli = 0) => ({ cpuMilli, memory: { baseBytes, allocBytes: 0, rateBytesPerSec: 0 } });

describe('Prometheus text', () => {
  it('sorts families and samples, sorts labels, formats values as Go does, drops empty families', () => {
    const text = renderPrometheusText([
      { name: 'zeta', help: 'last', type: 'gauge', samples: [{ value: 157286400 }] },
      { name: 'empty', help: 'none', type: 'gauge', samples: [] },
      {
        name: 'alpha_total',
        help: 'a "help" with \\ and\nnewline',
        type: 'counter',
        samples: [
          { labels: { pod: 'b', container: 'x' }, value: 0.00001, timestampMs: 1735689610000 },
          { labels: { pod: 'a', container: 'x' }, value: 40.384910049, timestampMs: 1735689600000 },
          { labels: { pod: 'a', container: 'w"q' }, value: 1, timestampMs: 1735689600000 },
        ],
      },
    ]);
    expect(text).toBe(
      [
        '# HELP alpha_total a "help" with \\\\ and\\nnewline',
        '# TYPE alpha_total counter',
        'alpha_total{container="w\\"q",pod="a"} 1 1735689600000',
        'alpha_total{container="x",pod="a"} 40.384910049 1735689600000',
        'alpha_total{container="x",pod="b"} 1e-05 1735689610000',
        '# HELP zeta last',
        '# TYPE zeta gauge',
        'zeta 1.572864e+08',
        '',
      ].join('\n'),
    );
  });

  it('renders the kubelet collector families with sample timestamps', () => {
    const m = new UsageMeter(4000, still(512 * MI, 40), 0);
    m.addPod('uid-1', 'web', 'default', still(320 * 1024), 1000);
    m.start({ id: 'c1', podUid: 'uid-1', name: 'nginx', startedAt: 1500, stopAt: Infinity, demand: still(4 * MI, 500), requestMilli: 100, limitMilli: 0 }, 1000);
    const text = resourceMetricsText(m, 21_600);
    expect(text).toBe(
      [
        '# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds',
        '# TYPE container_cpu_usage_seconds_total counter',
        'container_cpu_usage_seconds_total{container="nginx",namespace="default",pod="web"} 10 1735689621500',
        '# HELP container_memory_working_set_bytes [STABLE] Current working set of the container in bytes',
        '# TYPE container_memory_working_set_bytes gauge',
        'container_memory_working_set_bytes{container="nginx",namespace="default",pod="web"} 4.194304e+06 1735689621500',
        '# HELP container_start_time_seconds [STABLE] Start time of the container since unix epoch in seconds',
        '# TYPE container_start_time_seconds gauge',
        'container_start_time_seconds{container="nginx",namespace="default",pod="web"} 1.7356896015e+09',
        '# HELP node_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the node in core-seconds',
        '# TYPE node_cpu_usage_seconds_total counter',
        'node_cpu_usage_seconds_total 10.05 1735689620000',
        '# HELP node_memory_working_set_bytes [STABLE] Current working set of the node in bytes',
        '# TYPE node_memory_working_set_bytes gauge',
        'node_memory_working_set_bytes 5.41392896e+08 1735689620000',
        '# HELP pod_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the pod in core-seconds',
        '# TYPE pod_cpu_usage_seconds_total counter',
        'pod_cpu_usage_seconds_total{namespace="default",pod="web"} 9.75 1735689621000',
        '# HELP pod_memory_working_set_bytes [STABLE] Current working set of the pod in bytes',
        '# TYPE pod_memory_working_set_bytes gauge',
        'pod_memory_working_set_bytes{namespace="default",pod="web"} 4.521984e+06 1735689621000',
        '# HELP resource_scrape_error [STABLE] 1 if there was an error while getting container metrics, 0 otherwise',
        '# TYPE resource_scrape_error gauge',
        'resource_scrape_error 0',
        '',
      ].join('\n'),
    );
  });
});

// ---- end to end: the kubelet serves /metrics/resource on the simulated network ----

function withNode(seed: number): Engine {
  const e = controlPlane(seed);
  e.sim.spawn('node-1', 'kubelet', {
    server: 'kube-apiserver-0',
    nodeName: 'node-1',
    capacity: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' },
    podCIDR: '10.244.1.0/24',
    internalIP: '192.168.0.11',
    imageBandwidthBytesPerSec: 50_000_000,
  });
  e.sim.spawn('scraper', API_CLIENT_KIND, { server: 'node-1', timeoutMs: 10_000 } satisfies ApiClientConfig);
  runUntil(e, () => call(e, 'GET', '/api/v1/nodes/node-1').status === 200, 'node registered', 30_000);
  return e;
}

/** GET /metrics/resource from the `scraper` client actor, over the network. */
function scrape(e: Engine): ApiResponse {
  const client = e.sim.actor<ApiClient>('scraper')!;
  const id = client.call(e.sim.context('scraper'), { method: 'GET', path: '/metrics/resource', query: {}, headers: { accept: 'text/plain' } });
  for (let i = 0; i < 1000; i++) {
    const c = client.calls.get(id)!;
    if (c.response) return c.response;
    if (c.error) throw new Error(c.error);
    e.advance(1);
  }
  throw new Error('no answer');
}

/** Parses the samples of a Prometheus text body: `name{labels}` → [value, timestamp]. */
function samples(text: string): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^(\S+?(?:\{[^}]*\})?) (\S+)(?: (\d+))?$/.exec(line)!;
    out.set(m[1]!, [Number(m[2]), Number(m[3] ?? 0)]);
  }
  return out;
}

const post = (e: Engine, pod: unknown) => expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod).status).toBe(201);
const podBody = (name: string, container: Record<string, unknown>, annotations?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'app', ...container }] },
});
const status = (e: Engine, name: string) => call(e, 'GET', `/api/v1/namespaces/default/pods/${name}`).body.status;
const cpuRate = (a: Map<string, [number, number]>, b: Map<string, [number, number]>, key: string) => {
  const [v0, t0] = a.get(key)!;
  const [v1, t1] = b.get(key)!;
  return (v1 - v0) / ((t1 - t0) / 1000);
};

describe('GET /metrics/resource on the kubelet', () => {
  it('serves the docs exercises: vish/stress throttled at its limit, polinux/stress holding 150Mi', { timeout: 60_000 }, () => {
    const e = withNode(21);
    post(e, podBody('cpu-demo', { image: 'vish/stress', args: ['-cpus', '2'], resources: { limits: { cpu: '1' }, requests: { cpu: '500m' } } }));
    post(
      e,
      podBody('memory-demo', {
        image: 'polinux/stress',
        command: ['stress'],
        args: ['--vm', '1', '--vm-bytes', '150M', '--vm-hang', '1'],
        resources: { limits: { memory: '200Mi' }, requests: { memory: '100Mi' } },
      }),
    );
    runUntil(e, () => status(e, 'cpu-demo')?.phase === 'Running' && status(e, 'memory-demo')?.phase === 'Running', 'both Running', 60_000, 500);
    e.advance(20_000);
    const r = scrape(e);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const first = samples(r.body);
    e.advance(15_000);
    const second = samples(scrape(e).body);
    const cpuKey = 'container_cpu_usage_seconds_total{container="app",namespace="default",pod="cpu-demo"}';
    expect(cpuRate(first, second, cpuKey)).toBeCloseTo(1, 3);
    const podKey = 'pod_cpu_usage_seconds_total{namespace="default",pod="cpu-demo"}';
    expect(cpuRate(first, second, podKey)).toBeCloseTo(1, 2);
    const mem = second.get('container_memory_working_set_bytes{container="app",namespace="default",pod="memory-demo"}')![0];
    expect(mem).toBeGreaterThan(150 * MI);
    expect(mem).toBeLessThan(152 * MI);
    // The node: both pods and the system floor, sampled on its own 10 s ticks.
    const nodeCpu = cpuRate(first, second, 'node_cpu_usage_seconds_total');
    expect(nodeCpu).toBeGreaterThan(1.04);
    expect(nodeCpu).toBeLessThan(1.3);
    expect(second.get('node_memory_working_set_bytes')![0]).toBeGreaterThan(512 * MI + 150 * MI);
    expect(second.get('node_memory_working_set_bytes')![1] % 10_000).toBe(0);
    const start = second.get('container_start_time_seconds{container="app",namespace="default",pod="cpu-demo"}')![0];
    expect(Date.parse(status(e, 'cpu-demo').containerStatuses[0].state.running.startedAt) / 1000).toBe(Math.floor(start));
    expect(second.get('resource_scrape_error')![0]).toBe(0);
  });

  it('OOM-kills a container whose working set passes its memory limit (OOMKilled, 137)', { timeout: 60_000 }, () => {
    const e = withNode(22);
    post(
      e,
      podBody('memory-demo-2', {
        image: 'polinux/stress',
        command: ['stress'],
        args: ['--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'],
        resources: { limits: { memory: '100Mi' }, requests: { memory: '50Mi' } },
      }),
    );
    runUntil(e, () => (status(e, 'memory-demo-2')?.containerStatuses?.[0]?.restartCount ?? 0) >= 1, 'a restart', 60_000, 200);
    const cs = status(e, 'memory-demo-2').containerStatuses[0];
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
    runUntil(e, () => status(e, 'memory-demo-2').containerStatuses[0].state.waiting?.reason === 'CrashLoopBackOff', 'CrashLoopBackOff', 60_000, 200);
  });

  it('hpa-example burns what its pod annotation asks, throttled at its limit, and follows changes', { timeout: 60_000 }, () => {
    const e = withNode(23);
    post(e, podBody('php-apache', { image: 'registry.k8s.io/hpa-example', resources: { limits: { cpu: '500m' }, requests: { cpu: '200m' } } }, { 'kubeglass.io/cpu-load': '300m' }));
    runUntil(e, () => status(e, 'php-apache')?.phase === 'Running', 'Running', 60_000, 500);
    e.advance(15_000);
    const key = 'container_cpu_usage_seconds_total{container="app",namespace="default",pod="php-apache"}';
    const a = samples(scrape(e).body);
    e.advance(20_000);
    const b = samples(scrape(e).body);
    expect(cpuRate(a, b, key)).toBeCloseTo(0.301, 2);
    const patch = { metadata: { annotations: { 'kubeglass.io/cpu-load': '2' } } };
    expect(call(e, 'PATCH', '/api/v1/namespaces/default/pods/php-apache', patch, { headers: { 'content-type': 'application/merge-patch+json' } }).status).toBe(200);
    e.advance(15_000);
    const c = samples(scrape(e).body);
    e.advance(20_000);
    const d = samples(scrape(e).body);
    expect(cpuRate(c, d, key)).toBeCloseTo(0.5, 3);
  });

  it('answers 404 for paths it does not serve', () => {
    const e = withNode(24);
    const client = e.sim.actor<ApiClient>('scraper')!;
    const id = client.call(e.sim.context('scraper'), { method: 'GET', path: '/nope', query: {}, headers: {} });
    e.advance(100);
    expect(client.calls.get(id)!.response).toMatchObject({ status: 404, body: '404 page not found\n' });
  });
});
