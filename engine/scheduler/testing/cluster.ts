// Scheduler tests on the whole simulated control plane: nodes created through
// the API with a status (as KWOK and kube-scheduler-simulator do), pods, and
// helpers that run the simulation until something is true.
import type { Engine } from '../../facade/engine';
import { call, controlPlane } from '../../apiserver/testing/harness';
import type { KubeScheduler } from '../scheduler';

export { call, controlPlane };

export interface FakeNode {
  name: string;
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
  images?: { names: string[]; sizeBytes: number }[];
  /** Managed by kwok-controller (annotation kwok.x-k8s.io/node=fake: heartbeats, pods run); default true. */
  kwok?: boolean;
}

export function nodeObject(n: FakeNode) {
  const allocatable = { cpu: n.cpu ?? '4', memory: n.memory ?? '32Gi', pods: n.pods ?? '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: n.name,
      labels: { 'kubernetes.io/hostname': n.name, 'kubernetes.io/os': 'linux', ...n.labels },
      ...(n.kwok === false ? {} : { annotations: { 'kwok.x-k8s.io/node': 'fake' } }),
    },
    spec: { ...(n.taints ? { taints: n.taints } : {}) },
    status: {
      capacity: allocatable,
      allocatable,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
      ...(n.images ? { images: n.images } : {}),
    },
  };
}

export function createNode(e: Engine, n: FakeNode): void {
  const r = call(e, 'POST', '/api/v1/nodes', nodeObject(n));
  if (r.status !== 201) throw new Error(`creating node ${n.name}: ${r.status} ${r.text}`);
}

export interface FakePod {
  name: string;
  namespace?: string;
  cpu?: string;
  memory?: string;
  labels?: Record<string, string>;
  priorityClassName?: string;
  spec?: Record<string, unknown>;
}

export function podObject(p: FakePod) {
  const requests: Record<string, string> = {};
  if (p.cpu) requests.cpu = p.cpu;
  if (p.memory) requests.memory = p.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: p.name, namespace: p.namespace ?? 'default', ...(p.labels ? { labels: p.labels } : {}) },
    spec: {
      containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', ...(Object.keys(requests).length ? { resources: { requests } } : {}) }],
      ...(p.priorityClassName ? { priorityClassName: p.priorityClassName } : {}),
      ...p.spec,
    },
  };
}

export function createPod(e: Engine, p: FakePod): void {
  const r = call(e, 'POST', `/api/v1/namespaces/${p.namespace ?? 'default'}/pods`, podObject(p));
  if (r.status !== 201) throw new Error(`creating pod ${p.name}: ${r.status} ${r.text}`);
}

export function getPod(e: Engine, name: string, ns = 'default'): any {
  return call(e, 'GET', `/api/v1/namespaces/${ns}/pods/${name}`).body;
}

/** Advances virtual time in steps until `cond` holds; throws with `what` if it never does. */
export function runUntil(e: Engine, cond: () => boolean, what: string, maxMs = 120_000, stepMs = 100): void {
  for (let t = 0; t <= maxMs; t += stepMs) {
    if (cond()) return;
    e.advance(stepMs);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export function scheduler(e: Engine, i = 0): KubeScheduler {
  const s = e.sim.actor<KubeScheduler>(`kube-scheduler-${i}`);
  if (!s) throw new Error(`kube-scheduler-${i} is not running`);
  return s;
}

/** The pod's node, once bound. */
export function nodeOf(e: Engine, name: string, ns = 'default'): string | undefined {
  return getPod(e, name, ns)?.spec?.nodeName;
}
