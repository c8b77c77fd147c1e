// What metrics-server reads from a kubelet's GET /metrics/resource
// (sigs.k8s.io/metrics-server pkg/scraper/client/resource/decode.go, v0.7):
// the node's cumulative CPU and working set, and each container's, with the
// samples' timestamps (ms) and the containers' start times. A node or a pod
// whose metrics are incomplete (zero CPU or memory) is dropped, as upstream drops it.

/** storage.MetricsPoint: times in ms since the Unix epoch, CPU in nanocore-seconds. */
export interface MetricsPoint {
  startTime: number;
  timestamp: number;
  cumulativeCpuNanos: number;
  memoryBytes: number;
}

export interface MetricsBatch {
  nodes: Map<string, MetricsPoint>;
  /** "namespace/name" → container name → point. */
  pods: Map<string, Map<string, MetricsPoint>>;
}

const empty = (): MetricsPoint => ({ startTime: 0, timestamp: 0, cumulativeCpuNanos: 0, memoryBytes: 0 });

/** One series line: name, labels, value, timestamp (ms, or the scrape's time when absent). */
function parseLine(line: string, defaultTs: number): { name: string; labels: Record<string, string>; value: number; ts: number } | null {
  const brace = line.indexOf('{');
  const space = line.indexOf(' ');
  let name: string;
  const labels: Record<string, string> = {};
  let rest: string;
  if (brace >= 0 && (space < 0 || brace < space)) {
    name = line.slice(0, brace);
    const close = line.indexOf('}', brace);
    if (close < 0) return null;
    const body = line.slice(brace + 1, close);
    for (const m of body.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = line.slice(close + 1).trim();
  } else {
    if (space < 0) return null;
    name = line.slice(0, space);
    rest = line.slice(space + 1).trim();
  }
  const [v, t] = rest.split(/\s+/);
  const value = Number(v);
  if (!Number.isFinite(value)) return null;
  return { name, labels, value, ts: t !== undefined ? Number(t) : defaultTs };
}

export function decodeBatch(text: string, defaultTs: number, nodeName: string): MetricsBatch {
  const batch: MetricsBatch = { nodes: new Map(), pods: new Map() };
  const node = empty();
  const pods = new Map<string, Map<string, MetricsPoint>>();
  const container = (l: Record<string, string>): MetricsPoint => {
    const key = `${l.namespace ?? ''}/${l.pod ?? ''}`;
    let p = pods.get(key);
    if (!p) pods.set(key, (p = new Map()));
    let c = p.get(l.container ?? '');
    if (!c) p.set(l.container ?? '', (c = empty()));
    return c;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const s = parseLine(line, defaultTs);
    if (!s) continue;
    switch (s.name) {
      case 'node_cpu_usage_seconds_total':
        node.cumulativeCpuNanos = Math.floor(s.value * 1e9);
        node.timestamp = s.ts;
        break;
      case 'node_memory_working_set_bytes':
        node.memoryBytes = Math.floor(s.value);
        node.timestamp = s.ts;
        break;
      case 'container_cpu_usage_seconds_total': {
        const c = container(s.labels);
        c.cumulativeCpuNanos = Math.floor(s.value * 1e9);
        c.timestamp = s.ts;
        break;
      }
      case 'container_memory_working_set_bytes': {
        const c = container(s.labels);
        c.memoryBytes = Math.floor(s.value);
        c.timestamp = s.ts;
        break;
      }
      case 'container_start_time_seconds':
        container(s.labels).startTime = Math.round(s.value * 1000);
        break;
      default:
        break;
    }
  }
  if (node.timestamp !== 0 && node.cumulativeCpuNanos !== 0 && node.memoryBytes !== 0) batch.nodes.set(nodeName, node);
  for (const [key, containers] of pods) {
    // checkContainerMetrics: a container seen at all must have both CPU and memory, or the pod is dropped.
    let ok = true;
    const kept = new Map<string, MetricsPoint>();
    for (const [name, c] of containers) {
      if (c.timestamp === 0 && c.cumulativeCpuNanos === 0 && c.memoryBytes === 0 && c.startTime === 0) continue;
      if (c.cumulativeCpuNanos === 0 || c.memoryBytes === 0) {
        ok = false;
        break;
      }
      kept.set(name, c);
    }
    if (ok && containers.size > 0) batch.pods.set(key, kept);
  }
  return batch;
}
