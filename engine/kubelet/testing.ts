// Test helpers for the kubelet: a control plane with one kubelet node, pods
// posted through the API, and a client actor that talks to the kubelet's own
// HTTP server over the simulated network.
import { call, controlPlane } from '../apiserver/testing/harness';
import { API_CLIENT_KIND, type ApiClient, type ApiClientConfig } from '../apiserver/client/apiClient';
import type { ApiRequest, ApiResponse } from '../apiserver/types';
import { parseRfc3339 } from '../apiserver/http/time';
import type { Engine } from '../facade/engine';
import { runUntil } from '../scheduler/testing/cluster';
import type { Kubelet, KubeletConfig } from './kubelet';
import './kubelet';

export function nodeConfig(name: string, over: Partial<KubeletConfig> = {}): KubeletConfig {
  return {
    server: 'kube-apiserver-0',
    nodeName: name,
    capacity: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' },
    labels: {},
    podCIDR: '10.244.1.0/24',
    internalIP: '192.168.0.11',
    imageBandwidthBytesPerSec: 50_000_000,
    images: ['registry.k8s.io/pause:3.10'],
    ...over,
  };
}

/** A control plane on a one-member etcd (kubelet tests need no quorum) and `node-1`'s kubelet, registered. */
export function withNode(seed = 1, over: Partial<KubeletConfig> = {}, cp: Parameters<typeof controlPlane>[1] = {}): Engine {
  const e = controlPlane(seed, { etcdMembers: 1, ...cp });
  e.sim.spawn('node-1', 'kubelet', nodeConfig('node-1', over));
  runUntil(e, () => call(e, 'GET', '/api/v1/nodes/node-1').status === 200, 'node registered', 30_000);
  return e;
}

export const podOf = (name: string, containers: unknown[], spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', ...metadata },
  spec: { containers, ...spec },
});

export function createPod(e: Engine, pod: unknown): void {
  const r = call(e, 'POST', '/api/v1/namespaces/default/pods', pod);
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
}

export const getPod = (e: Engine, name: string) => call(e, 'GET', `/api/v1/namespaces/default/pods/${name}`);
export const statusOf = (e: Engine, name: string) => getPod(e, name).body?.status;
export const kubeletOf = (e: Engine, node = 'node-1') => e.sim.actor<Kubelet>(node)!;

/** The pod's events from the kubelet: "Reason: message", oldest first. */
export function kubeletEvents(e: Engine, name: string): string[] {
  const items = (call(e, 'GET', '/api/v1/namespaces/default/events').body.items ?? []) as {
    involvedObject: { name: string };
    source?: { component?: string };
    reason: string;
    message: string;
    lastTimestamp: string;
  }[];
  return items.filter((ev) => ev.involvedObject.name === name && ev.source?.component === 'kubelet').map((ev) => `${ev.reason}: ${ev.message}`);
}

/** Virtual ms of an RFC 3339 timestamp. */
export const at = (s: string) => parseRfc3339(s);

export function waitPhase(e: Engine, name: string, phase: string, ms = 60_000): void {
  runUntil(e, () => statusOf(e, name)?.phase === phase, `${name} ${phase}`, ms, 200);
}

/** An HTTP request to a kubelet's server from a client actor of its own. */
export function kubeletCall(e: Engine, node: string, request: Omit<ApiRequest, 'headers'> & { headers?: Record<string, string> }, ms = 120_000): ApiResponse & { chunks: string[] } {
  const id = `client-of-${node}`;
  if (!e.sim.has(id)) e.sim.spawn(id, API_CLIENT_KIND, { server: node, timeoutMs: ms } satisfies ApiClientConfig);
  const client = e.sim.actor<ApiClient>(id)!;
  const callId = client.call(e.sim.context(id), { headers: {}, ...request });
  for (let i = 0; i < ms; i += 10) {
    const c = client.calls.get(callId)!;
    if (c.error) throw new Error(c.error);
    if (c.response && (!c.streaming || c.ended)) return { ...c.response, chunks: c.chunks };
    e.advance(10);
  }
  throw new Error('no answer from the kubelet');
}
