// kube-scheduler figures on upstream scheduler_perf's shapes
// (test/integration/scheduler_perf/misc/performance-config.yaml and
// affinity/performance-config.yaml): pods scheduled per wall second by the
// default profile, measured on the scheduling algorithm itself (cache, every
// default plugin, percentageOfNodesToScore, assume) — and end to end through
// the simulated API server and etcd for a smaller cluster.
import { performance } from 'node:perf_hooks';
import type { Node, Pod } from '../engine/scheduler/framework/api';
import { DirectScheduler } from '../engine/scheduler/testing/direct';
import { controlPlane, createNode, podObject } from '../engine/scheduler/testing/cluster';
import { ADMIN_TOKEN } from '../engine/apiserver/server/scenario';
import type { KubeScheduler } from '../engine/scheduler/scheduler';
import { drive, type Figure } from './apiserver';

function node(i: number, labels: Record<string, string> = {}): Node {
  const allocatable = { cpu: '4', memory: '32Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `node-${i}`, uid: `node-uid-${i}`, labels: { 'kubernetes.io/hostname': `node-${i}`, ...labels } },
    spec: {},
    status: { capacity: allocatable, allocatable, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** scheduler_perf's pod-default.yaml: one pause container asking 100m cpu and 500Mi memory. */
function pod(name: string, extra: Partial<Pod['spec']> = {}, labels?: Record<string, string>): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, ...(labels ? { labels } : {}), creationTimestamp: '2025-01-01T00:00:00Z' },
    spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '500Mi' } } }], ...extra },
    status: { phase: 'Pending' },
  };
}

function measure(s: DirectScheduler, pods: Pod[]): { podsPerSecond: number; failed: number } {
  let failed = 0;
  const start = performance.now();
  for (const p of pods) if (s.schedule(p).outcome !== 'Scheduled') failed++;
  const secs = (performance.now() - start) / 1000;
  return { podsPerSecond: pods.length / secs, failed };
}

function basic(nodes: number, initPods: number, measurePods: number): { podsPerSecond: number; failed: number } {
  const s = new DirectScheduler(1);
  for (let i = 0; i < nodes; i++) s.addNode(node(i));
  for (let i = 0; i < initPods; i++) s.schedule(pod(`init-${i}`));
  return measure(s, Array.from({ length: measurePods }, (_, i) => pod(`measure-${i}`)));
}

/** PodAntiAffinity: every pod refuses to share a node with another "color: green" pod. */
function antiAffinity(nodes: number, initPods: number, measurePods: number) {
  const s = new DirectScheduler(2);
  for (let i = 0; i < nodes; i++) s.addNode(node(i));
  const spec = {
    affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { color: 'green' } }, topologyKey: 'kubernetes.io/hostname' }] } },
  };
  for (let i = 0; i < initPods; i++) s.schedule(pod(`init-${i}`, spec, { color: 'green' }));
  return measure(s, Array.from({ length: measurePods }, (_, i) => pod(`measure-${i}`, spec, { color: 'green' })));
}

/** NodeAffinity: pods require zone1; half the nodes are in it. */
function nodeAffinity(nodes: number, initPods: number, measurePods: number) {
  const s = new DirectScheduler(3);
  for (let i = 0; i < nodes; i++) s.addNode(node(i, { 'topology.kubernetes.io/zone': i % 2 === 0 ? 'zone1' : 'zone2' }));
  const spec = {
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In' as const, values: ['zone1'] }] }] } } },
  };
  for (let i = 0; i < initPods; i++) s.schedule(pod(`init-${i}`, spec));
  return measure(s, Array.from({ length: measurePods }, (_, i) => pod(`measure-${i}`, spec)));
}

/**
 * End to end: pods created through the API (50 requests in flight at a time),
 * bound by kube-scheduler-0 through pods/binding, on the 3-member Raft etcd —
 * wall time from the first create to the last binding.
 */
function endToEnd(nodes: number, pods: number): number {
  const e = controlPlane(5);
  for (let i = 0; i < nodes; i++) createNode(e, { name: `node-${i}` });
  e.advance(2000);
  const start = performance.now();
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  drive(e, pods, 50, (i) => ({ method: 'POST', path: '/api/v1/namespaces/default/pods', query: {}, headers: auth, body: JSON.stringify(podObject({ name: `p-${i}`, cpu: '100m', memory: '500Mi' })) }));
  const s = e.sim.actor<KubeScheduler>('kube-scheduler-0')!;
  for (let t = 0; t < 600_000 && s.stats.bindings < pods; t += 20) e.advance(20);
  if (s.stats.bindings < pods) console.log(`warning: only ${s.stats.bindings} of ${pods} pods bound`);
  return pods / ((performance.now() - start) / 1000);
}

export function schedulerBench(report: (f: Figure) => void): void {
  // Warm up the JIT on a small cluster first, as a long-running scheduler is.
  basic(500, 500, 2000);
  for (const n of [500, 5000, 15000]) {
    const r = basic(n, 1000, n === 15000 ? 5000 : 10000);
    report({ name: `scheduler: SchedulingBasic ${n} nodes`, value: r.podsPerSecond, unit: 'pods/s', ...(n === 5000 ? { goal: 2000 } : {}) });
    if (r.failed) console.log(`warning: ${r.failed} pods did not schedule`);
  }
  const aa = antiAffinity(5000, 1000, 1000);
  report({ name: 'scheduler: PodAntiAffinity 5000 nodes', value: aa.podsPerSecond, unit: 'pods/s', goal: 60 });
  const na = nodeAffinity(5000, 1000, 5000);
  report({ name: 'scheduler: NodeAffinity 5000 nodes', value: na.podsPerSecond, unit: 'pods/s', goal: 220 });
  report({ name: 'scheduler: end to end via API+etcd, 100 nodes', value: endToEnd(100, 2000), unit: 'pods/s' });
  report({ name: 'scheduler: heap after the runs', value: process.memoryUsage().heapUsed / 1024 / 1024, unit: 'MiB' });
}
