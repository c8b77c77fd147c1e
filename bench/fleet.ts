// Fleet figures of issue 5 (section G): nodes registered and Ready, simulated
// seconds per wall second of an idle cluster, and a 5,000-node, 150,000-pod
// cluster created and steady. Two kinds of "node", reported apart:
// - kubelet: a kubelet actor per node (engine/kubelet) that registers its Node,
//   renews its Lease every 10 s and computes its status every 10 s;
// - kwok: Node objects created through the API with kwok.x-k8s.io/node=fake, run
//   by the one kwok-controller (Lease every 10 s, status heartbeat every 10–20
//   minutes), as KWOK's own benchmark measures its nodes.
// Everything else is the whole control plane: 3-member etcd (Raft), kube-apiserver,
// kube-controller-manager (node lifecycle, ReplicaSet, Deployment, ...), kube-scheduler.
//
// `npm run bench -- fleet [--sizes 100,1000,5000] [--kinds kwok,kubelet] [--skip-pods] [--pods 150000] [--pod-nodes 5000] [--per-deployment 30]`
import { performance } from 'node:perf_hooks';
import { Engine } from '../engine/facade/engine';
import type { EngineOptions } from '../engine/facade/types';
import type { ApiServer } from '../engine/apiserver/server/apiserver';
import type { KObject } from '../engine/apimachinery/types';
import type { ApiRequest } from '../engine/apiserver/types';
import { ADMIN_TOKEN } from '../engine/apiserver/server/scenario';
import { drive, type Figure } from './apiserver';
import { liveHeapMiB } from './heap';

type Report = (f: Figure) => void;
type NodeKind = 'kubelet' | 'kwok';

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

/** Goals of issue 5: simulated s per wall s of an idle cluster, by node count. */
const IDLE_GOAL: Record<number, number> = { 100: 1000, 1000: 300, 5000: 100 };

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function apiserver(e: Engine): ApiServer {
  return e.sim.actor<ApiServer>('kube-apiserver-0')!;
}

/** Nodes whose Ready condition is True, as kube-apiserver's watch cache holds them (an observer's view, no request). */
export function readyNodes(e: Engine): number {
  const cache = apiserver(e)?.caches.get('/nodes');
  let n = 0;
  for (const node of cache?.store.values() ?? []) if ((node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) n++;
  return n;
}

/** The benchmark's pods Running and Ready (kube-system's add-ons, CoreDNS, not counted). */
function runningPods(e: Engine): number {
  const cache = apiserver(e)?.caches.get('/pods');
  let n = 0;
  for (const p of cache?.store.values() ?? []) {
    if (p.metadata.namespace === 'kube-system') continue;
    const st = p.status as { phase?: string; conditions?: { type: string; status: string }[] } | undefined;
    if (st?.phase === 'Running' && st.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) n++;
  }
  return n;
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
}

/** A fake node as `kwokctl scale node` makes one: no status of its own, kwok-controller initialises it. */
export function kwokNode(name: string): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', type: 'kwok' },
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: {},
    status: { allocatable: { cpu: '32', memory: '256Gi', pods: '110' }, capacity: { cpu: '32', memory: '256Gi', pods: '110' } },
  };
}

interface Fleet {
  e: Engine;
  /** Wall seconds from the engine's creation (kubelet) or the first Node POST (kwok) to all nodes Ready. */
  readyWall: number;
  readyCpu: number;
  readyVirtual: number;
}

/** Boots a cluster of `n` nodes of one kind and waits until all are Ready. */
function bootFleet(kind: NodeKind, n: number, seed = 1, extra: Partial<EngineOptions> = {}): Fleet {
  const t0 = performance.now();
  let c0 = process.cpuUsage();
  const e = Engine.create({ seed, etcdMembers: 3, controlPlane: true, nodes: kind === 'kubelet' ? n : 0, maxRequestsInflight: 10_000, maxMutatingRequestsInflight: 10_000, ...extra });
  let start = t0;
  let v0 = 0;
  if (kind === 'kwok') {
    for (let i = 0; i < 300 && !e.clusterReady(); i++) e.advance(100);
    start = performance.now();
    c0 = process.cpuUsage();
    v0 = e.sim.now;
    // The nodes come through the API as `kwokctl scale node` sends them (100 in flight).
    drive(e, n, 100, (i): ApiRequest => ({ method: 'POST', path: '/api/v1/nodes', query: {}, headers: auth, body: JSON.stringify(kwokNode(`kwok-node-${i}`)) }));
  }
  const deadline = e.sim.now + 30 * 60_000;
  while (readyNodes(e) < n && e.sim.now < deadline) e.advance(500);
  const readyWall = (performance.now() - start) / 1000;
  const readyCpu = cpuSeconds(c0);
  if (readyNodes(e) < n) console.log(`warning: only ${readyNodes(e)} of ${n} ${kind} nodes Ready after 30 virtual minutes`);
  return { e, readyWall, readyCpu, readyVirtual: (e.sim.now - v0) / 1000 };
}

/**
 * Simulated seconds per wall (and CPU) second over `seconds` of an idle cluster,
 * after a settling minute and a warm-up: windows of the same length are run until
 * one agrees with the one before within 10 % (at most 5), and the last is reported.
 * A small cluster's first windows are a fraction of a wall second, most of it V8
 * still compiling: 100 kwok nodes read 144×, 165×, 234× in three windows in a row.
 */
function idleRatio(e: Engine, seconds: number): { wall: number; cpu: number; events: number } {
  e.advance(60_000);
  const window = () => {
    const c0 = process.cpuUsage();
    const ev0 = e.sim.processed;
    const t0 = performance.now();
    e.advance(seconds * 1000);
    const wall = (performance.now() - t0) / 1000;
    return { wall: seconds / wall, cpu: seconds / cpuSeconds(c0), events: (e.sim.processed - ev0) / seconds };
  };
  let last = window();
  for (let i = 1; i < 5; i++) {
    const next = window();
    const steady = Math.abs(next.wall - last.wall) <= 0.1 * last.wall;
    last = next;
    if (steady) break;
  }
  return last;
}

/** Heap in use now, garbage included (progress lines; the reported figures are live heap, liveHeapMiB). */
function heapMiB(): number {
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

function nodesAndIdle(report: Report, kind: NodeKind, sizes: number[]): void {
  for (const n of sizes) {
    const f = bootFleet(kind, n);
    report({ name: `fleet: ${n.toLocaleString('en-US')} ${kind} nodes registered and Ready`, value: f.readyWall, unit: `wall s (${f.readyCpu.toFixed(1)} CPU s, ${f.readyVirtual.toFixed(0)} virtual s)`, ...(n === 5000 ? { goal: 5 } : {}) });
    const idle = idleRatio(f.e, n >= 5000 ? 30 : 60);
    report({ name: `fleet: idle ${n.toLocaleString('en-US')} ${kind} nodes, simulated s per wall s`, value: idle.wall, unit: `× (${idle.cpu.toFixed(0)}× per CPU s, ${idle.events.toFixed(0)} events per virtual s)`, goal: IDLE_GOAL[n] });
    report({ name: `fleet: live heap, ${n.toLocaleString('en-US')} ${kind} nodes idle`, value: liveHeapMiB(), unit: 'MiB' });
  }
}

/** A Deployment of `replicas` pause pods asking 10m CPU and 16Mi (they fit 110 a node). */
function deployment(namespace: string, name: string, replicas: number): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
      },
    },
  });
}

/**
 * The client limits upstream's 5,000-node scale jobs give the control plane
 * (CONTROLLER_MANAGER_TEST_ARGS=--kube-api-qps=100 --kube-api-burst=100,
 * SCHEDULER_TEST_ARGS=--kube-api-qps=100 with the default burst of 100): at the
 * defaults (20/30) kube-controller-manager creates pods at ~10 a second.
 */
const SCALE_TEST_CLIENTS: Partial<EngineOptions> = {
  controllerManagerKubeApi: { qps: 100, burst: 100 },
  schedulerConfig: 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nclientConnection:\n  qps: 100\n  burst: 100\n',
};

/**
 * The big cluster: `nodes` kwok nodes, then `pods` pods from Deployments of
 * `perDeployment` replicas (30: ClusterLoader2's "medium" deployment) spread over
 * one namespace per 100 nodes (ClusterLoader2's NODES_PER_NAMESPACE), created by
 * the ReplicaSet controller, scheduled by kube-scheduler, run by kwok-controller;
 * done when every pod is Running and Ready, then a steady half minute is timed.
 */
function bigCluster(report: Report, nodes: number, pods: number, perDeployment: number): void {
  const f = bootFleet('kwok', nodes, 2, SCALE_TEST_CLIENTS);
  const e = f.e;
  report({ name: `fleet: ${nodes.toLocaleString('en-US')} kwok nodes registered and Ready (big cluster)`, value: f.readyWall, unit: `wall s (${f.readyCpu.toFixed(1)} CPU s, ${f.readyVirtual.toFixed(0)} virtual s)` });
  const deployments = Math.ceil(pods / perDeployment);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const v0 = e.sim.now;
  const namespaces = Array.from({ length: Math.max(1, Math.ceil(nodes / 100)) }, (_, i) => `load-${i + 1}`);
  drive(e, namespaces.length, 10, (i): ApiRequest => ({ method: 'POST', path: '/api/v1/namespaces', query: {}, headers: auth, body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespaces[i] } }) }));
  // Pods need their namespace's default ServiceAccount, which kube-controller-manager makes.
  const sas = apiserver(e).caches.get('/serviceaccounts')!;
  while (!namespaces.every((ns) => sas.store.has(`/registry/serviceaccounts/${ns}/default`)) && e.sim.now < v0 + 120_000) e.advance(200);
  drive(e, deployments, 10, (i): ApiRequest => {
    const ns = namespaces[i % namespaces.length]!;
    return { method: 'POST', path: `/apis/apps/v1/namespaces/${ns}/deployments`, query: {}, headers: auth, body: deployment(ns, `d-${i}`, Math.min(perDeployment, pods - i * perDeployment)) };
  });
  const deadline = e.sim.now + 6 * 3600_000;
  let lastLog = performance.now();
  while (runningPods(e) < pods && e.sim.now < deadline) {
    e.advance(5000);
    if (performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      console.log(`  … ${runningPods(e).toLocaleString('en-US')} of ${pods.toLocaleString('en-US')} pods Running after ${((e.sim.now - v0) / 1000).toFixed(0)} virtual s, ${((performance.now() - t0) / 1000).toFixed(0)} wall s, heap ${heapMiB().toFixed(0)} MiB`);
    }
  }
  const wall = (performance.now() - t0) / 1000;
  const running = runningPods(e);
  if (running < pods) console.log(`warning: only ${running} of ${pods} pods Running after 6 virtual hours`);
  const label = `${nodes.toLocaleString('en-US')} nodes, ${pods.toLocaleString('en-US')} pods`;
  report({ name: `fleet: ${label}: all Running`, value: wall, unit: `wall s (${cpuSeconds(c0).toFixed(0)} CPU s, ${((e.sim.now - v0) / 1000).toFixed(0)} virtual s)` });
  const idle = idleRatio(e, 30);
  report({ name: `fleet: ${label}: steady, simulated s per wall s`, value: idle.wall, unit: `× (${idle.cpu.toFixed(0)}× per CPU s)` });
  globalThis.gc?.();
  report({ name: `fleet: ${label}: live heap`, value: liveHeapMiB(), unit: 'MiB' });
}

export function fleetBench(report: Report): void {
  const sizes = (flag('sizes') ?? '100,1000,5000').split(',').map(Number);
  const kinds = (flag('kinds') ?? 'kwok,kubelet').split(',') as NodeKind[];
  for (const kind of kinds) nodesAndIdle(report, kind, sizes);
  if (process.argv.includes('--skip-pods')) return;
  bigCluster(report, Number(flag('pod-nodes') ?? 5000), Number(flag('pods') ?? 150_000), Number(flag('per-deployment') ?? 30));
}
